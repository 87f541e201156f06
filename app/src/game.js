// A game record kept as the package keeps it: a live Board (start FEN plus
// the moves played) and the ply being looked at, for navigation.
import { Board } from './pkg.js';

export class Game {
  constructor(startFen) {
    this.board = startFen ? new Board(startFen) : new Board();
    this.viewPly = null; // null: the live position
    this.cache = null;
  }

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

  dropCache() {
    this.cache = null;
  }

  record() {
    return { startFen: this.board.startFen(), history: this.board.history() };
  }
}

const NAME = { w: 'White', b: 'Black' };
const TERMINATION = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  fifty_moves: 'fifty-move rule',
  threefold_repetition: 'threefold repetition',
  perpetual_check: 'perpetual check',
  resignation: 'resignation',
  agreement: 'agreement',
  timeout: 'time',
};

/** The result as words: { termination, winner: 'w' | 'b' | null } (package or server). */
export function resultText({ termination, winner }) {
  const how = TERMINATION[termination] ?? termination;
  return winner ? `${NAME[winner]} wins by ${how}` : `Draw by ${how}`;
}

/** One line about a position, every fact from the package. */
export function statusText(board) {
  const outcome = board.outcome();
  if (outcome) return resultText(outcome);
  const who = `${NAME[board.turn()]} to move`;
  if (board.isCheck()) return `${who}: check`;
  if (board.isPseudoCheck()) return `${who}: pseudo-check (a frozen pawn eyes the king)`;
  return who;
}
