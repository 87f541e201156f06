// Puzzles: the built-in verified set, selection, the solution check,
// Glicko-2 (Glickman's worked example), and errors with codes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { hostage, puzzles } from './helpers.mjs';

const { Board } = hostage;
const { Puzzles } = puzzles;
const GOOD = '00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300';

test('the set: at least 1,000 puzzles that replay on a Board', () => {
  const all = Puzzles.all();
  assert.equal(all.length, Puzzles.count());
  assert.ok(all.length >= 1000);
  assert.equal(new Set(all.map((p) => p.id)).size, all.length);
  for (const p of all.slice(0, 40)) {
    assert.equal(p.moves.length % 2, 1, p.id);
    const board = new Board(p.fen);
    for (const m of p.moves) board.push(m);
    assert.equal(board.isCheckmate(), p.mate, p.id);
    assert.deepEqual(Puzzles.get(p.id), p);
  }
});

test('next: unseen puzzles near the rating, harder above easier, null when all seen', () => {
  const seen = [];
  for (let i = 0; i < 15; i++) {
    const p = Puzzles.next(1400, { seen, seed: i });
    assert.ok(p && !seen.includes(p.id));
    assert.ok(Math.abs(p.rating - 1400) <= 4 * (100 + 100 / 4), `${p.rating}`);
    seen.push(p.id);
  }
  const easy = Puzzles.next(1400, { difficulty: 'easiest' });
  const hard = Puzzles.next(1400, { difficulty: 'hardest' });
  assert.ok(easy.rating < hard.rating);
  assert.equal(Puzzles.next(1400, { seen: Puzzles.all().map((p) => p.id) }), null);
});

test('accepts: the solver moves of the solution', () => {
  const p = Puzzles.all().find((q) => q.moves.length >= 3);
  assert.ok(Puzzles.accepts(p.id, 0, p.moves[0]));
  assert.ok(!Puzzles.accepts(p.id, 1, p.moves[1]), 'the reply is not the solver’s');
  const wrong = new Board(p.fen).legalMoves().find((m) => m.uci !== p.moves[0]);
  assert.ok(!Puzzles.accepts(p.id, 0, wrong.uci));
  assert.throws(() => Puzzles.accepts(p.id, 0, 'not a move'), { name: 'InvalidMoveError', code: 'invalid_san' });
  assert.throws(() => Puzzles.accepts(p.id, 0, 'a1a1'), { name: 'IllegalMoveError' });
  assert.ok(!Puzzles.accepts(p.id, p.moves.length + 2, p.moves[0]), 'past the solution');
});

test('Glicko-2: Glickman’s worked example and one attempt', () => {
  const r = (rating, deviation) => ({ rating, deviation, volatility: 0.06 });
  const out = Puzzles.rate(r(1500, 200), [
    { opponent: r(1400, 30), score: 1 },
    { opponent: r(1550, 100), score: 0 },
    { opponent: r(1700, 300), score: 0 },
  ], 0.5);
  assert.ok(Math.abs(out.rating - 1464.06) < 0.02, `${out.rating}`);
  assert.ok(Math.abs(out.deviation - 151.52) < 0.01, `${out.deviation}`);
  assert.ok(Math.abs(out.volatility - 0.05999) < 0.00001, `${out.volatility}`);
  const fresh = Puzzles.newRating();
  assert.deepEqual(fresh, { rating: 1500, deviation: 500, volatility: 0.09 });
  const { player, puzzle } = Puzzles.update(fresh, { rating: 1200, deviation: 200, volatility: 0.09 }, true);
  assert.ok(player.rating > 1500 && puzzle.rating < 1200);
});

test('errors are Errors with name and code', () => {
  const throwsWith = (fn, name, code) => assert.throws(fn, (e) => e instanceof Error && e.name === name && e.code === code);
  throwsWith(() => Puzzles.get('0000000000'), 'PuzzleError', 'unknown_puzzle');
  throwsWith(() => Puzzles.next(1500, { difficulty: 'insane' }), 'DifficultyError', 'invalid_difficulty');
  throwsWith(() => Puzzles.parse(GOOD.replace('R@a8', 'N@a8')), 'PuzzleError', 'invalid_puzzle_move');
  throwsWith(() => Puzzles.parse('a,b'), 'PuzzleError', 'invalid_puzzle_fields');
  throwsWith(() => Puzzles.update({ rating: 'x' }, Puzzles.newRating(), true), 'TypeError', 'invalid_argument');
  throwsWith(() => Puzzles.next(1500, { seen: 'abc' }), 'TypeError', 'invalid_argument');
  assert.deepEqual(Puzzles.parse(GOOD)[0].themes, ['mateIn1', 'dropMate']);
});

const BEFORE = '5k2/5ppp/8/8/8/8/8/6K1[R] b - - 0 1';
const AFTER = '6k1/5ppp/8/8/8/8/8/6K1[R] w - - 1 2';
const WITH_LEAD_IN = `00c0ffee00,${AFTER},R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300,${BEFORE},f8g8`;

test('the lead-in: the opponent’s move before the puzzle, played on a Board from leadInFen', () => {
  const withLeadIn = Puzzles.all().filter((p) => p.leadIn !== null);
  assert.equal(withLeadIn.length, Puzzles.count(), "every puzzle of the set has its lead-in");
  for (const p of withLeadIn.slice(0, 60)) {
    const board = new Board(p.leadInFen);
    assert.notEqual(board.turn(), new Board(p.fen).turn(), p.id);
    board.push(p.leadIn);
    assert.equal(board.fen(), p.fen, p.id);
  }
  const [parsed] = Puzzles.parse(WITH_LEAD_IN);
  assert.equal(parsed.leadInFen, BEFORE);
  assert.equal(parsed.leadIn, 'f8g8');
  const [without] = Puzzles.parse(GOOD);
  assert.equal(without.leadInFen, null);
  assert.equal(without.leadIn, null);
  assert.throws(() => Puzzles.parse(WITH_LEAD_IN.replace(',f8g8', ',f8e8')), { name: 'PuzzleError', code: 'invalid_puzzle_lead_in' });
});
