// What a bot move costs in WebAssembly (node; a browser runs the same
// module): `node hostage-wasm/js-tests/bench-engine.mjs [level]` after
// hostage-wasm/build.sh. A benchmark, not a test: it prints times and
// checks nothing but legality. The positions are those of the Rust bench
// (hostage-engine/examples/bench.rs).
import { Board } from '../pkg/node/index.mjs';
import { Engine } from '../pkg/node/engine.mjs';

const POSITIONS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1',
  'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3',
  'r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12',
  '4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40',
  'r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7',
];

const level = process.argv[2] ?? 'club';
let worst = 0;
let sum = 0;
for (const fen of POSITIONS) {
  const engine = new Engine();
  const start = performance.now();
  const move = engine.play(fen, { level, seed: 1 });
  const secs = (performance.now() - start) / 1000;
  const board = new Board(fen);
  if (!board.legalMoves().some((m) => m.uci === move.uci)) throw new Error(`illegal ${move.uci} in ${fen}`);
  worst = Math.max(worst, secs);
  sum += secs;
  console.log(`${level}: ${move.uci.padEnd(8)} ${secs.toFixed(3)} s`);
}
const nodes = new Engine().analyse(POSITIONS[0], { nodes: 1_000_000 }).nodes;
const t = performance.now();
new Engine().analyse(POSITIONS[0], { nodes: 1_000_000 });
const knps = nodes / (performance.now() - t);
console.log(`${level}: mean ${(sum / POSITIONS.length).toFixed(3)} s, worst ${worst.toFixed(3)} s per move; full search ${knps.toFixed(0)} knps`);
