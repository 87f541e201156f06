// Puzzles: a verified puzzle near the player's rating, solved on the same
// table as Play (clicks, drags, drops, exchanges, the promotion picker).
// The opponent's replies are played for the player; a wrong move ends the
// attempt. The package decides everything: which puzzle (Puzzles.next),
// whether a move is right (Puzzles.accepts) and how both ratings move
// (Puzzles.update, Glicko-2). The app keeps the player's rating, the ids
// seen and the puzzles' updated ratings in localStorage.
import { Game, statusText } from './game.js';
import { MoveList } from './movelist.js';
import { COLOR_NAME } from './pieces.js';
import { Puzzles, errorText } from './pkg.js';
import { Table } from './table.js';

const KEY = 'hostage.puzzles.v1';
const REPLY_MS = 450;
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

const ratingText = (r) => `${Math.round(r.rating)}${r.deviation >= 110 ? '?' : ''}`;

export function mount(root) {
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
          <p class="status puzzle-status" role="status" aria-live="polite"></p>
          <p class="puzzle-themes" hidden></p>
          <div class="actions">
            <button type="button" data-act="solution">Show solution</button>
            <button type="button" class="primary" data-act="next">Next puzzle</button>
          </div>
          <p class="error puzzle-error" role="alert" hidden></p>
        </section>
        <section class="card puzzle-settings">
          <label>Difficulty
            <select class="difficulty">${DIFFICULTIES.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
          </label>
          <p class="puzzle-count"></p>
        </section>
      </aside>
    </div>`;
  const $ = (s) => root.querySelector(s);
  let state = load();
  // The attempt: { puzzle, index (next move of the solution), result: null | 'solved' | 'failed', solution: bool }.
  let attempt = null;
  let game = null;
  let timer = null;

  const table = new Table({ onMove: (m) => userMove(m) });
  const moves = new MoveList({
    onSelect: (ply) => { if (!game) return; stopTimer(); game.seek(ply); render(); },
    pgnTags: () => ({ Event: `Hostage Chess puzzle ${attempt?.puzzle.id ?? ''}`.trim() }),
  });
  $('.table-slot').append(table.el);
  $('.puzzle-card').insertBefore(moves.el, $('.actions'));
  $('.difficulty').value = state.difficulty;

  const save = () => localStorage.setItem(KEY, JSON.stringify(state));
  const stopTimer = () => { clearTimeout(timer); timer = null; };

  function status(text, kind = '') {
    const el = $('.puzzle-status');
    el.textContent = text;
    el.dataset.result = kind;
  }

  function error(text) {
    const el = $('.puzzle-error');
    el.hidden = !text;
    el.textContent = text;
  }

  function puzzleRating(p) {
    return state.puzzles[p.id] ?? { rating: p.rating, deviation: p.deviation, volatility: 0.09 };
  }

  function start(puzzle) {
    stopTimer();
    error('');
    attempt = { puzzle, index: 0, result: null, solution: false };
    state.current = puzzle.id;
    save();
    game = new Game(puzzle.fen);
    // The solver plays from the bottom.
    table.setFlipped(game.board.turn() === 'b');
    $('.delta').textContent = '';
    $('.puzzle-themes').hidden = true;
    status(`${COLOR_NAME[game.board.turn()]} to play and win.`);
    render();
  }

  function next() {
    const difficulty = $('.difficulty').value;
    state.difficulty = difficulty;
    try {
      const p = Puzzles.next(state.rating.rating, { difficulty, seen: state.seen, seed: state.seen.length });
      if (!p) {
        attempt = null;
        status('You have seen every puzzle. Well done!');
        save();
        render();
        return;
      }
      start(p);
    } catch (e) {
      error(errorText(e));
    }
  }

  /** Records the attempt once: both ratings move (the package's Glicko-2). */
  function finish(solved) {
    if (!attempt || attempt.result) return;
    const p = attempt.puzzle;
    attempt.result = solved ? 'solved' : 'failed';
    const before = state.rating.rating;
    const { player, puzzle } = Puzzles.update(state.rating, puzzleRating(p), solved);
    state.rating = player;
    state.puzzles[p.id] = puzzle;
    if (!state.seen.includes(p.id)) state.seen.push(p.id);
    state.current = null;
    save();
    const delta = Math.round(player.rating - before);
    const d = $('.delta');
    d.textContent = `${delta >= 0 ? '+' : '−'}${Math.abs(delta)}`;
    d.dataset.sign = delta >= 0 ? 'up' : 'down';
    root.dataset.lastDelta = String(player.rating - before);
    showThemes();
  }

  function showThemes() {
    const el = $('.puzzle-themes');
    const themes = attempt.puzzle.themes;
    el.replaceChildren('Themes: ');
    for (const t of themes.length ? themes : ['none']) {
      const s = document.createElement('span');
      s.className = 'theme';
      s.textContent = t;
      el.append(s);
    }
    el.hidden = false;
  }

  function userMove(move) {
    if (!attempt || attempt.result || attempt.solution) return;
    const p = attempt.puzzle;
    let right;
    try {
      right = Puzzles.accepts(p.id, attempt.index, move.uci);
    } catch (e) {
      error(errorText(e));
      return;
    }
    game.push(move);
    attempt.index += 1;
    if (!right) {
      finish(false);
      status(`${move.san} is not it. Puzzle failed — “Show solution” plays the right line.`, 'failed');
      render();
      return;
    }
    if (attempt.index >= p.moves.length) {
      finish(true);
      status(`${move.san} — solved!`, 'solved');
      render();
      return;
    }
    status(`${move.san} is right! Your opponent replies…`, 'right');
    render();
    // The opponent's reply, played for the player.
    const reply = p.moves[attempt.index];
    timer = setTimeout(() => {
      timer = null;
      const played = game.push(reply);
      attempt.index += 1;
      status(`They played ${played.san}. Your move: keep going.`, 'right');
      render();
    }, REPLY_MS);
  }

  /** Shows the solution from the puzzle's start, one move at a time (the attempt counts as failed if unfinished). */
  function solution() {
    if (!attempt) return;
    stopTimer();
    finish(false);
    const p = attempt.puzzle;
    attempt.solution = true;
    game = new Game(p.fen);
    for (const m of p.moves) game.push(m);
    game.seek(0);
    status(`Solution: ${game.board.history().join(' ')}`, attempt.result);
    render();
    const step = () => {
      if (game.atEnd) { timer = null; return; }
      game.seek(game.shownPly + 1);
      render();
      timer = setTimeout(step, STEP_MS);
    };
    timer = setTimeout(step, STEP_MS / 2);
  }

  root.addEventListener('click', (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    if (act === 'next') next();
    if (act === 'solution') solution();
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
    if (!attempt || !game) {
      root.dataset.puzzle = '';
      return;
    }
    const p = attempt.puzzle;
    root.dataset.puzzle = p.id;
    root.dataset.result = attempt.result ?? '';
    $('.puzzle-title').textContent = `Puzzle ${p.id} · rated ${Math.round(puzzleRating(p).rating)}`;
    const shown = game.shown();
    const solver = new Game(p.fen).board.turn();
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
  if (state.current) {
    try { start(Puzzles.get(state.current)); } catch { state.current = null; next(); }
  } else {
    next();
  }
  return { shown: render };
}
