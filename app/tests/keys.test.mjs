// The move keys anywhere on the page, in Chromium (desktop 1280x800): with
// the focus on the page's body, ← → Home End step through a game at one
// device in Play and through a loaded game in Analyse, one step a press
// (also with the move list or the tree focused: no double step); nothing
// moves while the player types in a field (the typed move, the paste box)
// or holds a modifier. The moves, fields and statuses are found by their
// roles and visible labels; any console error fails the test (helpers.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DESKTOP, gameCard, move, moveListOf, startGame, useApp, waitMoves } from './helpers.mjs';

const app = useApp();

/** Gives the focus back to the page's body (as a click on empty page would). */
const blur = (page) => page.evaluate(() => document.activeElement?.blur());

test('move keys in Play: ← → Home End on the page, once a press; not while typing or with a modifier', { timeout: 90_000 }, async () => {
  const { context, page } = await app.open('play', DESKTOP);
  await startGame(page, { opponent: 'A friend at this device' });
  for (const [from, to] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6']]) await move(page, from, to);
  await waitMoves(page, 4);
  const status = gameCard(page).getByRole('status');
  const current = () => moveListOf(page).getByRole('button').and(page.locator('[aria-current="step"]'));
  const viewing = async () => (await status.textContent()).match(/^Move (\d+) of 4 \(viewing\)/)?.[1] ?? 'end';

  await blur(page);
  assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'the focus on the body');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await viewing(), '3');
  assert.equal(await current().textContent(), 'Nf3');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await viewing(), '2');
  await page.keyboard.press('Home');
  assert.equal(await viewing(), '0');
  await page.keyboard.press('ArrowRight');
  assert.equal(await viewing(), '1');
  assert.equal(await current().textContent(), 'e4');
  await page.keyboard.press('End');
  assert.equal(await viewing(), 'end');

  // The move list focused: still one step a press (its own keys and the page's are one).
  await moveListOf(page).focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await viewing(), '3');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await viewing(), '2');

  // Typing in the move field: the keys move its caret, not the game.
  const typed = page.getByLabel('Type a move');
  await typed.fill('Nf6');
  for (const key of ['ArrowLeft', 'Home', 'ArrowRight', 'End']) await typed.press(key);
  assert.equal(await viewing(), '2');
  assert.equal(await typed.inputValue(), 'Nf6');
  // With a modifier held nothing steps either (Shift+← selects, Ctrl+→ jumps words).
  await blur(page);
  for (const key of ['Shift+ArrowLeft', 'Control+ArrowRight', 'Control+Home']) await page.keyboard.press(key);
  assert.equal(await viewing(), '2');
  // And the page still steps afterwards.
  await page.keyboard.press('ArrowRight');
  assert.equal(await viewing(), '3');
  await context.close();
});

test('move keys in Analyse: ← → Home End step through the tree from the page; not in the paste box', { timeout: 90_000 }, async () => {
  const { context, page } = await app.open('analyse', DESKTOP);
  const paste = page.getByLabel('Paste a Hostage FEN or a PGN');
  await paste.fill('1. e4 e5 2. Nf3 Nc6 3. Bb5 a6');
  await page.getByRole('button', { name: 'Load', exact: true }).click();
  const tree = page.getByRole('group', { name: 'Moves and variations' });
  await tree.getByRole('button', { name: /a6$/ }).waitFor();
  // The move shown: the tree's button marked aria-current="step" (none at the start).
  const here = tree.getByRole('button').and(page.locator('[aria-current="step"]'));
  const shown = async () => ((await here.count()) ? (await here.textContent()).replace(/^\d+\.+\s*/, '') : 'start');
  await page.getByRole('button', { name: 'First position' }).click();
  assert.equal(await shown(), 'start');

  await blur(page);
  await page.keyboard.press('ArrowRight');
  assert.equal(await shown(), 'e4');
  await page.keyboard.press('ArrowRight');
  assert.equal(await shown(), 'e5');
  await page.keyboard.press('End');
  assert.equal(await shown(), 'a6');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await shown(), 'Bb5');
  await page.keyboard.press('Home');
  assert.equal(await shown(), 'start');

  // The tree focused: one step a press.
  await tree.focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await shown(), 'e4');

  // In the paste box the keys are the text's.
  await paste.fill('1. d4');
  for (const key of ['ArrowLeft', 'Home', 'End', 'ArrowRight']) await paste.press(key);
  assert.equal(await shown(), 'e4');
  await context.close();
});
