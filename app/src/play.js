// Play: against a bot (the package's EngineWorker, levels Novice to Club),
// two people at one device, or a friend online through `hostage serve`.
// Local games are saved in localStorage, so a reload continues them; an
// online game is found again from its link and the stored seat token.
import { Game, resultText, statusText } from './game.js';
import { MoveList } from './movelist.js';
import { OnlineSession, gameLink } from './online.js';
import { COLOR_NAME, other } from './pieces.js';
import { EngineWorker, engineLevels, errorText } from './pkg.js';
import { Table } from './table.js';

const SAVE_KEY = 'hostage.play.v1';
const CLOCKS = [
  ['', 'No clock'],
  ['180+2', '3 min + 2 s'],
  ['300+3', '5 min + 3 s'],
  ['600+5', '10 min + 5 s'],
  ['900+10', '15 min + 10 s'],
];

function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return ms < 10_000 ? `${m}:${String(s % 60).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`.replace(/^0:/, '0:') : `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function mount(root, { params }) {
  const levels = engineLevels();
  root.innerHTML = `
    <h1 class="visually-hidden">Play</h1>
    <div class="layout">
      <div class="table-slot"></div>
      <aside class="side">
        <section class="card game-card" aria-label="Game">
          <p class="status" role="status" aria-live="polite"></p>
          <div class="online-info" hidden>
            <p class="conn"></p>
            <label class="invite">Invite a friend: send this link <span class="link-row"><input class="link" readonly><button type="button" data-act="copy-link">Copy</button></span></label>
            <div class="draw-offer" hidden><span></span> <button type="button" data-act="accept-draw">Accept draw</button> <button type="button" data-act="decline-draw">Decline</button></div>
          </div>
          <div class="actions">
            <button type="button" data-act="flip" title="Flip the board">Flip board</button>
            <button type="button" data-act="undo">Take back</button>
            <button type="button" data-act="draw">Offer draw</button>
            <button type="button" data-act="resign">Resign</button>
          </div>
          <p class="notice" role="alert"></p>
        </section>
        <form class="card new-game" aria-labelledby="new-game-title">
          <h2 id="new-game-title">New game</h2>
          <fieldset class="opponent"><legend>Opponent</legend>
            <label><input type="radio" name="opponent" value="bot" checked> A bot</label>
            <label><input type="radio" name="opponent" value="local"> A friend at this device</label>
            <label><input type="radio" name="opponent" value="online"> A friend online</label>
          </fieldset>
          <label class="for-bot">Bot level
            <select name="level">${levels.map((l) => `<option value="${l.name}">${l.name[0].toUpperCase()}${l.name.slice(1)} (${l.rating})</option>`).join('')}</select>
          </label>
          <fieldset class="for-color"><legend>You play</legend>
            <label><input type="radio" name="color" value="white" checked> White</label>
            <label><input type="radio" name="color" value="black"> Black</label>
            <label><input type="radio" name="color" value="random"> Random</label>
          </fieldset>
          <label class="for-online">Clock
            <select name="clock">${CLOCKS.map(([v, t]) => `<option value="${v}">${t}</option>`).join('')}</select>
          </label>
          <button type="submit" class="primary">Start</button>
        </form>
      </aside>
    </div>`;

  const $ = (s) => root.querySelector(s);
  const form = $('.new-game');
  const status = $('.status');
  const notice = $('.notice');
  let game = new Game();
  let match = { kind: 'local' }; // { kind: 'bot', level, human, seed } | { kind: 'local' } | { kind: 'online' }
  let session = null;
  let worker = null;
  let botToken = 0;
  let resigned = null;
  let clockTimer = null;

  const table = new Table({ onMove: (m) => userMove(m) });
  const moves = new MoveList({
    onSelect: (ply) => { current().seek(ply); render(); },
    pgnTags: () => tags(),
  });
  $('.table-slot').append(table.el);
  $('.game-card').insertBefore(moves.el, $('.actions'));

  const current = () => (match.kind === 'online' && session ? session.game : game);

  function tags() {
    const name = (c) => {
      if (match.kind === 'bot') return c === match.human ? 'You' : `Bot (${match.level})`;
      if (match.kind === 'online') return c === session?.color ? 'You' : 'Opponent';
      return COLOR_NAME[c];
    };
    return { Event: 'Hostage Chess game', Site: location.host || '?', White: name('w'), Black: name('b') };
  }

  function syncForm() {
    const opp = form.opponent.value;
    root.querySelector('.for-bot').hidden = opp !== 'bot';
    root.querySelector('.for-color').hidden = opp === 'local';
    root.querySelector('.for-online').hidden = opp !== 'online';
  }
  form.addEventListener('change', syncForm);
  syncForm();

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const opp = form.opponent.value;
    let color = form.color.value;
    notice.textContent = '';
    if (opp === 'online') {
      const [initial, inc] = form.clock.value.split('+').map(Number);
      startOnline(null, { color, clock: form.clock.value ? { initial_ms: initial * 1000, increment_ms: inc * 1000 } : null });
      return;
    }
    if (color === 'random') color = Math.random() < 0.5 ? 'white' : 'black';
    stopOnline();
    const human = color === 'black' ? 'b' : 'w';
    match = opp === 'bot'
      ? { kind: 'bot', level: form.level.value, human, seed: Math.floor(Math.random() * 2 ** 31) }
      : { kind: 'local' };
    newLocalGame(new Game());
    table.setFlipped(match.kind === 'bot' && human === 'b');
    afterChange();
  });

  function newLocalGame(g) {
    botToken++;
    game = g;
    resigned = null;
  }

  // ---- local games: saved and restored --------------------------------
  function save() {
    if (match.kind === 'online') return;
    localStorage.setItem(SAVE_KEY, JSON.stringify({ match, resigned, ...game.record() }));
  }

  function restore() {
    try {
      const saved = JSON.parse(localStorage.getItem(SAVE_KEY) ?? 'null');
      if (!saved || !['bot', 'local'].includes(saved.match?.kind)) return false;
      match = saved.match;
      newLocalGame(Game.from(saved.startFen, saved.history));
      resigned = saved.resigned ?? null;
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
    if (resigned) return false;
    if (match.kind === 'bot') return color === match.human;
    return true;
  }

  function userMove(move) {
    notice.textContent = '';
    if (match.kind === 'online') {
      session.move(move);
      return;
    }
    game.push(move);
    afterChange();
  }

  function afterChange() {
    save();
    render();
    maybeBot();
  }

  async function maybeBot() {
    if (match.kind !== 'bot' || resigned || game.board.isGameOver() || game.board.turn() === match.human) return;
    const token = ++botToken;
    worker ??= new EngineWorker();
    root.classList.add('thinking');
    render();
    try {
      const reply = await worker.play(game.board.startFen(), game.board.history(), { level: match.level, seed: match.seed });
      if (token !== botToken || !reply) return;
      game.push(reply.uci);
      afterChange();
    } catch (e) {
      if (token === botToken) notice.textContent = `The bot failed: ${errorText(e)}`;
    } finally {
      if (token === botToken) { root.classList.remove('thinking'); render(); }
    }
  }

  // ---- online -------------------------------------------------------------
  function startOnline(gameId, create) {
    stopOnline();
    botToken++;
    match = { kind: 'online' };
    session = new OnlineSession({
      onChange: (s) => {
        if (s.gameId && new URLSearchParams(location.search).get('game') !== s.gameId) {
          history.replaceState(null, '', `${gameLink(s.gameId)}#/play`);
        }
        table.setFlipped(s.color === 'b');
        render();
      },
      onNotice: (text) => { notice.textContent = text; },
    });
    if (gameId) session.open(gameId);
    else session.create(create.color, create.clock);
    clockTimer = setInterval(renderClocks, 200);
    render();
  }

  function stopOnline() {
    session?.close();
    session = null;
    clearInterval(clockTimer);
    if (new URLSearchParams(location.search).has('game')) history.replaceState(null, '', `${location.pathname}#/play`);
  }

  // ---- actions ------------------------------------------------------------
  root.querySelector('.actions').addEventListener('click', (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    if (act === 'flip') { table.setFlipped(!table.flipped); render(); }
    if (act === 'undo') undo();
    if (act === 'resign') resign();
    if (act === 'draw') session?.offerDraw();
  });
  root.querySelector('.online-info').addEventListener('click', async (ev) => {
    const act = ev.target.closest('[data-act]')?.dataset.act;
    if (act === 'accept-draw') session?.acceptDraw();
    if (act === 'decline-draw') session?.declineDraw();
    if (act === 'copy-link') {
      const input = $('.link');
      try { await navigator.clipboard.writeText(input.value); notice.textContent = 'Link copied.'; } catch { input.select(); }
    }
  });

  function undo() {
    if (match.kind === 'online' || game.ply === 0) return;
    botToken++;
    root.classList.remove('thinking');
    resigned = null;
    game.pop();
    if (match.kind === 'bot') while (game.ply > 0 && game.board.turn() !== match.human) game.pop();
    save();
    render();
  }

  function resign() {
    if (match.kind === 'online') {
      if (confirm('Resign this game?')) session.resign();
      return;
    }
    if (game.board.isGameOver() || resigned) return;
    const loser = match.kind === 'bot' ? match.human : game.board.turn();
    resigned = { termination: 'resignation', winner: other(loser) };
    botToken++;
    save();
    render();
  }

  // ---- drawing ------------------------------------------------------------
  function playerBar(el, color) {
    let name = COLOR_NAME[color];
    if (match.kind === 'bot') name += color === match.human ? ' · you' : ` · ${match.level} bot`;
    if (match.kind === 'online' && session) {
      const seated = session.state?.seats?.[color === 'w' ? 'white' : 'black'];
      name += color === session.color ? ' · you' : seated === false ? ' · waiting for a player' : ' · opponent';
    }
    const turn = current().shown().turn() === color && !current().board.isGameOver();
    el.innerHTML = `<span class="dot ${color}" aria-hidden="true"></span><span class="name">${name}</span><span class="clock" data-color="${color}" hidden></span>`;
    el.classList.toggle('to-move', turn);
  }

  function renderClocks() {
    for (const el of root.querySelectorAll('.clock')) {
      const ms = session?.clockMs(el.dataset.color) ?? null;
      el.hidden = ms === null;
      el.textContent = fmtClock(ms);
      el.classList.toggle('running', Boolean(session?.clocks?.running && session.clocks.running[0] === el.dataset.color && session.status === 'active'));
      el.classList.toggle('low', ms !== null && ms < 20_000);
    }
  }

  function render() {
    const g = current();
    const shown = g.shown();
    table.set(shown, { movable });
    const top = table.flipped ? 'w' : 'b';
    playerBar(table.playerTop, top);
    playerBar(table.playerBottom, other(top));
    moves.render(g);

    let text = statusText(shown);
    if (match.kind === 'online' && session) {
      if (session.result) text = resultText({ termination: session.result.termination, winner: session.result.winner && session.result.winner[0] });
      else if (session.status === 'waiting') text = 'Waiting for your friend to open the link…';
    } else if (resigned && g.atEnd) {
      text = resultText(resigned);
    } else if (match.kind === 'bot' && root.classList.contains('thinking')) {
      text += ' · the bot is thinking…';
    }
    if (!g.atEnd) text = `Move ${g.shownPly} of ${g.ply} (viewing) · ${text}`;
    status.textContent = text;
    document.body.dataset.fen = shown.fen();

    const online = match.kind === 'online' && session;
    $('.online-info').hidden = !online;
    if (online) {
      $('.conn').textContent = { online: 'Connected', connecting: 'Connecting…', offline: 'Offline: reconnecting…' }[session.connection] ?? '';
      $('.conn').dataset.state = session.connection;
      $('.link').value = session.gameId ? gameLink(session.gameId) : '';
      $('.invite').hidden = !session.gameId || session.status !== 'waiting' || !session.isPlayer;
      const offer = session.drawOffer && session.status === 'active';
      $('.draw-offer').hidden = !offer || session.drawOffer[0] === session.color || !session.isPlayer;
      $('.draw-offer span').textContent = offer ? `${session.drawOffer === 'white' ? 'White' : 'Black'} offers a draw.` : '';
      root.dataset.online = `${session.status}`;
      renderClocks();
    }
    const over = online ? session.status === 'finished' : g.board.isGameOver() || Boolean(resigned);
    root.querySelector('[data-act="undo"]').hidden = online;
    root.querySelector('[data-act="undo"]').disabled = g.ply === 0;
    root.querySelector('[data-act="draw"]').hidden = !online || !session.isPlayer;
    root.querySelector('[data-act="draw"]').disabled = over || session?.status !== 'active';
    root.querySelector('[data-act="resign"]').hidden = match.kind === 'local' || (online && !session.isPlayer);
    root.querySelector('[data-act="resign"]').disabled = over || (online && session.status !== 'active');
    root.dataset.match = match.kind;
    root.dataset.over = String(over);
  }

  // A shared link opens the online game; otherwise the saved local game.
  const linked = params.get('game');
  if (linked && /^[a-z0-9]{1,32}$/.test(linked)) {
    startOnline(linked);
  } else if (!restore()) {
    match = { kind: 'local' };
  }
  render();
  maybeBot();
  return { shown: render };
}
