// Learn in Chromium: the lesson's Markdown rendered (lists,
// bold), the task next to the board (on a phone, task and board on one
// screen), progress per lesson, and after a wrong move the board waits for
// "Try again" instead of staying live for the other side. Desktop 1280x800
// and phone 390x844; the board, the task and the controls are found by their
// roles and visible text; any console error fails the test (helpers.mjs).
// Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SIZES, boardOf, move, shot, smallTargets, useApp } from './helpers.mjs';

const app = useApp();

for (const [label, viewport, extra] of SIZES) {
  test(`learn (${label}): markdown, task beside the board, progress per lesson, a miss waits`, { timeout: 60_000 }, async () => {
    const { context, page } = await app.open('learn', viewport, extra);
    const lessonText = page.getByRole('article');
    await lessonText.getByRole('heading', { name: /^1\. / }).waitFor();
    // Lesson 1's text has a list and bold words: rendered, not shown as ** and -.
    assert.ok(await lessonText.getByRole('listitem').getByRole('strong').count() > 0);
    assert.doesNotMatch(await lessonText.textContent(), /\*\*|^- /m);
    // The task and the board are on one screen.
    const vp = page.viewportSize();
    const task = page.getByRole('heading', { name: /^Task \d+ of \d+/ });
    // The task's prompt, as the course words it (Markdown marks dropped, as rendered).
    const prompt = await page.evaluate(async () => {
      const { courseData } = await import('/vendor/hostage-chess/puzzles.js');
      return courseData().lessons[0].tasks[0].prompt.replace(/[`*]/g, '');
    });
    const asked = page.getByText(prompt.slice(0, 40));
    for (const [what, el] of [['the task', task], ['its prompt', asked], ['the board', boardOf(page)]]) {
      const box = await el.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= vp.height, `${what} on screen (${box.y}+${box.height})`);
    }
    const lesson = page.getByRole('combobox', { name: /^Lesson/ });
    await lesson.selectOption({ index: 1 });
    const progress = page.getByText(/^This lesson: \d+ of \d+ tasks done\.$/);
    assert.match(await progress.textContent(), /^This lesson: 0 of \d+ tasks done\.$/);
    await move(page, 'a2', 'a3');
    await page.getByText(/^a3 is legal, but not the answer/).waitFor();
    await move(page, 'd5', 'd4'); // Black's queen: not movable, nothing thrown
    assert.equal(await boardOf(page).getByRole('gridcell', { name: /, legal destination/ }).count(), 0);
    await page.getByRole('button', { name: 'Try again' }).click();
    await move(page, 'c3', 'd5');
    const right = page.getByText(/^Nxd5: right\./);
    await right.waitFor();
    // The explanation names the FEN's reserves in `code`: rendered, no backticks.
    assert.ok(await right.getByRole('code').count() > 0);
    assert.doesNotMatch(await right.textContent(), /`/);
    assert.match(await progress.textContent(), /^This lesson: 1 of \d+ tasks done\.$/);
    assert.match(await lesson.evaluate((s) => s.selectedOptions[0].textContent), /\(1\/\d+\)$/);
    if (label === 'phone') assert.deepEqual(await smallTargets(page, '#mode-learn'), [], 'tap targets of at least 44 px');
    await shot(page, `learn-${label}`);
    await context.close();
  });
}
