// The Board API: values, UI helpers, PGN, memory, both module systems.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { hostage, hostageCjs } from './helpers.mjs';

const { Board, version } = hostage;
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';
const AFTER_EXD5 = 'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3';

test('import and require give the same instance', () => {
  assert.equal(hostage.Board, hostageCjs.Board);
  assert.equal(typeof version(), 'string');
});

test('start position values', () => {
  const b = new Board();
  assert.equal(b.fen(), START);
  assert.equal(b.startFen(), START);
  assert.equal(b.turn(), 'w');
  assert.deepEqual(b.pieceAt('e1'), { color: 'w', role: 'king' });
  assert.equal(b.pieceAt('e4'), null);
  assert.equal(b.pieces().length, 32);
  assert.deepEqual(b.pieces()[0], { color: 'w', role: 'rook', square: 'a1' });
  const empty = { queen: 0, rook: 0, bishop: 0, knight: 0, pawn: 0 };
  assert.deepEqual(b.prisons(), { w: empty, b: empty });
  assert.deepEqual(b.airfields(), { w: empty, b: empty });
  assert.deepEqual(b.castling().w, { kingSide: true, queenSide: true, kingUnmoved: true });
  assert.equal(b.epSquare(), null);
  assert.equal(b.halfmoveClock(), 0);
  assert.equal(b.fullmoveNumber(), 1);
  assert.equal(b.legalMoves().length, 20);
  assert.equal(b.perft(3), 8902);
  assert.equal(typeof b.hash(), 'bigint');
  assert.equal(b.hash(), new Board(START).hash());
  assert.equal(b.outcome(), null);
  assert.equal(b.isGameOver(), false);
});

test('push, pop, history; move objects', () => {
  const b = new Board();
  const e4 = b.push('e4');
  assert.deepEqual(e4, {
    uci: 'e2e4', san: 'e4', kind: 'normal', color: 'w', from: 'e2', to: 'e4', role: 'pawn',
    capture: null, promotion: null, released: null, rescued: null,
  });
  b.pushUci('d7d5');
  const x = b.pushSan('exd5');
  assert.equal(x.capture, 'pawn');
  b.push(b.legalMoves().find((m) => m.san === 'Qxd5'));
  assert.equal(b.fen(), AFTER_EXD5);
  assert.deepEqual(b.history(), ['e4', 'd5', 'exd5', 'Qxd5']);
  assert.deepEqual(b.historyMoves().map((m) => m.uci), ['e2e4', 'd7d5', 'e4d5', 'd8d5']);
  assert.equal(b.ply(), 4);
  assert.deepEqual(b.prisons().w.pawn, 1);
  assert.deepEqual(b.prisons().b.pawn, 1);
  // Exchange: release the black pawn, rescue the white pawn onto e3.
  const ex = b.push('(P-P)*e3');
  assert.equal(ex.kind, 'exchange');
  assert.equal(ex.uci, 'P#P@e3');
  assert.equal(ex.released, 'pawn');
  assert.equal(ex.rescued, 'pawn');
  assert.equal(ex.from, null);
  assert.equal(b.airfields().b.pawn, 1);
  // Black drops the released pawn from its airfield.
  assert.deepEqual(Object.keys(b.dropDests()), ['pawn']);
  assert.ok(b.dropDests().pawn.includes('e5'));
  const drop = b.push('*e5');
  assert.equal(drop.kind, 'drop');
  assert.equal(drop.uci, 'P@e5');
  assert.equal(b.pop().uci, 'P@e5');
  assert.equal(b.pop().uci, 'P#P@e3');
  assert.equal(b.fen(), AFTER_EXD5);
  while (b.pop()) { /* to the start */ }
  assert.equal(b.fen(), START);
  assert.equal(b.pop(), null);
});

test('UI helpers: dests, dropDests, exchangeDests, check squares', () => {
  const b = new Board(AFTER_EXD5);
  const dests = b.dests();
  assert.ok(dests instanceof Map);
  assert.deepEqual(dests.get('g1'), ['e2', 'f3', 'h3']);
  const ex = b.exchangeDests();
  assert.deepEqual(ex.map((e) => [e.released, e.rescued]), [['pawn', 'pawn']]);
  // Every empty square but ranks 1 and 8 (R6).
  const moves = b.legalMoves();
  assert.equal(ex[0].to.length, moves.filter((m) => m.kind === 'exchange').length);
  assert.equal(
    [...dests.values()].flat().length + ex[0].to.length,
    moves.length,
  );
  assert.equal(b.checkSquare(), null);
  const check = new Board('k7/8/8/8/8/8/8/r6K[] w - - 0 1');
  assert.equal(check.isCheck(), true);
  assert.equal(check.checkSquare(), 'h1');
  assert.deepEqual(check.checkers(), ['a1']);
  // R8a: a frozen pawn on g2 "attacks" h1 but gives no check.
  const pseudo = new Board('k7/8/8/8/8/8/6p1/7K[] w - - 0 1');
  assert.equal(pseudo.isCheck(), false);
  assert.equal(pseudo.isPseudoCheck(), true);
  assert.equal(pseudo.pseudoCheckSquare(), 'h1');
  assert.deepEqual(pseudo.pseudoCheckers(), ['g2']);
  assert.equal(pseudo.checkSquare(), null);
});

test('PGN: a result decided off the board (resignation, time, agreement, abandonment)', () => {
  const b = new Board();
  b.pushSan('e4');
  const resigned = b.pgn({ White: 'Leslie' }, { result: '1-0', reason: 'resignation' });
  assert.match(resigned, /\[Result "1-0"\]/);
  assert.match(resigned, /\[Termination "Normal"\]/);
  assert.match(resigned, /\[White "Leslie"\]/);
  assert.ok(resigned.endsWith('1. e4 1-0\n'));
  assert.match(b.pgn(undefined, { result: '0-1', reason: 'time_forfeit' }), /\[Termination "Time forfeit"\]/);
  assert.match(b.pgn({}, { result: '1/2-1/2', reason: 'agreement' }), /\[Termination "Normal"\]/);
  const abandoned = b.pgn(null, { reason: 'abandonment' });
  assert.match(abandoned, /\[Termination "Abandoned"\]/);
  assert.ok(abandoned.endsWith('1. e4 *\n'));
  // A Result tag is recorded (it used to be ignored); the reason alone takes it.
  const tagged = b.pgn({ Result: '0-1' });
  assert.ok(tagged.endsWith('1. e4 0-1\n') && !tagged.includes('Termination'));
  assert.match(b.pgn({ Result: '0-1' }, { reason: 'resignation' }), /\[Termination "Normal"\]/);
  // The board itself is unchanged: its game goes on.
  assert.equal(b.outcome(), null);
  assert.ok(b.pgn().endsWith('1. e4 *\n'));
});

test('PGN: Board.pgnTags reads the tags and the end back', () => {
  const b = new Board();
  b.pushSan('e4');
  for (const end of [{ result: '1-0', reason: 'resignation' }, { result: '0-1', reason: 'time_forfeit' },
    { result: '1/2-1/2', reason: 'agreement' }, { result: '*', reason: 'abandonment' }]) {
    const text = b.pgn({ White: 'Leslie' }, end);
    const tags = Board.pgnTags(text);
    assert.deepEqual(tags.end, end);
    assert.equal(tags.headers.White, 'Leslie');
    assert.equal(tags.headers.Variant, 'Hostage');
    // What it read writes the same game again.
    assert.equal(Board.fromPgn(text).pgn(tags.headers, tags.end), text);
  }
  // No Termination tag: no reason; a mate that lichess calls Normal is no off-board end.
  assert.deepEqual(Board.pgnTags(b.pgn({ Result: '1-0' })).end, { result: '1-0' });
  assert.deepEqual(Board.pgnTags('[Termination "Normal"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n').end, { result: '0-1' });
  assert.throws(() => Board.pgnTags('1. e4 e4'), (e) => e instanceof Error && e.code === 'pgn_illegal_move');
});

test('PGN: results that contradict the board or the reason throw ResultError', () => {
  const throwsResult = (fn, code) => assert.throws(fn, (e) => {
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ResultError');
    assert.equal(e.code, code, e.message);
    return true;
  });
  const b = new Board();
  b.pushSan('e4');
  throwsResult(() => b.pgn({}, { result: '1/2-1/2', reason: 'resignation' }), 'result_mismatch');
  throwsResult(() => b.pgn({}, { result: '1-0', reason: 'agreement' }), 'result_mismatch');
  throwsResult(() => b.pgn({}, { reason: 'resignation' }), 'result_mismatch');
  throwsResult(() => b.pgn({ Result: '2-0' }), 'invalid_result');
  throwsResult(() => b.pgn({}, { result: '1-0', reason: 'resigned' }), 'invalid_end_reason');
  assert.throws(() => b.pgn({}, { result: 1 }), { name: 'TypeError', code: 'invalid_argument' });
  // Fool's mate: Black has mated, so 1-0 and an off-board reason are refused.
  const mate = new Board();
  for (const s of ['f3', 'e5', 'g4', 'Qh4#']) mate.pushSan(s);
  throwsResult(() => mate.pgn({ Result: '1-0' }), 'result_contradicts_board');
  throwsResult(() => mate.pgn({}, { result: '0-1', reason: 'resignation' }), 'result_contradicts_board');
  assert.ok(mate.pgn({ Result: '0-1' }).endsWith('2. g4 Qh4# 0-1\n'));
});

test('promotion offers one move per role in the prison (R7)', () => {
  const b = new Board('k7/4P3/8/8/8/8/8/4K3[#QN] w - - 0 1');
  const promos = b.legalMoves().filter((m) => m.promotion);
  assert.deepEqual(promos.map((m) => m.promotion).sort(), ['knight', 'queen']);
  assert.deepEqual(b.dests().get('e7'), ['e8']);
});

test('checkmate, stalemate and outcomes', () => {
  const mate = new Board();
  for (const s of ['f3', 'e5', 'g4', 'Qh4#']) mate.pushSan(s);
  assert.equal(mate.isCheckmate(), true);
  assert.deepEqual(mate.outcome(), { termination: 'checkmate', winner: 'b' });
  const stale = new Board('k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1');
  assert.equal(stale.isStalemate(), true);
  assert.deepEqual(stale.outcome(), { termination: 'stalemate', winner: null });
  const rep = new Board();
  for (const s of ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']) rep.pushSan(s);
  assert.equal(rep.repetitionCount(), 3);
  assert.deepEqual(rep.outcome(), { termination: 'threefold_repetition', winner: null });
});

test('PGN: write, read back, tags', () => {
  const b = new Board();
  for (const s of ['e4', 'd5', 'exd5', 'Qxd5', 'Nc3', 'Qd8']) b.pushSan(s);
  b.push('(P-P)*d5');
  const pgn = b.pgn({ White: 'Leslie', Event: 'Test' });
  assert.match(pgn, /\[White "Leslie"\]/);
  assert.match(pgn, /\[Variant "Hostage"\]/);
  assert.match(pgn, /4\. \(P-P\)\*d5/);
  const back = Board.fromPgn(pgn);
  assert.equal(back.fen(), b.fen());
  assert.deepEqual(back.history(), b.history());
  assert.equal(back.pgn({ White: 'Leslie', Event: 'Test' }), pgn);
  // From a FEN start.
  const custom = new Board(AFTER_EXD5);
  custom.pushSan('Nc3');
  const fromFen = Board.fromPgn(custom.pgn());
  assert.equal(fromFen.startFen(), AFTER_EXD5);
  assert.equal(fromFen.fen(), custom.fen());
  // The inventor's style.
  const old = Board.fromPgn('1 e4 d5 2 exd5 Qxd5 3 Nc3 Qd8 4 (P-P)*d5 Resigns\n');
  assert.equal(old.ply(), 7);
});

test('clone is independent; free() and FinalizationRegistry', () => {
  const a = new Board();
  const c = a.clone();
  c.pushSan('e4');
  assert.equal(a.ply(), 0);
  assert.equal(c.ply(), 1);
  c.free();
  assert.throws(() => c.fen()); // freed: using it is an error, not a crash
  for (let i = 0; i < 3000; i++) new Board(AFTER_EXD5).legalMoves();
  assert.equal(a.fen(), START);
});
