// Display names and chat in an online game through `hostage serve`
// (docs/protocol.md, names and chat): two browser contexts (White "Ada" at
// desktop 1280x800, Black "Bo" on a 390x844 phone). Each sees the other's
// name on the board; a line with markup shows as literal text on both sides
// (no element made of it, no dialog, no console error); "Mute chat" hides
// the opponent's lines and stays muted over a reload; the PGN export has
// both names, the game's real Date and UTCTime; a spectator reads the chat
// and has no form to write. Everything is found by role and visible label;
// any console or page error fails the test (helpers.mjs).
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DESKTOP, PHONE, PHONE_CONTEXT, failOnPageErrors, move, openPage, shot, waitMoves } from './helpers.mjs';
import { gameLink, useHostageServe, waitStatus } from './serve-helpers.mjs';

const { SKIP, env } = useHostageServe({ name: 'chat', what: 'chat and names' });

const MARKUP = '<b>hi</b><img src=x onerror=alert(1)>';

failOnPageErrors();

const chatLog = (page) => page.getByRole('log', { name: 'Chat' });

/** Fails on any dialog the page opens (an alert from a line would be one). */
function noDialogs(page, seen) {
  page.on('dialog', async (d) => { seen.push(d.message()); await d.dismiss(); });
}

/** Play's form with "A friend online" and "Your name" filled in (kept in localStorage). */
async function nameOnline(page, name) {
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByLabel('A friend online').check();
  await form.getByLabel('Your name').fill(name);
  return form;
}

async function send(page, text) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Ada (desktop) creates a game, Bo (phone) names himself and opens its link. */
async function namedPlayers(dialogs) {
  const white = await env.browser.newContext({ viewport: DESKTOP });
  const black = await env.browser.newContext({ viewport: PHONE, ...PHONE_CONTEXT });
  const a = await openPage(white, `${env.server.base}/#/play`);
  const form = await nameOnline(a, 'Ada');
  await form.getByLabel('White', { exact: true }).check();
  await form.getByRole('button', { name: 'Start' }).click();
  const url = await gameLink(a);
  const b = await openPage(black, `${env.server.base}/#/play`);
  await nameOnline(b, 'Bo');
  await b.goto(url);
  await b.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  for (const page of [a, b]) {
    noDialogs(page, dialogs);
    await waitStatus(page, /^White to move/);
  }
  return { a, b, white, black, url, close: async () => { await white.close(); await black.close(); } };
}

test('names: each player sees the other\'s name on the board; the PGN has both names and the real date and time', { skip: SKIP, timeout: 120_000 }, async () => {
  const dialogs = [];
  const { a, b, close } = await namedPlayers(dialogs);
  // The board's player labels: the opponent's name, and one's own marked.
  await a.getByText('Black · Bo', { exact: true }).waitFor();
  await a.getByText('White · Ada (you)', { exact: true }).waitFor();
  await b.getByText('White · Ada', { exact: true }).waitFor();
  await b.getByText('Black · Bo (you)', { exact: true }).waitFor();
  await shot(b, 'online-names-phone');

  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);
  await a.getByText('Export FEN / PGN').click();
  const pgn = await a.getByLabel('PGN', { exact: true }).inputValue();
  assert.match(pgn, /\[White "Ada"\]/);
  assert.match(pgn, /\[Black "Bo"\]/);
  const now = new Date();
  const today = now.toISOString().slice(0, 10).replaceAll('-', '.');
  assert.match(pgn, new RegExp(`\\[Date "${today.replace(/\./g, '\\.')}"\\]`));
  assert.match(pgn, new RegExp(`\\[UTCDate "${today.replace(/\./g, '\\.')}"\\]`));
  const time = pgn.match(/\[UTCTime "(\d\d):(\d\d):(\d\d)"\]/);
  assert.ok(time, `UTCTime in ${pgn}`);
  // The game was created within the last few minutes.
  const created = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), Number(time[1]), Number(time[2]), Number(time[3]));
  assert.ok(Math.abs(now.getTime() - created) < 5 * 60_000, `UTCTime ${time[0]} is not now`);
  assert.match(pgn, new RegExp(`\\[Site "${env.server.base.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\]`));
  assert.deepEqual(dialogs, []);
  await close();
});

test('chat: markup shows as literal text on both sides; mute hides the opponent\'s lines, over a reload; a spectator reads', { skip: SKIP, timeout: 120_000 }, async () => {
  const dialogs = [];
  const { a, b, url, close } = await namedPlayers(dialogs);
  await send(b, MARKUP);
  for (const page of [a, b]) {
    const log = chatLog(page);
    await log.getByText(MARKUP, { exact: true }).waitFor();
    // Text, never HTML: no element was made of the line.
    assert.equal(await log.locator('img, b').count(), 0, 'the line made elements');
  }
  await chatLog(a).getByText('Bo:', { exact: false }).first().waitFor();
  await send(a, 'hello from Ada');
  await chatLog(b).getByText('hello from Ada', { exact: true }).waitFor();
  await shot(b, 'online-chat-phone');
  await shot(a, 'online-chat-desktop');

  // Mute on Ada's side: Bo's lines go, Ada's stay.
  await a.getByRole('checkbox', { name: 'Mute chat' }).check();
  await chatLog(a).getByText(MARKUP, { exact: true }).waitFor({ state: 'hidden' });
  await chatLog(a).getByText('hello from Ada', { exact: true }).waitFor();
  await send(b, 'are you there?');
  await chatLog(b).getByText('are you there?', { exact: true }).waitFor();
  // Bo's new line reached Ada's session but is not shown.
  await a.waitForTimeout(500);
  assert.equal(await chatLog(a).getByText('are you there?').count(), 0);
  // A reload keeps the lines (from the server) and the mute (localStorage).
  await a.reload();
  await a.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  await chatLog(a).getByText('hello from Ada', { exact: true }).waitFor();
  assert.ok(await a.getByRole('checkbox', { name: 'Mute chat' }).isChecked());
  assert.equal(await chatLog(a).getByText(MARKUP).count(), 0);
  await a.getByRole('checkbox', { name: 'Mute chat' }).uncheck();
  await chatLog(a).getByText('are you there?', { exact: true }).waitFor();
  await chatLog(a).getByText(MARKUP, { exact: true }).waitFor();

  // A spectator (a third browser) reads every line and cannot write.
  const third = await env.browser.newContext({ viewport: DESKTOP });
  const c = await openPage(third, url);
  noDialogs(c, dialogs);
  await waitStatus(c, /^You are watching/);
  await chatLog(c).getByText(MARKUP, { exact: true }).waitFor();
  await chatLog(c).getByText('are you there?', { exact: true }).waitFor();
  assert.equal(await c.getByRole('textbox', { name: 'Message' }).count(), 0, 'a spectator has no message box');
  await third.close();
  assert.deepEqual(dialogs, []);
  await close();
});
