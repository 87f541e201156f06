// Learn in Chromium (issue #18): the lesson's Markdown rendered (lists,
// bold), the task next to the board (on a phone, task and board on one
// screen), progress per lesson, and after a wrong move the board waits for
// "Try again" instead of staying live for the other side. Desktop 1280x800
// and phone 390x844; screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { move, shot, smallTargets, useApp } from './helpers.mjs';

const app = useApp();
const L = '#mode-learn';

for (const [label, viewport, extra] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true }]]) {
  test(`learn (${label}): markdown, task beside the board, progress per lesson, a miss waits`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await app.open('learn', viewport, extra);
    await page.waitForSelector(`${L} .lesson-text`);
    // Lesson 1's text has a list and bold words: rendered, not shown as ** and -.
    assert.ok(await page.locator(`${L} .lesson-text ul li strong`).count() > 0);
    assert.doesNotMatch(await page.textContent(`${L} .lesson-text`), /\*\*|^- /m);
    // The task and the board are on one screen.
    const vp = page.viewportSize();
    for (const el of [page.locator(`${L} .task .prompt`), page.getByRole('grid', { name: /^Board/ })]) {
      const box = await el.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= vp.height, `${await el.evaluate((e) => e.className)} on screen (${box.y}+${box.height})`);
    }
    await page.getByRole('combobox', { name: /^Lesson/ }).selectOption({ index: 1 });
    assert.match(await page.textContent(`${L} .lesson-progress`), /^This lesson: 0 of \d+ tasks done\.$/);
    await move(page, 'a2', 'a3', L);
    assert.equal(await page.getAttribute(`${L} .feedback`, 'data-kind'), 'wrong');
    await move(page, 'd5', 'd4', L); // Black's queen: not movable, nothing thrown
    assert.equal(await page.locator(`${L} .dest`).count(), 0);
    await page.getByRole('button', { name: 'Try again' }).click();
    await move(page, 'c3', 'd5', L);
    assert.equal(await page.getAttribute(`${L} .feedback`, 'data-kind'), 'right');
    // The explanation names the FEN's reserves in `code`: rendered, no backticks.
    assert.ok(await page.locator(`${L} .feedback code`).count() > 0);
    assert.doesNotMatch(await page.textContent(`${L} .feedback`), /`/);
    assert.match(await page.textContent(`${L} .lesson-progress`), /^This lesson: 1 of \d+ tasks done\.$/);
    assert.match(await page.textContent(`${L} .lesson-select option:checked`), /\(1\/\d+\)$/);
    if (label === 'phone') assert.deepEqual(await smallTargets(page, '#mode-learn'), [], 'tap targets of at least 44 px');
    await shot(page, `learn-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
