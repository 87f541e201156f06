// The board editor of Analyse in Chromium: two white kings are refused with
// the package's error; a legal position set up with the palette, a reserve
// count and the side to move opens in analysis. Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { listedMoves, move, shot, useApp } from './helpers.mjs';

const app = useApp();

const A = '#mode-analyse';
const E = `${A} .editor`;

async function openEditor(viewport, extra) {
  const { context, page, errors } = await app.open('analyse', viewport, extra);
  await page.click(`${A} [data-act="edit"]`);
  await page.waitForSelector(`${E}:not([hidden])`);
  return { context, page, errors };
}

const tool = (page, color, role) => page.click(`${E} .palette .tool[data-color="${color}"][data-role="${role}"]`);
const sq = (page, s) => page.click(`${E} [data-square="${s}"]`);

test('editor: two white kings show the package error; a legal set-up opens in analysis', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openEditor();
  // It opens on the shown position (the start), which has one king each.
  assert.equal(await page.getAttribute(E, 'data-fen'), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1');

  // A second white king: the package refuses the position.
  await tool(page, 'w', 'king');
  await sq(page, 'd4');
  await page.click(`${E} [data-edit="done"]`);
  const err = await page.textContent(`${E} .editor-error`);
  assert.match(err, /PositionError/);
  assert.match(err, /too_many_kings/);
  assert.ok(await page.isVisible(`${E}`), 'still editing');
  await shot(page, 'editor-two-kings');

  // Clear, then build K+R vs k with a white knight in White's airfield, Black to move.
  await page.click(`${E} [data-edit="clear"]`);
  await tool(page, 'w', 'king');
  await sq(page, 'e1');
  await tool(page, 'w', 'rook');
  await sq(page, 'a1');
  await sq(page, 'h2');
  await sq(page, 'h2'); // the same man again: removed
  await tool(page, 'b', 'king');
  await sq(page, 'e8');
  await page.fill(`${E} input[data-kind="airfield"][data-owner="w"][data-role="knight"]`, '1');
  await page.press(`${E} input[data-kind="airfield"][data-owner="w"][data-role="knight"]`, 'Tab');
  await page.check(`${E} input[name="editor-turn"][value="b"]`);
  assert.equal(await page.getAttribute(E, 'data-fen'), '4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1');
  await shot(page, 'editor-setup');
  await page.click(`${E} [data-edit="done"]`);

  await page.waitForSelector(`${E}`, { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.body.dataset.fen), '4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1');
  assert.match(await page.textContent(`${A} .status`), /Black to move/);
  // The position is live: Black moves, White drops the knight.
  await move(page, 'e8', 'd7', A);
  await page.click(`${A} #airfield-w .man[data-role="knight"]`);
  await page.click(`${A} [data-square="c5"]`);
  assert.deepEqual(await listedMoves(page, A), ['Kd7', 'N*c5+']);
  await shot(page, 'editor-analysed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('editor: a bad reserve count shows the package error; phone layout', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openEditor({ width: 360, height: 740 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  // 17 pawns in a prison: the package refuses the count (and keeps the old one).
  const pawns = `${E} input[data-kind="prison"][data-owner="w"][data-role="pawn"]`;
  await page.fill(pawns, '17');
  await page.press(pawns, 'Tab');
  assert.match(await page.textContent(`${E} .editor-error`), /a reserve count must be an integer from 0 to 16/);
  assert.equal(await page.inputValue(pawns), '0');
  // 9 black pawns captured with 8 still on the board: the position is refused.
  await page.fill(pawns, '9');
  await page.press(pawns, 'Tab');
  assert.ok(await page.isHidden(`${E} .editor-error`));
  await page.click(`${E} [data-edit="done"]`);
  assert.match(await page.textContent(`${E} .editor-error`), /too_many_men/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide`);
  await shot(page, 'phone-editor');
  await page.click(`${E} [data-edit="cancel"]`);
  assert.ok(await page.isVisible(`${A} .analysis`));
  assert.deepEqual(errors, []);
  await context.close();
});
