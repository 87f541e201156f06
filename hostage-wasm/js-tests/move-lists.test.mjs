// tests/vectors/move-lists.txt (format in its header) through
// board.pushMoves(text): the core's move-text layer, so a bad move in a list
// carries the same code, place (`ply`) and message as in Rust, Python, the
// CLI and the server. A failed list leaves the board unchanged.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { hostage, tableVectors, unescape } from './helpers.mjs';

const { Board, isHostageError } = hostage;

const cases = tableVectors('move-lists.txt');

test('move-lists.txt is there and has both kinds of case', () => {
  assert.ok(cases, 'tests/vectors/move-lists.txt');
  assert.ok(cases.some((c) => c.fields[2].startsWith('ok')));
  assert.ok(cases.some((c) => c.fields[2].includes('@')));
});

for (const { line, fields } of cases ?? []) {
  const [position, text, expected, fourth] = fields;
  test(`move-lists.txt:${line} ${text} -> ${expected}`, () => {
    const board = position === '-' ? new Board() : new Board(position);
    const before = board.fen();
    const moves = unescape(text);
    const ok = /^ok (\d+)$/.exec(expected);
    if (ok) {
      assert.equal(board.pushMoves(moves), Number(ok[1]));
      assert.equal(board.ply(), Number(ok[1]));
      if (fourth !== undefined) assert.equal(board.fen(), fourth);
      return;
    }
    const [code, ply] = expected.split('@');
    assert.throws(() => board.pushMoves(moves), (e) => {
      assert.ok(isHostageError(e), String(e));
      assert.equal(e.code, code);
      assert.equal(e.ply, Number(ply));
      if (fourth !== undefined) assert.equal(e.message, fourth);
      return true;
    });
    assert.equal(board.fen(), before);
    assert.equal(board.ply(), 0);
  });
}

test('pushMoves continues a game and takes a string only', () => {
  const board = new Board();
  board.pushSan('e4');
  assert.equal(board.pushMoves('1... e5 2. Nf3'), 2);
  assert.deepEqual(board.history(), ['e4', 'e5', 'Nf3']);
  assert.throws(() => board.pushMoves(['Nc6']), (e) => e.name === 'TypeError' && e.code === 'invalid_argument');
  assert.equal(board.ply(), 3);
});
