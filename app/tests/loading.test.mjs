// What the first page load fetches (issue #18): only the rules' WebAssembly
// module (hostage_bg.wasm). The engine's module comes when the player first
// chooses a bot or switches the engine on in Analyse, the puzzles' module
// (which holds the course too) when Learn or Puzzles is first opened.
// Desktop 1280x800 and phone 390x844.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useApp } from './helpers.mjs';

const app = useApp();

/** The .wasm files among the requested URLs, by name, in order, each once. */
const wasm = (urls) => [...new Set(urls.filter((u) => new URL(u).pathname.endsWith('.wasm')).map((u) => new URL(u).pathname.split('/').pop()))];
const settle = (page) => page.waitForTimeout(1500);

for (const [label, viewport, extra] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true }]]) {
  test(`first load (${label}): only the rules module; the engine and the puzzles when first needed`, { timeout: 90_000 }, async () => {
    const requests = [];
    const { context, page, errors } = await app.open('play', viewport, extra, { requests });
    await page.getByRole('status').filter({ hasText: 'Choose an opponent' }).waitFor();
    await settle(page);
    assert.deepEqual(wasm(requests), ['hostage_bg.wasm'], 'the first load fetches only the rules');

    // Choosing a bot loads the engine: its levels appear.
    const form = page.getByRole('form', { name: 'New game' });
    await form.getByLabel('A bot').check();
    const level = form.getByLabel('Bot level');
    await level.locator('option', { hasText: 'Novice (800)' }).waitFor({ state: 'attached' });
    await level.selectOption({ label: 'Novice (800)' });
    await settle(page);
    assert.deepEqual(wasm(requests), ['hostage_bg.wasm', 'hostage_engine_bg.wasm']);

    // Learn loads the puzzles module (the course is in it).
    await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Learn' }).click();
    await page.getByRole('combobox', { name: 'Lesson' }).waitFor();
    assert.deepEqual(wasm(requests), ['hostage_bg.wasm', 'hostage_engine_bg.wasm', 'hostage_puzzles_bg.wasm']);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('first load in Analyse: the engine module only once the engine is switched on; Puzzles loads the puzzles', { timeout: 90_000 }, async () => {
  const requests = [];
  const { context, page, errors } = await app.open('analyse', { width: 1280, height: 800 }, {}, { requests });
  await page.getByRole('grid', { name: /^Board/ }).waitFor();
  await settle(page);
  assert.deepEqual(wasm(requests), ['hostage_bg.wasm']);
  await page.getByLabel('Engine analysis').check();
  await page.waitForSelector('#mode-analyse .engine-lines li');
  assert.deepEqual(wasm(requests), ['hostage_bg.wasm', 'hostage_engine_bg.wasm']);
  await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Puzzles' }).click();
  await page.getByRole('heading', { name: 'Your rating' }).waitFor();
  assert.deepEqual(wasm(requests), ['hostage_bg.wasm', 'hostage_engine_bg.wasm', 'hostage_puzzles_bg.wasm']);
  assert.deepEqual(errors, []);
  await context.close();
});
