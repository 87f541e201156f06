// The shared vectors of tests/vectors, through the JavaScript API.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { hostage, perftVectors, tableVectors } from './helpers.mjs';

const { Board } = hostage;
// Keep the suite quick: the Rust suite runs the big counts.
const MAX_NODES = 2_000_000;

describe('perft vectors', () => {
  for (const v of perftVectors()) {
    test(`${v.file} ${v.id}`, () => {
      const board = new Board(v.epd);
      let ran = 0;
      for (const [depth, count] of v.perft) {
        if (count > MAX_NODES) continue;
        assert.equal(board.perft(depth), count, `perft ${depth} of ${v.epd}`);
        ran++;
      }
      assert.equal(board.fen(), new Board(v.epd).fen(), 'perft leaves the board as it was');
      assert.ok(ran > 0 || v.perft.every(([, c]) => c > MAX_NODES));
    });
  }
});

const fen = tableVectors('fen.txt');
describe('fen vectors', { skip: fen ? false : 'tests/vectors/fen.txt not present' }, () => {
  // `input | expected`: spaces around the input belong to it (tests/README.md).
  for (const { line, raw, fields } of fen ?? []) {
    const input = raw[0];
    const expected = fields[1];
    test(`fen.txt:${line} ${expected.slice(0, 40)}`, () => {
      if (expected === 'ok' || expected.startsWith('= ')) {
        const canonical = expected === 'ok' ? input.trim() : expected.slice(2).trim();
        const board = new Board(input);
        assert.equal(board.fen(), canonical);
        assert.equal(new Board(board.fen()).fen(), canonical, 'roundtrip');
      } else {
        assert.throws(
          () => new Board(input),
          (e) => e instanceof Error && e.code === expected && /^(Fen|Position)Error$/.test(e.name),
        );
      }
    });
  }
});

const san = tableVectors('san.txt');
describe('san vectors', { skip: san ? false : 'tests/vectors/san.txt not present' }, () => {
  for (const { line, fields } of san ?? []) {
    const [fenText, input, expected] = fields;
    test(`san.txt:${line} ${input} -> ${expected}`, () => {
      const board = new Board(fenText);
      const before = board.fen();
      if (expected.startsWith('error=')) {
        const code = expected.slice('error='.length);
        assert.throws(() => board.pushSan(input), (e) => e instanceof Error && e.code === code);
        assert.equal(board.fen(), before, 'a failed push leaves the board unchanged');
        assert.equal(board.ply(), 0);
      } else {
        const want = Object.fromEntries(expected.split(/\s+/).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
        // The move object is built before the move is played: legal-move SAN.
        const played = board.pushSan(input);
        assert.equal(played.uci, want.uci);
        assert.equal(played.san, want.san);
        assert.deepEqual(board.history(), [want.san]);
        assert.equal(board.pop().uci, want.uci);
        assert.equal(board.fen(), before);
        // Canonical SAN and long form both read back as the same move.
        assert.equal(board.pushSan(want.san).uci, want.uci);
        board.pop();
        assert.equal(board.pushUci(want.uci).san, want.san);
        board.pop();
        assert.equal(board.push(want.uci).san, want.san);
      }
    });
  }
});
