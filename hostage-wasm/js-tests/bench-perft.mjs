// Common operations of hostage-chess (wasm) beside chessops and chess.js,
// the JavaScript libraries a web developer knows, in Node. Positions where
// Hostage Chess and orthodox chess agree: the start position, and kiwipete
// at depth 2 (no exchange or drop is possible before both sides have
// captured; at depth 3 they do not). Each operation is checked to give the same answer in all three
// libraries before it is timed. Not a test (no .test. in its name):
//
//   npm run bench [-- --quick | --smoke]
//
// --quick times with a smaller budget; --smoke only checks that the
// libraries agree and every operation runs (scripts/test-wasm uses it).
import assert from 'node:assert/strict';

import { Chess as ChessJs } from 'chess.js';
import { Chess } from 'chessops/chess';
import { perft as chessopsPerft } from 'chessops/debug';
import { makeFen, parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { makeUci } from 'chessops/util';

import { hostage } from './helpers.mjs';

const POSITIONS = {
  start: ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'Nf3', 3, 4],
  kiwipete: ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 'Qxf6', 2, 2],
};

/** chessops' legal moves of `pos`, promotions expanded, as move objects. */
function chessopsMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      if (pos.board.pawn.has(from) && (to >> 3 === 7 || to >> 3 === 0)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight']) moves.push({ from, to, promotion });
      } else {
        moves.push({ from, to });
      }
    }
  }
  return moves;
}

/** A chessops move in standard UCI: castling is king to rook there. */
function standardUci(pos, m) {
  const piece = pos.board.get(m.from);
  const target = pos.board.get(m.to);
  if (piece?.role === 'king' && target?.role === 'rook' && target.color === piece.color) {
    return makeUci({ from: m.from, to: m.to > m.from ? m.from + 2 : m.from - 2 });
  }
  return makeUci(m);
}

// The same JavaScript loop shape for each library: list, play, recurse, undo.
function perftHostage(board, depth) {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of board.legalMoves()) {
    board.push(m);
    n += perftHostage(board, depth - 1);
    board.pop();
  }
  return n;
}
function perftChessJs(chess, depth) {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of chess.moves({ verbose: true })) {
    chess.move(m);
    n += perftChessJs(chess, depth - 1);
    chess.undo();
  }
  return n;
}
function perftChessops(pos, depth) {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of chessopsMoves(pos)) {
    const child = pos.clone();
    child.play(m);
    n += perftChessops(child, depth - 1);
  }
  return n;
}

/** This process's CPU seconds (user and system): steadier than the wall
 * clock on a machine running other work. */
function cpu() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Best CPU seconds of one call, over repeats filling about `budget` seconds. */
function seconds(f, budget) {
  let number = 1;
  for (;;) {
    const t = cpu();
    for (let i = 0; i < number; i++) f();
    if (cpu() - t >= 0.02 || number >= 1 << 20) break;
    number *= 2;
  }
  let best = Infinity;
  const started = cpu();
  for (let r = 0; r < 15; r++) {
    const t = cpu();
    for (let i = 0; i < number; i++) f();
    best = Math.min(best, (cpu() - t) / number);
    if (r >= 2 && cpu() - started > budget) break;
  }
  return best;
}

const fmt = (t) => (t >= 1e-3 ? `${(t * 1e3).toFixed(2)} ms` : `${(t * 1e6).toFixed(2)} us`);

const smoke = process.argv.includes('--smoke');
const budget = process.argv.includes('--quick') ? 0.05 : 0.4;
const rows = [];
for (const [name, [fen, san, depth, nativeDepth]] of Object.entries(POSITIONS)) {
  const hb = new hostage.Board(fen);
  const cj = new ChessJs(fen);
  const co = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();

  const uci = (list) => list.sort().join(' ');
  assert.equal(uci(hb.legalMoves().map((m) => m.uci)), uci(chessopsMoves(co).map((m) => standardUci(co, m))), name);
  assert.equal(uci(cj.moves({ verbose: true }).map((m) => m.lan)), uci(chessopsMoves(co).map((m) => standardUci(co, m))), name);
  const nodes = perftHostage(hb, depth);
  assert.equal(perftChessJs(cj, depth), nodes, name);
  assert.equal(perftChessops(co, depth), nodes, name);
  const deep = hb.perft(nativeDepth);
  assert.equal(chessopsPerft(co, nativeDepth, false), deep, name);
  assert.equal(hb.fen().replace('[]', ''), makeFen(co.toSetup()));
  assert.equal(cj.fen(), makeFen(co.toSetup()));

  const first = hb.legalMoves()[0];
  const firstUci = first.uci;
  const cjFirst = cj.moves({ verbose: true }).find((m) => m.lan === firstUci);
  const coFirst = chessopsMoves(co).find((m) => standardUci(co, m) === firstUci);
  const ops = [
    ['legal moves', () => cj.moves({ verbose: true }), () => chessopsMoves(co), () => hb.legalMoves()],
    [
      'play + undo',
      () => {
        cj.move(cjFirst);
        cj.undo();
      },
      () => co.clone().play(coFirst),
      () => {
        hb.push(first);
        hb.pop();
      },
    ],
    [
      `SAN ${san} + undo`,
      () => {
        cj.move(san);
        cj.undo();
      },
      () => co.clone().play(parseSan(co, san)),
      () => {
        hb.pushSan(san);
        hb.pop();
      },
    ],
    ['fen', () => cj.fen(), () => makeFen(co.toSetup()), () => hb.fen()],
    [
      `JS perft(${depth}) [${nodes} nodes]`,
      () => perftChessJs(cj, depth),
      () => perftChessops(co, depth),
      () => perftHostage(hb, depth),
    ],
    [
      `library perft(${nativeDepth}) [${deep} nodes]`,
      null,
      () => chessopsPerft(co, nativeDepth, false),
      () => hb.perft(nativeDepth),
    ],
  ];
  for (const [op, fCj, fCo, fH] of ops) {
    if (smoke) {
      fCj?.();
      fCo();
      fH();
      continue;
    }
    rows.push([name, op, fCj ? seconds(fCj, budget) : null, seconds(fCo, budget), seconds(fH, budget)]);
  }
}

if (smoke) {
  console.log(`bench smoke test: ${Object.keys(POSITIONS).length} positions agree in three libraries, every operation runs`);
} else {
  console.log(`Node ${process.versions.node}; hostage-chess beside chess.js and chessops; CPU time, best of repeats`);
  console.log('| position | operation | chess.js | chessops | hostage-chess | vs chess.js | vs chessops |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, op, tCj, tCo, tH] of rows) {
    const vsCj = tCj == null ? '—' : `${(tCj / tH).toFixed(1)}×`;
    console.log(`| ${name} | ${op} | ${tCj == null ? '—' : fmt(tCj)} | ${fmt(tCo)} | ${fmt(tH)} | ${vsCj} | ${(tCo / tH).toFixed(1)}× |`);
  }
}
