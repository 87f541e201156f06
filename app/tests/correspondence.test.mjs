// A correspondence game (days per move, docs/protocol.md, Correspondence)
// in the app through `hostage serve --correspondence-day-ms 6000` (a "day"
// of 6 s, docs/server.md): two accounts, Ada at 1280x800 and Bo at
// 390x844; Ada starts it from Play with "1 day per move", Bo opens its
// link; each is told whose move it is, the time left and the deadline; both
// first moves are made, then White lets the deadline pass: the server ends
// the game, lost on time, and both are shown so (the status and the end
// box), the deadline gone. Everything is found by role and visible label;
// any console or page error fails the test (helpers.mjs).
//
// Needs a `hostage` binary whose `serve` has `--correspondence-day-ms`
// (HOSTAGE_BIN, default target/release/hostage); SKIPPED, loudly, without.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DESKTOP, PHONE, PHONE_CONTEXT, failOnPageErrors, move, openPage, shot, smallTargets, startGame, waitMoves } from './helpers.mjs';
import { enter, fitsWidth, menuButton } from './account-helpers.mjs';
import { gameLink, useHostageServe, waitStatus } from './serve-helpers.mjs';

const DAY_MS = 6000;
const { SKIP, env } = useHostageServe({
  name: 'corresp', what: 'correspondence', args: ['--correspondence-day-ms', String(DAY_MS)], requires: ['--correspondence-day-ms'],
});

failOnPageErrors();

/** The deadline's sentence in the game card (a timer), once it matches `re`. */
const deadline = (page, re) => page.getByRole('timer').filter({ hasText: re });

test('correspondence (desktop and phone): 1 day per move, the deadline shown, then passed: lost on time for both', { skip: SKIP, timeout: 120_000 }, async (t) => {
  const one = await env.browser.newContext({ viewport: DESKTOP });
  const two = await env.browser.newContext({ viewport: PHONE, ...PHONE_CONTEXT });
  t.after(async () => { await one.close(); await two.close(); });
  const a = await openPage(one, `${env.server.base}/#/play`);
  const b = await openPage(two, `${env.server.base}/#/play`);
  await enter(a, 'Sign up', 'Ada');
  await enter(b, 'Sign up', 'Bo');
  await menuButton(a, 'Ada').waitFor();
  await menuButton(b, 'Bo').waitFor();

  await a.goto(`${env.server.base}/#/play`);
  // Days per move are offered beside the clocks, for a friend online only.
  const form = a.getByRole('form', { name: 'New game' });
  await form.getByLabel('A bot').check();
  await form.getByLabel('Clock').selectOption({ label: '3 days per move' });
  await form.getByRole('button', { name: 'Start' }).click();
  await a.getByRole('alert').filter({ hasText: 'Days per move are for a game with a friend online' }).waitFor();
  await startGame(a, { opponent: 'A friend online', color: 'White', clock: '1 day per move' });
  const url = await gameLink(a);
  await b.goto(url);
  await b.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  for (const p of [a, b]) await waitStatus(p, /^White to move/);

  // White's window: told to both, White's as "Your move".
  const by = /\(1 day per move, move by .+\)\.$/;
  await deadline(a, /^Your move: 0:0[0-6] left /).waitFor();
  assert.match(await deadline(a, /^Your move/).textContent(), by);
  await deadline(b, /^White to move: 0:0[0-6] left /).waitFor();
  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);
  await deadline(b, /^Your move: 0:0[0-6] left /).waitFor();
  await deadline(a, /^Black to move: /).waitFor();
  await fitsWidth(b, 'a correspondence game (phone)');
  assert.deepEqual(await smallTargets(b, '.game-card'), []);
  await shot(b, 'correspondence-deadline-phone');
  await move(b, 'e7', 'e5');
  await waitMoves(a, 2);
  await deadline(a, /^Your move: /).waitFor();
  await shot(a, 'correspondence-deadline-desktop');

  // White does not move: the server ends the game when the day has passed.
  for (const p of [a, b]) await waitStatus(p, /^Black wins by time/);
  for (const p of [a, b]) {
    const end = p.getByRole('region', { name: /Black wins/ });
    await end.waitFor();
    assert.match(await end.textContent(), /0-1 · Black wins\s+Black wins by time\./);
    assert.equal(await p.getByRole('timer').filter({ hasText: /move by/ }).count(), 0, 'no deadline after the end');
  }
  await shot(a, 'correspondence-timeout-desktop');
  await shot(b, 'correspondence-timeout-phone');
});
