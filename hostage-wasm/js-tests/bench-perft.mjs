// Perft speed in Node: hostage-chess (wasm) beside chessops (npm), from the
// start position, where Hostage Chess and orthodox chess agree to depth 4.
// Not a test (no .test. in its name): `npm run bench`.
import { Chess } from 'chessops/chess';
import { perft } from 'chessops/debug';

import { hostage } from './helpers.mjs';

const depth = Number(process.argv[2] ?? 4);
function time(name, f) {
  const t = performance.now();
  const n = f();
  const ms = performance.now() - t;
  console.log(`${name.padEnd(14)} perft(${depth}) = ${n}  ${ms.toFixed(0)} ms  ${(n / ms / 1000).toFixed(2)} Mnodes/s`);
  return ms;
}
const a = time('hostage-chess', () => new hostage.Board().perft(depth));
const b = time('chessops', () => perft(Chess.default(), depth, false));
console.log(`hostage-chess is ${(b / a).toFixed(1)}x chessops`);
