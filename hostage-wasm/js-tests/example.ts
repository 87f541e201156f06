// Type-checked with `tsc --strict --noEmit` (js-tests/tsconfig.json) against
// the built package's declarations: the unions narrow as a user expects.
import { Board, isHostageError } from 'hostage-chess';
import type { Color, ErrorCode, Move, Outcome, Reserve, Role, Square } from 'hostage-chess';

const board: Board = new Board();
board.pushSan('e4');
const moves: Move[] = board.legalMoves();
for (const m of moves) {
  switch (m.kind) {
    case 'exchange': {
      const pair: [Role, Role] = [m.released, m.rescued];
      console.log(pair, m.to);
      break;
    }
    case 'drop': {
      const from: null = m.from;
      console.log(from, m.role);
      break;
    }
    default: {
      const from: Square = m.from;
      console.log(from, m.to, m.promotion, m.capture);
    }
  }
}
const turn: Color = board.turn();
const prison: Reserve = board.prisons()[turn];
const count: number = prison.queen + prison.pawn;
const outcome: Outcome | null = board.outcome();
const winner: Color | null = outcome ? outcome.winner : null;
const dests: Map<Square, Square[]> = board.dests();
const hash: bigint = board.hash();
try {
  board.pushSan('Ke5');
} catch (e: unknown) {
  if (isHostageError(e)) {
    const code: ErrorCode = e.code;
    console.log(e.name, code, e.message);
  }
}
board.push(moves[0]);
console.log(count, winner, dests.size, hash, board.pgn({ White: 'A' }), Board.fromPgn(board.pgn()).fen());
board.free();
