// The Engine: analysis, the bot levels, determinism, the shared bot vectors
// (tests/vectors/bot-moves.txt, also checked by Rust and Python), errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { engine as engineModule, hostage, tableVectors } from './helpers.mjs';

// The engine module (hostage-chess/engine) with the rules module's Board:
// positions cross as a Board's startFen() and history() or FEN text, moves
// come back as plain objects.
const { Board, isHostageError } = hostage;
const { Engine, engineLevels } = engineModule;
const LEVELS = ['novice', 'beginner', 'casual', 'intermediate', 'club'];
const MATE_BY_DROP = '6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1';

/** A comparable number: a shorter mate is better, being mated later is better. */
const key = (s) => ('mate' in s && s.mate !== undefined ? (s.mate > 0 ? 1e6 - s.mate : -1e6 - s.mate) : s.cp);

test('engineLevels: the five levels, weakest first, with rating labels', () => {
  const levels = engineLevels();
  assert.deepEqual(levels.map((l) => l.name), LEVELS);
  for (let i = 1; i < levels.length; i++) assert.ok(levels[i].rating > levels[i - 1].rating);
});

test('analyse finds the mate in one by a rook drop (R6)', () => {
  const engine = new Engine();
  const a = engine.analyse(MATE_BY_DROP, { depth: 3 });
  assert.deepEqual(a.score, { mate: 1 });
  // A rook dropped on a8..e8 mates (f8 is next to the king, h8 is covered
  // by nothing on the first rank): check the move on a board.
  assert.equal(a.bestMove.kind, 'drop');
  assert.equal(a.bestMove.role, 'rook');
  assert.ok(['a8', 'b8', 'c8', 'd8', 'e8'].includes(a.bestMove.to), a.bestMove.uci);
  assert.equal(a.pv[0], a.bestMove.uci);
  assert.equal(a.pvSan[0], a.bestMove.san);
  assert.ok(a.bestMove.san.endsWith('#'));
  const board = new Board(MATE_BY_DROP);
  board.push(a.bestMove);
  assert.ok(board.isCheckmate());
  assert.ok(a.depth >= 1 && a.seldepth >= a.depth && a.nodes > 0);
});

test('analyse with multipv 3: three lines, best first, each a legal start', () => {
  const board = new Board();
  const a = new Engine().analyse(board, { depth: 3, multipv: 3 });
  assert.equal(a.lines.length, 3);
  const firsts = a.lines.map((l) => l.move.uci);
  assert.equal(new Set(firsts).size, 3, 'three different first moves');
  for (const l of a.lines) {
    assert.ok(board.isLegal(l.move.uci), l.move.uci);
    assert.equal(l.pv[0], l.move.uci);
    assert.equal(l.pv.length, l.pvSan.length);
  }
  for (let i = 1; i < 3; i++) assert.ok(key(a.lines[i - 1].score) >= key(a.lines[i].score), JSON.stringify(a.lines.map((l) => l.score)));
  assert.equal(a.bestMove.uci, a.lines[0].move.uci);
  assert.deepEqual(a.score, a.lines[0].score);
});

// Each line is searched with its own window; a later one used to come out
// better than an earlier one here (d4 -5 before Qf3 -3 at depth 5).
test('multipv lines are sorted after exd5 Qxd5 at depth 5', () => {
  const board = new Board();
  for (const san of ['e4', 'd5', 'exd5', 'Qxd5']) board.pushSan(san);
  const a = new Engine().analyse(board, { depth: 5, multipv: 3 });
  for (let i = 1; i < 3; i++) assert.ok(key(a.lines[i - 1].score) >= key(a.lines[i].score), JSON.stringify(a.lines.map((l) => l.score)));
});

test('the same board as a Board or as FEN + history gives the same analysis', () => {
  const board = new Board();
  for (const san of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']) board.pushSan(san);
  const a = new Engine().analyse(board, { depth: 3 });
  const b = new Engine().analyse(board.startFen(), { depth: 3, history: board.history() });
  const c = new Engine().analyse(board.startFen(), { depth: 3, history: board.historyMoves().map((m) => m.uci) });
  assert.deepEqual(b, a);
  assert.deepEqual(c, a);
});

test('play: every level gives a legal move, the same for the same seed, in a fresh engine too', () => {
  const board = new Board();
  for (const san of ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e3']) board.pushSan(san);
  const engine = new Engine({ hashMb: 4 });
  for (const level of LEVELS) {
    const m = engine.play(board, { level, seed: 42 });
    assert.ok(board.isLegal(m), `${level}: ${m.uci}`);
    assert.equal(m.color, 'b');
    assert.deepEqual(engine.play(board, { level, seed: 42 }), m, `${level}: same engine`);
    if (level !== 'club') assert.deepEqual(new Engine().play(board, { level, seed: 42 }), m, `${level}: fresh engine`);
  }
  // Seeds as number and as bigint are the same seed.
  assert.deepEqual(engine.play(board, { level: 'novice', seed: 4294967296n }), engine.play(board, { level: 'novice', seed: 4294967296 }));
});

test('bot vectors: Rust, Python and JavaScript choose the same moves', () => {
  const rows = tableVectors('bot-moves.txt');
  assert.ok(rows && rows.length >= 10, 'tests/vectors/bot-moves.txt');
  const engine = new Engine();
  for (const { line, fields } of rows) {
    const [fen, moves, level, seed, expected] = fields;
    const history = moves === '-' ? [] : moves.split(/\s+/);
    const m = engine.play(fen, { history, level, seed: BigInt(seed) });
    assert.equal(m ? m.uci : '-', expected, `bot-moves.txt line ${line}`);
  }
});

test('no legal move: play gives null, analyse a null best move', () => {
  const stalemate = 'k7/8/1Q6/8/8/8/8/7K[#Pq] b - - 0 1';
  const engine = new Engine();
  assert.equal(engine.play(stalemate, { level: 'club' }), null);
  const a = engine.analyse(stalemate, { depth: 2 });
  assert.equal(a.bestMove, null);
  assert.deepEqual(a.score, { cp: 0 });
  assert.deepEqual(a.lines, []);
  // Mated: a score of mate 0 for the side to move.
  const mated = new Board();
  for (const san of ['f3', 'e5', 'g4', 'Qh4#']) mated.pushSan(san);
  assert.deepEqual(engine.analyse(mated, { depth: 2 }).score, { mate: 0 });
});

test('errors: real Errors with name and code, never a trap', () => {
  const engine = new Engine();
  const throws = (f, name, code) => assert.throws(f, (e) => {
    assert.ok(e instanceof Error);
    assert.equal(e.name, name);
    assert.equal(e.code, code);
    return true;
  });
  throws(() => engine.play(new Board(), { level: 'grandmaster' }), 'LevelError', 'invalid_level');
  assert.ok(isHostageError((() => { try { engine.play(new Board(), { level: 'x' }); } catch (e) { return e; } })()));
  throws(() => engine.play(new Board(), {}), 'TypeError', 'invalid_argument');
  throws(() => engine.analyse(new Board(), {}), 'TypeError', 'invalid_argument');
  throws(() => engine.analyse(new Board(), { movetime: 100 }), 'TypeError', 'invalid_argument');
  throws(() => engine.analyse(new Board(), { nodes: -1 }), 'TypeError', 'invalid_argument');
  throws(() => engine.analyse(new Board(), { depth: 1.5 }), 'TypeError', 'invalid_argument');
  throws(() => engine.analyse('junk', { depth: 1 }), 'FenError', 'invalid_board');
  throws(() => engine.analyse(new Board().fen(), { depth: 1, history: ['e5'] }), 'IllegalMoveError', 'illegal_san');
  throws(() => engine.analyse(new Board().fen(), { depth: 1, history: 'e4' }), 'TypeError', 'invalid_argument');
  throws(() => engine.analyse(42, { depth: 1 }), 'TypeError', 'invalid_argument');
  throws(() => engine.play(new Board(), { level: 'novice', seed: -1 }), 'TypeError', 'invalid_argument');
  throws(() => engine.play(new Board(), { level: 'novice', seed: 2n ** 64n }), 'TypeError', 'invalid_argument');
  throws(() => new Engine({ hashMb: 'big' }), 'TypeError', 'invalid_argument');
  // The engine still works after all that.
  assert.ok(new Board().isLegal(engine.play(new Board(), { level: 'novice', seed: 1 })));
});

test('review: the blunder judged, progress reported, the PGN annotated, reproducible', () => {
  const board = new Board();
  for (const m of ['e2e4', 'e7e5', 'd1h5', 'b8c6', 'f1c4', 'g8f6', 'h5f7']) board.pushUci(m);
  const calls = [];
  const r = new Engine().review(board, { nodes: 3000, onProgress: (done, total) => calls.push([done, total]) });
  assert.deepEqual(calls, [1, 2, 3, 4, 5, 6, 7, 8].map((d) => [d, 8]));
  assert.deepEqual(r.moves.map((m) => m.san), ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
  const nf6 = r.moves[5];
  assert.equal(nf6.judgement, 'blunder');
  assert.equal(nf6.color, 'black');
  assert.notEqual(nf6.best.uci, nf6.move.uci);
  assert.equal(r.black.blunders, 1);
  assert.ok(r.black.accuracy < r.white.accuracy);
  assert.ok(r.pgn.includes('[%eval ') && r.pgn.includes('$4'), r.pgn);
  // The same review from a FEN and history, on a fresh engine.
  const again = new Engine().review(board.startFen(), { nodes: 3000, history: board.history() });
  assert.deepEqual(again.moves, r.moves);
  assert.throws(() => new Engine().review(board, {}), TypeError);
  assert.throws(() => new Engine().review(board, { nodes: 10, onProgress: 3 }), TypeError);
  assert.throws(
    () => new Engine().review(board, { nodes: 10, onProgress: () => { throw new RangeError('stop'); } }),
    RangeError,
  );
});
