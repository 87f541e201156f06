// The full-strength engine evaluates with the network in Chromium: the
// analysis says so in its engine panel, and the network's weights
// (nnue.bin) are fetched once for the page however many searches use them
// (two analyses, a game review, the full-strength bot and a hint); the
// bot levels never fetch them. When the weights cannot be had (here: the
// server answers with an HTML page, as a misconfigured fallback route
// does), the engine evaluates by hand and says so quietly, and nothing
// breaks. Desktop 1280x800 and phone 390x844; found by roles and labels;
// any console error fails the test (helpers.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SIZES, boardOf, gameCard, move, openPage, startGame, useApp, waitMoves } from './helpers.mjs';

const app = useApp();

/** How many times nnue.bin was requested (every request counted, whatever its query). */
const networkFetches = (urls) => urls.filter((u) => new URL(u).pathname.endsWith('/nnue.bin')).length;
const engineOf = (page) => page.getByRole('region', { name: 'Engine', exact: true });
const nav = (page, name) => page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name }).click();

for (const [label, viewport, extra] of SIZES) {
  test(`the network (${label}): named in the engine panel, fetched once for two analyses, a review, the full-strength bot and a hint`, { timeout: 240_000 }, async () => {
    const requests = [];
    const { context, page } = await app.open('analyse', viewport, extra, { requests });
    await boardOf(page).waitFor();
    const engine = engineOf(page);
    assert.equal(networkFetches(requests), 0, 'not fetched before the engine is wanted');

    // The first analysis.
    await page.getByLabel('Engine analysis').check();
    await engine.getByRole('list', { name: 'Best continuations' }).getByRole('listitem').first().waitFor({ timeout: 60_000 });
    await engine.getByText('Evaluation: the neural network', { exact: true }).waitFor();
    assert.equal(networkFetches(requests), 1);

    // The second analysis, of another position, by a fresh worker.
    await page.getByLabel('Engine analysis').uncheck();
    await move(page, 'e2', 'e4');
    await page.getByLabel('Engine analysis').check();
    await engine.getByRole('status').filter({ hasText: /^Depth \d+/ }).waitFor({ timeout: 60_000 });
    await engine.getByText('Evaluation: the neural network', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Review the game' }).click();
    await page.getByRole('region', { name: 'Game review' }).getByRole('table', { name: 'Accuracy' }).waitFor({ timeout: 120_000 });
    await page.getByLabel('Engine analysis').uncheck();
    assert.equal(networkFetches(requests), 1, 'the weights were fetched once for two analyses and a review');

    // The full-strength bot (White: it moves first) and a hint.
    await nav(page, 'Play');
    await startGame(page, { opponent: 'A bot', level: 'Full strength (neural network)', color: 'Black' });
    await waitMoves(page, 1, 120_000);
    const card = gameCard(page);
    await card.getByRole('button', { name: 'Hint' }).click();
    await card.getByRole('alert').filter({ hasText: /^Hint: \S+$/ }).waitFor({ timeout: 120_000 });
    assert.equal(await boardOf(page).locator('.shapes .auto').count(), 1, 'the hinted move is drawn');
    assert.equal(networkFetches(requests), 1, 'the bot and the hint used the weights already fetched');
    await context.close();
  });
}

test('the bot levels never fetch the network', { timeout: 120_000 }, async () => {
  const requests = [];
  const { context, page } = await app.open('play', SIZES[0][1], {}, { requests });
  await startGame(page, { opponent: 'A bot', level: 'Club (2000)', color: 'Black' });
  await waitMoves(page, 1, 60_000);
  // The Hint button uses the full-strength engine: only it fetches the weights.
  assert.equal(networkFetches(requests), 0);
  await context.close();
});

test('without the network the engine evaluates by hand and says so quietly', { timeout: 180_000 }, async () => {
  const requests = [];
  const { context } = await app.open('play', SIZES[0][1], {}, { requests });
  // The weights' URL answers with an HTML page (status 200, so the browser
  // logs no error of its own): not a network file, refused before caching.
  await context.route((url) => url.pathname.endsWith('/nnue.bin'), (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>Not here</p>' }));
  const page = await openPage(context, `${app.base}/#/analyse`);
  const engine = engineOf(page);
  await page.getByLabel('Engine analysis').check();
  await engine.getByRole('status').filter({ hasText: /^Depth \d+/ }).waitFor({ timeout: 60_000 });
  await engine.getByText('Evaluation: by hand (the neural network could not be loaded)', { exact: true }).waitFor();
  await page.getByLabel('Engine analysis').uncheck();

  // The full-strength bot still plays, by hand, and says why.
  await nav(page, 'Play');
  await startGame(page, { opponent: 'A bot', level: 'Full strength (neural network)', color: 'Black' });
  await waitMoves(page, 1, 120_000);
  await gameCard(page).getByRole('alert').filter({ hasText: 'The neural network could not be loaded: the full-strength bot evaluates by hand.' }).waitFor();
  assert.ok(networkFetches(requests) >= 2, 'a failed load is tried again when next wanted');
  await context.close();
});
