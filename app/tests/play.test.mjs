// Play as a new player meets it (issue #18), in Chromium at desktop
// (1280x800, 1366x768) and phone (390x844) sizes: the idle board before
// Start; board, four reserves and both clocks on one screen; the end-of-game
// box after a confirmed resignation, with the result in the move list and
// the PGN (Result, Termination, Date); "Analyse this game"; Rematch; the
// confirmation before abandoning a game; sounds, announcements, settings;
// right-click arrows; premoves against the bot; clocks and board turning at
// one device; every tap target on the phone at least 44 px. Controls are
// found by their visible labels and roles.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shot, smallTargets, useApp } from './helpers.mjs';

const app = useApp();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = [{ width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }];

const square = (page, sq) => page.locator(`#mode-play [data-square="${sq}"]`);
const playPanel = (page) => page.locator('#mode-play');

/** Fills the "New game" form by its labels and presses Start. */
async function start(page, { opponent, level, color, clock, turn } = {}) {
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByLabel(opponent).check();
  if (level) await form.getByLabel('Bot level').selectOption({ label: level });
  if (color) await form.getByLabel(color, { exact: true }).check();
  if (clock) await form.getByLabel('Clock').selectOption({ label: clock });
  if (turn) await form.getByLabel('Turn the board after each move').check();
  await form.getByRole('button', { name: 'Start' }).click();
}

async function tapMove(page, from, to) {
  await square(page, from).click();
  await square(page, to).click();
}

const moveCount = (page) => page.locator('#mode-play .moves .mv').count();
const waitMoves = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#mode-play .moves .mv').length === k, n, { timeout: 60_000 });

/** Whether an element lies wholly inside the viewport (no scrolling needed). */
async function onScreen(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  return box && box.y >= 0 && box.x >= 0 && box.y + box.height <= vp.height + 0.5 && box.x + box.width <= vp.width + 0.5;
}

for (const [label, viewport, extra] of [['desktop', DESKTOP], ['phone', ...PHONE]]) {
  test(`first load (${label}): the board waits for Start and says what to do`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await app.open('play', viewport, extra);
    await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Choose an opponent under “New game” and press Start.' }).waitFor());
    await tapMove(page, 'e2', 'e4');
    assert.equal(await moveCount(page), 0, 'no move is played before Start');
    assert.equal(await page.locator('#mode-play .dest').count(), 0);
    await shot(page, `play-idle-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const viewport of [DESKTOP, { width: 1366, height: 768 }]) {
  test(`desktop layout ${viewport.width}x${viewport.height}: board, four reserves and both clocks without scrolling`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await app.open('play', viewport);
    await start(page, { opponent: 'A friend at this device', clock: '5 min + 3 s' });
    const board = page.getByRole('grid', { name: /^Board/ });
    assert.ok(await onScreen(page, board), 'the board');
    for (const name of [/^White's prison/, /^White's airfield/, /^Black's prison/, /^Black's airfield/]) {
      assert.ok(await onScreen(page, page.getByRole('region', { name })), `${name}`);
    }
    const clocks = page.getByRole('timer');
    assert.equal(await clocks.count(), 2);
    for (let i = 0; i < 2; i++) assert.ok(await onScreen(page, clocks.nth(i)), 'a clock');
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    // Beside the board, as crazyhouse pockets are: right of it, not below.
    const b = await board.boundingBox();
    const r = await page.getByRole('region', { name: /^White's prison/ }).boundingBox();
    assert.ok(r.x >= b.x + b.width, 'the reserves stand right of the board');
    await shot(page, `play-layout-${viewport.width}x${viewport.height}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('bot game: sounds and words for moves, confirmed resignation, end box, PGN, analyse, rematch', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await start(page, { opponent: 'A bot', level: 'Novice (800)', color: 'White' });
  await tapMove(page, 'e2', 'e4');
  assert.equal(await page.getAttribute('body', 'data-last-sound'), 'move');
  await waitMoves(page, 2);
  assert.match(await page.textContent('#announce'), /^Black/, 'the bot\'s move is announced');
  // Resign asks first; "Keep playing" changes nothing.
  await page.getByRole('button', { name: 'Resign' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resign this game?' });
  await dialog.getByRole('button', { name: 'Keep playing' }).click();
  assert.equal(await page.getAttribute('#mode-play', 'data-over'), 'false');
  await page.getByRole('button', { name: 'Resign' }).click();
  await dialog.getByRole('button', { name: 'Resign' }).click();

  const end = page.getByRole('region', { name: /0-1/ });
  await end.waitFor();
  assert.match(await end.textContent(), /Black wins by resignation/);
  for (const name of ['Rematch', 'New game', 'Analyse this game']) assert.ok(await end.getByRole('button', { name }).isVisible());
  assert.equal(await page.getAttribute('body', 'data-last-sound'), 'end');
  assert.match(await page.textContent('#mode-play .moves .result'), /0-1\s+Black wins by resignation/);
  await page.click('#mode-play .export summary');
  const pgn = await page.inputValue('#mode-play .export .pgn');
  assert.match(pgn, /\[Result "0-1"\]/);
  assert.match(pgn, /\[Termination "Normal"\]/);
  const d = new Date();
  const today = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
  assert.match(pgn, new RegExp(`\\[Date "${today.replace(/\./g, '\\.')}"\\]`));
  assert.match(pgn, /\s0-1\s*$/);
  await shot(page, 'play-bot-resigned-desktop');

  // Analyse this game: the moves arrive in Analyse's move tree.
  await end.getByRole('button', { name: 'Analyse this game' }).click();
  await page.waitForSelector('#mode-analyse .tree .mv');
  assert.equal(await page.locator('#mode-analyse .tree .mv').count(), 2);
  // ... and the engine's game review runs by itself: the accuracy of both players.
  const accuracy = page.getByRole('region', { name: 'Game review' }).getByRole('table', { name: 'Accuracy' });
  await accuracy.waitFor({ timeout: 30_000 });
  assert.deepEqual(await accuracy.getByRole('rowheader').allTextContents(), ['White', 'Black']);
  // Back to Play: Rematch swaps the colours (the bot moves first as White).
  await page.getByRole('link', { name: 'Play' }).click();
  await end.getByRole('button', { name: 'Rematch' }).click();
  await waitMoves(page, 1);
  assert.match(await page.textContent('#mode-play .player.bottom'), /Black · you/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('same device: clocks run, the board turns, abandoning asks first, right-click arrows', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await start(page, { opponent: 'A friend at this device', clock: '1 min', turn: true });
  const whiteClock = page.getByRole('timer', { name: /White's clock/ });
  assert.match(await whiteClock.textContent(), /^1:00$/);
  await tapMove(page, 'e2', 'e4');
  assert.equal(await page.getAttribute('#mode-play .table', 'data-bottom'), 'b', 'the board turned to Black');
  await page.waitForTimeout(1300);
  assert.match(await page.getByRole('timer', { name: /Black's clock/ }).textContent(), /^0:5[89]$/, 'Black\'s time runs');
  assert.match(await whiteClock.textContent(), /^1:00$/);
  await tapMove(page, 'e7', 'e5');
  assert.equal(await page.getAttribute('#mode-play .table', 'data-bottom'), 'w');
  // The man slid from e7 to e5 (animation on by default).
  assert.equal(await page.getAttribute('#mode-play .board', 'data-animated'), 'e7-e5');

  // A right-drag draws an arrow, on the same square a circle; a left click clears.
  const from = await square(page, 'g1').boundingBox();
  const to = await square(page, 'f3').boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
  await page.mouse.up({ button: 'right' });
  await square(page, 'e4').click({ button: 'right' });
  assert.equal(await page.locator('#mode-play .shapes .arrow.mine[data-from="g1"][data-to="f3"]').count(), 1);
  assert.equal(await page.locator('#mode-play .shapes .circle[data-at="e4"]').count(), 1);
  await shot(page, 'play-arrows-desktop');
  await square(page, 'a8').click();
  assert.equal(await page.locator('#mode-play .shapes .mine').count(), 0);

  // Starting another game asks before abandoning this one.
  await page.getByRole('form', { name: 'New game' }).getByRole('button', { name: 'Start' }).click();
  const dialog = page.getByRole('dialog', { name: 'Abandon the game in progress?' });
  await dialog.getByRole('button', { name: 'Keep playing' }).click();
  assert.equal(await moveCount(page), 2);
  await page.getByRole('form', { name: 'New game' }).getByRole('button', { name: 'Start' }).click();
  await dialog.getByRole('button', { name: 'Abandon it' }).click();
  await waitMoves(page, 0); // the new game starts once the dialog has closed
  assert.match(await page.textContent('#mode-play .status'), /White to move/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('premove against the bot: set while it thinks, played when legal', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await start(page, { opponent: 'A bot', level: 'Club (2000)', color: 'White' });
  await tapMove(page, 'e2', 'e4');
  // While the bot is to move (the Club bot thinks for a while): g1 then f3
  // is a premove, shown and not played.
  assert.ok(await page.locator('#mode-play.thinking').count(), 'the bot is thinking');
  assert.ok(await page.locator('#mode-play .thinking-mark').isVisible(), 'and says so');
  await tapMove(page, 'g1', 'f3');
  assert.equal(await page.getAttribute('#mode-play .table', 'data-premove'), 'g1 to f3');
  assert.equal(await moveCount(page), 1);
  assert.ok(await square(page, 'f3').evaluate((e) => e.classList.contains('premove')));
  await waitMoves(page, 3);
  assert.equal((await page.locator('#mode-play .moves .mv').allTextContents())[2], 'Nf3');
  assert.deepEqual(errors, []);
  await context.close();
});

test('settings: sounds, coordinates, animation and board colours kept in the browser', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Coordinates on the board').uncheck();
  await dialog.getByLabel('Board colours').selectOption({ label: 'Green' });
  await dialog.getByLabel('Animation speed').selectOption({ label: 'Off' });
  await dialog.getByLabel('Sounds').uncheck();
  await shot(page, 'settings-desktop');
  await dialog.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.locator('#mode-play .coord').first().isVisible(), false);
  const light = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-square="a8"]')).backgroundColor);
  assert.equal(await light(), 'rgb(238, 238, 210)');
  assert.equal(await page.getByRole('button', { name: 'Sound' }).getAttribute('aria-pressed'), 'false');
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.equal(await light(), 'rgb(238, 238, 210)');
  assert.equal(await page.locator('#mode-play .coord').first().isVisible(), false);
  // The mute switch in the top bar turns sounds back on.
  await page.getByRole('button', { name: 'Sound' }).click();
  assert.equal(await page.getByRole('button', { name: 'Sound' }).getAttribute('aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone 390x844: every tap target is at least 44 px, a game is played by taps', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await app.open('play', ...PHONE);
  await start(page, { opponent: 'A friend at this device' });
  for (const [from, to] of [['e2', 'e4'], ['d7', 'd5'], ['e4', 'd5']]) {
    await square(page, from).tap();
    await square(page, to).tap();
  }
  assert.equal(await moveCount(page), 3);
  const small = await smallTargets(page, '#mode-play');
  assert.deepEqual(small, []);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  await shot(page, 'play-phone');
  assert.deepEqual(errors, []);
  await context.close();
});

test('keyboard: a game played with arrows and Enter, moves announced, squares named', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await app.open('play', DESKTOP);
  await start(page, { opponent: 'A friend at this device' });
  // Start puts the focus on the board (e2).
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'e2, White pawn');
  const keys = async (...ks) => { for (const k of ks) await page.keyboard.press(k); };
  await keys('Enter', 'ArrowUp', 'ArrowUp', 'Enter'); // e2-e4
  assert.match(await page.textContent('#announce'), /White: pawn e2 to e4 \(e4\)/);
  await keys('ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowLeft', 'Enter', 'ArrowDown', 'ArrowDown'); // d7, then d5
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'd5, empty, legal destination');
  await keys('Enter');
  await keys('ArrowDown', 'ArrowRight', 'Enter', 'ArrowUp', 'ArrowLeft', 'Enter'); // exd5
  assert.match(await page.textContent('#announce'), /White: pawn e4 takes the pawn on d5 \(exd5\)/);
  // The captured pawn is a reserve man with a name, reachable as a button.
  const prisoner = page.getByRole('button', { name: "Black pawn in White's prison" });
  assert.ok(await prisoner.isVisible());
  assert.deepEqual(await page.locator('#mode-play .moves .mv').allTextContents(), ['e4', 'd5', 'exd5']);
  // Ids in the page are unique.
  const dup = await page.evaluate(() => {
    const seen = new Map();
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
  assert.deepEqual(dup, []);
  assert.deepEqual(errors, []);
  await context.close();
});
