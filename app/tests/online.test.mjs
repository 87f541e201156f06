// Online play through `hostage serve` (docs/protocol.md): two browser
// contexts (White at desktop 1280x800, Black on a 390x844 phone) play a game
// with a premove, an exchange and a drop; one reloads in the middle and
// continues; the server is killed (SIGKILL) and restarted on the same port
// during the game and the game continues; a confirmed resignation ends it
// with the end box, and a rematch (one asks, the other accepts) starts a
// new game with the colours swapped. Then, at both sizes: a visitor of the finished game's
// link sees the final position, the moves, the result and the PGN; a third
// visitor of a game in progress watches; an unknown id is said in a
// sentence. The board, reserves and controls are found by their roles and
// visible labels. Every console error fails the test (helpers.mjs), except
// a refused WebSocket reconnect while the server is down (allowed below, for
// the two players of the first test only).
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import {
  startHostageServe,
  APP, DESKTOP, PHONE, PHONE_CONTEXT, ROOT, SIZES, boardOf, failOnPageErrors, gameCard, launch, listedMoves,
  manIn, move, moveListOf, openPage, seenPosition, shot, squareOf, startGame, waitMoves,
} from './helpers.mjs';

const BIN = process.env.HOSTAGE_BIN ?? join(ROOT, 'target', 'release', 'hostage');
const probe = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
const HAS_SERVE = probe.status === 0;
const SKIP = HAS_SERVE ? false : `${BIN} has no \`serve\` subcommand (or is missing): online tests SKIPPED`;
if (SKIP) {
  const bar = '!'.repeat(78);
  process.stderr.write(`\n${bar}\n!!!! ${SKIP}\n!!!! (build hostage-cli with the server, or set HOSTAGE_BIN)\n${bar}\n\n`);
}

let dir;
let server = null;
let port = 0;
let browser;
/** The link of the game the first test finishes, and its final position as White saw it. */
let finished = null;

/** Starts `hostage serve` (on `port`, or a free one) and waits for its "listening on" line. */
function startServer() {
  return startHostageServe(BIN, ['--host', '127.0.0.1', '--port', String(port), '--db', join(dir, 'games.db'), '--static', APP]).then((server) => {
    port = Number(new URL(server.base).port);
    return server;
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

failOnPageErrors();

// While the server is down (killed on purpose), the client's reconnects are
// refused; should Chromium log such a failed WebSocket as a console error
// (the Chromium of Debian 12 here does not), that is expected. These only,
// and only for the two players who live through the restart: no other error
// (no "Failed to load resource", no 404) is allowed anywhere.
const RECONNECT_REFUSED = [/^WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/ws' failed: .*ERR_CONNECTION_REFUSED/];

const status = (page) => gameCard(page).getByRole('status');
const waitStatus = (page, re) => status(page).filter({ hasText: re }).waitFor({ timeout: 30_000 });
const waitConnected = (page) => gameCard(page).getByText('Connected', { exact: true }).waitFor({ timeout: 30_000 });

/** Starts an online game from Play's form; returns the link to send. */
async function createGame(page, opts = {}) {
  await startGame(page, { opponent: 'A friend online', ...opts });
  const link = page.getByRole('textbox', { name: 'Game link' });
  await page.waitForFunction((el) => /[?&]game=/.test(el.value), await link.elementHandle(), { timeout: 20_000 });
  return link.inputValue();
}

test('online: two players, premove, exchange and drop, a reload, a server restart, a resignation', { skip: SKIP, timeout: 180_000 }, async () => {
  const alice = await browser.newContext({ viewport: DESKTOP });
  const bob = await browser.newContext({ viewport: PHONE, ...PHONE_CONTEXT });
  const a = await openPage(alice, `${server.base}/#/play`, [], { allow: RECONNECT_REFUSED });

  // Alice creates a game with a clock and takes White.
  const link = await createGame(a, { color: 'White', clock: '5 min + 3 s' });
  const gameId = new URL(link).searchParams.get('game');
  await waitStatus(a, /Waiting for your friend/);
  await shot(a, 'online-waiting-desktop');

  // Bob opens the link and takes the free seat (Black).
  const b = await openPage(bob, link, [], { allow: RECONNECT_REFUSED });
  await waitStatus(b, /^White to move/);
  await waitStatus(a, /^White to move/);
  assert.ok(await b.getByRole('timer', { name: /^Black's clock/ }).isVisible(), 'clocks are shown');

  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);
  // While Black is to move, White premoves e4xd5 (the square is still
  // empty): both squares are marked and named so; it is played as soon as
  // Black's d5 arrives.
  await move(a, 'e4', 'd5');
  assert.equal(await squareOf(a, 'e4').getAttribute('aria-label'), 'e4, White pawn, premove');
  assert.equal(await squareOf(a, 'd5').getAttribute('aria-label'), 'd5, empty, premove');
  await move(b, 'd7', 'd5');
  await waitMoves(b, 3);
  assert.deepEqual(await listedMoves(b), ['e4', 'd5', 'exd5']);

  // Bob reloads in the middle of the game: the stored token resumes his seat.
  await b.reload();
  await b.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await waitMoves(b, 3);
  await waitConnected(b);
  await move(b, 'd8', 'd5');
  await waitMoves(a, 4);

  // Alice exchanges: her pawn out of Black's prison onto e3.
  await manIn(a, 'White', 'pawn', 'Black', 'prison').click();
  await squareOf(a, 'e3').click();
  await waitMoves(b, 5);
  await shot(a, 'online-playing-desktop');

  // The server dies (SIGKILL) and comes back on the same port; both resume.
  await kill(server.child, 'SIGKILL');
  await gameCard(b).getByText('Offline: reconnecting…').waitFor({ timeout: 15_000 });
  server = await startServer();
  await waitConnected(a);
  await waitConnected(b);
  await waitMoves(b, 5);

  // Bob drops the released pawn from his airfield.
  await manIn(b, 'Black', 'pawn', 'Black', 'airfield').tap();
  await squareOf(b, 'e5').tap();
  await waitMoves(a, 6);
  const expected = ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e3', '*e5'];
  assert.deepEqual(await listedMoves(a), expected);
  assert.deepEqual(await listedMoves(b), expected);
  assert.deepEqual(await seenPosition(a), await seenPosition(b), 'both players see the same position');
  await shot(b, 'online-playing-phone');

  // The server's record agrees.
  const pgn = await (await fetch(`${server.base}/api/games/${gameId}/pgn`)).text();
  assert.match(pgn, /\(P-P\)\*e3 \*e5/);

  // Alice resigns (asked first); both see the result, Alice in the end box.
  await gameCard(a).getByRole('button', { name: 'Resign' }).click();
  await a.getByRole('dialog', { name: 'Resign this game?' }).getByRole('button', { name: 'Resign' }).click();
  for (const page of [a, b]) await waitStatus(page, /Black wins by resignation/);
  assert.match(await a.getByRole('region', { name: /^0-1/ }).textContent(), /Black wins by resignation/);
  await shot(a, 'online-over-desktop');
  await shot(b, 'online-over-phone');
  finished = { link, position: await seenPosition(a) };

  // Rematch: Bob asks; Alice is told and accepts; both are in one new game
  // with the colours swapped, and Bob (White now) opens it.
  await b.getByRole('region', { name: /^0-1/ }).getByRole('button', { name: 'Rematch' }).tap();
  await waitStatus(b, /Waiting for your opponent to accept the rematch/);
  const offer = a.getByRole('region', { name: /^0-1/ });
  await offer.getByText('Your opponent wants a rematch.').waitFor({ timeout: 15_000 });
  await offer.getByRole('button', { name: 'Accept rematch' }).click();
  for (const page of [a, b]) await waitStatus(page, /^White to move/);
  const rematchId = new URL(a.url()).searchParams.get('game');
  assert.ok(rematchId && rematchId !== gameId, 'Alice is in a new game');
  assert.equal(new URL(b.url()).searchParams.get('game'), rematchId, 'Bob is in the same new game');
  const rematchState = await (await fetch(`${server.base}/api/games/${gameId}`)).json();
  assert.equal(rematchState.rematch, rematchId, 'the old game links its rematch');
  await move(b, 'e2', 'e4');
  await waitMoves(a, 1);
  assert.equal(await squareOf(a, 'e4').getAttribute('aria-label'), 'e4, White pawn');
  assert.ok(await gameCard(a).getByRole('button', { name: 'Resign' }).isEnabled(), 'Alice plays on');
  assert.ok(await gameCard(a).getByText('Your opponent wants a rematch.').isHidden(), 'the offer is not said in the new game');
  await shot(a, 'online-rematch-desktop');
  await alice.close();
  await bob.close();
});

for (const [label, viewport, extra] of SIZES) {
  test(`online (${label}): a visitor of a finished game's link sees the final position, the moves, the result and the PGN`, { skip: SKIP, timeout: 60_000 }, async () => {
    assert.ok(finished, 'the first test finished a game');
    const carol = await browser.newContext({ viewport, ...extra });
    const c = await openPage(carol, finished.link);
    await waitMoves(c, 6);
    assert.deepEqual(await seenPosition(c), finished.position, 'the final position');
    assert.deepEqual(await listedMoves(c), ['e4', 'd5', 'exd5', 'Qxd5', '(P-P)*e3', '*e5']);
    assert.equal(await squareOf(c, 'e5').getAttribute('aria-label'), 'e5, Black pawn');
    await waitStatus(c, /Black wins by resignation/);
    assert.match(await moveListOf(c).getByRole('listitem').last().textContent(), /0-1/);
    await c.getByText('Export FEN / PGN').click();
    assert.match(await c.getByLabel('PGN', { exact: true }).inputValue(), /\[Result "0-1"\][\s\S]*\(P-P\)\*e3 \*e5 0-1/);
    assert.equal((await gameCard(c).getByRole('alert').allTextContents()).join(''), '', 'no error notice');
    await shot(c, `online-finished-visitor-${label}`);
    await carol.close();
  });

  test(`online (${label}): a third visitor of the link watches a game in progress`, { skip: SKIP, timeout: 60_000 }, async () => {
    const ctx = [await browser.newContext(), await browser.newContext(), await browser.newContext({ viewport, ...extra })];
    const a = await openPage(ctx[0], `${server.base}/#/play`);
    const link = await createGame(a);
    const b = await openPage(ctx[1], link);
    await waitStatus(b, /^White to move/);
    const c = await openPage(ctx[2], link);
    await waitStatus(c, /^You are watching\. White to move/);
    assert.match(await gameCard(c).getByRole('alert').textContent(), /Both seats are taken: you are watching this game/);
    assert.ok(await gameCard(c).getByRole('button', { name: 'Resign' }).isHidden(), 'a watcher cannot resign');
    // The watcher sees the players' moves.
    await move(a, 'e2', 'e4');
    await waitMoves(c, 1);
    assert.equal(await squareOf(c, 'e4').getAttribute('aria-label'), 'e4, White pawn');
    assert.ok(await boardOf(c).isVisible());
    for (const x of ctx) await x.close();
  });

  test(`online (${label}): an unknown game id is said in a plain sentence`, { skip: SKIP, timeout: 60_000 }, async () => {
    const ctx = await browser.newContext({ viewport, ...extra });
    const page = await openPage(ctx, `${server.base}/?game=nosuchgame1#/play`);
    await waitStatus(page, /^There is no game at this link\./);
    assert.doesNotMatch(await status(page).textContent(), /White to move|game_not_found/);
    assert.equal((await gameCard(page).getByRole('alert').allTextContents()).join(''), '', 'no error notice');
    await shot(page, `online-unknown-${label}`);
    await ctx.close();
  });
}
