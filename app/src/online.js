// The client of `hostage serve` (docs/protocol.md, version 1): a WebSocket
// that reconnects by itself, and an online game session on top of it that
// keeps the seat token in localStorage, resumes after a reload or a server
// restart, resends a move whose acknowledgement was lost (same ply: the
// server makes it idempotent) and counts the clocks down between messages.
// The server is the authority; the local Board only mirrors its moves (the
// package checks each one again, and any disagreement triggers a resync).
import { Game } from './game.js';

const V = 1;
const COLOR = { white: 'w', black: 'b' };
const COLOR_WIRE = { w: 'white', b: 'black' };
const TOKEN_KEY = (game) => `hostage.online.token.${game}`;
/** The server's error codes (docs/protocol.md) in words. */
const SERVER_WORDS = {
  illegal_move: 'That move is not legal in the game as the server has it.',
  not_your_turn: 'It is not your turn.',
  ply_mismatch: 'The game had moved on: it is shown as it stands now.',
  game_over: 'The game is over.',
  game_not_started: 'The game starts when your friend opens the link.',
  cannot_abort: 'Both sides have moved: the game can no longer be aborted.',
  claim_too_early: 'Not yet: your opponent has not been gone long enough.',
  invalid_token: 'This browser no longer holds a seat in this game: you are watching it.',
  rate_limited: 'Too many messages: wait a moment.',
  no_takeback: 'There is no move of yours to take back.',
  takeback_already_offered: 'A takeback request already stands.',
  no_takeback_offer: 'There is no takeback request to answer any more.',
  invalid_name: 'That name is not allowed: 1 to 20 letters or digits, spaces, _ - or .',
  invalid_chat: 'A chat message is 1 to 140 characters of plain text on one line.',
  chat_too_fast: 'You are chatting too fast: wait a few seconds.',
  chat_full: 'This game’s chat is full.',
};
/**
 * `text` trimmed if it is a display name the server accepts (1 to 20
 * letters or digits of any script, spaces, _ - or .; no two spaces in a
 * row), else '' (then no name is sent: the game matters more than the name).
 */
export function validName(text) {
  const name = String(text ?? '').trim();
  const ok = /^[\p{L}\p{N} _.-]{1,20}$/u.test(name) && !name.includes('  ') && /[\p{L}\p{N}]/u.test(name);
  return ok ? name : '';
}

/** The longest chat line, in characters (docs/protocol.md, chat). */
export const CHAT_MAX_CHARS = 140;

/** ws://host/ws for the page's own origin (the server serves the app). */
export function defaultSocketUrl() {
  const u = new URL('/ws', location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.href;
}

/** The link to share for a game (the protocol's "/?game=<id>", kept on this page's path). */
export function gameLink(game) {
  const u = new URL(location.href);
  u.search = `?game=${encodeURIComponent(game)}`;
  u.hash = '';
  return u.href;
}

/** A WebSocket that reconnects with a growing delay (0.5 s doubling to 5 s). */
export class Connection {
  constructor(url, { onOpen, onMessage, onStatus }) {
    Object.assign(this, { url, onOpen, onMessage, onStatus });
    this.delay = 500;
    this.ws = null;
    this.closed = false;
    this.nextId = 1;
    this.open();
  }

  open() {
    if (this.closed) return;
    this.onStatus('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus('online');
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg && typeof msg === 'object') this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.retry();
    };
  }

  retry() {
    if (this.closed) return;
    this.onStatus('offline', this.delay);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  get ready() { return this.ws?.readyState === WebSocket.OPEN; }

  /** Sends a message (v added); returns its id, or null when offline. */
  send(msg) {
    if (!this.ready) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ v: V, ...msg, id }));
    return id;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }
}

/**
 * One online game. `onChange(session)` after every change; `onNotice(text)`
 * for things to tell the user (errors, the opponent joined...).
 */
export class OnlineSession {
  constructor({ url = defaultSocketUrl(), onChange, onNotice }) {
    this.onChange = onChange;
    this.onNotice = onNotice;
    this.gameId = null;
    this.token = null;
    this.color = null; // 'w' | 'b' | null (a spectator)
    this.game = new Game();
    this.status = 'connecting';
    this.connection = 'connecting';
    this.state = null;
    this.clocks = null;
    this.clocksAt = 0;
    this.drawOffer = null;
    // What to say about our draw offer: 'sent' while it stands, 'declined'
    // once the opponent declined it, 'withdrawn' once a move withdrew an
    // offer; null when nothing is true any more (the next move, the end).
    this.offerNote = null;
    // A standing takeback request, by 'white' | 'black' (docs/protocol.md,
    // Takebacks), and what to say about takebacks: 'sent' while ours
    // stands, 'declined' once the opponent declined it, 'you-declined' once
    // we declined theirs, 'withdrawn' once a move withdrew one, 'accepted'
    // once moves were taken back; null when nothing is true any more.
    this.takeback = null;
    this.takebackNote = null;
    this.limits = null; // the server's limits, from `hello`
    this.firstMoveBy = null; // performance.now() by which the side to move's first move is due
    this.gone = null; // { color, claimAt }: the opponent left; a claim is accepted from performance.now() claimAt
    this.rematch = null; // the finished game's rematch id, once a player asked
    this.pending = null; // { move, ply } sent and not yet acknowledged
    this.intent = null; // what to do on (re)connect: { create } | { open }
    this.name = ''; // our display name, sent on create and join ('' for none)
    this.names = { w: null, b: null }; // each seat's display name, from the server
    this.chat = []; // the game's chat lines { index, by: 'w' | 'b', text, at_ms }, by index
    this.createdMs = null; // when the game was created (ms since the epoch), from `state`
    // A correspondence game's deadline for the side to move (the server's
    // wall clock, ms since the epoch), and how far this browser's clock is
    // ahead of the server's (from `state`'s deadline_left_ms), or null.
    this.deadlineMs = null;
    this.deadlineSkew = 0;
    // A rated game's ratings as it began ({ white: { rating, provisional },
    // black }) and, once over, each side's { before, after, diff }; null
    // for an unrated game (docs/protocol.md, Ratings).
    this.ratings = null;
    this.ratingChanges = null;
    this.conn = new Connection(url, {
      onOpen: () => this.greet(),
      onMessage: (m) => this.receive(m),
      onStatus: (s, delay) => {
        this.connection = s;
        if (s === 'offline') this.onNotice(`Connection lost; retrying in ${(delay / 1000).toFixed(1)} s…`, 'warning');
        if (s === 'online') this.onNotice('', 'info');
        this.onChange(this);
      },
    });
  }

  /** Creates a game: color 'white' | 'black' | 'random', clock null or { initial_ms, increment_ms }. */
  create(color, clock, name = '') {
    this.name = validName(name);
    this.intent = { create: { color, clock } };
    if (this.conn.ready) this.greet();
  }

  /** Opens a game from a link: resume with a stored token, else join, else watch. */
  open(gameId, name = '') {
    this.name = validName(name);
    this.gameId = gameId;
    this.token = localStorage.getItem(TOKEN_KEY(gameId));
    this.intent = { open: gameId };
    if (this.conn.ready) this.greet();
  }

  greet() {
    if (this.missing) return;
    if (this.gameId && this.token) {
      this.conn.send({ type: 'resume', game: this.gameId, token: this.token });
    } else if (this.gameId && this.watching) {
      this.conn.send({ type: 'watch', game: this.gameId });
    } else if (this.gameId) {
      this.conn.send({ type: 'join', game: this.gameId, ...(this.name ? { name: this.name } : {}) });
    } else if (this.intent?.create) {
      const { color, clock } = this.intent.create;
      this.intent = null;
      this.conn.send({ type: 'create', color, ...(clock ? { clock } : {}), ...(this.name ? { name: this.name } : {}) });
    }
  }

  receive(m) {
    // The answer to our `rematch` is about the new game: this session moves there.
    if (m.type === 'rematched' && m.rematch_of === this.gameId) {
      this.enterRematch(m);
      this.onChange(this);
      return;
    }
    if (m.game && this.gameId && m.game !== this.gameId) return;
    switch (m.type) {
      case 'hello':
        this.limits = m.limits ?? null;
        return;
      case 'created':
      case 'joined':
        this.gameId = m.game;
        this.token = m.token;
        this.color = COLOR[m.color];
        localStorage.setItem(TOKEN_KEY(m.game), m.token);
        break;
      case 'resumed':
        this.color = COLOR[m.color];
        break;
      case 'watching':
        this.watching = true;
        this.color = null;
        break;
      case 'state':
        this.applyState(m);
        break;
      case 'player_joined':
        if (COLOR[m.color]) this.names[COLOR[m.color]] = m.name ?? null;
        this.status = 'active';
        if (this.state) this.state.seats = { white: true, black: true };
        this.setClocks(m.clocks);
        this.setDeadline(m.deadline_ms);
        this.armFirstMove(this.game.ply < 2 ? this.limits?.first_move_ms : null);
        this.onNotice('Your opponent has joined: the game starts.', 'success');
        break;
      case 'moved':
        this.applyMoved(m);
        break;
      case 'chat':
        this.addChat(m);
        break;
      case 'opponent_gone':
        if (COLOR[m.color] !== this.color) this.gone = { color: COLOR[m.color], claimAt: performance.now() + (m.claim_after_ms ?? 0) };
        break;
      case 'opponent_back':
        if (this.gone?.color === COLOR[m.color]) this.gone = null;
        break;
      case 'draw_offered':
        this.drawOffer = m.by;
        this.offerNote = COLOR[m.by] === this.color ? 'sent' : null;
        break;
      case 'rematch_offered':
        this.rematch = m.rematch;
        if (this.isPlayer) this.onNotice('Your opponent wants a rematch.', 'info');
        break;
      case 'draw_declined':
        this.drawOffer = null;
        this.offerNote = this.isPlayer && COLOR[m.by] !== this.color ? 'declined' : null;
        break;
      case 'takeback_offered':
      case 'takeback_declined':
      case 'taken_back':
        this.applyTakeback(m);
        break;
      case 'game_over':
        this.takeback = null;
        this.takebackNote = null;
        this.status = 'finished';
        this.result = { result: m.result, termination: m.termination, winner: COLOR[m.winner] ?? null };
        this.game.decided = this.result;
        this.drawOffer = null;
        this.offerNote = null;
        this.firstMoveBy = null;
        this.gone = null;
        this.setClocks(m.clocks);
        this.deadlineMs = null;
        this.ratingChanges = m.ratings ?? null;
        break;
      case 'error':
        this.error(m);
        break;
      default:
        return; // hello, pong, unwatched and anything newer: nothing to show
    }
    this.onChange(this);
  }

  error(m) {
    if ((m.code === 'game_full' || m.code === 'game_over') && !this.token && !this.watching) {
      // Both seats are taken, or the game is over: follow it as a spectator
      // (the server then sends its state: moves, result, clocks).
      this.watching = true;
      this.conn.send({ type: 'watch', game: this.gameId });
      if (m.code === 'game_full') this.onNotice('Both seats are taken: you are watching this game.', 'info');
      return;
    }
    if (m.code === 'game_not_found') {
      // A plain sentence (status), no error box: nothing more to try.
      this.missing = true;
      this.status = 'missing';
      this.onNotice('', 'info');
      this.onChange(this);
      return;
    }
    if (m.code === 'claim_too_early' && this.gone) this.gone.claimAt = performance.now() + 1000;
    if (m.code === 'invalid_token') {
      localStorage.removeItem(TOKEN_KEY(this.gameId));
      this.token = null;
    }
    if (this.pending && ['illegal_move', 'not_your_turn', 'ply_mismatch', 'game_over', 'invalid_move', 'game_not_started'].includes(m.code)) {
      // Our move was refused: the server's state is the truth.
      this.pending = null;
      this.greet();
    }
    this.onNotice(SERVER_WORDS[m.code] ?? 'The server refused that. The game is shown as the server has it.', 'error');
  }

  applyState(s) {
    this.state = s;
    this.gameId = s.game;
    this.color = COLOR[s.you] ?? null;
    this.status = s.status;
    this.drawOffer = s.draw_offer;
    this.offerNote = this.color && COLOR[s.draw_offer] === this.color ? 'sent' : null;
    this.armFirstMove(s.first_move_ms);
    this.takeback = s.takeback ?? null;
    this.takebackNote = this.color && COLOR[s.takeback] === this.color ? 'sent' : null;
    this.gone = null; // the server says again, right after the state, who is gone
    this.rematch = s.rematch ?? null;
    this.names = { w: s.names?.white ?? null, b: s.names?.black ?? null };
    this.createdMs = typeof s.created_ms === 'number' ? s.created_ms : null;
    this.ratings = s.rated === true && s.ratings ? s.ratings : null;
    this.ratingChanges = s.rated === true && s.rating_changes ? s.rating_changes : null;
    this.chat = [];
    for (const line of s.chat ?? []) this.addChat(line);
    this.result = s.status === 'finished' ? { result: s.result, termination: s.termination, winner: COLOR[s.winner] ?? null } : null;
    const game = new Game(s.start_fen);
    for (const m of s.moves) game.push(m.move);
    game.decided = this.result;
    this.game = game;
    this.setClocks(s.clocks);
    this.deadlineMs = null;
    if (typeof s.deadline_ms === 'number') {
      this.deadlineSkew = typeof s.deadline_left_ms === 'number' ? Date.now() + s.deadline_left_ms - s.deadline_ms : 0;
      this.deadlineMs = s.deadline_ms;
    }
    if (this.pending) {
      const stored = s.moves[this.pending.ply];
      if (stored) this.pending = null; // it (or another move) was stored
      else if (s.ply === this.pending.ply && s.status === 'active') this.sendMove(this.pending.move, this.pending.ply);
    }
  }

  applyMoved(m) {
    this.setClocks(m.clocks);
    if (!m.duplicate) this.setDeadline(m.deadline_ms);
    this.drawOffer = m.draw_offer ?? null;
    // A move withdraws a standing offer: the notes about it stop being true.
    this.offerNote = m.draw_offer_withdrawn && !m.duplicate ? 'withdrawn' : null;
    if (!m.duplicate) {
      this.takeback = null;
      this.takebackNote = m.takeback_withdrawn && this.isPlayer ? 'withdrawn' : null;
    }
    if (!m.duplicate) this.armFirstMove(m.ply === 0 ? this.limits?.first_move_ms : null);
    if (this.pending && this.pending.ply === m.ply) this.pending = null;
    const have = this.game.ply;
    if (m.ply === have) {
      try {
        this.game.push(m.move);
      } catch {
        this.greet(); // we disagree with the server: take its state
      }
    } else if (m.ply > have || this.game.board.historyMoves()[m.ply]?.uci !== m.move) {
      this.greet();
    }
  }

  /** A takeback request made, declined, or accepted (the moves taken back). */
  applyTakeback(m) {
    const mine = COLOR[m.by] === this.color;
    if (m.type === 'takeback_offered') {
      this.takeback = m.by;
      this.takebackNote = this.isPlayer && mine ? 'sent' : null;
      return;
    }
    this.takeback = null;
    if (m.type === 'takeback_declined') {
      this.takebackNote = this.isPlayer ? (mine ? 'you-declined' : 'declined') : null;
      return;
    }
    // taken_back: the last `plies` moves are gone; the position must then
    // be the server's, else its state is the truth.
    this.takebackNote = this.isPlayer ? 'accepted' : null;
    if (m.draw_offer_withdrawn) { this.drawOffer = null; this.offerNote = null; }
    if (this.pending && this.pending.ply >= m.ply) this.pending = null;
    while (this.game.ply > m.ply) this.game.pop();
    this.setClocks(m.clocks);
    this.setDeadline(m.deadline_ms);
    this.armFirstMove(m.ply < 2 ? this.limits?.first_move_ms : null);
    if (this.game.ply !== m.ply || this.game.board.fen() !== m.fen) this.greet();
  }

  /** Whether we may ask for a takeback: a player of a game going on, with a move of ours to take back, none standing. */
  get canProposeTakeback() {
    if (!this.isPlayer || this.status !== 'active' || this.takeback || this.pending) return false;
    return this.game.ply >= (this.game.board.turn() === this.color ? 2 : 1);
  }

  /** Whether the opponent's takeback request waits for our answer. */
  get takebackToAnswer() {
    return this.isPlayer && this.status === 'active' && Boolean(this.takeback) && COLOR[this.takeback] !== this.color;
  }

  /** Adds a chat line from the server (a line already held, by its index, is kept once). */
  addChat(m) {
    if (typeof m.index !== 'number' || typeof m.text !== 'string' || !COLOR[m.by]) return;
    if (this.chat.some((l) => l.index === m.index)) return;
    this.chat.push({ index: m.index, by: COLOR[m.by], text: m.text, at_ms: m.at_ms ?? 0 });
    this.chat.sort((a, b) => a.index - b.index);
  }

  /** Posts a chat line (players only); false when it cannot be sent. */
  sendChat(text) {
    if (!this.isPlayer) return false;
    const line = text.trim();
    if (!line) return false;
    if (this.conn.send({ type: 'chat', game: this.gameId, token: this.token, text: line }) === null) {
      this.onNotice('Offline: try again when reconnected.');
      return false;
    }
    return true;
  }

  /** Counts the first move due (ms from now), or clears it (null); a correspondence game has its deadline instead. */
  armFirstMove(ms) {
    this.firstMoveBy = typeof ms === 'number' && this.clocksSpec() && !this.daysPerMove ? performance.now() + ms : null;
  }

  /** A correspondence game's days per move, or null. */
  get daysPerMove() {
    const days = this.state?.clock?.days;
    return Number.isInteger(days) ? days : null;
  }

  /** Keeps a deadline the server told (ms since the epoch, its clock); anything else leaves it. */
  setDeadline(ms) {
    if (typeof ms === 'number') this.deadlineMs = ms;
  }

  /** The side to move's deadline in this browser's clock (ms since the epoch), or null. */
  deadlineAt() {
    if (this.deadlineMs === null || this.status !== 'active') return null;
    return this.deadlineMs + this.deadlineSkew;
  }

  /** Ms left before the side to move's deadline, or null when none runs. */
  deadlineLeft() {
    const at = this.deadlineAt();
    return at === null ? null : Math.max(0, at - Date.now());
  }

  /** The time control, or null for an untimed game. */
  clocksSpec() { return this.state?.clock ?? null; }

  /** Whole seconds left for the first move due, or null when none is. */
  firstMoveSeconds() {
    if (this.firstMoveBy === null || this.status !== 'active') return null;
    return Math.max(0, Math.ceil((this.firstMoveBy - performance.now()) / 1000));
  }

  /** Whole seconds until a claim against the gone opponent is accepted (0: now), or null when the opponent is here. */
  claimSeconds() {
    if (!this.gone || !this.isPlayer || this.status !== 'active') return null;
    return Math.max(0, Math.ceil((this.gone.claimAt - performance.now()) / 1000));
  }

  /** Whether our own draw offer stands (the opponent has not answered it). */
  get ownOfferStands() {
    return this.isPlayer && Boolean(this.drawOffer) && COLOR[this.drawOffer] === this.color;
  }

  /** Whether this player may still abort: before both sides' first moves. */
  get canAbort() {
    return this.isPlayer && ['waiting', 'active'].includes(this.status) && this.game.ply < 2;
  }

  setClocks(clocks) {
    this.clocks = clocks ?? null;
    this.clocksAt = performance.now();
  }

  /** Remaining ms for 'w' | 'b' now, or null for an untimed game. */
  clockMs(color) {
    if (!this.clocks) return null;
    const wire = COLOR_WIRE[color];
    let ms = this.clocks[`${wire}_ms`];
    if (this.clocks.running === wire && this.status === 'active') ms -= performance.now() - this.clocksAt;
    return Math.max(0, ms);
  }

  get isPlayer() { return this.color !== null && Boolean(this.token); }

  canMove(color) {
    return this.isPlayer && this.status === 'active' && color === this.color && !this.pending;
  }

  /** Plays our move: shown at once, sent with its ply, resent after a reconnect if unacknowledged. */
  move(moveObj) {
    const ply = this.game.ply;
    this.game.push(moveObj);
    this.pending = { move: moveObj.uci, ply };
    this.sendMove(moveObj.uci, ply);
    this.onChange(this);
  }

  sendMove(move, ply) {
    this.conn.send({ type: 'move', game: this.gameId, token: this.token, move, ply });
  }

  seatAction(type) {
    if (!this.isPlayer) return;
    if (this.conn.send({ type, game: this.gameId, token: this.token }) === null) this.onNotice('Offline: try again when reconnected.');
  }

  /** Asks for a rematch of the finished game, or accepts the opponent's (the same message). */
  requestRematch() { this.seatAction('rematch'); }

  /** Moves this session to the rematch the server seated us in (its `state` follows). */
  enterRematch(m) {
    const old = this.gameId;
    localStorage.setItem(TOKEN_KEY(m.game), m.token);
    this.conn.send({ type: 'unwatch', game: old });
    Object.assign(this, {
      gameId: m.game, token: m.token, color: COLOR[m.color], intent: { open: m.game },
      state: null, status: 'waiting', result: null, drawOffer: null, offerNote: null, takeback: null, takebackNote: null, firstMoveBy: null, gone: null, rematch: null, pending: null,
      names: { w: null, b: null }, chat: [], createdMs: null, deadlineMs: null, ratings: null, ratingChanges: null,
      watching: false, missing: false, game: new Game(), rematchOf: old,
    });
    this.setClocks(null);
    this.onNotice('', 'info'); // the old game's notices (the offer) are done
  }

  resign() { this.seatAction('resign'); }
  abort() { this.seatAction('abort'); }
  claimWin() { this.seatAction('claim_win'); }
  claimDraw() { this.seatAction('claim_draw'); }
  offerDraw() { this.seatAction('offer_draw'); }
  acceptDraw() { this.seatAction('accept_draw'); }
  declineDraw() { this.seatAction('decline_draw'); }
  proposeTakeback() { this.seatAction('propose_takeback'); }
  acceptTakeback() { this.seatAction('accept_takeback'); }
  declineTakeback() { this.seatAction('decline_takeback'); }

  close() {
    this.conn.close();
  }
}
