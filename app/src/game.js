// A game record kept as the package keeps it: a live Board (start FEN plus
// the moves played) and the ply being looked at, for navigation.
import { Board } from './pkg.js';
import { resultText, resultToken } from './words.js';

export { resultText };

export class Game {
  constructor(startFen) {
    this.board = startFen ? new Board(startFen) : new Board();
    this.viewPly = null; // null: the live position
    this.cache = null;
    // A result decided off the board (resignation, time, agreement):
    // { termination, winner }. The board's own outcome wins when it has one.
    this.decided = null;
  }

  /** How the game ended ({ termination, winner }), on the board or off it, or null. */
  get outcome() {
    return this.board.outcome() ?? this.decided;
  }

  get over() { return Boolean(this.outcome); }

  /** A game from a start FEN and SAN moves (throws the package's error). */
  static from(startFen, history = []) {
    const g = new Game(startFen);
    for (const san of history) g.board.pushSan(san);
    return g;
  }

  /** A game from a PGN (throws the package's PgnError). */
  static fromPgn(text) {
    const g = new Game();
    g.board.free();
    g.board = Board.fromPgn(text);
    return g;
  }

  get ply() { return this.board.history().length; }
  get shownPly() { return this.viewPly ?? this.ply; }
  get atEnd() { return this.shownPly === this.ply; }

  /** Plays a move (object or text) at the live end; returns the move object. */
  push(move) {
    const m = this.board.push(move);
    this.viewPly = null;
    this.dropCache();
    return m;
  }

  /** Plays a move at the shown ply, dropping the moves after it (analysis). */
  pushHere(move) {
    while (this.ply > this.shownPly) this.board.pop();
    return this.push(move);
  }

  pop() {
    this.decided = null;
    const m = this.board.pop();
    this.viewPly = null;
    this.dropCache();
    return m;
  }

  seek(ply) {
    const p = Math.max(0, Math.min(this.ply, ply));
    this.viewPly = p === this.ply ? null : p;
    this.dropCache();
  }

  /** The Board for the shown ply (the live one at the end; a copy otherwise). */
  shown() {
    if (this.viewPly === null) return this.board;
    if (!this.cache) {
      this.cache = this.board.clone();
      for (let i = this.ply; i > this.viewPly; i--) this.cache.pop();
    }
    return this.cache;
  }

  /** Frees the package objects (the game is not used after this). */
  free() {
    this.cache?.free();
    this.cache = null;
    this.board.free();
  }

  dropCache() {
    this.cache = null;
  }

  record() {
    return { startFen: this.board.startFen(), history: this.board.history() };
  }

  /**
   * The PGN with `tags`. A result decided off the board (a resignation, a
   * flag, an agreed draw, an abandonment) goes to the package, which writes
   * its Result and Termination tags and checks it against the board.
   */
  pgn(tags = {}) {
    const decided = this.board.outcome() ? null : this.decided;
    // An aborted game has no result: the PGN of a game that did not end.
    if (!decided || decided.termination === 'aborted') return this.board.pgn(tags);
    const reason = END_REASON[decided.termination];
    return this.board.pgn(tags, { result: resultToken(decided), ...(reason ? { reason } : {}) });
  }
}

/** Today as a PGN Date tag value (YYYY.MM.DD, local time). */
export function pgnDate(d = new Date()) {
  return `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
}

/** The package's reasons for a game decided off the board, by the app's termination names. */
const END_REASON = {
  resignation: 'resignation',
  timeout: 'time_forfeit',
  time_forfeit: 'time_forfeit',
  agreement: 'agreement',
  abandoned: 'abandonment',
  abandonment: 'abandonment',
};

const NAME = { w: 'White', b: 'Black' };

/** One line about a position, every fact from the package. */
export function statusText(board) {
  const outcome = board.outcome();
  if (outcome) return resultText(outcome);
  const who = `${NAME[board.turn()]} to move`;
  if (board.isCheck()) return `${who}: check`;
  if (board.isPseudoCheck()) return `${who}: pseudo-check (a frozen pawn eyes the king)`;
  return who;
}


/** Where Play's "Analyse this game" leaves the game's PGN for Analyse (sessionStorage). */
export const ANALYSE_IMPORT_KEY = 'hostage.analyse.import';
