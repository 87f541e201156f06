// Puzzles: a verified puzzle near the player's rating, solved on the same
// table as Play (clicks, drags, drops, exchanges, the promotion picker).
// As on lichess, a puzzle opens one move early: the board shows the
// position before the opponent's last move of the game (the puzzle's
// leadInFen), that move (leadIn) is played with its animation and sound and
// listed first in the move list, then the player solves. The opponent's
// replies are played for the player; a wrong move ends the
// attempt. The package decides everything: which puzzle (Puzzles.next),
// whether a move is right (Puzzles.accepts) and how both ratings move
// (Puzzles.update, Glicko-2). The app keeps the player's rating, the ids
// seen and the puzzles' updated ratings in localStorage, with the rating's
// history (drawn as a small chart) and the current and best streaks.
// The task is said plainly (Mate in 2, Win material); a hint marks the man
// to move (and counts as a miss); after a miss the wrong move can be taken
// back and the puzzle tried again (the rating changed once, at the miss).
// A theme can be chosen: the package still picks the puzzle, among those of
// that theme (the others are passed to Puzzles.next as seen).
// A logged-in player's rating, seen puzzles and history are the account's
// (docs/protocol.md, Puzzles of an account): read from the server when the
// page opens or the player logs in, and each attempt is sent to it, which
// rates it (the first attempt at a puzzle only) and stores it; nothing of
// the account's is written to this browser's storage. If the server
// refuses or cannot be reached, the page says so.
import { account, accountError, onAccount, request } from './account.js';
import { announce, moveWords } from './announce.js';
import { Game, statusText } from './game.js';
import { MoveList } from './movelist.js';
import { COLOR_NAME } from './pieces.js';
import { loadPuzzles } from './pkg.js';
import { play as playSound, soundFor } from './sound.js';
import { Table } from './table.js';

/** The package's theme names in words. */
export const THEME_WORDS = {
  mateIn1: 'Mate in 1', mateIn2: 'Mate in 2', mateIn3: 'Mate in 3', mateIn4: 'Mate in 4', mateIn5: 'Mate in 5 or more',
  fork: 'Fork', pin: 'Pin', hangingPiece: 'Hanging piece', sacrifice: 'Sacrifice',
  dropMate: 'Mate by a drop', exchangeMate: 'Mate by an exchange', rescue: 'Rescue from prison',
  airfieldDrop: 'Drop from the airfield', promotionSwap: 'Promotion by swap', frozenPawn: 'Frozen pawn',
  pseudoCheck: 'Pseudo-check', revivedCastling: 'Castling revived',
};
const themeWords = (t) => THEME_WORDS[t] ?? t.replace(/([A-Z])/g, ' $1').toLowerCase();

/** The task in plain words: "Mate in 2", "Win material", "Find the winning move". */
export function taskText(p) {
  const solverMoves = Math.ceil(p.moves.length / 2);
  if (p.mate) return `Mate in ${solverMoves}`;
  if (p.themes.some((t) => ['fork', 'pin', 'hangingPiece', 'sacrifice', 'rescue'].includes(t))) return 'Win material';
  return 'Find the winning move';
}

const KEY = 'hostage.puzzles.v1';
const REPLY_MS = 450;
/** How long the position before the lead-in move is shown before it is played. */
const LEAD_MS = 700;
const STEP_MS = 900;
const DIFFICULTIES = [
  ['easiest', 'Easiest (−600)'],
  ['easier', 'Easier (−300)'],
  ['normal', 'Normal'],
  ['harder', 'Harder (+300)'],
  ['hardest', 'Hardest (+600)'],
];

function comingSoon(root) {
  root.innerHTML = `
    <h1 class="visually-hidden">Puzzles</h1>
    <div class="card coming-soon">
      <h2>Puzzles are coming soon</h2>
      <p>Puzzles that adapt to your level will appear here once the
      <code>hostage-chess</code> package ships its puzzle API
      (<code>Puzzles</code>). Meanwhile, the <a href="#/learn">course</a>
      has a task on the board for every rule.</p>
    </div>`;
  return {};
}

/** The stored state: { rating, seen: id[], puzzles: { id: Rating }, difficulty, current: id | null }. */
function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (s && typeof s.rating?.rating === 'number' && Array.isArray(s.seen) && s.puzzles && typeof s.puzzles === 'object') {
      return { difficulty: 'normal', current: null, ...s };
    }
  } catch { /* a damaged entry starts afresh */ }
  return { rating: Puzzles.newRating(), seen: [], puzzles: {}, difficulty: 'normal', current: null };
}

/** The rating history as a small SVG line chart (the last 40 attempts). */
function chart(history) {
  const pts = history.slice(-40);
  if (pts.length < 2) return '<p class="chart-empty">Your rating history appears here after two puzzles.</p>';
  const lo = Math.min(...pts) - 10;
  const hi = Math.max(...pts) + 10;
  const w = 300;
  const h = 70;
  const xy = pts.map((r, i) => `${((i / (pts.length - 1)) * w).toFixed(1)},${(h - ((r - lo) / (hi - lo)) * h).toFixed(1)}`);
  return `<svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" aria-label="Rating history: from ${Math.round(pts[0])} to ${Math.round(pts.at(-1))} over ${pts.length - 1} puzzles"><polyline points="${xy.join(' ')}" fill="none" stroke="currentColor" stroke-width="2" vector-effect="non-scaling-stroke"/></svg>`;
}

const ratingText = (r) => `${Math.round(r.rating)}${r.deviation >= 110 ? '?' : ''}`;

// The package's Puzzles, set by mount (the puzzles entry is loaded when this
// mode is first opened).
let Puzzles = null;

export async function mount(root) {
  ({ Puzzles } = await loadPuzzles());
  if (!Puzzles) return comingSoon(root);
  root.innerHTML = `
    <h1 class="visually-hidden">Puzzles</h1>
    <div class="layout">
      <div class="table-slot"></div>
      <aside class="side">
        <section class="card puzzle-card" aria-labelledby="puzzle-title">
          <h2 id="puzzle-title" class="puzzle-title">Puzzle</h2>
          <p class="puzzle-rating"><span class="label">Your puzzle rating</span>
            <strong class="player-rating" aria-live="polite"></strong>
            <span class="delta" aria-hidden="true"></span></p>
          <p class="puzzle-task"></p>
          <p class="status puzzle-status" role="status" aria-live="polite"></p>
          <p class="puzzle-themes" hidden></p>
          <div class="actions">
            <button type="button" data-act="hint">Hint</button>
            <button type="button" data-act="retry" hidden>Retry</button>
            <button type="button" data-act="solution">Show solution</button>
            <button type="button" class="primary" data-act="next">Next puzzle</button>
          </div>
          <p class="streak"></p>
          <p class="error puzzle-error" role="alert" hidden></p>
          <p class="puzzle-source"></p>
        </section>
        <section class="card puzzle-settings">
          <label>Difficulty
            <select class="difficulty">${DIFFICULTIES.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
          </label>
          <label>Theme
            <select class="theme-choice"><option value="">Any theme</option></select>
          </label>
          <p class="puzzle-count"></p>
        </section>
        <section class="card puzzle-history" aria-labelledby="history-title">
          <h2 id="history-title">Your rating</h2>
          <div class="chart"></div>
        </section>
      </aside>
    </div>`;
  const $ = (s) => root.querySelector(s);
  let state = load();
  // The account whose rating the page shows (its username), or null: the
  // guest's state in localStorage.
  let remote = null;
  // The attempt: { puzzle, index (next move of the solution), lead (the
  // lead-in move or null), solver, result: null | 'solved' | 'failed',
  // solution: bool }. The game holds the lead-in move first when there is one.
  let attempt = null;
  let game = null;
  let timer = null;
  // The lead-in move or the opponent's reply waiting on the timer: a move the
  // puzzle needs, so a jump in the move list plays it at once rather than
  // dropping it.
  let pending = null;

  const table = new Table({ onMove: (m) => userMove(m) });
  const moves = new MoveList({
    onSelect: (ply) => {
      if (!game) return;
      const due = pending;
      stopTimer();
      due?.();
      game.seek(ply);
      render();
    },
    pgnTags: () => ({ Event: `Hostage Chess puzzle ${attempt?.puzzle.id ?? ''}`.trim() }),
  });
  $('.table-slot').append(table.el);
  $('.puzzle-card').insertBefore(moves.el, $('.actions'));
  $('.difficulty').value = state.difficulty;
  const allThemes = [...new Set(Puzzles.all().flatMap((p) => p.themes))].sort((a, b) => themeWords(a).localeCompare(themeWords(b)));
  $('.theme-choice').insertAdjacentHTML('beforeend', allThemes.map((t) => `<option value="${t}">${themeWords(t)}</option>`).join(''));
  $('.theme-choice').value = allThemes.includes(state.theme) ? state.theme : '';

  const save = () => {
    if (!remote) {
      localStorage.setItem(KEY, JSON.stringify(state));
      return;
    }
    // An account's rating stays on the server: only the choices are kept here.
    const guest = load();
    localStorage.setItem(KEY, JSON.stringify({ ...guest, difficulty: state.difficulty, theme: state.theme }));
  };

  /** Says where the rating is kept, or (`failed`) that the server failed: this stays until the next answer. */
  function source(text, failed = false) {
    const el = $('.puzzle-source');
    el.textContent = text;
    el.classList.toggle('error', failed);
    if (failed) el.setAttribute('role', 'alert');
    else el.removeAttribute('role');
  }

  /** The account's standing from the server, or the guest's from this browser. */
  async function loadStanding(username) {
    if (!username) {
      remote = null;
      state = load();
      source('Your puzzle rating is kept in this browser. Log in to keep it with your account.');
      return;
    }
    const r = await request('GET', '/api/account/puzzles');
    if (account() !== username) return;
    const d = r.data;
    if (!r.ok || typeof d.rating?.rating !== 'number' || !Array.isArray(d.seen) || !Array.isArray(d.history)) {
      remote = null;
      state = load();
      source(`Your account's puzzle rating could not be loaded: ${accountError(r)} Until it can, puzzles here are rated in this browser only.`, true);
      return;
    }
    remote = username;
    const guest = load();
    const history = r.data.history.map((h) => h.rating);
    state = {
      rating: r.data.rating,
      seen: r.data.seen,
      puzzles: {},
      history: history.length < 200 ? [1500, ...history] : history,
      difficulty: guest.difficulty,
      theme: guest.theme,
      current: null,
      streak: 0,
      bestStreak: 0,
    };
    error('');
    source(`Your puzzle rating is kept with your account, ${username}.`);
  }

  /** Sends a finished attempt to the account: the server's rating replaces the shown one. */
  async function sendAttempt(p, solved, before) {
    const username = remote;
    const r = await request('POST', '/api/account/puzzles/attempts', { id: p.id, solved });
    if (remote !== username) return;
    if (!r.ok || typeof r.data.rating?.rating !== 'number') {
      const why = r.data.code === 'unknown_puzzle'
        ? 'the server does not know this puzzle.'
        : r.data.code === 'attempt_limit' ? 'this puzzle has been tried too often.' : accountError(r);
      error(`This attempt was not saved to your account: ${why}`);
      source(`Your last attempt was not saved to your account: ${why}`, true);
      root.dataset.saved = 'failed';
      render();
      return;
    }
    state.rating = r.data.rating;
    if (r.data.rated) state.history = [...(state.history ?? [before]), r.data.rating.rating].slice(-200);
    root.dataset.saved = 'saved';
    source(`Your puzzle rating is kept with your account, ${username}.`);
    showDelta(r.data.rating.rating - before);
    render();
  }
  const stopTimer = () => { clearTimeout(timer); timer = null; pending = null; };
  /** Plays `move` (a move the puzzle needs) after `ms`, unless the attempt changes first. */
  function later(ms, move) {
    pending = () => { timer = null; pending = null; move(); };
    timer = setTimeout(pending, ms);
  }
  /** The other side. */
  const other = (c) => (c === 'w' ? 'b' : 'w');

  function status(text, kind = '') {
    const el = $('.puzzle-status');
    el.textContent = text;
    el.dataset.result = kind;
  }

  function error(text) {
    const el = $('.puzzle-error');
    el.hidden = !text;
    el.textContent = text;
    el.dataset.kind = 'error';
  }

  /** A move played on the puzzle's board: its sound, and its words for screen readers. */
  function heard(m) {
    playSound(soundFor(m, game.board));
    announce(moveWords(m));
  }

  /** Replaces the game; the old one's package objects are freed once the table shows the new one. */
  function replaceGame(g) {
    const old = game;
    game = g;
    return () => { if (old && old !== game) old.free(); };
  }

  function puzzleRating(p) {
    return state.puzzles[p.id] ?? { rating: p.rating, deviation: p.deviation, volatility: 0.09 };
  }

  function start(puzzle) {
    stopTimer();
    error('');
    attempt = { puzzle, index: 0, result: null, solution: false, hinted: false, missed: false };
    root.querySelector('.hinted')?.classList.remove('hinted');
    delete root.dataset.hint;
    state.current = puzzle.id;
    save();
    // The lead-in: the opponent's move that led to the puzzle, when the
    // set records it; the board opens on the position before it.
    attempt.lead = puzzle.leadIn && puzzle.leadInFen ? puzzle.leadIn : null;
    const freeOld = replaceGame(new Game(attempt.lead ? puzzle.leadInFen : puzzle.fen));
    const solver = attempt.lead ? other(game.board.turn()) : game.board.turn();
    attempt.solver = solver;
    // The solver plays from the bottom.
    table.setFlipped(solver === 'b');
    $('.delta').textContent = '';
    $('.puzzle-themes').hidden = true;
    $('.puzzle-task').textContent = `${taskText(puzzle)}: ${COLOR_NAME[solver]} to play.`;
    const toPlay = `${COLOR_NAME[solver]} to play and win.`;
    status(attempt.lead ? `${COLOR_NAME[other(solver)]} is moving…` : toPlay);
    render();
    freeOld();
    if (attempt.lead) {
      later(LEAD_MS, () => {
        const played = game.push(attempt.lead);
        heard(played);
        status(`${COLOR_NAME[other(solver)]} played ${played.san}. ${toPlay}`);
        render();
      });
    }
  }

  function next() {
    const difficulty = $('.difficulty').value;
    state.difficulty = difficulty;
    const theme = $('.theme-choice').value;
    state.theme = theme;
    try {
      // A chosen theme: the puzzles without it count as seen, so the
      // package's choice (rating, difficulty) is made among the others.
      const seen = theme ? [...state.seen, ...Puzzles.all().filter((x) => !x.themes.includes(theme)).map((x) => x.id)] : state.seen;
      const p = Puzzles.next(state.rating.rating, { difficulty, seen, seed: state.seen.length });
      if (!p) {
        attempt = null;
        status(theme ? `You have tried every puzzle of the theme “${themeWords(theme)}”. Choose another theme.` : 'You have seen every puzzle. Well done!');
        save();
        render();
        return;
      }
      start(p);
    } catch (e) {
      error('No puzzle could be chosen. Reload the page to try again.');
    }
  }

  /** Records the attempt once: both ratings move (the package's Glicko-2). */
  function finish(solved) {
    if (!attempt || attempt.result || attempt.rated) return;
    attempt.rated = true;
    const p = attempt.puzzle;
    attempt.result = solved ? 'solved' : 'failed';
    const before = state.rating.rating;
    state.current = null;
    state.streak = solved ? (state.streak ?? 0) + 1 : 0;
    state.bestStreak = Math.max(state.bestStreak ?? 0, state.streak);
    if (remote) {
      // The server rates it (and only the first attempt at a puzzle).
      if (!state.seen.includes(p.id)) state.seen.push(p.id);
      root.dataset.saved = 'sending';
      save();
      showThemes();
      sendAttempt(p, solved, before);
      return;
    }
    const { player, puzzle } = Puzzles.update(state.rating, puzzleRating(p), solved);
    state.rating = player;
    state.puzzles[p.id] = puzzle;
    if (!state.seen.includes(p.id)) state.seen.push(p.id);
    state.history = [...(state.history ?? [before]), player.rating].slice(-200);
    save();
    showDelta(player.rating - before);
    showThemes();
  }

  /** The rating's change, shown beside it. */
  function showDelta(change) {
    const delta = Math.round(change);
    const d = $('.delta');
    d.textContent = `${delta >= 0 ? '+' : '−'}${Math.abs(delta)}`;
    d.dataset.sign = delta >= 0 ? 'up' : 'down';
    root.dataset.lastDelta = String(change);
  }

  function showThemes() {
    const el = $('.puzzle-themes');
    const themes = attempt.puzzle.themes;
    el.replaceChildren('Themes: ');
    for (const t of themes.length ? themes : ['none']) {
      const s = document.createElement('span');
      s.className = 'theme';
      s.textContent = t === 'none' ? 'none' : themeWords(t);
      s.dataset.theme = t;
      el.append(s);
    }
    el.hidden = false;
  }

  function userMove(move) {
    if (!attempt || attempt.result || attempt.solution || pending) return;
    const p = attempt.puzzle;
    let right;
    try {
      right = Puzzles.accepts(p.id, attempt.index, move.uci);
    } catch {
      error('This move could not be checked. Try another move, or the next puzzle.');
      return;
    }
    game.push(move);
    heard(move);
    attempt.index += 1;
    root.querySelector('.hinted')?.classList.remove('hinted');
    delete root.dataset.hint;
    if (!right) {
      finish(false);
      attempt.missed = true;
      status(`${move.san} is not it. “Retry” takes it back; “Show solution” plays the right line.`, 'failed');
      render();
      return;
    }
    if (attempt.index >= p.moves.length) {
      // A solve after a hint or a retry was already counted as a miss.
      finish(!attempt.hinted);
      status(`${move.san} — solved!${attempt.missed || attempt.hinted ? ' (counted as a miss: a hint or a retry was used)' : ''}`, 'solved');
      attempt.solvedAfterMiss = attempt.missed || attempt.hinted;
      attempt.result = 'solved';
      render();
      return;
    }
    status(`${move.san} is right! Your opponent replies…`, 'right');
    render();
    // The opponent's reply, played for the player.
    const reply = p.moves[attempt.index];
    later(REPLY_MS, () => {
      const played = game.push(reply);
      heard(played);
      attempt.index += 1;
      status(`They played ${played.san}. Your move: keep going.`, 'right');
      render();
    });
  }

  /** Shows the solution from the puzzle's start (after the lead-in move), one move at a time (the attempt counts as failed if unfinished). */
  function solution() {
    if (!attempt) return;
    stopTimer();
    finish(false);
    const p = attempt.puzzle;
    attempt.solution = true;
    const lead = attempt.lead ? [attempt.lead] : [];
    const freeOld = replaceGame(new Game(attempt.lead ? p.leadInFen : p.fen));
    for (const m of [...lead, ...p.moves]) game.push(m);
    game.seek(lead.length);
    status(`Solution: ${game.board.history().slice(lead.length).join(' ')}`, attempt.result);
    render();
    freeOld();
    const step = () => {
      if (game.atEnd) { timer = null; return; }
      game.seek(game.shownPly + 1);
      render();
      timer = setTimeout(step, STEP_MS);
    };
    timer = setTimeout(step, STEP_MS / 2);
  }

  /** Marks the man (or reserve) that makes the next solution move; counts as a miss. */
  function hint() {
    if (!attempt || attempt.result === 'solved' || attempt.solution || timer) return;
    attempt.hinted = true;
    const probe = game.board.clone();
    let m;
    try { m = probe.push(attempt.puzzle.moves[attempt.index]); } finally { probe.free(); }
    if (m.from) {
      status(`Hint: move the man on ${m.from}.`, '');
      root.dataset.hint = m.from;
    } else {
      status(m.kind === 'drop' ? `Hint: drop a ${m.role} from your airfield.` : `Hint: an exchange: rescue your ${m.rescued}.`, '');
      root.dataset.hint = m.kind;
    }
    if (m.from) table.view.squares.get(m.from).classList.add('hinted');
  }

  /** After a miss: the wrong move is taken back and the puzzle goes on (the rating already changed). */
  function retry() {
    if (!attempt || attempt.result !== 'failed' || attempt.solution) return;
    game.pop();
    attempt.index -= 1;
    attempt.result = null;
    status('Try again: find a better move.', '');
    render();
  }

  root.addEventListener('click', (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    if (act === 'next') next();
    if (act === 'solution') solution();
    if (act === 'hint') hint();
    if (act === 'retry') retry();
  });
  $('.theme-choice').addEventListener('change', () => {
    state.theme = $('.theme-choice').value;
    save();
  });
  $('.difficulty').addEventListener('change', () => {
    state.difficulty = $('.difficulty').value;
    save();
  });

  function render() {
    const r = state.rating;
    $('.player-rating').textContent = ratingText(r);
    $('.player-rating').title = `rating ${r.rating.toFixed(1)}, deviation ${r.deviation.toFixed(1)}`;
    root.dataset.rating = String(r.rating);
    const n = state.seen.length;
    $('.puzzle-count').textContent = `${n} of ${Puzzles.count()} puzzles tried.`;
    const solving = Boolean(attempt && !attempt.result && !attempt.solution);
    $('[data-act="solution"]').disabled = !attempt || attempt.solution;
    // No skipping: an unfinished puzzle ends by solving it or by its solution (a loss).
    $('[data-act="next"]').disabled = solving;
    $('[data-act="hint"]').disabled = !solving;
    $('[data-act="retry"]').hidden = !(attempt?.result === 'failed' && !attempt.solution);
    $('.streak').textContent = `Streak: ${state.streak ?? 0} solved in a row · best ${state.bestStreak ?? 0}`;
    $('.chart').innerHTML = chart(state.history ?? [state.rating.rating]);
    if (!attempt || !game) {
      root.dataset.puzzle = '';
      return;
    }
    const p = attempt.puzzle;
    root.dataset.puzzle = p.id;
    root.dataset.result = attempt.result ?? '';
    // The puzzle's rating is shown only once the attempt is over.
    $('.puzzle-title').textContent = attempt.result || attempt.solution ? `Puzzle ${p.id} · rated ${Math.round(puzzleRating(p).rating)}` : `Puzzle ${p.id}`;
    const shown = game.shown();
    const { solver } = attempt;
    table.set(shown, {
      movable: (c) => solving && !timer && game.atEnd && c === solver && shown.turn() === solver,
    });
    const top = table.flipped ? 'w' : 'b';
    const you = (c) => (c === solver ? `${COLOR_NAME[c]} (you)` : COLOR_NAME[c]);
    table.playerTop.textContent = you(top);
    table.playerBottom.textContent = you(top === 'w' ? 'b' : 'w');
    moves.render(game);
    if (attempt.solution || attempt.result) table.message(statusText(shown));
    else table.message('');
  }

  // A puzzle left unfinished by a reload is served again; otherwise a new one.
  function begin() {
    if (state.current) {
      try { start(Puzzles.get(state.current)); } catch { state.current = null; next(); }
    } else {
      next();
    }
  }

  await loadStanding(account());
  root.dataset.account = remote ?? '';
  begin();
  // Logging in or out elsewhere on the page: the rating shown becomes the
  // account's, or this browser's.
  onAccount(async (username) => {
    if ((username ?? null) === remote) return;
    stopTimer();
    await loadStanding(username);
    root.dataset.account = remote ?? '';
    attempt = null;
    $('.difficulty').value = state.difficulty ?? 'normal';
    begin();
  });
  return { shown: render };
}
