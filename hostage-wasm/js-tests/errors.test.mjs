// Every bad input throws a real Error with name and code, never a trap
// (WebAssembly.RuntimeError) and never a string; failed pushes change nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { hostage } from './helpers.mjs';

const { Board, isHostageError, isValidFen } = hostage;
const AFTER_EXD5 = 'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3';

function throwsCode(fn, code, name) {
  let caught;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught !== undefined, `expected a throw with code ${code}`);
  assert.ok(caught instanceof Error, `threw a non-Error: ${String(caught)}`);
  assert.ok(!(caught instanceof WebAssembly.RuntimeError), `trapped: ${caught}`);
  assert.equal(caught.code, code, `${caught.name}: ${caught.message}`);
  if (name) assert.equal(caught.name, name);
  assert.ok(isHostageError(caught));
  assert.equal(typeof caught.message, 'string');
  assert.ok(caught.message.length > 0);
  return caught;
}

const HUGE = 'x'.repeat(5_000_000);

test('bad FEN: FenError / PositionError with the core code', () => {
  throwsCode(() => new Board(''), 'invalid_fen', 'FenError');
  throwsCode(() => new Board('junk'), 'invalid_board', 'FenError');
  throwsCode(() => new Board('8/8/8/8/8/8/8/8[] w - - 0 1'), 'missing_king', 'PositionError');
  throwsCode(() => new Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w - - 0 1'), 'king_in_reserve', 'PositionError');
  throwsCode(() => new Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[x] w - - 0 1'), 'invalid_reserves', 'FenError');
  throwsCode(() => new Board('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] x KQkq - 0 1'), 'invalid_turn');
  assert.equal(isValidFen('junk'), false);
  assert.equal(isValidFen(AFTER_EXD5), true);
  assert.equal(isValidFen(42), false);
});

test('NUL bytes, huge and non-ASCII strings never trap', () => {
  for (const text of ['\0', 'e4\0', `${AFTER_EXD5}\0`, '\u{1F600}', '\uD800', 'é4', HUGE]) {
    const fenError = throwsCode(() => new Board(text), text.startsWith('rnb1') ? 'invalid_fullmoves' : 'invalid_board');
    assert.equal(fenError.name, 'FenError');
    const board = new Board(AFTER_EXD5);
    for (const push of ['push', 'pushSan', 'pushUci']) {
      const e = (() => { try { board[push](text); } catch (err) { return err; } return null; })();
      assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `${push}(${JSON.stringify(text.slice(0, 8))})`);
      assert.match(e.code, /^(invalid|illegal)_(san|uci)$/);
      assert.equal(board.fen(), AFTER_EXD5);
    }
    assert.equal(board.isLegal(text), false);
    throwsCode(() => board.pieceAt(text), 'invalid_square', 'SquareError');
    throwsCode(() => Board.fromPgn(text), text === HUGE ? 'pgn_limit' : 'pgn_illegal_move', 'PgnError');
  }
});

test('junk SAN and UCI: InvalidMoveError / IllegalMoveError / AmbiguousMoveError', () => {
  const board = new Board(AFTER_EXD5);
  throwsCode(() => board.pushSan('Nz3'), 'invalid_san', 'InvalidMoveError');
  throwsCode(() => board.pushSan('Ke5'), 'illegal_san', 'IllegalMoveError');
  throwsCode(() => board.pushUci('e2'), 'invalid_uci', 'InvalidMoveError');
  throwsCode(() => board.pushUci('e2e5'), 'illegal_uci', 'IllegalMoveError');
  throwsCode(() => board.pushUci('K#P@e4'), 'invalid_uci', 'InvalidMoveError');
  throwsCode(() => board.push('zz'), 'invalid_san', 'InvalidMoveError');
  throwsCode(() => board.push({ uci: 'a1a8' }), 'illegal_uci', 'IllegalMoveError');
  const promo = new Board('k7/4P3/8/8/8/8/8/4K3[#QN] w - - 0 1');
  throwsCode(() => promo.pushSan('e8'), 'ambiguous_san', 'AmbiguousMoveError');
  assert.equal(board.fen(), AFTER_EXD5);
  assert.equal(board.ply(), 0);
});

test('a move object from another position is refused, board unchanged', () => {
  const start = new Board();
  const other = new Board(AFTER_EXD5);
  const exchange = other.legalMoves().find((m) => m.kind === 'exchange');
  throwsCode(() => start.push(exchange), 'illegal_uci', 'IllegalMoveError');
  assert.equal(start.fen(), new Board().fen());
  assert.equal(start.isLegal(exchange), false);
  assert.equal(other.isLegal(exchange), true);
});

test('wrong argument types: TypeError with code invalid_argument', () => {
  const board = new Board();
  for (const bad of [42, null, undefined, {}, [], true, 1n, Symbol('s'), () => 'e4']) {
    throwsCode(() => board.push(bad), 'invalid_argument', 'TypeError');
    throwsCode(() => board.pushSan(bad), 'invalid_argument', 'TypeError');
    throwsCode(() => board.pushUci(bad), 'invalid_argument', 'TypeError');
    throwsCode(() => board.pieceAt(bad), 'invalid_argument', 'TypeError');
    throwsCode(() => board.isLegal(bad), 'invalid_argument', 'TypeError');
    throwsCode(() => Board.fromPgn(bad), 'invalid_argument', 'TypeError');
    if (typeof bad !== 'number') throwsCode(() => board.perft(bad), 'invalid_argument', 'TypeError');
  }
  for (const bad of [42, {}, true]) throwsCode(() => new Board(bad), 'invalid_argument', 'TypeError');
  for (const bad of [-1, 1.5, NaN, Infinity, 65]) throwsCode(() => board.perft(bad), 'invalid_argument');
  throwsCode(() => board.pgn({ White: 42 }), 'invalid_argument', 'TypeError');
  assert.equal(board.fen(), new Board().fen());
  assert.equal(board.ply(), 0);
});

test('PGN errors carry the core code', () => {
  throwsCode(() => Board.fromPgn(''), 'pgn_syntax', 'PgnError');
  throwsCode(() => Board.fromPgn('1. e4 e4'), 'pgn_illegal_move', 'PgnError');
  throwsCode(() => Board.fromPgn('[FEN "junk"]\n\n*'), 'pgn_fen', 'PgnError');
  throwsCode(() => Board.fromPgn('[Variant "Crazyhouse"]\n\n1. e4 *'), 'pgn_variant', 'PgnError');
});

test('the board still works after many errors (no leaked state)', () => {
  const board = new Board();
  for (let i = 0; i < 2000; i++) {
    try { board.pushSan(`junk${i}`); } catch { /* expected */ }
    try { new Board(`bad${i}`); } catch { /* expected */ }
  }
  board.pushSan('e4');
  assert.deepEqual(board.history(), ['e4']);
});
