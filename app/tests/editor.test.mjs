// The board editor of Analyse in Chromium, at desktop 1280x800 and phone
// 390x844: two white kings are refused in words; a legal position set up
// with the palette, an airfield man added with + and Black to move opens in
// analysis and is played on (a drop); 9 captured pawns refused, − taking
// them back; castling checkboxes and the en-passant select written into the
// FEN; a FEN pasted from the clipboard (a real paste) loaded and a bad one
// refused in words; at 1280x800 and 1366x768 the whole editor (the board's
// ranks 1 and 8, the palette, side to move, castling, en passant, the four
// reserves, the FEN field, the buttons) on one screen. The board, the
// palette, the reserves' − and + and the fields are found by their roles
// and visible labels; any console error fails the test (helpers.mjs).
// Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SIZES, move, shot, smallTargets, useApp } from './helpers.mjs';

const app = useApp();

async function openEditor(viewport, extra) {
  const { context, page } = await app.open('analyse', viewport, { ...extra, permissions: ['clipboard-read', 'clipboard-write'] });
  await page.getByRole('button', { name: 'Open the board editor' }).click();
  await editor(page).waitFor();
  return { context, page };
}

const editor = (page) => page.getByRole('region', { name: 'Set up a position' });
const editorBoard = (page) => page.getByRole('grid', { name: /^Board editor/ });
const sq = (page, s) => editorBoard(page).getByRole('gridcell', { name: new RegExp(`^${s},`) }).click();
const tool = (page, name) => page.getByRole('toolbar', { name: 'Men to place' }).getByRole('button', { name, exact: true }).click();
const fenBox = (page) => page.getByLabel('FEN (paste one to load it)');
const refusal = (page) => page.getByRole('alert').filter({ hasText: /cannot be used/ });
const analyseIt = (page) => page.getByRole('button', { name: 'Analyse this position' }).click();

for (const [label, viewport, extra] of SIZES) {
  test(`editor (${label}): two white kings refused in words; a legal set-up opens in analysis`, { timeout: 90_000 }, async () => {
    const { context, page } = await openEditor(viewport, extra);
    // It opens on the shown position (the start), which has one king each.
    assert.equal(await fenBox(page).inputValue(), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1');

    // A second white king: the package refuses the position.
    await tool(page, 'White king');
    await sq(page, 'd4');
    await analyseIt(page);
    assert.equal(await refusal(page).textContent(), 'This position cannot be used: each side has exactly one king.');
    assert.ok(await editor(page).isVisible(), 'still editing');
    await shot(page, `editor-two-kings-${label}`);

    // Clear, then build K+R vs k with a white knight in White's airfield, Black to move.
    await page.getByRole('button', { name: 'Clear board' }).click();
    await tool(page, 'White king');
    await sq(page, 'e1');
    await tool(page, 'White rook');
    await sq(page, 'a1');
    await sq(page, 'h2');
    await sq(page, 'h2'); // the same man again: removed
    await tool(page, 'Black king');
    await sq(page, 'e8');
    await page.getByRole('button', { name: "Add a white knight to White's airfield" }).click();
    await page.getByRole('group', { name: 'Side to move' }).getByLabel('Black').check();
    assert.equal(await fenBox(page).inputValue(), '4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1');
    await shot(page, `editor-setup-${label}`);
    await analyseIt(page);

    await editor(page).waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.body.dataset.fen), '4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1');
    await page.getByRole('status').filter({ hasText: /Black to move/ }).waitFor();
    // The position is live: Black moves, White drops the knight.
    await move(page, 'e8', 'd7');
    await page.getByRole('region', { name: /^White's airfield/ }).getByRole('button', { name: "White knight in White's airfield" }).click();
    await page.getByRole('grid', { name: /^Board\./ }).getByRole('gridcell', { name: /^c5,/ }).click();
    const sans = (await page.getByRole('group', { name: 'Moves and variations' }).getByRole('button').allTextContents())
      .map((t) => t.replace(/^\d+\.+\s/, ''));
    assert.deepEqual(sans, ['Kd7', 'N*c5+']);
    await shot(page, `editor-analysed-${label}`);
    await context.close();
  });

  test(`editor (${label}): reserves by − and +, castling and en passant, a pasted FEN`, { timeout: 90_000 }, async () => {
    const { context, page } = await openEditor(viewport, extra);
    const add = page.getByRole('button', { name: "Add a black pawn to White's prison" });
    const remove = page.getByRole('button', { name: "Remove a black pawn from White's prison" });
    assert.ok(await remove.isDisabled(), 'nothing to remove from an empty reserve');
    // 9 black pawns captured with 8 still on the board: the position is refused.
    for (let i = 0; i < 9; i++) await add.click();
    assert.equal(await page.getByRole('status', { name: "black pawns in White's prison" }).textContent(), '9');
    await analyseIt(page);
    assert.equal(await refusal(page).textContent(), 'This position cannot be used: a side has more men than the game starts with.');
    await remove.click();
    // After '#' come the prisons: black men (lower case) are in White's prison (docs/fen.md).
    assert.match(await fenBox(page).inputValue(), /\[#pppppppp\]/);
    await shot(page, `editor-reserves-${label}`);
    for (let i = 0; i < 8; i++) await remove.click();

    // Castling rights go into the FEN.
    await page.getByLabel('Black O-O-O').uncheck();
    assert.match(await fenBox(page).inputValue(), / w KQk - /);
    // A FEN pasted from the clipboard (Ctrl+V: a real paste event) is loaded.
    const pasted = 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR[] b KQkq e3 0 3';
    await page.evaluate((t) => navigator.clipboard.writeText(t), pasted);
    await fenBox(page).selectText();
    await page.keyboard.press('Control+V');
    const ep = page.getByLabel('En passant');
    await page.waitForFunction((el) => el.value === 'e3', await ep.elementHandle(), { timeout: 5_000 });
    assert.equal(await fenBox(page).inputValue(), pasted);
    assert.ok(await page.getByRole('group', { name: 'Side to move' }).getByLabel('Black').isChecked(), 'Black to move, as pasted');
    assert.ok(await page.getByLabel('Black O-O-O').isChecked(), 'the pasted castling rights');
    // The en-passant select writes its square into the FEN (focused first,
    // as a click on it would: the box is not rewritten while it has the focus).
    await ep.focus();
    await ep.selectOption({ label: 'None' });
    assert.equal(await fenBox(page).inputValue(), 'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 3');
    await ep.selectOption({ label: 'e3' });
    assert.equal(await fenBox(page).inputValue(), pasted);
    // A FEN typed and entered; a bad one is refused in words.
    await fenBox(page).fill('not a fen');
    await fenBox(page).press('Enter');
    assert.match(await refusal(page).textContent(), /^This FEN cannot be used: /);
    assert.doesNotMatch(await refusal(page).textContent(), /_|Error/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `page is ${width}px wide`);
    if (label === 'phone') assert.deepEqual(await smallTargets(page, '#mode-analyse .editor'), [], 'tap targets of at least 44 px');
    await shot(page, `editor-fen-${label}`);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    assert.ok(await page.getByRole('grid', { name: /^Board\./ }).isVisible(), 'back to the analysis board');
    await context.close();
  });
}

/** What of `locator` is not wholly inside the viewport: '' when all of it is. */
async function offScreen(page, locator, what) {
  const box = await locator.boundingBox();
  const { w, h } = await page.evaluate(() => ({ w: window.innerWidth, h: window.innerHeight }));
  if (!box) return `${what}: not shown`;
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= w + 0.5 && box.y + box.height <= h + 0.5;
  return inside ? '' : `${what}: ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)} in ${w}x${h}`;
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 1366, height: 768 }]) {
  test(`editor ${viewport.width}x${viewport.height}: the whole editor on one screen, without scrolling`, { timeout: 60_000 }, async () => {
    const { context, page } = await openEditor(viewport, {});
    const board = editorBoard(page);
    const parts = [['the board', board]];
    for (const s of ['a1', 'h1', 'a8', 'h8']) parts.push([`square ${s}`, board.getByRole('gridcell', { name: new RegExp(`^${s},`) })]);
    const palette = page.getByRole('toolbar', { name: 'Men to place' });
    parts.push(['the palette', palette], ['the eraser', palette.getByRole('button', { name: 'Eraser: empty squares' })]);
    parts.push(['side to move', page.getByRole('group', { name: 'Side to move' })]);
    parts.push(['castling', page.getByRole('group', { name: 'Castling rights' })], ['en passant', page.getByLabel('En passant')]);
    for (const owner of ['White', 'Black']) {
      for (const kind of ['prison', 'airfield']) parts.push([`${owner}'s ${kind}`, page.getByRole('region', { name: `${owner}'s ${kind}`, exact: true })]);
    }
    parts.push(['the last +', page.getByRole('button', { name: "Add a black pawn to Black's airfield" })]);
    parts.push(['the FEN field', fenBox(page)]);
    for (const name of ['Start position', 'Clear board', 'Analyse this position', 'Cancel']) {
      parts.push([name, page.getByRole('button', { name, exact: true })]);
    }
    const off = [];
    for (const [what, el] of parts) off.push(await offScreen(page, el, what));
    assert.deepEqual(off.filter(Boolean), []);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await shot(page, `editor-fit-${viewport.width}x${viewport.height}`);
    await context.close();
  });
}
