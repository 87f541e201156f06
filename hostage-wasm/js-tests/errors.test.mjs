// Every bad input throws a real Error with name and code, never a trap
// (WebAssembly.RuntimeError) and never a string; failed pushes change nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { hostage, PKG, ROOT } from './helpers.mjs';

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

test('an IllegalMoveError says why: reason, and the clause ends the message', () => {
  const cases = [
    // [fen, push method, text, code, reason, clause]
    [undefined, 'pushSan', 'Qh5', 'illegal_san', 'path_blocked', 'another man is in the way'],
    ['4k3/8/8/8/8/4r3/8/4K3[] w - - 0 1', 'pushSan', 'Ke2', 'illegal_san',
      'leaves_king_in_check', "the mover's king would be in check"],
    [undefined, 'pushUci', 'e2e5', 'illegal_uci', 'wrong_way', 'that man does not move that way'],
    ['4k3/P7/8/8/8/8/8/4K3[] w - - 0 1', 'push', 'a8=Q', 'illegal_san', 'frozen_pawn', 'the pawn is frozen'],
    ['4k3/8/8/n7/8/8/4p3/R4K2[] w - - 0 1', 'push', 'Rxa5', 'illegal_san', 'unfreezes_pawn',
      'the capture would unfreeze an enemy pawn'],
    [AFTER_EXD5, 'push', { uci: 'N#P@e4' }, 'illegal_uci', 'rescued_not_held',
      "the rescued man is not in the opponent's prison"],
    [AFTER_EXD5, 'pushSan', 'N*e4', 'illegal_san', 'not_in_airfield', 'no man of that role is in the airfield'],
    [undefined, 'pushMoves', 'e4 e5 Ke3', 'illegal_san', 'wrong_way', 'that man does not move that way'],
  ];
  for (const [fen, push, text, code, reason, clause] of cases) {
    const board = new Board(fen);
    const before = board.fen();
    const e = throwsCode(() => board[push](text), code, 'IllegalMoveError');
    assert.equal(e.reason, reason, `${push}(${JSON.stringify(text)})`);
    assert.ok(e.message.includes(`: ${clause}`), e.message);
    assert.ok(!e.message.includes(reason), 'the message is English, not the code');
    assert.equal(board.fen(), before);
  }
  // Other errors have no reason.
  const board = new Board(AFTER_EXD5);
  assert.equal(throwsCode(() => board.pushSan('Nz3'), 'invalid_san').reason, undefined);
  const promo = new Board('k7/4P3/8/8/8/8/8/4K3[#QN] w - - 0 1');
  assert.equal(throwsCode(() => promo.pushSan('e8'), 'ambiguous_san').reason, undefined);
});

test('the IllegalReason type lists every reason of docs/rules.md', () => {
  const rules = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8');
  const codes = [...rules.matchAll(/^\| `\w+` \(`(\w+)`\) \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 19, `${codes.length} reasons in docs/rules.md`);
  const types = readFileSync(join(PKG, 'index.d.ts'), 'utf8');
  const union = types.match(/export type IllegalReason =([^;]*);/);
  assert.ok(union, 'index.d.ts declares IllegalReason');
  const declared = [...union[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
  assert.deepEqual([...declared].sort(), [...codes].sort());
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
