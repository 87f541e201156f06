// The demo page's puzzle mode in Chromium (playwright-core): one puzzle
// solved move by move with the page playing the replies, one failed, the
// solution shown, and the rating kept in localStorage across a reload.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useDemo } from './helpers.mjs';

const demo = useDemo();

test('puzzle mode: solve one, fail one, show the solution, keep the rating', { timeout: 120_000 }, async () => {
  const page = await demo.browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${demo.base}/www/index.html`);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  assert.match(await page.textContent('#puzzle-rating'), /1500\?/);

  // Solve: play each solver move; the page answers with the reply.
  await page.click('#puzzle-start');
  const first = await page.evaluate(() => window.hostageDemo.puzzle());
  assert.equal(await page.getAttribute('body', 'data-fen'), first.fen);
  for (let i = 0; i < first.moves.length; i += 2) {
    await page.waitForFunction((n) => window.hostageDemo.ply() === n && window.hostageDemo.humanTurn(), i);
    await page.evaluate((uci) => window.hostageDemo.move(uci), first.moves[i]);
  }
  await page.waitForFunction(() => window.hostageDemo.puzzle().done);
  assert.equal(await page.getAttribute('#puzzle-status', 'data-result'), 'solved');
  assert.match(await page.textContent('#puzzle-status'), /Solved!/);
  const afterWin = await page.evaluate(() => window.hostageDemo.puzzleRating().rating);
  assert.ok(afterWin > 1500, `${afterWin}`);

  // Fail: a legal move other than the solution's first.
  await page.click('#puzzle-start');
  const second = await page.evaluate(() => window.hostageDemo.puzzle());
  assert.notEqual(second.id, first.id);
  const wrong = (await page.evaluate(() => window.hostageDemo.legalMoves())).find((m) => m !== second.moves[0]);
  await page.evaluate((uci) => window.hostageDemo.move(uci), wrong);
  assert.equal(await page.getAttribute('#puzzle-status', 'data-result'), 'failed');
  assert.match(await page.textContent('#puzzle-status'), /Wrong/);
  const afterLoss = await page.evaluate(() => window.hostageDemo.puzzleRating().rating);
  assert.ok(afterLoss < afterWin, `${afterLoss} < ${afterWin}`);

  // The solution, played out on the board.
  await page.click('#puzzle-solution');
  assert.match(await page.textContent('#puzzle-status'), /^Solution: /);
  assert.equal(await page.evaluate(() => window.hostageDemo.ply()), second.moves.length);

  // The rating and the puzzles seen survive a reload.
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('hostage.puzzles.v1')));
  assert.deepEqual(stored.seen, [first.id, second.id]);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.match(await page.textContent('#puzzle-rating'), new RegExp(`^Your puzzle rating: ${Math.round(afterLoss)}`));
  assert.deepEqual(errors, []);
});
