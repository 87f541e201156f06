// Play as a new player meets it, in Chromium at desktop
// (1280x800; 1366x768 for the layout) and phone (390x844) sizes: the idle
// board before Start; board, four reserves and both clocks on one screen
// (desktop); the end-of-game box after a confirmed resignation, with the
// result in the move list and the PGN (Result, Termination, Date); "Analyse
// this game"; Rematch; the confirmation before abandoning a game; sounds,
// announcements, settings kept over a reload; right-click arrows (desktop:
// a phone has no right button); premoves against the bot and its thinking
// mark; clocks and board turning at one device; a game from the keyboard;
// every tap target on the phone at least 44 px. The board, the reserves and
// the controls are found by their roles and visible labels; any console
// error fails the test (helpers.mjs).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  APP, DESKTOP, PHONE, PHONE_CONTEXT, SIZES, boardOf, gameCard, listedMoves, manIn, moveListOf, reserveOf, shot,
  smallTargets, squareOf, startGame, touchDrag, useApp, waitMoves,
} from './helpers.mjs';

const app = useApp();

/** A move by two clicks (desktop) or two taps (phone). */
async function play(page, from, to, label = 'desktop') {
  for (const sq of [from, to]) {
    if (label === 'phone') await squareOf(page, sq).tap();
    else await squareOf(page, sq).click();
  }
}

const status = (page) => gameCard(page).getByRole('status');
const spoken = (page) => page.textContent('#announce'); // the page's one live region
const destinations = (page) => boardOf(page).getByRole('gridcell', { name: /, legal destination/ });

/** Whether the board is seen from Black's side: a1 drawn above a8. */
async function blackAtBottom(page) {
  const a1 = await squareOf(page, 'a1').boundingBox();
  const a8 = await squareOf(page, 'a8').boundingBox();
  return a1.y < a8.y;
}

/** Whether an element lies wholly inside the viewport (no scrolling needed). */
async function onScreen(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  return box && box.y >= 0 && box.x >= 0 && box.y + box.height <= vp.height + 0.5 && box.x + box.width <= vp.width + 0.5;
}

for (const [label, viewport, extra] of SIZES) {
  test(`first load (${label}): the board waits for Start and says what to do`, { timeout: 60_000 }, async () => {
    const { context, page } = await app.open('play', viewport, extra);
    await status(page).filter({ hasText: 'Choose an opponent under “New game” and press Start.' }).waitFor();
    await play(page, 'e2', 'e4', label);
    assert.deepEqual(await listedMoves(page), [], 'no move is played before Start');
    assert.equal(await destinations(page).count(), 0);
    await shot(page, `play-idle-${label}`);
    await context.close();
  });
}

for (const viewport of [DESKTOP, { width: 1366, height: 768 }]) {
  test(`desktop layout ${viewport.width}x${viewport.height}: board, four reserves and both clocks without scrolling`, { timeout: 60_000 }, async () => {
    const { context, page } = await app.open('play', viewport);
    await startGame(page, { opponent: 'A friend at this device', clock: '5 min + 3 s' });
    const board = boardOf(page);
    assert.ok(await onScreen(page, board), 'the board');
    for (const owner of ['White', 'Black']) {
      for (const kind of ['prison', 'airfield']) assert.ok(await onScreen(page, reserveOf(page, owner, kind)), `${owner}'s ${kind}`);
    }
    const clocks = page.getByRole('timer');
    assert.equal(await clocks.count(), 2);
    for (let i = 0; i < 2; i++) assert.ok(await onScreen(page, clocks.nth(i)), 'a clock');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    // Beside the board, as crazyhouse pockets are: right of it, not below.
    const b = await board.boundingBox();
    const r = await reserveOf(page, 'White', 'prison').boundingBox();
    assert.ok(r.x >= b.x + b.width, 'the reserves stand right of the board');
    await shot(page, `play-layout-${viewport.width}x${viewport.height}`);
    await context.close();
  });
}

for (const [label, viewport, extra] of SIZES) {
  test(`bot game (${label}): sounds and words for moves, confirmed resignation, end box, PGN, analyse, rematch`, { timeout: 120_000 }, async () => {
    const { context, page } = await app.open('play', viewport, extra);
    await startGame(page, { opponent: 'A bot', level: 'Novice (800)', color: 'White' });
    await play(page, 'e2', 'e4', label);
    assert.equal(await page.getAttribute('body', 'data-last-sound'), 'move');
    await waitMoves(page, 2, 60_000);
    assert.match(await spoken(page), /^Black/, 'the bot\'s move is announced');
    // Resign asks first; "Keep playing" changes nothing.
    const resign = gameCard(page).getByRole('button', { name: 'Resign' });
    await resign.click();
    const dialog = page.getByRole('dialog', { name: 'Resign this game?' });
    await shot(page, `play-resign-confirm-${label}`);
    await dialog.getByRole('button', { name: 'Keep playing' }).click();
    assert.ok(await dialog.isHidden());
    assert.match(await status(page).textContent(), /White to move/, 'the game goes on');
    await resign.click();
    await dialog.getByRole('button', { name: 'Resign' }).click();

    const end = page.getByRole('region', { name: /0-1/ });
    await end.waitFor();
    assert.match(await end.textContent(), /Black wins by resignation/);
    for (const name of ['Rematch', 'New game', 'Analyse this game']) assert.ok(await end.getByRole('button', { name }).isVisible());
    assert.equal(await page.getAttribute('body', 'data-last-sound'), 'end');
    assert.match(await moveListOf(page).getByRole('listitem').last().textContent(), /0-1\s+Black wins by resignation/);
    await page.getByText('Export FEN / PGN').click();
    const pgn = await page.getByLabel('PGN', { exact: true }).inputValue();
    assert.match(pgn, /\[Result "0-1"\]/);
    assert.match(pgn, /\[Termination "Normal"\]/);
    const d = new Date();
    const today = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
    assert.match(pgn, new RegExp(`\\[Date "${today.replace(/\./g, '\\.')}"\\]`));
    assert.match(pgn, /\s0-1\s*$/);
    await end.scrollIntoViewIfNeeded();
    await shot(page, `play-over-${label}`);

    // Analyse this game: the moves arrive in Analyse's move tree ...
    await end.getByRole('button', { name: 'Analyse this game' }).click();
    const tree = page.getByRole('group', { name: 'Moves and variations' });
    await tree.getByRole('button').first().waitFor();
    assert.equal(await tree.getByRole('button').count(), 2);
    // ... and the engine's game review runs by itself: the accuracy of both players.
    const accuracy = page.getByRole('region', { name: 'Game review' }).getByRole('table', { name: 'Accuracy' });
    await accuracy.waitFor({ timeout: 30_000 });
    assert.deepEqual(await accuracy.getByRole('rowheader').allTextContents(), ['White', 'Black']);
    // Back to Play: Rematch swaps the colours (the bot moves first as White).
    await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Play' }).click();
    await end.getByRole('button', { name: 'Rematch' }).click();
    await waitMoves(page, 1, 60_000);
    assert.ok(await page.getByText('Black · you').isVisible());
    assert.ok(await blackAtBottom(page), 'the board turned to Black');
    await context.close();
  });

  test(`same device (${label}): clocks run, the board turns, abandoning asks first${label === 'desktop' ? ', right-click arrows' : ''}`, { timeout: 90_000 }, async () => {
    const { context, page } = await app.open('play', viewport, extra);
    await startGame(page, { opponent: 'A friend at this device', clock: '1 min', turn: true });
    const whiteClock = page.getByRole('timer', { name: /^White's clock/ });
    assert.match(await whiteClock.textContent(), /^1:00$/);
    await play(page, 'e2', 'e4', label);
    assert.ok(await blackAtBottom(page), 'the board turned to Black');
    await page.waitForTimeout(1300);
    assert.match(await page.getByRole('timer', { name: /^Black's clock/ }).textContent(), /^0:5[89]$/, 'Black\'s time runs');
    assert.match(await whiteClock.textContent(), /^1:00$/);
    await play(page, 'e7', 'e5', label);
    assert.equal(await blackAtBottom(page), false, 'and back to White');
    // The man slid from e7 to e5 (animation on by default).
    assert.equal(await boardOf(page).getAttribute('data-animated'), 'e7-e5');
    await shot(page, `play-same-device-${label}`);

    if (label === 'desktop') {
      // A right-drag draws an arrow, on the same square a circle; a left click clears.
      const from = await squareOf(page, 'g1').boundingBox();
      const to = await squareOf(page, 'f3').boundingBox();
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down({ button: 'right' });
      await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
      await page.mouse.up({ button: 'right' });
      await squareOf(page, 'e4').click({ button: 'right' });
      // The drawing is decoration (aria-hidden): looked for inside the board.
      assert.equal(await boardOf(page).locator('.shapes .arrow.mine[data-from="g1"][data-to="f3"]').count(), 1);
      assert.equal(await boardOf(page).locator('.shapes .circle[data-at="e4"]').count(), 1);
      await shot(page, 'play-arrows-desktop');
      await squareOf(page, 'a8').click();
      assert.equal(await boardOf(page).locator('.shapes .mine').count(), 0);
    }

    // Starting another game asks before abandoning this one.
    const start = page.getByRole('form', { name: 'New game' }).getByRole('button', { name: 'Start' });
    await start.click();
    const dialog = page.getByRole('dialog', { name: 'Abandon the game in progress?' });
    await dialog.getByRole('button', { name: 'Keep playing' }).click();
    assert.equal((await listedMoves(page)).length, 2);
    await start.click();
    await dialog.getByRole('button', { name: 'Abandon it' }).click();
    await waitMoves(page, 0); // the new game starts once the dialog has closed
    assert.match(await status(page).textContent(), /White to move/);
    await context.close();
  });

  test(`premove against the bot (${label}): set while it thinks (and says so), played when legal`, { timeout: 120_000 }, async () => {
    const { context, page } = await app.open('play', viewport, extra);
    await startGame(page, { opponent: 'A bot', level: 'Club (2000)', color: 'White' });
    await play(page, 'e2', 'e4', label);
    // While the bot is to move (the Club bot thinks for a while): g1 then f3
    // is a premove, shown and not played.
    assert.ok(await page.getByText('thinking…', { exact: true }).isVisible(), 'the bot says it is thinking');
    assert.match(await status(page).textContent(), /the bot is thinking/);
    await shot(page, `play-bot-thinking-${label}`);
    await play(page, 'g1', 'f3', label);
    assert.equal(await squareOf(page, 'g1').getAttribute('aria-label'), 'g1, White knight, premove');
    assert.equal(await squareOf(page, 'f3').getAttribute('aria-label'), 'f3, empty, premove');
    assert.equal((await listedMoves(page)).length, 1);
    await waitMoves(page, 3, 60_000);
    assert.equal((await listedMoves(page))[2], 'Nf3');
    await context.close();
  });

  test(`settings (${label}): sounds, coordinates, animation and board colours kept over a reload`, { timeout: 60_000 }, async () => {
    const { context, page } = await app.open('play', viewport, extra);
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByLabel('Coordinates on the board').uncheck();
    await dialog.getByLabel('Board colours').selectOption({ label: 'Green' });
    await dialog.getByLabel('Animation speed').selectOption({ label: 'Off' });
    await dialog.getByLabel('Sounds').uncheck();
    // The package's version, as its version() gives it (= the npm package.json's).
    const { version } = JSON.parse(readFileSync(join(APP, 'vendor', 'hostage-chess', 'package.json'), 'utf8'));
    const about = dialog.getByText(`hostage-chess ${version}`, { exact: true });
    await about.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => {});
    assert.ok(await about.isVisible(), `"hostage-chess ${version}" in Settings`);
    await shot(page, `settings-${label}`);
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Coordinates are drawn for the eye only (aria-hidden): looked for inside the board.
    const coordinates = () => boardOf(page).locator('.coord').first().isVisible();
    const light = () => squareOf(page, 'a8').evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.equal(await coordinates(), false);
    assert.equal(await light(), 'rgb(238, 238, 210)');
    const sound = page.getByRole('button', { name: 'Sound', exact: true });
    assert.equal(await sound.getAttribute('aria-pressed'), 'false');
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    assert.equal(await light(), 'rgb(238, 238, 210)');
    assert.equal(await coordinates(), false);
    assert.equal(await sound.getAttribute('aria-pressed'), 'false');
    await page.getByRole('button', { name: 'Settings' }).click();
    assert.equal(await dialog.getByLabel('Animation speed').inputValue(), 'off');
    assert.equal(await dialog.getByLabel('Sounds').isChecked(), false);
    await dialog.getByRole('button', { name: 'Done' }).click();
    // The mute switch in the top bar turns sounds back on.
    await sound.click();
    assert.equal(await sound.getAttribute('aria-pressed'), 'true');
    await context.close();
  });
}

test('phone 390x844: every tap target is at least 44 px; taps, and an exchange, a drop and a move dragged by a finger', { timeout: 90_000 }, async () => {
  const { context, page } = await app.open('play', PHONE, PHONE_CONTEXT);
  await startGame(page, { opponent: 'A friend at this device' });
  for (const [from, to] of [['e2', 'e4'], ['d7', 'd5'], ['e4', 'd5'], ['d8', 'd5']]) await play(page, from, to, 'phone');
  assert.equal((await listedMoves(page)).length, 4);
  // White's pawn dragged by a finger out of Black's prison onto e3 (paid
  // with the black pawn in White's prison); Black's released pawn dragged
  // from its airfield onto e5; a knight dragged g1-f3.
  await touchDrag(page, manIn(page, 'White', 'pawn', 'Black', 'prison'), squareOf(page, 'e3'));
  await touchDrag(page, manIn(page, 'Black', 'pawn', 'Black', 'airfield'), squareOf(page, 'e5'));
  await touchDrag(page, squareOf(page, 'g1'), squareOf(page, 'f3'));
  assert.deepEqual(await listedMoves(page), ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e3', '*e5', 'Nf3']);
  const small = await smallTargets(page, '#mode-play');
  assert.deepEqual(small, []);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  await shot(page, 'play-taps-phone');
  await context.close();
});

for (const [label, viewport, extra] of SIZES) {
  test(`keyboard (${label}): a game played with arrows and Enter, moves announced, squares named`, { timeout: 60_000 }, async () => {
    const { context, page } = await app.open('play', viewport, extra);
    await startGame(page, { opponent: 'A friend at this device' });
    // Start puts the focus on the board (e2).
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    assert.equal(await focused(), 'e2, White pawn');
    const keys = async (...ks) => { for (const k of ks) await page.keyboard.press(k); };
    await keys('Enter', 'ArrowUp', 'ArrowUp', 'Enter'); // e2-e4
    assert.match(await spoken(page), /White: pawn e2 to e4 \(e4\)/);
    await keys('ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowLeft', 'Enter', 'ArrowDown', 'ArrowDown'); // d7, then d5
    assert.equal(await focused(), 'd5, empty, legal destination');
    await keys('Enter');
    await keys('ArrowDown', 'ArrowRight', 'Enter', 'ArrowUp', 'ArrowLeft', 'Enter'); // exd5
    assert.match(await spoken(page), /White: pawn e4 takes the pawn on d5 \(exd5\)/);
    // The captured pawn is a reserve man with a name, reachable as a button.
    const prisoner = reserveOf(page, 'White', 'prison').getByRole('button', { name: "Black pawn in White's prison" });
    assert.ok(await prisoner.isVisible());
    assert.deepEqual(await listedMoves(page), ['e4', 'd5', 'exd5']);
    // Ids in the page are unique.
    const dup = await page.evaluate(() => {
      const seen = new Map();
      for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
      return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    });
    assert.deepEqual(dup, []);
    await context.close();
  });
}
