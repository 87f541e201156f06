// Analyse in Chromium: a move played after stepping back starts
// a variation instead of deleting the game; variations are promoted and
// deleted; the engine deepens by itself, with a choice of lines, an
// evaluation bar, the best move as an arrow and clickable lines; the game
// review. Every test at desktop 1280x800 and phone 390x844; the board and
// the controls are found by their roles and labels; any console error fails
// the test (helpers.mjs). Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SIZES, boardOf, move, shot, smallTargets, useApp } from './helpers.mjs';

const app = useApp();

const treeOf = (page) => page.getByRole('group', { name: 'Moves and variations' });
/** The variations, as shown in brackets: ["(2. Bc4)"]. */
const variationsOf = (page) => treeOf(page).getByText(/^\(.*\)$/);
const variations = (page) => variationsOf(page).allTextContents();
/** The main line's moves: the tree's move buttons but those in brackets. */
async function treeMoves(page) {
  const all = await treeOf(page).getByRole('button').allTextContents();
  const inVariations = await variationsOf(page).getByRole('button').allTextContents();
  for (const m of inVariations) all.splice(all.indexOf(m), 1);
  return all;
}
/** Waits until a status line of Analyse says `re`. */
const said = (page, re) => page.getByRole('status').filter({ hasText: re }).waitFor({ timeout: 10_000 });
/** The engine's depth, read from its status line ("Depth 12 · 46,835 nodes …"). */
const depth = async (page) => Number((await page.getByRole('status').filter({ hasText: /^Depth \d+/ }).textContent()).match(/^Depth (\d+)/)[1]);
/** Polls `f` until it is true. */
async function until(f, timeout) {
  const t0 = Date.now();
  while (!(await f())) {
    if (Date.now() - t0 > timeout) throw new Error(`timed out: ${f}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

for (const [label, viewport, extra] of SIZES) {
  test(`analyse (${label}): variations kept, promoted and deleted`, { timeout: 90_000 }, async () => {
    const { context, page } = await app.open('analyse', viewport, extra);
    await treeOf(page).waitFor({ state: 'attached' });
    for (const [f, t] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6']]) await move(page, f, t);
    assert.deepEqual(await treeMoves(page), ['1. e4', 'e5', '2. Nf3', 'Nc6']);
    // Back two moves and play another: a variation, the game is kept.
    await page.getByRole('button', { name: 'Previous move' }).click();
    await page.getByRole('button', { name: 'Previous move' }).click();
    await move(page, 'f1', 'c4');
    assert.deepEqual(await treeMoves(page), ['1. e4', 'e5', '2. Nf3', '2... Nc6']);
    assert.deepEqual(await variations(page), ['(2. Bc4)']);
    await said(page, /After 2\. Bc4 \(variation\)/);
    // Clicking a move of the main line goes there.
    const tree = page.getByRole('group', { name: 'Moves and variations' });
    await tree.getByRole('button', { name: '2... Nc6', exact: true }).click();
    await said(page, /After 2\.\.\. Nc6/);
    // Promote the variation: it becomes the main line.
    await tree.getByRole('button', { name: '2. Bc4', exact: true }).click();
    await page.getByRole('button', { name: 'Promote variation' }).click();
    assert.deepEqual(await treeMoves(page), ['1. e4', 'e5', '2. Bc4']);
    assert.deepEqual(await variations(page), ['(2. Nf3 Nc6)']);
    if (label === 'phone') assert.deepEqual(await smallTargets(page, '#mode-analyse'), [], 'tap targets of at least 44 px');
    await shot(page, `analyse-tree-${label}`);
    // The PGN keeps the variation, and the package reads it back (main line).
    const pgn = await page.getByLabel('PGN with the variations').inputValue();
    assert.match(pgn, /\n\n1\. e4 e5 2\. Bc4 \(2\. Nf3 Nc6\) \*\n$/);
    const back = await page.evaluate(async (text) => {
      const { Board } = await import('/vendor/hostage-chess/index.js');
      return Board.fromPgn(text).history();
    }, pgn);
    assert.deepEqual(back, ['e4', 'e5', 'Bc4']);
    // Delete from here: the Nf3 line goes.
    await tree.getByRole('button', { name: '2. Nf3', exact: true }).click();
    await page.getByRole('button', { name: 'Delete from here' }).click();
    assert.deepEqual(await variations(page), []);
    assert.deepEqual(await treeMoves(page), ['1. e4', 'e5', '2. Bc4']);
    await context.close();
  });
}

for (const [label, viewport, extra] of SIZES) {
  test(`analyse (${label}): the engine deepens until stopped, MultiPV, bar, arrow, lines into the tree`, { timeout: 120_000 }, async () => {
    const { context, page } = await app.open('analyse', viewport, extra);
    await page.getByRole('group', { name: 'Moves and variations' }).waitFor({ state: 'attached' });
    await page.getByLabel('Lines').selectOption('2');
    await page.getByLabel('Engine analysis').check();
    await until(async () => (await page.getByRole('status').filter({ hasText: /^Depth \d+/ }).count()) && await depth(page) >= 3, 60_000);
    const lines = page.getByRole('list', { name: 'Best continuations' });
    assert.equal(await lines.getByRole('listitem').count(), 2);
    await said(page, /^Depth \d+ · [\d,]+ nodes/);
    const bar = page.getByRole('meter', { name: 'Evaluation' });
    assert.ok(await bar.isVisible());
    const v = Number(await bar.getAttribute('aria-valuenow'));
    assert.ok(v > 20 && v < 80, `the start position is near equal (${v})`);
    assert.equal(await boardOf(page).locator('.shapes .arrow.auto').count(), 1, 'the best move is an arrow');
    // It keeps deepening by itself.
    const d1 = await depth(page);
    await until(async () => await depth(page) > d1, 60_000);
    await shot(page, `analyse-engine-${label}`);
    // Clicking the second move of the first line plays both into the tree.
    // The line is found, read and clicked in one task of the page: the
    // analysis goes on meanwhile and replaces the lines at each new depth, so
    // a line found in one step (a locator) may be detached by the next, and a
    // click inside a detached line reaches no listener.
    const [m1, m2] = await lines.evaluate((list) => {
      const moves = [...list.querySelector('li').querySelectorAll('button')];
      moves[1].click();
      return [moves[0].textContent, moves[1].textContent];
    });
    assert.deepEqual(await treeMoves(page), [m1, m2]);
    // Switched off: the lines, the bar and the arrow go.
    await page.getByLabel('Engine analysis').uncheck();
    assert.equal(await lines.getByRole('listitem').count(), 0);
    assert.equal(await boardOf(page).locator('.shapes .arrow.auto').count(), 0);
    assert.ok(await bar.isHidden());
    await context.close();
  });
}

for (const [label, viewport, extra] of SIZES) {
  test(`analyse (${label}): every frozen pawn and the pseudo-check are marked and named`, { timeout: 60_000 }, async () => {
    const { context, page } = await app.open('analyse', viewport, extra);
    // No white man waits in Black's prison and no black man in White's, so
    // (R8) the white pawns on their 7th rank (b7, g7) and the black pawn on
    // its 7th (c2) are frozen; e4 is an ordinary pawn. g7 eyes the black
    // king on f8: pseudo-check (R8a); b7 and c2 eye no king.
    await page.getByLabel('Paste a Hostage FEN or a PGN').fill('5k2/1P4P1/8/8/4P3/8/2p5/4K3[] b - - 0 1');
    await page.getByRole('button', { name: 'Load' }).click();
    await said(page, /Black to move: pseudo-check/);
    const board = page.getByRole('grid', { name: /^Board/ });
    const cell = (name) => board.getByRole('gridcell', { name, exact: true });
    await cell('f8, Black king, in pseudo-check').waitFor();
    await cell('g7, White pawn, frozen pawn giving pseudo-check').waitFor();
    await cell('b7, White pawn, frozen pawn').waitFor();
    await cell('c2, Black pawn, frozen pawn').waitFor();
    await cell('e4, White pawn').waitFor();
    // And seen: the snowflake on the three frozen pawns only.
    const flakes = await board.getByRole('gridcell').evaluateAll((els) => els
      .filter((e) => getComputedStyle(e, '::before').content.includes('❄')).map((e) => e.getAttribute('aria-label').split(',')[0]).sort());
    assert.deepEqual(flakes, ['b7', 'c2', 'g7']);
    await shot(page, `analyse-frozen-${label}`);
    await context.close();
  });
}

for (const [label, viewport, extra] of SIZES) {
  test(`analyse (${label}): the game review marks the blunder, draws the graph and gives accuracy`, { timeout: 120_000 }, async () => {
    const { context, page } = await app.open('analyse', viewport, extra);
    // 3. Qxf7+ gives the queen for a pawn (the king takes it): a blunder by
    // any measure; Black's moves are sound.
    await page.getByLabel('Paste a Hostage FEN or a PGN').fill('1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 4. Nf3 Nf6');
    await page.getByRole('button', { name: 'Load' }).click();
    const card = page.getByRole('region', { name: 'Game review' });
    // Every value the progress bar takes, seen from the page.
    await page.evaluate(() => {
      window.progressSeen = [];
      const p = document.querySelector('.review-progress');
      new MutationObserver(() => window.progressSeen.push([p.hidden, Number(p.value), Number(p.max)]))
        .observe(p, { attributes: true });
    });
    const t0 = Date.now();
    await card.getByRole('button', { name: 'Review the game' }).click();
    await card.getByRole('table', { name: 'Accuracy' }).waitFor({ timeout: 90_000 });
    const seconds = (Date.now() - t0) / 1000;
    console.log(`review of 8 plies: ${seconds.toFixed(1)} s`);
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.some(([hidden, v, max]) => !hidden && v > 0 && v < max), `progress shown while running: ${JSON.stringify(seen)}`);
    assert.ok(await card.getByRole('progressbar').isHidden(), 'progress gone when done');
    // The blunder marked in the tree, named in words; the recapture not judged.
    const tree = page.getByRole('group', { name: 'Moves and variations' });
    const blunder = tree.getByRole('button', { name: '3. Qxf7+, blunder', exact: true });
    assert.equal(await blunder.textContent(), '3. Qxf7+??');
    assert.equal(await tree.getByRole('button', { name: 'Kxf7', exact: true }).textContent(), 'Kxf7');
    // The evaluation graph, ending clearly in Black's favour.
    const graph = card.getByRole('img', { name: /^Evaluation graph: 8 moves, ending at -\d/ });
    assert.ok(await graph.isVisible());
    // Accuracy per player: White blundered, Black did not.
    const rows = card.getByRole('table', { name: 'Accuracy' }).getByRole('row');
    const cells = async (name) => rows.filter({ has: page.getByRole('rowheader', { name }) }).getByRole('cell').allTextContents();
    const [wAcc, , , wBlunders] = await cells('White');
    const [bAcc, , , bBlunders] = await cells('Black');
    assert.ok(Number(wBlunders) >= 1, `White's blunders: ${wBlunders}`);
    assert.equal(bBlunders, '0');
    assert.ok(parseInt(wAcc, 10) < parseInt(bAcc, 10), `accuracy White ${wAcc} < Black ${bAcc}`);
    // A click on the graph's mark goes to the blunder: the last mark, since
    // the engine may judge the early queen sortie (2. Qh5) a blunder too.
    await graph.locator('circle.blunder').last().click();
    await said(page, /After 3\. Qxf7\+/);
    await shot(page, `analyse-review-${label}`);
    await context.close();
  });
}
