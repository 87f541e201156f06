// Move objects wherever they come from (legalMoves, push, pushSan, pushUci,
// pop, historyMoves, the engine) are the same plain objects, keys in the
// documented order; each one's `uci` and `san`, read back by the core's own
// parsers, name the move itself; and every field agrees with what playing
// the move does to the board.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { engine, hostage, hostageCjs } from './helpers.mjs';

const { Board } = hostage;
const KEYS = ['uci', 'san', 'kind', 'color', 'from', 'to', 'role', 'capture', 'promotion', 'released', 'rescued'];
// Positions with every kind of move between them: castling and en passant,
// promotions, drops and exchanges (tests/vectors and the README).
const POSITIONS = [
  'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
  'r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12',
  '4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40',
  'r3k2r/p1p2ppp/2p1pn2/4p3/1b1P4/P1NB4/1PPB1PPP/2KRR3[Nb#QPqn] b kq - 0 14',
];
const ROLES = new Set(['pawn', 'knight', 'bishop', 'rook', 'queen', 'king']);

/** The men of the prisons and airfields, as one comparable value. */
const reserves = (b) => JSON.stringify([b.prisons(), b.airfields()]);

/** Checks `m`'s fields against the board before (`b`) and after playing it. */
function checkFields(b, m) {
  assert.deepEqual(Object.keys(m), KEYS, m.uci);
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
  assert.equal(m.color, b.turn());
  assert.ok(ROLES.has(m.role), m.uci);
  const after = b.clone();
  after.push(m.uci);
  const landed = after.pieceAt(m.to);
  switch (m.kind) {
    case 'drop':
    case 'exchange':
      assert.equal(m.from, null);
      assert.equal(b.pieceAt(m.to), null, m.uci);
      assert.deepEqual(landed, { color: m.color, role: m.role }, m.uci);
      assert.equal(m.capture, null);
      assert.equal(m.promotion, null);
      assert.equal(m.released === null, m.kind === 'drop', m.uci);
      assert.equal(m.rescued, m.kind === 'exchange' ? m.role : null, m.uci);
      break;
    default:
      assert.deepEqual(b.pieceAt(m.from), { color: m.color, role: m.role }, m.uci);
      assert.equal(after.pieceAt(m.from), null, m.uci);
      assert.deepEqual(landed, { color: m.color, role: m.promotion ?? m.role }, m.uci);
      assert.equal(m.released, null);
      assert.equal(m.rescued, null);
      if (m.kind === 'en_passant') assert.deepEqual([m.role, m.capture], ['pawn', 'pawn']);
      else if (m.kind === 'castle') assert.deepEqual([m.role, m.capture], ['king', null]);
      else {
        assert.equal(m.kind, 'normal');
        assert.equal(m.capture, b.pieceAt(m.to)?.role ?? null, m.uci);
      }
  }
  if (m.kind !== 'drop' && m.kind !== 'exchange' && m.kind !== 'castle') {
    // A capture or an exchange changes the reserves; nothing else does
    // (a promotion swaps the pawn with a man of the prison).
    assert.equal(reserves(after) !== reserves(b), m.capture !== null || m.promotion !== null, m.uci);
  }
}

test('every producer gives the same move objects, fields as the board says', () => {
  const kinds = new Set();
  let promotions = 0;
  for (const fen of POSITIONS) {
    const b = new Board(fen);
    for (let ply = 0; ply < 12 && !b.isGameOver(); ply++) {
      const moves = b.legalMoves();
      assert.ok(Array.isArray(moves));
      assert.deepEqual(new hostageCjs.Board(b.fen()).legalMoves(), moves);
      for (const m of moves) {
        checkFields(b, m);
        kinds.add(m.kind);
        if (m.promotion) promotions++;
        // The core's parsers read the object's own uci and san back to it.
        for (const push of [() => b.push(m), () => b.pushUci(m.uci), () => b.pushSan(m.san)]) {
          const played = push();
          assert.equal(JSON.stringify(played), JSON.stringify(m));
          assert.equal(JSON.stringify(b.historyMoves().at(-1)), JSON.stringify(m));
          assert.equal(JSON.stringify(b.pop()), JSON.stringify(m));
        }
      }
      b.push(moves[(ply * 7) % moves.length]);
    }
    const history = b.historyMoves();
    const replay = new Board(fen);
    for (const m of history) assert.equal(JSON.stringify(replay.push(m.san)), JSON.stringify(m));
  }
  assert.deepEqual([...kinds].sort(), ['castle', 'drop', 'en_passant', 'exchange', 'normal']);
  assert.ok(promotions > 0);
});

test('the engine answers with the same move objects as legalMoves', () => {
  const bot = new engine.Engine({ hashMb: 1 });
  let lines = 0;
  for (const fen of POSITIONS) {
    const b = new Board(fen);
    const moves = b.legalMoves();
    const byUci = new Map(moves.map((m) => [m.uci, JSON.stringify(m)]));
    const played = bot.play(b, { level: 'novice', seed: 2 });
    assert.equal(JSON.stringify(played), byUci.get(played.uci));
    // A line per move (up to 256): its long form and SAN, which the engine
    // writes in Rust, name the line's move object.
    const a = bot.analyse(b, { depth: 1, multipv: Math.min(256, moves.length) });
    assert.equal(JSON.stringify(a.bestMove), byUci.get(a.bestMove.uci));
    for (const line of a.lines) {
      assert.equal(JSON.stringify(line.move), byUci.get(line.move.uci));
      assert.equal(line.move.uci, line.pv[0]);
      assert.equal(line.move.san, line.pvSan[0]);
      lines++;
    }
  }
  assert.ok(lines > 300, `${lines} lines`);
});

test('long forms are written as the docs give them', () => {
  const form = {
    normal: /^[a-h][1-8][a-h][1-8][nbrq]?$/,
    en_passant: /^[a-h][1-8][a-h][1-8]$/,
    castle: /^e[18][cg][18]$/,
    drop: /^[PNBRQ]@[a-h][1-8]$/,
    exchange: /^[PNBRQ]#[PNBRQ]@[a-h][1-8]$/,
  };
  for (const fen of POSITIONS) {
    for (const m of new Board(fen).legalMoves()) assert.match(m.uci, form[m.kind]);
  }
});

test('a position without moves gives an empty list, pop at the start null', () => {
  const mated = new Board('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1');
  assert.deepEqual(mated.legalMoves(), []);
  assert.deepEqual(mated.historyMoves(), []);
  assert.equal(mated.pop(), null);
});
