// The engine's network in WebAssembly: the package's nnue.bin loaded at
// run time (new Engine({ network }), engine.loadNetwork()), the shared
// vector tests/vectors/network-search.txt (the native engine's node counts
// and moves, also checked by Python) and bad network files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';

import { engine as engineModule, engineCjs, PKG, ROOT, tableVectors } from './helpers.mjs';

const { Engine } = engineModule;
const require = createRequire(import.meta.url);
const NNUE = join(PKG, 'web', 'nnue.bin');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';

test('the package ships the native engine\'s network, byte for byte, as a file of its own', () => {
  const shipped = readFileSync(NNUE);
  assert.deepEqual(shipped, readFileSync(join(ROOT, 'hostage-engine', 'data', 'nnue.bin')));
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
  assert.equal(pkg.exports['./nnue.bin'], './web/nnue.bin');
  // The engine module does not embed it: it is smaller than the weights.
  const wasm = readFileSync(join(PKG, 'web', 'hostage_engine_bg.wasm'));
  assert.ok(wasm.indexOf(shipped.subarray(16, 4096)) < 0, 'the weights are not inside the engine module');
});

test('network vectors: WebAssembly searches as the native engine, node for node', async () => {
  const rows = tableVectors('network-search.txt');
  assert.ok(rows && rows.length >= 6, 'tests/vectors/network-search.txt');
  const { fetchNetwork } = await import(join(PKG, 'node', 'network.mjs'));
  const network = await fetchNetwork();
  let withNetwork = 0;
  for (const { line, fields } of rows) {
    const [fen, moves, evaluation, limit, nodes, depth, score, best] = fields;
    const history = moves === '-' ? [] : moves.split(/\s+/);
    const [kind, n] = limit.split(' ');
    assert.ok(kind === 'nodes' || kind === 'depth', `line ${line}: ${limit}`);
    const engine = evaluation === 'network' ? new Engine({ network }) : new Engine();
    assert.equal(engine.usesNetwork, evaluation === 'network', `line ${line}`);
    withNetwork += evaluation === 'network';
    const a = engine.analyse(fen, { history, [kind]: Number(n) });
    const got = [
      String(a.nodes),
      String(a.depth),
      a.score.mate !== undefined ? `mate ${a.score.mate}` : `cp ${a.score.cp}`,
      a.bestMove ? a.bestMove.uci : '-',
    ];
    assert.deepEqual(got, [nodes, depth, score, best], `network-search.txt line ${line}`);
    engine.free();
  }
  assert.ok(withNetwork >= 4);
});

test('loadNetwork: on and off again; the bots keep the hand-written evaluation', () => {
  const bytes = readFileSync(NNUE);
  const hand = new Engine().analyse(START, { depth: 6 });
  const engine = new Engine();
  assert.equal(engine.usesNetwork, false);
  // An ArrayBuffer as well as a Uint8Array (a Node.js Buffer is one).
  engine.loadNetwork(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  assert.equal(engine.usesNetwork, true);
  const net = engine.analyse(START, { depth: 6 });
  assert.notDeepEqual([net.nodes, net.score], [hand.nodes, hand.score]);
  // A bot's move is the same with and without the network.
  for (const level of ['novice', 'casual']) {
    assert.deepEqual(engine.play(START, { level, seed: 3 }), new Engine().play(START, { level, seed: 3 }), level);
  }
  engine.loadNetwork(null);
  assert.equal(engine.usesNetwork, false);
  engine.newGame();
  assert.deepEqual(engine.analyse(START, { depth: 6 }).nodes, hand.nodes);
});

test('bad network bytes throw a NetworkError with a stable code, and leave the engine as it was', () => {
  const good = new Uint8Array(readFileSync(NNUE));
  const cases = [
    [new Uint8Array(0), 'nnue_magic'],
    [good.subarray(0, 15), 'nnue_magic'],
    [good.subarray(0, 16), 'nnue_length'],
    [good.subarray(0, good.length - 1), 'nnue_length'],
    [new TextEncoder().encode('<!doctype html><title>404</title>'), 'nnue_magic'],
  ];
  const wrongShape = good.slice();
  wrongShape[12] = 64;
  cases.push([wrongShape, 'nnue_shape']);
  const longer = new Uint8Array(good.length + 1);
  longer.set(good);
  cases.push([longer, 'nnue_length']);
  for (const [Class, name] of [[Engine, 'esm'], [engineCjs.Engine, 'cjs']]) {
    const engine = new Class({ network: good });
    for (const [bytes, code] of cases) {
      assert.throws(() => engine.loadNetwork(bytes), (e) => e instanceof Error && e.name === 'NetworkError' && e.code === code, `${name}: ${code}, ${bytes.length} bytes`);
      assert.equal(engine.usesNetwork, true, 'still the network loaded before');
      assert.throws(() => new Class({ network: bytes }), { name: 'NetworkError', code });
    }
    for (const wrong of ['nnue.bin', 42, {}, [1, 2, 3]]) {
      assert.throws(() => engine.loadNetwork(wrong), { name: 'TypeError', code: 'invalid_argument' });
      assert.throws(() => new Class({ network: wrong }), { name: 'TypeError', code: 'invalid_argument' });
    }
    engine.free();
  }
});

test('hostage-chess/network in Node.js: the package\'s file, read once, by import and require', async () => {
  const esm = await import(join(PKG, 'node', 'network.mjs'));
  const cjs = require(join(PKG, 'node', 'network.cjs'));
  assert.equal(esm.fetchNetwork, cjs.fetchNetwork);
  const a = esm.fetchNetwork();
  assert.equal(a, cjs.fetchNetwork(), 'one promise for the default file');
  assert.deepEqual(Buffer.from(await a), readFileSync(NNUE));
  await assert.rejects(esm.fetchNetwork(join(PKG, 'no-such-file.bin')), { name: 'NetworkError', code: 'nnue_fetch' });
});
