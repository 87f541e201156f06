// The demo page (www/, the package's minimal example) and the package's
// browser entries in a real browser: Debian's Chromium driven by
// playwright-core; the network's weights fetched, cached and searched with
// as natively (tests/vectors/network-search.txt).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { useDemo } from './helpers.mjs';

const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'vectors');
// The weights' digest: the first 16 hex digits of the SHA-256 of the file
// the native engine embeds (the default URL and the cache carry it).
const NETWORK_DIGEST = createHash('sha256')
  .update(readFileSync(join(VECTORS, '..', '..', 'hostage-engine', 'data', 'nnue.bin'))).digest('hex').slice(0, 16);
const SHOT = process.env.HOSTAGE_SCREENSHOT ?? join(tmpdir(), 'hostage-demo.png');

const demo = useDemo();

/** A page of the demo that records uncaught errors and the .wasm files fetched. */
async function open() {
  const page = await demo.browser.newPage({ viewport: { width: 900, height: 900 } });
  const errors = [];
  const wasm = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url().split('/').pop()); });
  await page.goto(`${demo.base}/www/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, errors, wasm };
}

test('demo page: a capture, an exchange and a drop from the legal-move buttons', { timeout: 120_000 }, async () => {
  const { page, errors, wasm } = await open();
  assert.equal(await page.$$eval('#moves button', (b) => b.length), 20);
  // Each move through its button, named by its long form (what the page
  // offers comes from legalMoves(); the expected FEN is worked out by hand:
  // both pawns taken went to the captors' prisons, the exchange swaps them
  // and Black drops the released pawn).
  for (const uci of ['e2e4', 'd7d5', 'e4d5', 'd8d5', 'P#P@e3', 'P@e5']) {
    await page.click(`#moves button[data-uci="${uci}"]`);
  }
  assert.equal(await page.textContent('#history'), 'e4 d5 exd5 Qxd5 (P-P)*e3 *e5');
  assert.equal(await page.getAttribute('body', 'data-fen'),
    'rnb1kbnr/ppp1pppp/8/3qp3/8/4P3/PPPP1PPP/RNBQKBNR[] w KQkq - 0 4');
  assert.match(await page.textContent('#status'), /White to move/);
  // The diagram is the package's SVG, drawn at the size asked for.
  const box = await page.$eval('#board svg', (s) => s.getBoundingClientRect().width);
  assert.equal(Math.round(box), 400);
  await page.click('#undo');
  assert.equal(await page.textContent('#history'), 'e4 d5 exd5 Qxd5 (P-P)*e3');
  await page.screenshot({ path: SHOT, fullPage: true });
  console.log(`screenshot: ${SHOT}`);
  // A page that imports only the rules downloads only the rules module.
  assert.deepEqual(wasm, ['hostage_bg.wasm']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the engine, the worker and the puzzles load in a browser when imported', { timeout: 120_000 }, async () => {
  const { page, errors, wasm } = await open();
  const got = await page.evaluate(async () => {
    const { Board } = await import('/pkg/web/index.js');
    const { Engine, engineLevels } = await import('/pkg/web/engine.js');
    const { Puzzles, courseData } = await import('/pkg/web/puzzles.js');
    const { EngineWorker } = await import('/pkg/web/worker.js');
    const board = new Board();
    board.pushSan('e4');
    const here = new Engine({ hashMb: 1 }).play(board, { level: 'novice', seed: 1 });
    const bot = new EngineWorker();
    const there = await bot.play(board.startFen(), board.history(), { level: 'novice', seed: 1 });
    bot.terminate();
    const puzzle = Puzzles.next(1500, { seed: 1 });
    const b = new Board(puzzle.fen);
    for (const m of puzzle.moves) b.push(m);
    return {
      levels: engineLevels().length,
      same: JSON.stringify(here) === JSON.stringify(there),
      legal: board.isLegal(there),
      puzzleEnds: b.isCheckmate() === puzzle.mate,
      lessons: courseData().lessons.length,
    };
  });
  assert.deepEqual(got, { levels: 5, same: true, legal: true, puzzleEnds: true, lessons: got.lessons });
  assert.ok(got.lessons > 0);
  // Each entry fetched its own module (the worker fetches the engine's
  // again, for its own instance).
  assert.deepEqual([...new Set(wasm)].sort(), ['hostage_bg.wasm', 'hostage_engine_bg.wasm', 'hostage_puzzles_bg.wasm']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('workers given the compiled engine module (compileEngine) fetch nothing', { timeout: 120_000 }, async () => {
  const { page, errors, wasm } = await open();
  const got = await page.evaluate(async () => {
    const { compileEngine, EngineWorker } = await import('/pkg/web/worker.js');
    const module = await compileEngine();
    // Two workers on one compiled module, each with its own options.
    const a = new EngineWorker(undefined, { module, hashMb: 1 });
    const b = new EngineWorker(undefined, { module });
    const fen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';
    const [ma, mb] = await Promise.all([
      a.play(fen, ['e4', 'e5'], { level: 'novice', seed: 3 }),
      b.play(fen, ['e4', 'e5'], { level: 'novice', seed: 3 }),
    ]);
    a.terminate();
    // A call after terminate rejects (AbortError), it never hangs.
    const after = await a.newGame().then(() => 'resolved', (e) => e.name);
    b.terminate();
    // Bad engine options: the start fails and so does every call after it,
    // with the same error, and nothing is left unhandled.
    const bad = new EngineWorker(undefined, { module, hashMb: -1 });
    const refused = await bad.play(fen, [], { level: 'novice', seed: 1 }).then(() => null, (e) => e.message);
    bad.terminate();
    return { same: JSON.stringify(ma) === JSON.stringify(mb) && ma !== null, after, refused };
  });
  assert.equal(got.same, true);
  assert.equal(got.after, 'AbortError');
  assert.equal(typeof got.refused, 'string', 'a worker whose Engine cannot be made refuses its calls');
  // compileEngine fetched the engine's module once; no worker fetched it.
  assert.deepEqual(wasm.filter((w) => w === 'hostage_engine_bg.wasm'), ['hostage_engine_bg.wasm']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the network in Chromium: fetched once, cached, and a worker given it searches as the native engine', { timeout: 180_000 }, async () => {
  const { page, errors } = await open();
  const fetched = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname.endsWith('/nnue.bin')) fetched.push(r.url()); });
  // The first network line of tests/vectors/network-search.txt with a depth
  // limit (the native engine's node count: the whole tree searched).
  const row = readFileSync(join(VECTORS, 'network-search.txt'), 'utf8').split('\n')
    .filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split('|').map((f) => f.trim()))
    .find((f) => f[2] === 'network' && f[3].startsWith('depth '));
  assert.ok(row, 'a network line with a depth limit');
  const got = await page.evaluate(async ([fen, moves, depth]) => {
    const { fetchNetwork } = await import('/pkg/web/network.js');
    const { compileEngine, EngineWorker } = await import('/pkg/web/worker.js');
    const [first, again] = [fetchNetwork(), fetchNetwork()];
    const bytes = await first;
    const module = await compileEngine();
    const worker = new EngineWorker(undefined, { module, network: bytes });
    const history = moves === '-' ? [] : moves.split(/\s+/);
    const a = await worker.analyse(fen, history, { depth: Number(depth) });
    worker.terminate();
    // A worker given bytes that are not a network refuses its calls.
    const bad = new EngineWorker(undefined, { module, network: bytes.subarray(0, 1000) });
    const refused = await bad.newGame().then(() => null, (e) => `${e.name} ${e.code}`);
    bad.terminate();
    const cached = await caches.keys();
    return {
      samePromise: first === again,
      length: bytes.length,
      result: [String(a.nodes), String(a.depth), a.score.mate !== undefined ? `mate ${a.score.mate}` : `cp ${a.score.cp}`, a.bestMove?.uci ?? '-'],
      refused,
      cached,
    };
  }, [row[0], row[1], row[3].split(' ')[1]]);
  assert.equal(got.samePromise, true, 'one promise per URL');
  assert.equal(got.length, 366_356);
  assert.deepEqual(got.result, row.slice(4), 'the native engine\'s node count, depth, score and move');
  assert.equal(got.refused, 'NetworkError nnue_length');
  assert.deepEqual(got.cached.filter((n) => n.startsWith('hostage-chess-network-')), [`hostage-chess-network-${NETWORK_DIGEST}`],
    'kept in the Cache API under the digest of the weights');
  assert.equal(fetched.length, 1, 'fetched once');
  assert.equal(new URL(fetched[0]).search, `?v=${NETWORK_DIGEST}`, 'the URL carries the digest of the weights');
  // A new page of the same browser context (a later visit): from the cache.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const length = await page.evaluate(async () => (await (await import('/pkg/web/network.js')).fetchNetwork()).length);
  assert.equal(length, 366_356);
  assert.equal(fetched.length, 1, 'not fetched again on the next visit');
  assert.deepEqual(errors, []);
  await page.close();
});
