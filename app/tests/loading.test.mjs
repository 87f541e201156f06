// What the page fetches: the first load only the rules'
// WebAssembly module (hostage_bg.wasm); the engine's module when the player
// first chooses a bot or switches the engine on in Analyse, the puzzles'
// module (which holds the course too) when Learn or Puzzles is first opened.
// And each module is fetched ONCE per page load: every request is counted
// (no de-duplication; the test server sends no Cache-Control, so a second
// fetch would be a real one). The engine's module is compiled once by the
// page and handed to every worker (the bot's, the analysis's, each review's,
// src/pkg.js: the package's compileEngine and EngineWorker's `module`
// option), so a bot game, a search stopped and
// restarted on every new position and a game review still make one request
// for hostage_engine_bg.wasm. The counter sees a worker's own fetch (checked
// at the end with the package's own worker script, which fetches it again).
// The network's weights (nnue.bin) are fetched once, when the analysis or
// the review first needs them, never for a bot game, and not again on the
// next visit (the Cache API keeps them).
// Desktop 1280x800 and phone 390x844.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useApp } from './helpers.mjs';

const app = useApp();

/** How many times each .wasm (and .bin) file was requested: { 'hostage_bg.wasm': 1, ... } (every request counted). */
function wasmCounts(urls) {
  const out = {};
  for (const u of urls) {
    const path = new URL(u).pathname;
    if (path.endsWith('.wasm') || path.endsWith('.bin')) { const name = path.split('/').pop(); out[name] = (out[name] ?? 0) + 1; }
  }
  return out;
}
const settle = (page) => page.waitForTimeout(1500);

for (const [label, viewport, extra] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true }]]) {
  test(`first load (${label}): only the rules module; the engine and the puzzles when first needed, each once`, { timeout: 120_000 }, async () => {
    const requests = [];
    const { context, page, errors } = await app.open('play', viewport, extra, { requests });
    await page.getByRole('status').filter({ hasText: 'Choose an opponent' }).waitFor();
    await settle(page);
    assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1 }, 'the first load fetches only the rules');

    // Choosing a bot loads the engine: its levels appear.
    const form = page.getByRole('form', { name: 'New game' });
    await form.getByLabel('A bot').check();
    const level = form.getByLabel('Bot level');
    await level.locator('option', { hasText: 'Novice (800)' }).waitFor({ state: 'attached' });
    await level.selectOption({ label: 'Novice (800)' });
    await settle(page);
    assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1, 'hostage_engine_bg.wasm': 1 });

    // A game against the bot: its worker starts and replies, with no second fetch.
    await form.getByLabel('White', { exact: true }).check();
    await form.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('gridcell', { name: /^e2, White pawn/ }).click();
    await page.getByRole('gridcell', { name: /^e4, empty/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('#mode-play .moves .mv').length === 2, null, { timeout: 60_000 });
    assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1, 'hostage_engine_bg.wasm': 1 }, 'the bot\'s worker fetched nothing');

    // Learn loads the puzzles module (the course is in it).
    await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Learn' }).click();
    await page.getByRole('combobox', { name: 'Lesson' }).waitFor();
    await settle(page);
    assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1, 'hostage_engine_bg.wasm': 1, 'hostage_puzzles_bg.wasm': 1 });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('Analyse first: the engine module once, however many workers (search restarts, a review); Puzzles loads the puzzles', { timeout: 120_000 }, async () => {
  const requests = [];
  const { context, page, errors } = await app.open('analyse', { width: 1280, height: 800 }, {}, { requests });
  await page.getByRole('grid', { name: /^Board/ }).waitFor();
  await settle(page);
  assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1 });
  await page.getByLabel('Engine analysis').check();
  await page.waitForSelector('#mode-analyse .engine-lines li');
  assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1, 'hostage_engine_bg.wasm': 1, 'nnue.bin': 1 });
  assert.equal(await page.locator('#mode-analyse').getAttribute('data-engine-network'), 'on', 'the analysis evaluates with the network');

  // Moves while it searches: each new position stops the search (a new worker).
  await page.getByRole('gridcell', { name: /^e2, White pawn/ }).click();
  await page.getByRole('gridcell', { name: /^e4, empty/ }).click();
  await page.getByRole('gridcell', { name: /^e7, Black pawn/ }).click();
  await page.getByRole('gridcell', { name: /^e5, empty/ }).click();
  await page.waitForSelector('#mode-analyse .engine-lines li');
  // A game review: a worker of its own.
  await page.getByRole('button', { name: 'Review the game' }).click();
  await page.getByRole('region', { name: 'Game review' }).getByRole('table', { name: 'Accuracy' }).waitFor({ timeout: 60_000 });
  await settle(page);
  assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1, 'hostage_engine_bg.wasm': 1, 'nnue.bin': 1 }, 'no worker fetched the engine or the network again');

  await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Puzzles' }).click();
  await page.getByRole('heading', { name: 'Your rating' }).waitFor();
  await settle(page);
  assert.deepEqual(wasmCounts(requests), { 'hostage_bg.wasm': 1, 'hostage_engine_bg.wasm': 1, 'nnue.bin': 1, 'hostage_puzzles_bg.wasm': 1 });

  // The counter does see a worker's own fetch: the package's worker script
  // started directly fetches the engine's module a second time.
  await page.evaluate(() => new Promise((ok) => {
    const w = new Worker(new URL('vendor/hostage-chess/engine-worker.js', location.href), { type: 'module' });
    w.onmessage = () => { w.terminate(); ok(); };
    w.postMessage({ id: 1, op: 'newGame' });
  }));
  await settle(page);
  assert.equal(wasmCounts(requests)['hostage_engine_bg.wasm'], 2, 'a worker fetching the module is counted');

  // The next visit: the network's weights come from the Cache API, not the server.
  await page.reload();
  await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Analyse' }).click();
  await page.getByLabel('Engine analysis').check();
  await page.waitForSelector('#mode-analyse .engine-lines li');
  assert.equal(await page.locator('#mode-analyse').getAttribute('data-engine-network'), 'on');
  assert.equal(wasmCounts(requests)['nnue.bin'], 1, 'the weights were not fetched again');
  assert.deepEqual(errors, []);
  await context.close();
});
