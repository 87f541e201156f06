// Watch (#/watch) through `hostage serve` (docs/protocol.md, `GET
// /api/games/live`): two players start a game under their names; a third
// browser opens Watch from the navigation, finds the game by both names,
// opens it, is told it is watching, and sees a move the players make
// afterwards. At 1280x800 and at 390x844 (the list fits the phone's width,
// its links are tap-sized). Everything is found by role and visible label;
// any console or page error fails the test (helpers.mjs).
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  DESKTOP, PHONE, PHONE_CONTEXT, SIZES, failOnPageErrors, listedMoves, move, openPage, shot, smallTargets, waitMoves,
} from './helpers.mjs';
import { fitsWidth } from './account-helpers.mjs';
import { gameLink, useHostageServe, waitStatus } from './serve-helpers.mjs';

const { SKIP, env } = useHostageServe({ name: 'watch', what: 'Watch' });

failOnPageErrors();

/** Play's form: "A friend online" under `name` (kept in localStorage). */
async function nameOnline(page, name) {
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByLabel('A friend online').check();
  await form.getByLabel('Your name').fill(name);
  return form;
}

/** `white` creates a game as White, `black` opens its link: both see White to move. */
async function namedGame(t, white, black) {
  const one = await env.browser.newContext({ viewport: DESKTOP });
  const two = await env.browser.newContext({ viewport: PHONE, ...PHONE_CONTEXT });
  t.after(async () => { await one.close(); await two.close(); });
  const a = await openPage(one, `${env.server.base}/#/play`);
  const form = await nameOnline(a, white);
  await form.getByLabel('White', { exact: true }).check();
  await form.getByRole('button', { name: 'Start' }).click();
  const url = await gameLink(a);
  const b = await openPage(two, `${env.server.base}/#/play`);
  await nameOnline(b, black);
  await b.goto(url);
  await b.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  for (const p of [a, b]) await waitStatus(p, /^White to move/);
  return { a, b, url };
}

for (const [size, viewport, extra] of SIZES) {
  test(`Watch (${size}): a game being played is listed with both names, opened, and followed move by move`, { skip: SKIP, timeout: 120_000 }, async (t) => {
    const [white, black] = [`Wanda ${size}`, `Basil ${size}`];
    const { a, b, url } = await namedGame(t, white, black);

    const context = await env.browser.newContext({ viewport, ...extra });
    t.after(() => context.close());
    const w = await openPage(context, `${env.server.base}/#/play`);
    await w.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Watch' }).click();
    const list = w.getByRole('list', { name: 'Games being played' });
    const entry = list.getByRole('link', { name: `Watch ${white} vs ${black}` });
    await entry.waitFor({ timeout: 20_000 });
    assert.match(await entry.textContent(), new RegExp(`^${white} vs ${black}\\s*Watch\\s*No clock · move 1 · White to move$`));
    assert.equal(new URL(await entry.getAttribute('href')).searchParams.get('game'), new URL(url).searchParams.get('game'));
    await fitsWidth(w, `Watch (${size})`);
    if (size === 'phone') assert.deepEqual(await smallTargets(w, '.mode-watch'), []);
    await shot(w, `watch-list-${size}`);

    await entry.click();
    await waitStatus(w, /^You are watching\. White to move/);
    // A move made after the spectator came is shown to it.
    await move(a, 'e2', 'e4');
    await waitMoves(w, 1);
    assert.deepEqual(await listedMoves(w), ['e4']);
    await waitStatus(w, /^You are watching\. Black to move/);
    await move(b, 'e7', 'e5');
    await waitMoves(w, 2);
    assert.deepEqual(await listedMoves(w), ['e4', 'e5']);
    await shot(w, `watch-game-${size}`);
    // The spectator has no seat: no resign, no draw offer.
    assert.equal(await w.getByRole('button', { name: 'Resign' }).isVisible(), false);
  });
}
