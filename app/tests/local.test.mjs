// The app in Chromium against a static server (no `hostage serve` needed):
// a same-device game with an exchange and a drop, a bot game, a course
// lesson completed, a small (360x740) phone, and the analyse board's errors
// for a bad FEN and a bad PGN, its promotion picker and engine lines. The
// board, the reserves and the controls are found by their roles and visible
// labels; any console error fails the test (helpers.mjs). Screenshots go to
// target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  boardOf, drag, gameCard, listedMoves, manIn, move, moveListOf, shot, squareOf, startGame, useApp, waitMoves,
} from './helpers.mjs';

const app = useApp();

function fresh(viewport, extra) {
  return app.open('play', viewport, extra);
}

const status = (page) => gameCard(page).getByRole('status');
/** Opens a mode from the top bar. */
const mode = (page, name) => page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name }).click();

test('same device: capture, exchange by drag, drop, drag a man, typed SAN, reload', { timeout: 90_000 }, async () => {
  const { context, page } = await fresh();
  await startGame(page, { opponent: 'A friend at this device' });
  await move(page, 'e2', 'e4');
  await move(page, 'd7', 'd5');
  await move(page, 'e4', 'd5'); // a black pawn into White's prison
  await move(page, 'd8', 'd5'); // a white pawn into Black's prison
  assert.match(await status(page).textContent(), /White to move/);

  // Exchange: drag White's pawn out of Black's prison onto e3 (the black
  // pawn in White's prison is the only man that can pay for it).
  await drag(page, manIn(page, 'White', 'pawn', 'Black', 'prison'), squareOf(page, 'e3'));
  // Black drops the released pawn from its airfield: tap it, then e5.
  await manIn(page, 'Black', 'pawn', 'Black', 'airfield').click();
  assert.match(await squareOf(page, 'e6').getAttribute('aria-label'), /, legal destination/, 'e6 is offered for the drop');
  await squareOf(page, 'e5').click();
  // White drags a knight; Black types its move.
  await drag(page, squareOf(page, 'g1'), squareOf(page, 'f3'));
  const typed = page.getByRole('textbox', { name: 'Type a move' });
  await typed.fill('Nc6');
  await typed.press('Enter');
  // A typo is explained in a sentence and changes nothing.
  await typed.fill('Qx9');
  await typed.press('Enter');
  const said = await page.getByRole('status').filter({ hasText: 'is not a move the app can read' }).textContent();
  assert.match(said, /“Qx9” is not a move the app can read/);
  assert.doesNotMatch(said, /Error|invalid_san|\//, 'no code names, no FEN');

  const expected = ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e3', '*e5', 'Nf3', 'Nc6'];
  assert.deepEqual(await listedMoves(page), expected);
  const fen = 'r1b1kbnr/ppp1pppp/2n5/3qp3/8/4PN2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 5';
  const fenBox = page.getByLabel('FEN of the shown position');
  const pgnBox = page.getByLabel('PGN', { exact: true });
  assert.equal(await fenBox.inputValue(), fen);
  assert.match(await pgnBox.inputValue(), /\(P-P\)\*e3 \*e5/);
  // The last move is marked (the board's colours; the squares keep their
  // names); navigation shows an earlier position.
  assert.ok(await squareOf(page, 'c6').evaluate((e) => e.classList.contains('last')), 'c6 tinted as the last move');
  await page.getByRole('toolbar', { name: 'Move navigation' }).getByRole('button', { name: 'Previous move' }).click();
  assert.match(await status(page).textContent(), /Move 7 of 8/);
  await page.getByRole('toolbar', { name: 'Move navigation' }).getByRole('button', { name: 'Last move' }).click();
  await shot(page, 'play-same-device-exchange-desktop');

  // A reload continues the game (saved in localStorage).
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.deepEqual(await listedMoves(page), expected);
  assert.equal(await fenBox.inputValue(), fen);
  await context.close();
});

test('bot game: the Novice bot answers as Black', { timeout: 90_000 }, async () => {
  const { context, page } = await fresh();
  await startGame(page, { opponent: 'A bot', level: 'Novice (800)', color: 'White' });
  await move(page, 'e2', 'e4');
  await waitMoves(page, 2);
  await move(page, 'g1', 'f3');
  await waitMoves(page, 4);
  assert.match(await status(page).textContent(), /White to move/);
  // Take back returns to White's turn with two plies fewer.
  await gameCard(page).getByRole('button', { name: 'Take back' }).click();
  assert.equal((await listedMoves(page)).length, 2);
  await shot(page, 'play-bot-desktop');
  await context.close();
});

test('learn: lesson 2 completed on the board, progress kept', { timeout: 90_000 }, async () => {
  const { context, page } = await fresh();
  await mode(page, 'Learn');
  const lesson = page.getByRole('combobox', { name: /^Lesson/ });
  await lesson.selectOption({ index: 1 });
  await page.getByRole('heading', { name: /^2\. Captures go to prison/ }).waitFor();
  const said = (text) => page.getByText(text).waitFor({ timeout: 5_000 });
  const done = page.getByRole('progressbar', { name: 'Lessons completed' });
  // Task 1: capture the queen. A wrong legal move is refused first.
  await move(page, 'a2', 'a3');
  await said(/^a3 is legal, but not the answer/);
  // The board is not live for the other side after a miss:
  // tapping a black man and a square does nothing and throws nothing.
  await move(page, 'd5', 'd4');
  assert.equal(await boardOf(page).getByRole('gridcell', { name: /, legal destination/ }).count(), 0);
  await said(/Press “Try again” to play another move\.$/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await move(page, 'c3', 'd5');
  await said(/^Nxd5: right\./);
  await page.getByRole('button', { name: 'Next task' }).click();
  // Task 2: count the exchanges.
  const answer = page.getByRole('spinbutton', { name: 'Your answer' });
  await answer.fill('32');
  await page.getByRole('button', { name: 'Check' }).click();
  await said(/^Not 32\./);
  await answer.fill('33');
  await page.getByRole('button', { name: 'Check' }).click();
  await page.getByRole('heading', { name: /^Task 2 of \d+ ✓$/ }).waitFor();
  assert.equal(await done.getAttribute('aria-valuenow'), '1');
  assert.match(await lesson.locator('option').nth(1).textContent(), /^✓/);
  await shot(page, 'learn-lesson-done-desktop');

  // An illegal-move task: the package refuses the move, the reason is picked
  // (the course's reason for this task, read from the package in the page).
  await lesson.selectOption({ index: 2 });
  await answer.fill('96');
  await page.getByRole('button', { name: 'Check' }).click();
  await page.getByRole('button', { name: /^Next/ }).click();
  const task = await page.evaluate(async () => {
    const { courseData } = await import('/vendor/hostage-chess/puzzles.js');
    const t = courseData().lessons[2].tasks[1];
    return { kind: t.kind, illegal: t.illegal, reason: t.reason };
  });
  assert.equal(task.kind, 'illegal_move');
  await page.getByRole('button', { name: `Try ${task.illegal} on this board` }).click();
  await page.getByText(/^The rules say no: .* is not legal here/).waitFor();
  await page.getByRole('button', { name: task.reason, exact: true }).click();
  assert.equal(await done.getAttribute('aria-valuenow'), '2');

  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await mode(page, 'Learn');
  await lesson.waitFor();
  assert.equal(await done.getAttribute('aria-valuenow'), '2');
  await context.close();
});

test('small phone 360x740: taps play moves, nothing overflows', { timeout: 90_000 }, async () => {
  const { context, page } = await fresh({ width: 360, height: 740 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await startGame(page, { opponent: 'A friend at this device' });
  for (const [from, to] of [['e2', 'e4'], ['d7', 'd5'], ['e4', 'd5']]) {
    await squareOf(page, from).tap();
    await squareOf(page, to).tap();
  }
  assert.deepEqual(await listedMoves(page), ['e4', 'd5', 'exd5']);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide`);
  const board = await boardOf(page).boundingBox();
  assert.ok(board.width >= 330, `board is ${board.width}px wide`);
  await shot(page, 'play-360');
  await mode(page, 'Learn');
  await page.getByRole('combobox', { name: /^Lesson/ }).waitFor();
  await shot(page, 'learn-360');
  await context.close();
});

/** The SAN moves of Analyse's tree (move numbers dropped). */
const treeSans = async (page) => (await page.getByRole('group', { name: 'Moves and variations' }).getByRole('button').allTextContents())
  .map((t) => t.replace(/^\d+\.+\s/, ''));

test('analyse: a bad FEN shows the package error; PGN; promotion picker; engine lines', { timeout: 90_000 }, async () => {
  const { context, page } = await fresh();
  await mode(page, 'Analyse');
  const paste = page.getByLabel('Paste a Hostage FEN or a PGN');
  const load = page.getByRole('button', { name: 'Load', exact: true });
  const error = page.getByRole('alert').filter({ hasText: /cannot be/ });
  await paste.fill('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX[] w KQkq - 0 1');
  await load.click();
  assert.match(await error.textContent(), /This FEN cannot be used: the board part is not eight ranks/);
  await paste.fill('[Variant "Hostage"]\n\n1. e4 d5 2. exd5 Qxd5 3. (P-P)*e6 *d4 *');
  await load.click();
  assert.ok(await error.isHidden());
  assert.deepEqual(await treeSans(page), ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e6', '*d4']);
  await paste.fill('1. e4 e5 2. Ke3');
  await load.click();
  assert.match(await error.textContent(), /This PGN cannot be loaded: Ke3 is not legal where it is played/);

  // Promotion: Black's prison holds a white rook and knight; c8 offers both.
  await paste.fill('k7/2P5/1K6/8/8/8/8/8[#RN] w - - 0 1');
  await load.click();
  await move(page, 'c7', 'c8');
  const picker = page.getByRole('dialog');
  // The choices are named "rook: c8=R#" and so on.
  const choices = await picker.getByRole('button', { name: /^[a-z]+: / }).evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label').split(':')[0]));
  assert.deepEqual(choices.sort(), ['knight', 'rook']);
  await shot(page, 'analyse-promotion-desktop');
  await picker.getByRole('button', { name: /^rook:/ }).click();
  assert.deepEqual(await treeSans(page), ['c8=R#']);
  await page.getByRole('status').filter({ hasText: 'White wins by checkmate' }).waitFor();

  await page.getByRole('button', { name: 'Start position' }).click();
  await page.getByLabel('Engine analysis').check();
  const lines = page.getByRole('list', { name: 'Best continuations' });
  await lines.getByRole('listitem').first().waitFor({ timeout: 60_000 });
  assert.equal(await lines.getByRole('listitem').count(), 3);
  await context.close();
});
