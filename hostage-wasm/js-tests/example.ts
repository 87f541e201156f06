// Type-checked with `tsc --strict --noEmit` (js-tests/tsconfig.json) against
// the built package's declarations: the unions narrow as a user expects.
import { Board, Setup, isHostageError } from 'hostage-chess';
import type {
  Color, EndReason, ErrorCode, Move, Outcome, PgnEnd, PgnResult, Reserve, Role, Square,
  SvgOptions,
} from 'hostage-chess';
import { courseData } from 'hostage-chess/puzzles';
import type { Course, CourseTask } from 'hostage-chess/puzzles';

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
const options: SvgOptions = {
  size: 320,
  flipped: true,
  lastMove: true,
  arrows: [{ from: 'e2', to: 'e4' }, { from: 'g8', to: 'f6', color: 'red' }],
  marks: [{ square: 'd5', color: '#ffcc00' }],
};
const image: string = board.svg(options) + board.svg() + board.svg({ lastMove: moves[0] });
const course: Course = courseData();
const task: CourseTask = course.lessons[0].tasks[0];
const answers: string[] = task.kind === 'find_move' ? task.answers ?? [] : [];
console.log(image.length, new Board(task.fen).fen(), answers);
console.log(count, winner, dests.size, hash, board.pgn({ White: 'A' }), Board.fromPgn(board.pgn()).fen());
// Analysis queries, text and editing.
const attackers: Square[] = board.attackers('e4', 'w').concat(board.attacks('g1'), board.pinned());
const line: Square[] | null = board.pinLine('e2');
const king: Square = board.king('b');
const knights: Square[] = board.findPiece({ color: 'w', role: 'knight' });
const checks: boolean = board.givesCheck(moves[0]) || board.isCapture('e4') || board.isDrop(moves[0]);
const text: string = board.ascii() + board.unicode() + board.toString() + board.boardFen() + board.lan(moves[0]);
const variation: string = board.variationSan([moves[0], 'e2e4']);
const editor: Setup = board.setup();
editor.put({ color: 'w', role: 'queen' }, 'd4');
editor.setPrison('b', { pawn: 1 });
const status: ErrorCode | null = editor.status();
const same: boolean = Board.fromSetup(new Setup()).equals(board.mirror()) || editor.isValid();
console.log(attackers, line, king, knights, checks, text, variation, status, same, editor.turn());
// Frozen pawns and a result decided off the board.
const frozen: Square[] = board.frozenPawns().concat(board.frozenPawns('w'), board.pseudoCheckers());
const reason: EndReason = 'resignation';
const result: PgnResult = '0-1';
const end: PgnEnd = { result, reason };
console.log(frozen, board.pgn({ White: 'A' }, end), board.pgn(null, { reason: 'abandonment' }));
board.free();
