// Words for people: notices styled by kind (info — the
// default, never red —, success, warning, error) in Play, with sentences and
// never code names or FEN; a bot that cannot move and an app that cannot
// start said in sentences; the board editor's castling and en-passant
// controls back in step with the position after a refusal. Desktop 1280x800
// and phone 390x844. The online part (a success notice when the friend joins)
// runs through `hostage serve` when HOSTAGE_BIN has it, else it is skipped.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { APP, ROOT, launch, openPage, serveApp, shot, waitMoves } from './helpers.mjs';

const SIZES = [['desktop', { width: 1280, height: 800 }, {}], ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }]];
const COLOURS = { error: 'rgb(253, 236, 234)', info: 'rgb(230, 240, 248)', success: 'rgb(227, 244, 232)', warning: 'rgb(255, 243, 205)' };
const CODE_NAMES = /Error\b|_[a-z]|\[\]|\/[1-8pnbrqkPNBRQK]+\//; // IllegalMoveError, invalid_san, a FEN

let server;
let browser;
before(async () => { server = await serveApp(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

async function open(route, viewport, extra = {}, setup = null) {
  const context = await browser.newContext({ viewport, ...extra });
  if (setup) await setup(context);
  const errors = [];
  const page = await openPage(context, `${server.base}/#/${route}`, errors);
  return { context, page, errors };
}

async function start(page, { opponent, level, color } = {}) {
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByLabel(opponent).check();
  if (level) await form.getByLabel('Bot level').selectOption({ label: level });
  if (color) await form.getByLabel(color, { exact: true }).check();
  await form.getByRole('button', { name: 'Start' }).click();
}

const bg = (locator) => locator.evaluate((e) => getComputedStyle(e).backgroundColor);
const cell = (page, sq) => page.locator('#mode-play').getByRole('grid', { name: /^Board/ }).getByRole('gridcell', { name: new RegExp(`^${sq},`) });

for (const [label, viewport, extra] of SIZES) {
  test(`notices by kind (${label}): an error in red, a warning in amber, the default not red`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await open('play', viewport, extra);
    await start(page, { opponent: 'A bot', level: 'Club (2000)', color: 'White' });
    const typed = page.getByLabel('Type a move');
    // A typo: an error, in a sentence.
    await typed.fill('Qx9');
    await typed.press('Enter');
    const said = page.getByText('“Qx9” is not a move the app can read');
    await said.waitFor();
    assert.equal(await said.getAttribute('data-kind'), 'error');
    assert.equal(await bg(said), COLOURS.error);
    assert.doesNotMatch(await said.textContent(), CODE_NAMES);
    // While the bot thinks: a warning.
    await cell(page, 'e2').click();
    await cell(page, 'e4').click();
    await typed.fill('d4');
    await typed.press('Enter');
    const warn = page.getByText('It is not your move.');
    if (await warn.isVisible()) {
      assert.equal(await warn.getAttribute('data-kind'), 'warning');
      assert.equal(await bg(warn), COLOURS.warning);
    }
    // The game's notice with no kind set looks like an info, not an error.
    const notice = page.locator('#mode-play .notice');
    await notice.evaluate((e) => { e.textContent = 'A notice.'; e.removeAttribute('data-kind'); });
    assert.equal(await bg(notice), COLOURS.info);
    await notice.evaluate((e) => { e.textContent = ''; });
    await shot(page, `words-error-notice-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const [label, viewport, extra] of SIZES) {
  test(`an illegal typed move says why (${label}): an own man on the square, the king in check`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await open('play', viewport, extra);
    await start(page, { opponent: 'A friend at this device' });
    const typed = page.getByLabel('Type a move');
    const type = async (san) => { await typed.fill(san); await typed.press('Enter'); };
    // R1: the king cannot step onto its own pawn.
    await type('Ke2');
    const own = page.getByText('Ke2 is not legal here: one of your own men stands on that square.');
    await own.waitFor();
    assert.equal(await own.getAttribute('data-kind'), 'error');
    // 1. e4 e5 2. Ke2 Qg5: the queen sees e3 along g5-f4-e3, so Ke3 walks into check.
    for (const [i, san] of ['e4', 'e5', 'Ke2', 'Qg5'].entries()) {
      await type(san);
      await waitMoves(page.locator('#mode-play'), i + 1);
    }
    await type('Ke3');
    const check = page.getByText('Ke3 is not legal here: the king would be in check.');
    await check.waitFor();
    assert.doesNotMatch(await check.textContent(), CODE_NAMES);
    await shot(page, `words-illegal-reason-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a bot that cannot move is said in a sentence, as an error', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await open('play', SIZES[0][1]);
  await start(page, { opponent: 'A bot', level: 'Novice (800)', color: 'White' });
  // The bot's worker cannot be started (its script cannot be downloaded).
  await context.route('**/vendor/hostage-chess/engine-worker.js', (r) => r.abort());
  await cell(page, 'e2').click();
  await cell(page, 'e4').click();
  const notice = page.getByText('The bot could not move. Take back a move or start a new game.');
  await notice.waitFor({ timeout: 30_000 });
  assert.equal(await notice.getAttribute('data-kind'), 'error');
  assert.equal(await bg(notice), COLOURS.error);
  // Only the refused download is in the console.
  assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_FAILED|engine-worker/.test(e)), []);
  await context.close();
});

for (const [label, viewport, extra] of SIZES) {
  test(`an app that cannot start says so in a sentence (${label})`, { timeout: 60_000 }, async () => {
    const context = await browser.newContext({ viewport, ...extra });
    await context.route('**/hostage_bg.wasm', (r) => r.abort());
    const errors = [];
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(`${server.base}/#/play`);
    const said = page.getByText(/^The app could not start\./);
    await said.waitFor({ timeout: 30_000 });
    assert.equal(await said.textContent(), 'The app could not start. A part of the app could not be downloaded. Check your connection and reload the page.');
    assert.doesNotMatch(await said.textContent(), CODE_NAMES);
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_FAILED/.test(e)), []);
    await shot(page, `words-start-failed-${label}`);
    await context.close();
  });

  test(`board editor (${label}): after a refusal the castling and en-passant controls show the position's`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await open('analyse', viewport, extra);
    await page.getByRole('button', { name: 'Open the board editor' }).click();
    const ep = page.getByLabel('En passant');
    const white00 = page.getByLabel('White O-O', { exact: true });
    assert.ok(await white00.isChecked());
    // The package's Setup takes every castling right and en-passant square the
    // controls offer, so a refusal is made here with a value it cannot read
    // (an option added to the list): refused in words, and the controls show
    // the position's fields again (before the fix the list kept "x9").
    await ep.evaluate((e) => e.add(new Option('x9', 'x9')));
    await ep.selectOption('x9');
    const refusal = page.getByRole('alert').filter({ hasText: 'cannot be used' });
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /^These castling and en-passant settings cannot be used/);
    assert.doesNotMatch(await refusal.textContent(), CODE_NAMES);
    assert.equal(await ep.inputValue(), '-', 'the en-passant choice is the position\'s again');
    assert.ok(await white00.isChecked(), 'the castling boxes are the position\'s');
    // A refused FEN typed in the box: the controls stay the position's too.
    const fen = page.getByLabel('FEN (paste one to load it)');
    await fen.fill('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] x - e3 0 1');
    await fen.press('Enter');
    assert.match(await refusal.textContent(), /^This FEN cannot be used: the side to move must be w or b\.$/);
    assert.ok(await white00.isChecked());
    assert.equal(await ep.inputValue(), '-');
    await shot(page, `words-editor-refused-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// ---- online: a success notice when the friend joins (needs `hostage serve`) ----
const BIN = process.env.HOSTAGE_BIN ?? join(ROOT, 'target', 'release', 'hostage');
const HAS_SERVE = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' }).status === 0;

test('online: "Your opponent has joined" is a success notice; "Link copied." too', { skip: HAS_SERVE ? false : `${BIN} has no serve subcommand`, timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostage-app-words-'));
  const child = spawn(BIN, ['serve', '--host', '127.0.0.1', '--port', '0', '--db', join(dir, 'games.db'), '--static', APP], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const base = await new Promise((ok, no) => {
      let out = '';
      child.stdout.on('data', (c) => { out += c; const m = out.match(/listening on (http:\/\/[^\s]+)/); if (m) ok(m[1].replace(/\/$/, '')); });
      child.on('exit', (code) => no(new Error(`hostage serve exited (${code}): ${out}`)));
    });
    const alice = await browser.newContext({ viewport: SIZES[0][1], permissions: ['clipboard-read', 'clipboard-write'] });
    const errorsA = [];
    const a = await openPage(alice, `${base}/#/play`, errorsA);
    await start(a, { opponent: 'A friend online', color: 'White' });
    await a.getByRole('button', { name: 'Copy' }).click();
    const copied = a.locator('#mode-play .notice');
    await a.waitForFunction(() => document.querySelector('#mode-play .notice').textContent !== '');
    if (await copied.textContent() === 'Link copied.') {
      assert.equal(await copied.getAttribute('data-kind'), 'success');
      assert.equal(await bg(copied), COLOURS.success);
    } else {
      assert.equal(await copied.getAttribute('data-kind'), 'info');
    }
    const link = await a.getByLabel('Game link').inputValue();
    const bob = await browser.newContext({ viewport: SIZES[1][1], ...SIZES[1][2] });
    const errorsB = [];
    await openPage(bob, link, errorsB);
    const joined = a.getByText('Your opponent has joined: the game starts.');
    await joined.waitFor({ timeout: 20_000 });
    assert.equal(await joined.getAttribute('data-kind'), 'success');
    assert.equal(await bg(joined), COLOURS.success);
    await shot(a, 'words-success-notice-desktop');
    assert.deepEqual(errorsA, []);
    assert.deepEqual(errorsB, []);
    await alice.close();
    await bob.close();
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
