// Online play through `hostage serve` (docs/protocol.md): two browser
// contexts play a game with an exchange and a drop, one reloads in the middle
// and continues, the server is killed (SIGKILL) and restarted on the same port
// during the game and the game continues, then a resignation ends it.
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { APP, ROOT, launch, listedMoves, move, openPage, shot } from './helpers.mjs';

const BIN = process.env.HOSTAGE_BIN ?? join(ROOT, 'target', 'release', 'hostage');
const probe = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
const HAS_SERVE = probe.status === 0;
const SKIP = HAS_SERVE ? false : `${BIN} has no \`serve\` subcommand (or is missing): online tests SKIPPED`;
if (SKIP) {
  const bar = '!'.repeat(78);
  process.stderr.write(`\n${bar}\n!!!! ${SKIP}\n!!!! (build hostage-cli with the server, or set HOSTAGE_BIN)\n${bar}\n\n`);
}

const P = '#mode-play';
let dir;
let server = null;
let port = 0;
let browser;

/** Starts `hostage serve` (on `port`, or a free one) and waits for its "listening on" line. */
function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['serve', '--host', '127.0.0.1', '--port', String(port), '--db', join(dir, 'games.db'), '--static', APP],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`hostage serve did not start: ${out}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        port = Number(new URL(m[1]).port);
        resolve({ child, base: m[1].replace(/\/$/, '') });
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`hostage serve exited (${code}): ${out}`)); });
  });
}

function kill(child, signal) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

before(async () => {
  if (SKIP) return;
  dir = mkdtempSync(join(tmpdir(), 'hostage-app-online-'));
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (server) await kill(server.child, 'SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// A refused reconnect shows in the console as a failed WebSocket; nothing else may.
const real = (errs) => errs.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e));

const waitMoves = (page, n) => page.waitForFunction(
  (k) => document.querySelectorAll('#mode-play .moves .mv').length === k, n, { timeout: 20_000 });
const waitOnline = (page) => page.waitForSelector(`${P} .conn[data-state="online"]`, { state: 'attached', timeout: 30_000 });

test('online: two players, exchange and drop, a reload, a server restart, a resignation', { skip: SKIP, timeout: 180_000 }, async () => {
  const errorsA = [];
  const errorsB = [];
  const alice = await browser.newContext({ viewport: { width: 1200, height: 860 } });
  const bob = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const a = await openPage(alice, `${server.base}/#/play`, errorsA);

  // Alice creates a game with a clock and takes White.
  await a.check(`${P} input[name="opponent"][value="online"]`);
  await a.check(`${P} input[name="color"][value="white"]`);
  await a.selectOption(`${P} select[name="clock"]`, '300+3');
  await a.click(`${P} .new-game button[type="submit"]`);
  await a.waitForFunction(() => /[?&]game=/.test(document.querySelector('#mode-play .link')?.value ?? ''), null, { timeout: 20_000 });
  const link = await a.inputValue(`${P} .link`);
  const gameId = new URL(link).searchParams.get('game');
  await a.waitForSelector(`${P}[data-online="waiting"]`, { state: 'attached' });
  assert.match(await a.textContent(`${P} .status`), /Waiting/);

  // Bob opens the link and takes the free seat (Black).
  const b = await openPage(bob, link, errorsB);
  await b.waitForFunction(() => document.querySelector('#mode-play')?.dataset.online === 'active', null, { timeout: 20_000 });
  await a.waitForFunction(() => document.querySelector('#mode-play')?.dataset.online === 'active', null, { timeout: 20_000 });
  assert.ok(await b.$(`${P}[data-match="online"]`));
  assert.equal(await b.isHidden(`${P} .clock[data-color="b"]`), false, 'clocks are shown');

  await move(a, 'e2', 'e4', P);
  await waitMoves(b, 1);
  // While Black is to move, White premoves e4xd5 (the square is still
  // empty); it is played as soon as Black's d5 arrives.
  await move(a, 'e4', 'd5', P);
  assert.equal(await a.getAttribute(`${P} .table`, 'data-premove'), 'e4 to d5');
  await move(b, 'd7', 'd5', P);
  await waitMoves(b, 3);
  assert.deepEqual(await listedMoves(b, P), ['e4', 'd5', 'exd5']);

  // Bob reloads in the middle of the game: the stored token resumes his seat.
  await b.reload();
  await b.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await waitMoves(b, 3);
  await waitOnline(b);
  await move(b, 'd8', 'd5', P);
  await waitMoves(a, 4);

  // Alice exchanges: her pawn out of Black's prison onto e3.
  await a.click(`${P} .prison[data-owner="b"] .man[data-role="pawn"]`);
  await a.click(`${P} [data-square="e3"]`);
  await waitMoves(b, 5);
  await shot(a, 'online-white-before-restart');

  // The server dies (SIGKILL) and comes back on the same port; both resume.
  await kill(server.child, 'SIGKILL');
  await b.waitForSelector(`${P} .conn[data-state="offline"]`, { state: 'attached', timeout: 15_000 });
  server = await startServer();
  await waitOnline(a);
  await waitOnline(b);
  await waitMoves(b, 5);

  // Bob drops the released pawn from his airfield.
  await b.tap(`${P} .airfield[data-owner="b"] .man[data-role="pawn"]`);
  await b.tap(`${P} [data-square="e5"]`);
  await waitMoves(a, 6);
  const expected = ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e3', '*e5'];
  assert.deepEqual(await listedMoves(a, P), expected);
  assert.deepEqual(await listedMoves(b, P), expected);
  assert.equal(await a.getAttribute('body', 'data-fen'), await b.getAttribute('body', 'data-fen'));
  await shot(b, 'online-black-phone');

  // The server's record agrees.
  const pgn = await (await fetch(`${server.base}/api/games/${gameId}/pgn`)).text();
  assert.match(pgn, /\(P-P\)\*e3 \*e5/);

  // Alice resigns; both see the result.
  await a.getByRole('button', { name: 'Resign' }).click();
  await a.getByRole('dialog', { name: 'Resign this game?' }).getByRole('button', { name: 'Resign' }).click();
  for (const page of [a, b]) {
    await page.waitForFunction(() => /Black wins by resignation/.test(document.querySelector('#mode-play .status')?.textContent), null, { timeout: 20_000 });
  }
  await shot(a, 'online-white-finished');
  assert.match(await a.getByRole('region', { name: /^0-1/ }).textContent(), /Black wins by resignation/);

  // Anyone opening the finished game's link sees the final position, the
  // moves, the result and the PGN (issue #18), with no error.
  const errorsC = [];
  const carol = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const c = await openPage(carol, link, errorsC);
  await c.waitForFunction(() => document.querySelectorAll('#mode-play .moves .mv').length === 6, null, { timeout: 20_000 });
  assert.equal(await c.getAttribute('body', 'data-fen'), await a.getAttribute('body', 'data-fen'));
  assert.match(await c.textContent(`${P} .status`), /Black wins by resignation/);
  assert.match(await c.textContent(`${P} .moves .result`), /0-1/);
  await c.click(`${P} .export summary`);
  assert.match(await c.inputValue(`${P} .export .pgn`), /\[Result "0-1"\][\s\S]*\(P-P\)\*e3 \*e5 0-1/);
  assert.equal(await c.textContent(`${P} .notice`), '');
  await shot(c, 'online-finished-spectator');
  assert.deepEqual(real(errorsC), []);
  await carol.close();
  assert.deepEqual(real(errorsA), []);
  assert.deepEqual(real(errorsB), []);
  await alice.close();
  await bob.close();
});

test('online: a third visitor of the link watches', { skip: SKIP, timeout: 60_000 }, async () => {
  const errors = [];
  const ctx = [await browser.newContext(), await browser.newContext(), await browser.newContext()];
  const a = await openPage(ctx[0], `${server.base}/#/play`, errors);
  await a.check(`${P} input[name="opponent"][value="online"]`);
  await a.click(`${P} .new-game button[type="submit"]`);
  await a.waitForFunction(() => /[?&]game=/.test(document.querySelector('#mode-play .link')?.value ?? ''), null, { timeout: 20_000 });
  const link = await a.inputValue(`${P} .link`);
  await openPage(ctx[1], link, errors);
  const c = await openPage(ctx[2], link, errors);
  await c.waitForFunction(() => document.querySelector('#mode-play')?.dataset.online === 'active', null, { timeout: 20_000 });
  assert.match(await c.textContent(`${P} .notice`), /watching/);
  assert.ok(await c.isHidden(`${P} [data-act="resign"]`));
  for (const x of ctx) await x.close();
});

test('online: an unknown game id is said in a plain sentence', { skip: SKIP, timeout: 60_000 }, async () => {
  const errors = [];
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await openPage(ctx, `${server.base}/?game=nosuchgame1#/play`, errors);
  await page.getByRole('status').filter({ hasText: 'There is no game at this link.' }).waitFor({ timeout: 20_000 });
  assert.doesNotMatch(await page.textContent(`${P} .status`), /White to move|game_not_found/);
  assert.equal(await page.textContent(`${P} .notice`), '');
  await shot(page, 'online-unknown-phone');
  assert.deepEqual(real(errors), []);
  await ctx.close();
});
