// The board editor of Analyse in Chromium: two white kings are refused with
// the package's error; a legal position set up with the palette, a reserve
// count and the side to move opens in analysis. Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { move, shot, smallTargets, useApp } from './helpers.mjs';

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
  assert.equal(err, 'This position cannot be used: each side has exactly one king.');
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
  await page.getByRole('button', { name: "Add a white knight to White's airfield" }).click();
  await page.check(`${E} input[name="editor-turn"][value="b"]`);
  assert.equal(await page.getAttribute(E, 'data-fen'), '4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1');
  await shot(page, 'editor-setup');
  await page.click(`${E} [data-edit="done"]`);

  await page.waitForSelector(`${E}`, { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.body.dataset.fen), '4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1');
  assert.match(await page.textContent(`${A} .status`), /Black to move/);
  // The position is live: Black moves, White drops the knight.
  await move(page, 'e8', 'd7', A);
  await page.click(`${A} .airfield[data-owner="w"] .man[data-role="knight"]`);
  await page.click(`${A} [data-square="c5"]`);
  const sans = await page.$$eval(`${A} .tree .mv`, (els) => els.map((e) => e.textContent.replace(/^\d+\.+\s/, '')));
  assert.deepEqual(sans, ['Kd7', 'N*c5+']);
  await shot(page, 'editor-analysed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('editor: reserves by − and +, castling and en passant, a pasted FEN; phone layout', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openEditor({ width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const add = page.getByRole('button', { name: "Add a black pawn to White's prison" });
  const remove = page.getByRole('button', { name: "Remove a black pawn from White's prison" });
  assert.ok(await remove.isDisabled(), 'nothing to remove from an empty reserve');
  // 9 black pawns captured with 8 still on the board: the position is refused.
  for (let i = 0; i < 9; i++) await add.click();
  assert.equal(await page.getByRole('status', { name: "black pawns in White's prison" }).textContent(), '9');
  await page.click(`${E} [data-edit="done"]`);
  assert.equal(await page.textContent(`${E} .editor-error`), 'This position cannot be used: a side has more men than the game starts with.');
  await remove.click();
  // After '#' come the prisons: black men (lower case) are in White's prison (docs/fen.md).
  assert.match(await page.getAttribute(E, 'data-fen'), /\[#pppppppp\]/);
  for (let i = 0; i < 8; i++) await remove.click();

  // Castling rights and the en-passant square go into the FEN.
  await page.getByLabel('Black O-O-O').uncheck();
  assert.match(await page.getAttribute(E, 'data-fen'), / w KQk - /);
  // A pasted FEN is loaded; a bad one is refused in words.
  const fen = page.getByLabel('FEN (paste one to load it)');
  await fen.fill('rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR[] b KQkq e3 0 3');
  await fen.press('Enter');
  assert.equal(await page.getAttribute(E, 'data-fen'), 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR[] b KQkq e3 0 3');
  assert.equal(await page.getByLabel('En passant').inputValue(), 'e3');
  await fen.fill('not a fen');
  await fen.press('Enter');
  assert.match(await page.textContent(`${E} .editor-error`), /^This FEN cannot be used: /);
  assert.doesNotMatch(await page.textContent(`${E} .editor-error`), /_|Error/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  assert.deepEqual(await smallTargets(page, '#mode-analyse .editor'), [], 'tap targets of at least 44 px');
  await shot(page, 'editor-phone');
  await page.click(`${E} [data-edit="cancel"]`);
  assert.ok(await page.isVisible(`${A} .analysis`));
  assert.deepEqual(errors, []);
  await context.close();
});
