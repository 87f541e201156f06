// Play on a phone (390x844, touch) in Chromium: the first load shows the
// New game form's Start button without scrolling; a game of twenty moves
// at this device, played by taps on squares and on reserve men (captures
// that fill both prisons with two rows of men, exchanges, drops), leaves the
// page at its top with the whole board, both clocks and all four reserves
// inside the viewport, the move list scrolling in its own box; a bot game
// starts with the same screen. Elements are found by their roles and
// visible labels; any console error fails the test (helpers.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  PHONE, PHONE_CONTEXT, boardOf, listedMoves, manIn, moveListOf, reserveOf, shot, squareOf, startGame, useApp, waitMoves,
} from './helpers.mjs';

const app = useApp();

// Twenty moves (forty plies) of a game the package accepts: [from, to] on the
// board, ['drop', role, to] from the mover's airfield, ['exchange', released,
// rescued, to]. After them White's prison holds four kinds of men and
// Black's five, and White's airfield a pawn.
const GAME = [
  ['a2', 'a3'], ['b8', 'c6'], ['f2', 'f3'], ['h7', 'h6'], ['c2', 'c4'], ['c6', 'b8'], ['a1', 'a2'], ['b7', 'b6'],
  ['d1', 'a4'], ['c8', 'a6'], ['a4', 'd7'], ['d8', 'd7'], ['d2', 'd3'], ['a6', 'c4'], ['c1', 'h6'], ['c4', 'd3'],
  ['h6', 'g7'], ['h8', 'h2'], ['g7', 'f8'], ['exchange', 'pawn', 'pawn', 'f4'], ['e2', 'd3'], ['d7', 'd3'],
  ['drop', 'pawn', 'h7'], ['d3', 'b1'], ['e1', 'e2'], ['b1', 'f1'], ['e2', 'f1'], ['h2', 'h1'], ['f8', 'e7'],
  ['h1', 'h7'], ['e7', 'b4'], ['c7', 'c6'], ['g1', 'e2'], ['exchange', 'pawn', 'pawn', 'h6'], ['e2', 'f4'],
  ['h7', 'g7'], ['f4', 'e6'], ['g7', 'g2'], ['f1', 'g2'], ['f7', 'e6'],
];

const NAME = { w: 'White', b: 'Black' };

/** One ply by taps, as a player on a phone makes it; `mover` is 'w' or 'b'. */
async function tapPly(page, ply, mover) {
  const them = mover === 'w' ? 'b' : 'w';
  if (ply[0] === 'drop') {
    await manIn(page, NAME[mover], ply[1], NAME[mover], 'airfield').tap();
    await squareOf(page, ply[2]).tap();
  } else if (ply[0] === 'exchange') {
    // The prisoner released (an enemy man in the mover's prison), the mover's
    // man rescued from the enemy prison, then the square it is dropped on.
    await manIn(page, NAME[them], ply[1], NAME[mover], 'prison').tap();
    await manIn(page, NAME[mover], ply[2], NAME[them], 'prison').tap();
    await squareOf(page, ply[3]).tap();
  } else {
    await squareOf(page, ply[0]).tap();
    await squareOf(page, ply[1]).tap();
  }
}

/** What of `locator` lies outside the viewport: '' when it is wholly inside. */
async function offScreen(page, locator, what) {
  const box = await locator.boundingBox();
  const { innerWidth, innerHeight } = await page.evaluate(() => ({ innerWidth: window.innerWidth, innerHeight: window.innerHeight }));
  if (!box) return `${what}: not shown`;
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= innerWidth + 0.5 && box.y + box.height <= innerHeight + 0.5;
  return inside ? '' : `${what}: ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)} in ${innerWidth}x${innerHeight}`;
}

/** The board, both clocks and the four reserves: the names of those not wholly on screen. */
async function tableOffScreen(page) {
  const out = [await offScreen(page, boardOf(page), 'the board')];
  const clocks = page.getByRole('timer');
  assert.equal(await clocks.count(), 2, 'two clocks');
  for (let i = 0; i < 2; i++) out.push(await offScreen(page, clocks.nth(i), `clock ${i + 1}`));
  for (const owner of ['White', 'Black']) {
    for (const kind of ['prison', 'airfield']) out.push(await offScreen(page, reserveOf(page, owner, kind), `${owner}'s ${kind}`));
  }
  return out.filter(Boolean);
}

test('phone: the first load shows the New game form and its Start button without scrolling', { timeout: 60_000 }, async () => {
  const { context, page } = await app.open('play', PHONE, PHONE_CONTEXT);
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByRole('button', { name: 'Start' }).waitFor();
  assert.equal(await offScreen(page, form.getByRole('button', { name: 'Start' }), 'Start'), '');
  assert.equal(await offScreen(page, form.getByRole('group', { name: 'Opponent' }), 'the opponents'), '');
  // Choosing a bot shows its level and the colour: Start is still on the first screen.
  await form.getByLabel('A bot').check();
  await form.getByLabel('Bot level').locator('option', { hasText: /Novice/ }).waitFor({ state: 'attached' });
  assert.equal(await offScreen(page, form.getByLabel('Bot level'), 'the bot level'), '');
  assert.equal(await offScreen(page, form.getByRole('button', { name: 'Start' }), 'Start, with a bot chosen'), '');
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await shot(page, 'phone-first-load');
  await context.close();
});

test('phone: after twenty moves at one device the board, both clocks and all four reserves are on screen, the page at its top', { timeout: 180_000 }, async () => {
  const { context, page } = await app.open('play', PHONE, PHONE_CONTEXT);
  await startGame(page, { opponent: 'A friend at this device', clock: '15 min + 10 s' });
  await boardOf(page).waitFor();
  assert.deepEqual(await tableOffScreen(page), [], 'at the start');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page at its top at the start');
  for (const [i, ply] of GAME.entries()) await tapPly(page, ply, i % 2 ? 'b' : 'w');
  assert.equal((await listedMoves(page)).length, 40, 'forty plies in the move list');
  // The prisons are full enough to take two rows of men each.
  assert.equal(await reserveOf(page, 'White', 'prison').getByRole('button').count(), 4);
  assert.equal(await reserveOf(page, 'Black', 'prison').getByRole('button').count(), 5);
  assert.deepEqual(await tableOffScreen(page), [], 'after twenty moves');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not scroll by itself');
  // The move list scrolls inside its own box, its last move in view.
  const list = moveListOf(page);
  const { scrollHeight, clientHeight } = await list.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
  assert.ok(scrollHeight > clientHeight, 'the move list is taller than its box');
  const lastMove = list.getByRole('button').last();
  const [l, m] = [await list.boundingBox(), await lastMove.boundingBox()];
  assert.ok(m.y >= l.y - 0.5 && m.y + m.height <= l.y + l.height + 0.5, 'the last move in view inside the list');
  await shot(page, 'play-twenty-moves-phone');
  await context.close();
});

test('phone: a bot game starts with the board, both clocks and all four reserves on screen', { timeout: 90_000 }, async () => {
  const { context, page } = await app.open('play', PHONE, PHONE_CONTEXT);
  await startGame(page, { opponent: 'A bot', level: 'Novice (800)', color: 'White', clock: '5 min + 3 s' });
  await squareOf(page, 'e2').tap();
  await squareOf(page, 'e4').tap();
  await waitMoves(page, 2, 60_000);
  assert.deepEqual(await tableOffScreen(page), []);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await context.close();
});
