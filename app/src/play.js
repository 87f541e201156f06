// Play: against a bot (the package's EngineWorker, levels Novice to Club,
// which evaluate by hand, or the full-strength engine, which evaluates with
// the network as the analysis does), two people at one device, or a friend
// online through `hostage serve`. Against a bot, "Hint" shows the
// full-strength engine's move.
// Nothing runs until the player presses Start (the board waits, and says
// so). Local games (and their clocks) are saved in localStorage, so a reload
// continues them; an online game is found again from its link and the
// stored seat token. A finished game shows its result in a box with
// Rematch, New game and "Analyse this game".
import { announce, moveWords } from './announce.js';
import { LocalClock } from './clock.js';
import { confirmBox } from './dialog.js';
import { ANALYSE_IMPORT_KEY, Game, pgnDate, statusText } from './game.js';
import { MoveList } from './movelist.js';
import { account, onAccount } from './account.js';
import { NAME_KEY } from './lobby.js';
import { OnlineSession, gameLink } from './online.js';
import { renderChat } from './onlinechat.js';
import { renderRoom } from './onlineroom.js';
import { COLOR_NAME, other } from './pieces.js';
import { loadEngine, loadFullEngine } from './pkg.js';
import { play as playSound, soundFor } from './sound.js';
import { Table } from './table.js';
import { resultText, resultToken } from './words.js';

const SAVE_KEY = 'hostage.play.v1';
// The full-strength bot: the engine's search with the network, as in
// Analyse, to a node budget (about as long a thought in a browser as the
// Club level's 750,000 nodes by hand: the network searches some 0.7 times
// as many nodes a second, docs/javascript.md).
const FULL = 'full';
const FULL_NODES = 500_000;
// A hint: the same engine, a shorter thought.
const HINT_NODES = 150_000;
/** A bot level as the page names it ('full' is the full-strength engine). */
const levelName = (level) => (level === FULL ? 'full-strength' : level);


const CLOCKS = [
  ['', 'No clock'],
  ['60+0', '1 min'],
  ['180+2', '3 min + 2 s'],
  ['300+3', '5 min + 3 s'],
  ['600+5', '10 min + 5 s'],
  ['900+10', '15 min + 10 s'],
];

function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  if (ms < 10_000) return `0:${String(Math.floor(ms / 1000)).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function mount(root, { params }) {
  root.innerHTML = `
    <h1 class="visually-hidden">Play</h1>
    <div class="layout">
      <div class="table-slot"></div>
      <aside class="side">
        <section class="card end-box" aria-labelledby="end-title" hidden>
          <h2 id="end-title" class="end-result"></h2>
          <p class="end-reason"></p>
          <p class="rematch-offer" hidden>Your opponent wants a rematch.</p>
          <div class="buttons">
            <button type="button" class="primary" data-act="rematch">Rematch</button>
            <button type="button" data-act="new">New game</button>
            <button type="button" data-act="analyse">Analyse this game</button>
          </div>
        </section>
        <section class="card game-card" aria-label="Game">
          <p class="status" role="status"></p>
          <div class="online-info" hidden>
            <p class="conn"></p>
            <label class="invite">Invite a friend: send this link <span class="link-row"><input class="link" readonly aria-label="Game link"><button type="button" data-act="copy-link">Copy</button></span></label>
            <div class="draw-offer" hidden><span></span> <button type="button" data-act="accept-draw">Accept draw</button> <button type="button" data-act="decline-draw">Decline</button></div>
          </div>
          <div class="actions">
            <button type="button" data-act="flip" title="Flip the board">Flip board</button>
            <button type="button" data-act="hint" hidden>Hint</button>
            <button type="button" data-act="undo">Take back</button>
            <button type="button" data-act="draw">Offer draw</button>
            <button type="button" data-act="resign">Resign</button>
          </div>
          <p class="notice" role="alert"></p>
        </section>
        <form class="card new-game" aria-labelledby="new-game-title">
          <h2 id="new-game-title">New game</h2>
          <fieldset class="opponent"><legend>Opponent</legend>
            <label><input type="radio" name="opponent" value="bot" required> A bot</label>
            <label><input type="radio" name="opponent" value="local"> A friend at this device</label>
            <label><input type="radio" name="opponent" value="online"> A friend online</label>
          </fieldset>
          <label class="for-bot">Bot level
            <select name="level" aria-busy="true"><option value="">Loading the bots…</option></select>
          </label>
          <fieldset class="for-color"><legend>You play</legend>
            <label><input type="radio" name="color" value="white" checked> White</label>
            <label><input type="radio" name="color" value="black"> Black</label>
            <label><input type="radio" name="color" value="random"> Random</label>
          </fieldset>
          <label>Clock
            <select name="clock">${CLOCKS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
          </label>
          <label class="for-local check"><input type="checkbox" name="turn"> Turn the board after each move</label>
          <label class="for-online">Your name
            <input name="name" autocomplete="nickname" maxlength="20" placeholder="Anonymous">
          </label>
          <p class="for-account" hidden></p>
          <button type="submit" class="primary">Start</button>
        </form>
      </aside>
    </div>`;

  const $ = (s) => root.querySelector(s);
  const form = $('.new-game');
  const status = $('.status');
  const notice = $('.notice');
  /** A notice under the game, styled by its kind: info, success, warning or error ('' clears it). */
  const say = (text, kind = 'info') => { notice.textContent = text; notice.dataset.kind = kind; };
  let game = new Game();
  // { kind: 'none' } until Start | { kind: 'bot', level, human, seed, clock?, turn? } | { kind: 'local', ... } | { kind: 'online' }
  let match = { kind: 'none' };
  let session = null;
  let worker = null;
  let workerFull = false; // the bot's worker is the full-strength engine's (with the network)
  let newEngineWorker = null; // the package's EngineWorker, once the engine is loaded (pkg.js)
  let botToken = 0;
  let botBusy = false; // a request of the bot is in its worker
  let hint = null; // { fen, shapes } once a hint is found for the position `fen`; { fen } while it is sought
  let hintWorker = null;

  /**
   * The bot's current thought is no longer wanted (take-back, resignation,
   * flag, another game): its worker, which answers in order and cannot be
   * interrupted, is stopped if it is still thinking; a fresh one is started
   * for the next move (cheap: the engine's module is compiled once, pkg.js).
   */
  function stopBot() {
    botToken++;
    if (botBusy && worker) { worker.terminate(); worker = null; }
    botBusy = false;
  }
  let clock = null; // a LocalClock for bot and local games with a clock
  let ticker = null;
  let heard = { game: null, ply: 0, over: false }; // what the sounds and announcements have covered

  const table = new Table({ onMove: (m) => userMove(m), onPremove: (m) => premoveChosen(m) });
  const moves = new MoveList({
    onSelect: (ply) => { current().seek(ply); render(); },
    pgnTags: () => tags(),
  });
  $('.table-slot').append(table.el);
  $('.game-card').insertBefore(moves.el, $('.actions'));

  const current = () => (match.kind === 'online' && session ? session.game : game);

  function tags() {
    const name = (c) => {
      if (match.kind === 'bot') return c === match.human ? 'You' : `Bot (${levelName(match.level)})`;
      // PGN's `?` for a player online who gave no name.
      if (match.kind === 'online') return session?.names?.[c] || '?';
      return COLOR_NAME[c];
    };
    const t = { Event: 'Hostage Chess game', Site: location.host || '?', White: name('w'), Black: name('b') };
    if (match.kind !== 'online') t.Date = match.date ?? pgnDate();
    if (match.kind === 'online') {
      // The game's creation, as the server has it (UTC, as PGN's UTC tags say).
      t.Site = location.origin || '?';
      const created = session?.createdMs;
      if (typeof created === 'number') {
        const iso = new Date(created).toISOString();
        t.Date = iso.slice(0, 10).replaceAll('-', '.');
        t.UTCDate = t.Date;
        t.UTCTime = iso.slice(11, 19);
      }
    }
    if (match.clock) t.TimeControl = `${match.clock.initial / 1000}+${match.clock.increment / 1000}`;
    return t;
  }

  /**
   * Loads the engine entry (its WebAssembly module) the first time a bot is
   * chosen or a saved bot game is restored, not at the page's first load;
   * then lists its levels.
   */
  async function engineReady() {
    if (newEngineWorker) return;
    const e = await loadEngine();
    if (newEngineWorker) return;
    newEngineWorker = e.newEngineWorker;
    const select = form.level;
    select.innerHTML = e.engineLevels().map((l) => `<option value="${l.name}">${l.name[0].toUpperCase()}${l.name.slice(1)} (${l.rating})</option>`).join('')
      + `<option value="${FULL}">Full strength (neural network)</option>`;
    select.removeAttribute('aria-busy');
  }

  function syncForm() {
    const opp = form.opponent.value;
    if (opp === 'bot') engineReady().catch(() => say('The bots could not be loaded. Check your connection and reload the page.', 'error'));
    root.querySelector('.for-color').hidden = !opp || opp === 'local';
    root.querySelector('.for-bot').hidden = opp !== 'bot';
    root.querySelector('.for-local').hidden = opp !== 'local';
    // A logged-in player is seated under the username: no name to type.
    const me = account();
    root.querySelector('.for-online').hidden = opp !== 'online' || Boolean(me);
    const note = root.querySelector('.for-account');
    note.hidden = opp !== 'online' || !me;
    note.textContent = me ? `You play as ${me}.` : '';
  }
  onAccount(syncForm);
  form.addEventListener('change', syncForm);
  syncForm();
  // The display name is the lobby's (one key): kept as typed, sent on create and join.
  form.elements.namedItem('name').value = localStorage.getItem(NAME_KEY) ?? '';
  const keepName = () => {
    const name = form.elements.namedItem('name').value.trim();
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  };
  form.elements.namedItem('name').addEventListener('input', keepName);

  const inProgress = () => {
    if (match.kind === 'online') return Boolean(session?.isPlayer && session.status === 'active');
    return match.kind !== 'none' && game.ply > 0 && !game.over;
  };

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (inProgress() && !(await confirmBox('Abandon the game in progress?', {
      yes: 'Abandon it', no: 'Keep playing', detail: match.kind === 'online' ? 'It stays open for your opponent; you can come back from its link.' : 'It will be lost.',
    }))) return;
    const opp = form.opponent.value;
    let color = form.color.value;
    say('');
    const [initial, inc] = form.clock.value ? form.clock.value.split('+').map(Number) : [];
    const clockSpec = form.clock.value ? { initial: initial * 1000, increment: inc * 1000 } : null;
    if (opp === 'online') {
      keepName();
      startOnline(null, { color, clock: clockSpec ? { initial_ms: clockSpec.initial, increment_ms: clockSpec.increment } : null });
      return;
    }
    if (color === 'random') color = Math.random() < 0.5 ? 'white' : 'black';
    if (opp === 'bot') await engineReady();
    startLocal(opp === 'bot'
      ? { kind: 'bot', level: form.level.value, human: color === 'black' ? 'b' : 'w', seed: Math.floor(Math.random() * 2 ** 31), clock: clockSpec }
      : { kind: 'local', clock: clockSpec, turn: form.turn.checked });
  });

  function startLocal(m) {
    stopOnline();
    match = { ...m, date: pgnDate() };
    newLocalGame(new Game());
    clock = match.clock ? new LocalClock(match.clock.initial, match.clock.increment) : null;
    table.setFlipped(match.kind === 'bot' && match.human === 'b');
    announce(`New game${match.kind === 'bot' ? ` against the ${levelName(match.level)} bot: you play ${COLOR_NAME[match.human]}` : ' at this device'}.`);
    afterChange();
    table.focusBoard();
  }

  function newLocalGame(g) {
    stopBot();
    game = g;
    heard = { game: g, ply: g.ply, over: g.over };
    table.cancelPremove();
  }

  // ---- local games: saved and restored --------------------------------
  function save() {
    if (match.kind !== 'bot' && match.kind !== 'local') return;
    localStorage.setItem(SAVE_KEY, JSON.stringify({ match, decided: game.decided, clock: clock?.save() ?? null, ...game.record() }));
  }

  function restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(SAVE_KEY) ?? 'null');
      if (!saved || !['bot', 'local'].includes(saved.match?.kind)) return false;
      match = saved.match;
      newLocalGame(Game.from(saved.startFen, saved.history));
      game.decided = saved.decided ?? saved.resigned ?? null;
      heard.over = game.over;
      clock = match.clock ? new LocalClock(match.clock.initial, match.clock.increment, saved.clock) : null;
      if (clock && game.ply > 0 && !game.over) clock.start(game.board.turn());
      table.setFlipped(match.kind === 'bot' && match.human === 'b');
      return true;
    } catch {
      localStorage.removeItem(SAVE_KEY);
      return false;
    }
  }

  // ---- moves --------------------------------------------------------------
  function movable(color) {
    const g = current();
    if (!g.atEnd) return false;
    if (match.kind === 'online') return session?.canMove(color) ?? false;
    if (match.kind === 'none' || game.over) return false;
    if (match.kind === 'bot') return color === match.human;
    return true;
  }

  /** Whose premoves the table may take now: the player's, while the other side is to move. */
  function premovable() {
    const g = current();
    if (!g.atEnd || g.over) return null;
    if (match.kind === 'bot' && g.board.turn() !== match.human) return match.human;
    if (match.kind === 'online' && session?.isPlayer && session.status === 'active' && g.board.turn() !== session.color) return session.color;
    return null;
  }

  function userMove(move) {
    say('');
    if (match.kind === 'online') {
      session.move(move);
      return;
    }
    if (clock && !clock.running && game.ply === 0) clock.start(move.color);
    clock?.moved(move.color);
    game.push(move);
    if (match.kind === 'local' && match.turn && !game.over) table.setFlipped(game.board.turn() === 'b');
    afterChange();
  }

  function premoveChosen(m) {
    announce(`Premove set: ${m.text}. It is played if legal when your turn comes.`);
  }

  /** A premove waiting for the player's turn: played if it is legal now, else dropped. */
  function tryPremove() {
    const pre = table.takePremove();
    if (!pre) return;
    const g = current();
    const m = g.board.legalMoves().find((x) => pre.matches(x));
    if (!m || !movable(g.board.turn())) { table.message('The premove was not legal any more.', 'info'); render(); return; }
    userMove(m);
  }

  function afterChange() {
    if (clock && game.over) clock.stop();
    save();
    render();
    maybeBot();
  }

  async function maybeBot() {
    if (match.kind !== 'bot' || game.over || game.board.turn() === match.human) return;
    const token = ++botToken;
    root.classList.add('thinking');
    render();
    try {
      await engineReady();
      const full = match.level === FULL;
      // The full-strength bot's worker has the network (fetched once, pkg.js);
      // without its weights it evaluates by hand, and says so.
      const engine = full ? await loadFullEngine() : { newEngineWorker, network: false };
      if (token !== botToken) return;
      if (full && !engine.network) say('The neural network could not be loaded: the full-strength bot evaluates by hand.', 'warning');
      if (worker && workerFull !== full) { worker.terminate(); worker = null; }
      worker ??= engine.newEngineWorker();
      workerFull = full;
      botBusy = true;
      const fen = game.board.startFen();
      const history = game.board.history();
      const reply = full
        ? (await worker.analyse(fen, history, { nodes: FULL_NODES })).bestMove
        : await worker.play(fen, history, { level: match.level, seed: match.seed });
      if (token !== botToken) return;
      botBusy = false;
      if (!reply) return;
      if (clock && !clock.running && game.ply === 0) clock.start(reply.color);
      clock?.moved(reply.color);
      game.push(reply.uci);
      root.classList.remove('thinking');
      afterChange();
      tryPremove();
    } catch (e) {
      if (token === botToken) botBusy = false;
      if (token === botToken && e?.name !== 'AbortError') say('The bot could not move. Take back a move or start a new game.', 'error');
    } finally {
      if (token === botToken) { root.classList.remove('thinking'); render(); }
    }
  }

  /**
   * A hint against a bot: the full-strength engine's move in the position
   * to play, drawn as an arrow (a ring for a drop or an exchange) and said
   * in a notice. A move, a take-back or a new game makes it stale.
   */
  async function showHint() {
    const g = game;
    const fen = g.board.fen();
    const mine = () => hint?.fen === fen && game === g && g.board.fen() === fen;
    hint = { fen };
    render();
    try {
      const { newEngineWorker: make, network } = await loadFullEngine();
      hintWorker ??= make();
      const a = await hintWorker.analyse(g.board.startFen(), g.board.history(), { nodes: HINT_NODES });
      if (!mine()) return;
      const m = a.bestMove;
      if (!m) { hint = null; render(); return; }
      hint = { fen, shapes: m.from ? [{ from: m.from, to: m.to }] : [{ at: m.to, kind: m.kind }] };
      say(`Hint: ${m.san}${network ? '' : ' (evaluated by hand: the neural network could not be loaded)'}`, 'info');
      announce(`Hint: ${moveWords(m)}`);
    } catch (e) {
      hintWorker?.terminate();
      hintWorker = null;
      if (mine()) {
        hint = null;
        if (e?.name !== 'AbortError') say('No hint could be found. Try again.', 'error');
      }
    }
    render();
  }

  function tick() {
    if (clock) {
      const flag = clock.flagged();
      if (flag && !game.over) {
        stopBot();
        root.classList.remove('thinking');
        clock.stop();
        game.decided = { termination: 'timeout', winner: other(flag) };
        table.cancelPremove();
        save();
        render();
        return;
      }
    }
    renderClocks();
  }
  ticker = setInterval(tick, 200);

  // ---- online -------------------------------------------------------------
  function startOnline(gameId, create) {
    stopOnline();
    stopBot();
    clock = null;
    match = { kind: 'online' };
    table.cancelPremove();
    let lastPly = -1;
    session = new OnlineSession({
      onChange: (s) => {
        if (s.gameId && new URLSearchParams(location.search).get('game') !== s.gameId) {
          history.replaceState(null, '', `${gameLink(s.gameId)}#/play`);
        }
        table.setFlipped(s.color === 'b');
        render();
        if (s.game.ply !== lastPly) { lastPly = s.game.ply; tryPremove(); }
      },
      onNotice: (text, kind) => say(text, kind ?? 'info'),
    });
    const name = localStorage.getItem(NAME_KEY) ?? '';
    if (gameId) session.open(gameId, name);
    else session.create(create.color, create.clock, name);
    render();
  }

  function stopOnline() {
    session?.close();
    session = null;
    if (new URLSearchParams(location.search).has('game')) history.replaceState(null, '', `${location.pathname}#/play`);
  }

  // ---- actions ------------------------------------------------------------
  root.addEventListener('click', async (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    if (act === 'flip') { table.setFlipped(!table.flipped); render(); }
    if (act === 'undo') undo();
    if (act === 'hint') showHint();
    if (act === 'resign') resign();
    if (act === 'draw') session?.offerDraw();
    if (act === 'accept-draw') session?.acceptDraw();
    if (act === 'decline-draw') session?.declineDraw();
    if (act === 'copy-link') {
      const input = $('.link');
      try { await navigator.clipboard.writeText(input.value); say('Link copied.', 'success'); } catch { input.select(); say('Select the link and copy it (Ctrl+C or a long press).', 'info'); }
    }
    if (act === 'rematch') rematch();
    if (act === 'new') {
      // The chosen opponent, or the first one when none is checked (after a
      // reload, or for a visitor of a finished online game's link).
      (form.querySelector('input[name="opponent"]:checked') ?? form.querySelector('input[name="opponent"]')).focus();
      form.scrollIntoView({ block: 'nearest' });
    }
    if (act === 'analyse') analyseGame();
  });

  function rematch() {
    if (match.kind === 'bot') startLocal({ ...match, human: other(match.human), seed: Math.floor(Math.random() * 2 ** 31) });
    else if (match.kind === 'local') startLocal({ ...match });
    else if (match.kind === 'online') session?.requestRematch();
  }

  function analyseGame() {
    sessionStorage.setItem(ANALYSE_IMPORT_KEY, current().pgn(tags()));
    location.hash = '#/analyse';
  }

  function undo() {
    // A decided game (resigned, flag fallen, mated) stays decided, as on lichess.
    if (match.kind === 'online' || match.kind === 'none' || game.ply === 0 || game.over) return;
    stopBot();
    root.classList.remove('thinking');
    table.cancelPremove();
    game.pop();
    if (match.kind === 'bot') while (game.ply > 0 && game.board.turn() !== match.human) game.pop();
    // The time the running side spent is booked (no refund), then the side
    // to move after the take-back runs.
    if (clock) { clock.stop(); if (game.ply > 0) clock.start(game.board.turn()); }
    heard = { game, ply: game.ply, over: false };
    save();
    render();
  }

  async function resign() {
    if (match.kind === 'online') {
      if (await confirmBox('Resign this game?', { yes: 'Resign', no: 'Keep playing' })) session.resign();
      return;
    }
    if (game.over || match.kind === 'none') return;
    if (!(await confirmBox('Resign this game?', { yes: 'Resign', no: 'Keep playing' }))) return;
    const loser = match.kind === 'bot' ? match.human : game.board.turn();
    game.decided = { termination: 'resignation', winner: other(loser) };
    stopBot();
    root.classList.remove('thinking');
    clock?.stop();
    table.cancelPremove();
    save();
    render();
  }

  // ---- drawing ------------------------------------------------------------
  function playerBar(el, color) {
    let name = COLOR_NAME[color];
    if (match.kind === 'bot') name += color === match.human ? ' · you' : ` · ${levelName(match.level)} bot`;
    if (match.kind === 'online' && session) {
      const seated = session.state?.seats?.[color === 'w' ? 'white' : 'black'];
      // The player's display name (set as text below, never as HTML).
      const player = session.names?.[color];
      if (player) name += ` · ${player}`;
      name += color === session.color ? (player ? ' (you)' : ' · you') : seated === false ? ' · waiting for a player' : '';
    }
    const g = current();
    const turn = match.kind !== 'none' && g.shown().turn() === color && !g.over;
    const thinking = match.kind === 'bot' && color !== match.human && root.classList.contains('thinking');
    el.innerHTML = `<span class="dot ${color}" aria-hidden="true"></span><span class="name"></span>${thinking ? '<span class="thinking-mark">thinking…</span>' : ''}<span class="clock" data-color="${color}" role="timer" hidden></span>`;
    el.querySelector('.name').textContent = name;
    el.classList.toggle('to-move', turn);
  }

  function clockMs(color) {
    if (match.kind === 'online') return session?.clockMs(color) ?? null;
    return clock ? clock.remaining(color) : null;
  }

  function clockRunning(color) {
    if (match.kind === 'online') return Boolean(session?.clocks?.running && session.clocks.running[0] === color && session.status === 'active');
    return clock?.running === color && !game.over;
  }

  function renderClocks() {
    for (const el of root.querySelectorAll('.clock')) {
      const c = el.dataset.color;
      const ms = clockMs(c);
      el.hidden = ms === null;
      el.textContent = fmtClock(ms);
      el.setAttribute('aria-label', `${COLOR_NAME[c]}'s clock: ${fmtClock(ms)}`);
      el.classList.toggle('running', clockRunning(c));
      el.classList.toggle('low', ms !== null && ms < 20_000);
    }
  }

  /** Sounds and screen-reader words for what changed since the last drawing. */
  function hear(g) {
    if (heard.game !== g) { heard = { game: g, ply: g.ply, over: g.over }; return; }
    if (g.ply > heard.ply) {
      const m = g.board.historyMoves().at(-1);
      if (m) { playSound(soundFor(m, g.board)); announce(moveWords(m)); }
    }
    if (g.over && !heard.over) {
      playSound('end');
      announce(`Game over: ${resultText(g.outcome)}.`);
    }
    heard = { game: g, ply: g.ply, over: g.over };
  }

  function render() {
    const g = current();
    const shown = g.shown();
    table.set(shown, { movable, premovable });
    const top = table.flipped ? 'w' : 'b';
    playerBar(table.playerTop, top);
    playerBar(table.playerBottom, other(top));
    moves.render(g);
    hear(g);

    let text;
    if (match.kind === 'none') text = 'Choose an opponent under “New game” and press Start.';
    else text = g.atEnd && g.over ? resultText(g.outcome) : statusText(shown);
    if (match.kind === 'online' && session) {
      if (session.missing) text = 'There is no game at this link. It may have been mistyped, or the server no longer has it. Start a new game instead.';
      else if (session.result) text = resultText(session.result);
      else if (session.status === 'waiting' && session.rematchOf) text = 'Waiting for your opponent to accept the rematch…';
      else if (session.status === 'waiting') text = 'Waiting for your friend to open the link…';
      else if (session.status === 'connecting') text = 'Connecting to the game…';
      else if (!session.isPlayer) text = `You are watching. ${text}`;
    } else if (match.kind === 'bot' && root.classList.contains('thinking')) {
      text += ' · the bot is thinking…';
    } else if (match.kind !== 'none' && !g.over && movable(shown.turn())) {
      text += g.ply === 0 ? ': play a move on the board' : '';
    }
    if (!g.atEnd) text = `Move ${g.shownPly} of ${g.ply} (viewing) · ${text}`;
    status.textContent = text;
    document.body.dataset.fen = shown.fen();

    const online = match.kind === 'online' && session;
    $('.online-info').hidden = !online || session.missing;
    if (online) {
      $('.conn').textContent = { online: 'Connected', connecting: 'Connecting…', offline: 'Offline: reconnecting…' }[session.connection] ?? '';
      $('.conn').dataset.state = session.connection;
      $('.link').value = session.gameId ? gameLink(session.gameId) : '';
      $('.invite').hidden = !session.gameId || session.status !== 'waiting' || !session.isPlayer;
      const offer = session.drawOffer && session.status === 'active';
      $('.draw-offer').hidden = !offer || session.drawOffer[0] === session.color || !session.isPlayer;
      $('.draw-offer span').textContent = offer ? `${session.drawOffer === 'white' ? 'White' : 'Black'} offers a draw.` : '';
      root.dataset.online = `${session.status}`;
      renderRoom($('.online-info'), session);
      renderChat($('.online-info'), session);
    }
    renderClocks();
    const over = online ? session.status === 'finished' : g.over;
    const none = match.kind === 'none';
    // A hint is for the player against a bot, on their move, at the game's end.
    const hintable = match.kind === 'bot' && !g.over && g.atEnd && shown.turn() === match.human && !root.classList.contains('thinking');
    const hintHere = hint && hint.fen === g.board.fen() ? hint : null;
    if (hint && !hintHere) {
      // The position moved on: the hint and its notice are stale.
      hint = null;
      if (notice.textContent.startsWith('Hint:')) say('');
    }
    root.querySelector('[data-act="hint"]').hidden = match.kind !== 'bot';
    root.querySelector('[data-act="hint"]').disabled = !hintable || Boolean(hintHere && !hintHere.shapes);
    table.view.setAutoShapes(hintable && hintHere?.shapes ? hintHere.shapes : []);
    root.querySelector('[data-act="undo"]').hidden = online || none;
    root.querySelector('[data-act="undo"]').disabled = g.ply === 0 || g.over;
    root.querySelector('[data-act="draw"]').hidden = !online || !session.isPlayer;
    root.querySelector('[data-act="draw"]').disabled = over || session?.status !== 'active' || Boolean(session?.ownOfferStands);
    root.querySelector('[data-act="resign"]').hidden = none || (online && !session.isPlayer);
    root.querySelector('[data-act="resign"]').disabled = over || (online && session.status !== 'active');
    root.dataset.match = match.kind;
    root.dataset.over = String(over);

    // The end-of-game box.
    const end = $('.end-box');
    const outcome = online ? session.result : g.outcome;
    end.hidden = !over || !outcome;
    if (!end.hidden) {
      const verdict = outcome.termination === 'aborted' ? 'Aborted' : outcome.winner ? `${COLOR_NAME[outcome.winner]} wins` : 'Draw';
      $('.end-result').textContent = `${resultToken(outcome)} · ${verdict}`;
      $('.end-reason').textContent = `${resultText(outcome)}.`;
      // Online: the players may ask for a rematch (colours swapped); once
      // the opponent has asked, the same button accepts it.
      const offered = Boolean(online && session.isPlayer && session.rematch);
      $('[data-act="rematch"]').hidden = online && !session.isPlayer;
      $('[data-act="rematch"]').textContent = offered ? 'Accept rematch' : 'Rematch';
      $('.rematch-offer').hidden = !offered;
    }
  }

  // A shared link opens the online game; otherwise the saved local game.
  const linked = params.get('game');
  if (linked && /^[A-Za-z0-9_-]{1,64}$/.test(linked)) {
    startOnline(linked);
  } else if (!restore()) {
    match = { kind: 'none' };
  }
  render();
  maybeBot();
  return { shown: render };
}
