// How Play feels to a lichess player, at desktop 1280x800
// and phone 390x844: the end box's "New game" after a reload (no crash);
// Take back disabled once a game is decided (resignation, flag); the clock
// booked on a take-back (no refund); clocks against a bot (the side to move
// runs, the bot's time runs while it thinks, a flag ends the game); drops and
// exchanges animated and heard (capture, check, drop and exchange sounds);
// no sticky hover after a tap on the phone; readable coordinates and reserve
// labels on the phone; the page never scrolls by itself while moves are
// played on the phone. Found by roles and visible labels; no console error.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shot, useApp } from './helpers.mjs';

const app = useApp();
const DESKTOP = { width: 1280, height: 800 };
const SIZES = [['desktop', DESKTOP, {}], ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }]];
const SAVE_KEY = 'hostage.play.v1';

const board = (page) => page.locator('#mode-play').getByRole('grid', { name: /^Board/ });
const cell = (page, sq) => board(page).getByRole('gridcell', { name: new RegExp(`^${sq},`) });

async function start(page, { opponent, level, color, clock } = {}) {
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByLabel(opponent).check();
  if (level) await form.getByLabel('Bot level').selectOption({ label: level });
  if (color) await form.getByLabel(color, { exact: true }).check();
  if (clock) await form.getByLabel('Clock').selectOption({ label: clock });
  await form.getByRole('button', { name: 'Start' }).click();
}

async function tapMove(page, from, to) {
  await cell(page, from).click();
  await cell(page, to).click();
}

const waitMoves = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#mode-play .moves .mv').length === k, n, { timeout: 60_000 });

async function resign(page) {
  await page.getByRole('button', { name: 'Resign' }).click();
  await page.getByRole('dialog', { name: 'Resign this game?' }).getByRole('button', { name: 'Resign' }).click();
}

/** Seconds shown on a clock ("0:58" -> 58). */
async function seconds(page, who) {
  const t = await page.getByRole('timer', { name: new RegExp(`^${who}'s clock`) }).textContent();
  const [m, s] = t.split(':');
  return Number(m) * 60 + Number(s);
}

/** Starts recording every sound the page plays (body[data-last-sound] is set on each). */
function recordSounds(page) {
  return page.evaluate(() => {
    window.heardSounds = [];
    new MutationObserver(() => window.heardSounds.push(document.body.dataset.lastSound))
      .observe(document.body, { attributes: true, attributeFilter: ['data-last-sound'] });
  });
}

for (const [label, viewport, extra] of SIZES) {
  test(`end box (${label}): "New game" after a reload focuses the form, no crash`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await app.open('play', viewport, extra);
    await start(page, { opponent: 'A friend at this device' });
    await tapMove(page, 'e2', 'e4');
    await resign(page);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    // Black, to move, resigned.
    const end = page.getByRole('region', { name: /1-0/ });
    await end.waitFor();
    // No opponent is checked after a reload: the first one gets the focus.
    assert.equal(await page.getByRole('form', { name: 'New game' }).getByRole('radio', { checked: true }).filter({ has: page.locator('[name="opponent"]') }).count(), 0);
    await end.getByRole('button', { name: 'New game' }).click();
    assert.ok(await page.getByRole('radio', { name: 'A bot' }).evaluate((e) => e === document.activeElement), 'the first opponent has the focus');
    await shot(page, `feel-end-reload-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`take back (${label}): disabled once the game is resigned; a take-back books the clock`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await app.open('play', viewport, extra);
    await start(page, { opponent: 'A friend at this device', clock: '1 min' });
    const takeBack = page.getByRole('button', { name: 'Take back' });
    await tapMove(page, 'e2', 'e4');
    await tapMove(page, 'e7', 'e5');
    // White thinks 2.3 s, then Black's move is taken back: White's time is spent, not refunded.
    await page.waitForTimeout(2300);
    assert.ok(await seconds(page, 'White') <= 58);
    await takeBack.click();
    await waitMoves(page, 1);
    assert.ok(await seconds(page, 'White') <= 58, 'the time White spent stays spent');
    await resign(page);
    await page.getByRole('region', { name: /1-0/ }).waitFor();
    assert.ok(await takeBack.isDisabled(), 'Take back is off after a resignation');
    await takeBack.click({ force: true });
    assert.equal(await page.locator('#mode-play').getAttribute('data-over'), 'true', 'the game stays decided');
    await shot(page, `feel-takeback-resigned-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('clocks against a bot: the side to move runs, the bot\'s time runs while it thinks, a flag ends the game', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await start(page, { opponent: 'A bot', level: 'Club (2000)', color: 'White', clock: '1 min' });
  await tapMove(page, 'e2', 'e4');
  const blackClock = page.getByRole('timer', { name: /^Black's clock/ });
  // The Club bot thinks for a while: its clock runs meanwhile.
  assert.ok(await page.getByText('thinking…', { exact: true }).isVisible(), 'the bot is thinking');
  assert.ok(await blackClock.evaluate((e) => e.classList.contains('running')), 'Black\'s clock runs while the bot thinks');
  await page.waitForTimeout(1200);
  // The clock shows whole seconds rounded up, so a reply within a second
  // leaves it at 1:00: the time spent shows only when the bot thought longer.
  const slow = await page.getByText('thinking…', { exact: true }).isVisible();
  if (slow) assert.ok(await seconds(page, 'Black') <= 59, 'the bot\'s time goes down');
  await waitMoves(page, 2);
  if (slow) assert.ok(await seconds(page, 'Black') <= 59, 'the bot\'s thinking time was spent');
  const whiteClock = page.getByRole('timer', { name: /^White's clock/ });
  assert.ok(await whiteClock.evaluate((e) => e.classList.contains('running')), 'then White\'s runs');
  assert.ok(!(await blackClock.evaluate((e) => e.classList.contains('running'))));

  // A short clock: White's time set to 1.5 s in the saved game; after a reload it falls.
  await page.evaluate((key) => {
    const saved = JSON.parse(localStorage.getItem(key));
    saved.clock.ms.w = 1500;
    localStorage.setItem(key, JSON.stringify(saved));
  }, SAVE_KEY);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  const end = page.getByRole('region', { name: /0-1/ });
  await end.waitFor({ timeout: 10_000 });
  assert.match(await end.textContent(), /Black wins by time/);
  assert.equal(await whiteClock.textContent(), '0:00.0');
  assert.ok(await page.getByRole('button', { name: 'Take back' }).isDisabled(), 'no take-back after a flag');
  await shot(page, 'feel-bot-flag-desktop');
  assert.deepEqual(errors, []);
  await context.close();
});

test('take back while the bot thinks: its thought is dropped (the worker stopped), the next reply comes for the new position', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await start(page, { opponent: 'A bot', level: 'Club (2000)', color: 'White' });
  await tapMove(page, 'e2', 'e4');
  const thinking = page.getByText('thinking…', { exact: true });
  assert.ok(await thinking.isVisible(), 'the bot is thinking');
  await page.getByRole('button', { name: 'Take back' }).click();
  assert.ok(await thinking.isHidden(), 'no more thinking');
  await waitMoves(page, 0);
  await tapMove(page, 'd2', 'd4');
  await waitMoves(page, 2);
  assert.equal((await page.locator('#mode-play .moves .mv').allTextContents())[0], 'd4');
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [label, viewport, extra] of SIZES) {
  test(`drops and exchanges (${label}): animated from the reserve, and heard`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await app.open('play', viewport, extra);
    await start(page, { opponent: 'A friend at this device' });
    await recordSounds(page);
    await tapMove(page, 'e2', 'e4');
    await tapMove(page, 'd7', 'd5');
    await tapMove(page, 'e4', 'd5'); // a capture: a black pawn to White's prison
    await tapMove(page, 'd8', 'd5'); // a white pawn to Black's prison
    assert.equal(await board(page).getAttribute('data-animated'), 'd8-d5');
    // An exchange by taps: the prisoner in White's prison, White's pawn in Black's, then e3.
    await page.getByRole('region', { name: /^White's prison/ }).getByRole('button', { name: /^Black pawn/ }).click();
    await page.getByRole('region', { name: /^Black's prison/ }).getByRole('button', { name: /^White pawn/ }).click();
    await cell(page, 'e3').click();
    assert.equal(await board(page).getAttribute('data-animated'), 'reserve-e3');
    assert.equal(await board(page).getAttribute('data-animated-kind'), 'exchange');
    // Black drops the released pawn from its airfield.
    await page.getByRole('region', { name: /^Black's airfield/ }).getByRole('button', { name: /^Black pawn/ }).click();
    await cell(page, 'e5').click();
    assert.equal(await board(page).getAttribute('data-animated'), 'reserve-e5');
    assert.equal(await board(page).getAttribute('data-animated-kind'), 'drop');
    await tapMove(page, 'f1', 'b5'); // check
    const heard = await page.evaluate(() => window.heardSounds);
    assert.deepEqual(heard, ['move', 'move', 'capture', 'capture', 'exchange', 'drop', 'check']);
    assert.match(await page.textContent('#announce'), /^White: bishop f1 to b5 \(Bb5\+\)/);
    await shot(page, `feel-drop-exchange-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('castling: the king and its rook both slide', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await app.open('play', SIZES[0][1], SIZES[0][2]);
  // Slow animations, so the two slides are still running when looked at.
  await page.evaluate(() => localStorage.setItem('hostage.settings.v1', JSON.stringify({ animation: 'slow' })));
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await start(page, { opponent: 'A friend at this device' });
  for (const [from, to] of [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6'], ['f1', 'c4'], ['g8', 'f6']]) await tapMove(page, from, to);
  await tapMove(page, 'e1', 'g1'); // O-O: the king's move
  assert.equal(await board(page).getAttribute('data-animated'), 'e1-g1');
  assert.equal(await board(page).getAttribute('data-animated-rook'), 'h1-f1');
  // Both images are moving at once (Web Animations on the two squares).
  const moving = await page.evaluate(() => ['g1', 'f1'].map((sq) => [...document.querySelectorAll('#mode-play [role=gridcell]')]
    .find((c) => c.getAttribute('aria-label')?.startsWith(`${sq},`))?.querySelector('img')?.getAnimations().length ?? 0));
  assert.deepEqual(moving.map((n) => n > 0), [true, true]);
  await tapMove(page, 'd7', 'd6'); // a plain move leaves no rook mark behind
  assert.equal(await board(page).getAttribute('data-animated-rook'), null);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: no sticky hover after a tap; coordinates and reserve labels readable', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await app.open('play', ...SIZES[1].slice(1));
  const flip = page.getByRole('button', { name: 'Flip board' });
  await start(page, { opponent: 'A friend at this device' });
  const idle = await page.getByRole('button', { name: 'Resign' }).evaluate((e) => getComputedStyle(e).backgroundColor);
  await flip.tap();
  await page.waitForTimeout(100);
  assert.equal(await flip.evaluate((e) => getComputedStyle(e).backgroundColor), idle, 'the tapped button looks like any other');
  assert.equal(await page.evaluate(() => matchMedia('(hover: hover)').matches), false, 'the phone has no hovering pointer');
  // Readable: coordinates at least 10 px, the reserves' labels at least 11 px.
  const coordPx = await board(page).locator('.coord').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
  assert.equal(coordPx.length, 16);
  assert.ok(Math.min(...coordPx) >= 10, `coordinates ${Math.min(...coordPx)} px`);
  for (const name of [/^White's prison/, /^White's airfield/, /^Black's prison/, /^Black's airfield/]) {
    const h = page.getByRole('region', { name }).getByRole('heading');
    const px = await h.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(px >= 11, `${name}: ${px} px`);
  }
  await shot(page, 'feel-phone-tap');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: the page stays put while moves are played; the move list scrolls inside its own box', { timeout: 120_000 }, async () => {
  const [, size, options] = SIZES[1];
  const { context, page, errors } = await app.open('play', size, options);
  await start(page, { opponent: 'A friend at this device' });
  const moves = ['e2', 'e4', 'e7', 'e5', 'g1', 'f3', 'b8', 'c6', 'f1', 'c4', 'g8', 'f6', 'd2', 'd3', 'f8', 'c5', 'b1', 'c3', 'd7', 'd6', 'c1', 'g5', 'h7', 'h6', 'g5', 'h4', 'g7', 'g5'];
  const top = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < moves.length; i += 2) {
    await tapMove(page, moves[i], moves[i + 1]);
    await waitMoves(page, i / 2 + 1);
    assert.equal(await page.evaluate(() => window.scrollY), top, `the page did not scroll after move ${i / 2 + 1}`);
  }
  // The current move is in view inside the list's own box.
  const inBox = await page.evaluate(() => {
    const box = document.querySelector('#mode-play .moves');
    const cur = box.querySelector('[aria-current]');
    const b = box.getBoundingClientRect(), c = cur.getBoundingClientRect();
    return box.scrollTop > 0 && c.top >= b.top - 1 && c.bottom <= b.bottom + 1;
  });
  assert.ok(inBox, 'the move list scrolled to its current move');
  assert.deepEqual(errors, []);
  await context.close();
});
