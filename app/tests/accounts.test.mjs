// Accounts in the app through `hostage serve` (docs/protocol.md, Accounts):
// the player menu, Sign up, Log in, Log out, Your games. Two or three
// browser contexts, at 1280x800 and 390x844; everything found by its role
// and visible label; every console error fails the test (helpers.mjs),
// except the 401 a wrong password is answered with, where a test says so.
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  DESKTOP, PHONE, PHONE_CONTEXT, failOnPageErrors, gameCard, move, openPage, shot, smallTargets, startGame, waitMoves,
} from './helpers.mjs';
import { gameLink, useHostageServe, waitStatus } from './serve-helpers.mjs';

const { SKIP, env } = useHostageServe({ name: 'accounts', what: 'accounts' });

failOnPageErrors();

const SIZES = { desktop: [DESKTOP, {}], phone: [PHONE, PHONE_CONTEXT] };
const PASSWORD = 'correct horse 7';
// A wrong password is answered 401, which Chromium reports as a console error.
const WRONG_PASSWORD_401 = /status of 401/;

/** A browser context of `size`, closed when the test `t` ends. */
async function contextOf(t, size) {
  const [viewport, extra] = SIZES[size];
  const context = await env.browser.newContext({ viewport, ...extra });
  t.after(() => context.close());
  return context;
}

const playerNav = (page) => page.getByRole('navigation', { name: 'Player' });
const menuButton = (page, name) => playerNav(page).getByRole('button', { name, exact: true });

/** Signs up or logs in (`title` 'Sign up' | 'Log in') from the player menu's link, as a player would. */
async function enter(page, title, username, password = PASSWORD) {
  await playerNav(page).getByRole('link', { name: title }).click();
  const form = page.getByRole('form', { name: title });
  await form.getByRole('textbox', { name: 'Username' }).fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: title }).click();
  return form;
}

/** No horizontal scroll on the page. */
async function fitsWidth(page, what) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide in a ${width} px viewport`);
}

/** The session cookie's account as the server sees it: its username, or null. */
async function serverAccount(context) {
  const r = await context.request.get(`${env.server.base}/api/account/me`);
  return r.ok() ? (await r.json()).username : null;
}

for (const first of ['desktop', 'phone']) {
  const second = first === 'desktop' ? 'phone' : 'desktop';
  test(`accounts (${first} signs up, ${second} logs in): the player menu, log out, a wrong password`, { skip: SKIP, timeout: 120_000 }, async (t) => {
    const name = `Ada ${first}`;
    const one = await contextOf(t, first);
    const a = await openPage(one, `${env.server.base}/#/play`);
    await fitsWidth(a, `a guest's top bar (${first})`);
    await enter(a, 'Sign up', name);
    await page(a).yourGames();
    await menuButton(a, name).waitFor();
    assert.equal(await serverAccount(one), name);
    // A reload asks the server who is logged in.
    await a.reload();
    await menuButton(a, name).waitFor({ timeout: 20_000 });
    await menuButton(a, name).click();
    const menu = a.getByRole('list', { name: 'Player menu' });
    for (const link of ['Your games', 'Account settings']) await menu.getByRole('link', { name: link }).waitFor();
    await fitsWidth(a, `the open player menu (${first})`);
    if (first === 'phone') assert.deepEqual(await smallTargets(a, '.player-nav'), []);
    await shot(a, `account-menu-${first}`);
    // Escape closes the menu, as does a click elsewhere.
    await a.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(await menuButton(a, name).getAttribute('aria-expanded'), 'false');
    await menuButton(a, name).click();
    await menu.getByRole('button', { name: 'Log out', exact: true }).click();
    await playerNav(a).getByRole('link', { name: 'Log in' }).waitFor();
    assert.equal(await serverAccount(one), null, 'the session ended');
    await a.reload();
    await playerNav(a).getByRole('link', { name: 'Sign up' }).waitFor();

    // Another browser: a wrong password first, which stores nothing.
    const two = await contextOf(t, second);
    const b = await openPage(two, `${env.server.base}/#/play`, [], { allow: [WRONG_PASSWORD_401] });
    const form = await enter(b, 'Log in', name, 'not the password');
    await form.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
    assert.deepEqual((await two.cookies()).filter((c) => c.name === 'hostage_session'), [], 'no session cookie');
    assert.equal(await serverAccount(two), null);
    await playerNav(b).getByRole('link', { name: 'Log in' }).waitFor();
    await fitsWidth(b, `the log-in form (${second})`);
    await shot(b, `account-login-error-${second}`);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Log in' }).click();
    await menuButton(b, name).waitFor();
    assert.equal(await serverAccount(two), name);
  });
}

/** The page's Your games, reached from the player menu. */
function page(p) {
  return {
    async yourGames() {
      await p.getByRole('heading', { name: 'Your games' }).waitFor({ timeout: 20_000 });
      return p.getByRole('list', { name: 'Your games' });
    },
  };
}

/** Opens Your games from the player menu of `name`; resolves the list once it shows `n` games. */
async function openYourGames(p, name, n) {
  await menuButton(p, name).click();
  await p.getByRole('list', { name: 'Player menu' }).getByRole('link', { name: 'Your games' }).click();
  const list = await page(p).yourGames();
  await list.getByRole('listitem').nth(n - 1).waitFor({ timeout: 20_000 });
  assert.equal(await list.getByRole('listitem').count(), n);
  return list;
}

test('Your games: two accounts\' games, my move first, resumed from another browser', { skip: SKIP, timeout: 180_000 }, async (t) => {
  const ada = await contextOf(t, 'desktop');
  const bo = await contextOf(t, 'phone');
  const a = await openPage(ada, `${env.server.base}/#/play`);
  const b = await openPage(bo, `${env.server.base}/#/play`);
  await enter(a, 'Sign up', 'Ada');
  await enter(b, 'Sign up', 'Bo');
  for (const p of [a, b]) await page(p).yourGames();

  // Game 1: Ada creates (White), Bo joins. Game 2: Bo creates (White), Ada joins.
  const games = [];
  for (const [host, guest] of [[a, b], [b, a]]) {
    await host.goto(`${env.server.base}/#/play`);
    await startGame(host, { opponent: 'A friend online', color: 'White' });
    const url = await gameLink(host);
    await guest.goto(url);
    for (const p of [host, guest]) await waitStatus(p, /^White to move/);
    games.push(new URL(url).searchParams.get('game'));
  }

  // The server lists game 2 first (changed last); each sees the game where it is to move first.
  for (const [p, name, mine, theirs] of [[a, 'Ada', games[0], games[1]], [b, 'Bo', games[1], games[0]]]) {
    const list = await openYourGames(p, name, 2);
    const [top, next] = [list.getByRole('listitem').nth(0), list.getByRole('listitem').nth(1)];
    assert.match(await top.textContent(), /vs (Ada|Bo).*Your move.*You play White/);
    assert.match(await top.getByRole('link').getAttribute('href'), new RegExp(`[?&]game=${mine}\\b`));
    assert.match(await next.textContent(), /Their move.*You play Black/);
    assert.match(await next.getByRole('link').getAttribute('href'), new RegExp(`[?&]game=${theirs}\\b`));
    await fitsWidth(p, `Your games (${name})`);
    await shot(p, `account-games-${name === 'Ada' ? 'desktop' : 'phone'}`);
  }

  // Ada on another browser (a phone, never in the game): logs in, opens game 1, and plays it as White.
  const other = await contextOf(t, 'phone');
  const c = await openPage(other, `${env.server.base}/#/play`);
  await enter(c, 'Log in', 'Ada');
  await menuButton(c, 'Ada').waitFor();
  const list = await openYourGames(c, 'Ada', 2);
  await list.getByRole('listitem').nth(0).getByRole('link').click();
  await c.waitForURL(new RegExp(`[?&]game=${games[0]}.*#/play`), { timeout: 20_000 });
  await waitStatus(c, /^White to move/);
  await gameCard(c).getByRole('button', { name: 'Resign' }).waitFor();
  await move(c, 'e2', 'e4');
  await waitMoves(c, 1);
  await waitStatus(c, /^Black to move/);
  // The server took the move: Bo's list (shown again from the menu) has both games on his move.
  const bos = await openYourGames(b, 'Bo', 2);
  await bos.getByRole('listitem').filter({ hasText: 'Your move' }).nth(1).waitFor({ timeout: 20_000 });
});

test('Account settings (phone): the password changed, then the account closed', { skip: SKIP, timeout: 90_000 }, async (t) => {
  const one = await contextOf(t, 'phone');
  const p = await openPage(one, `${env.server.base}/#/play`, [], { allow: [WRONG_PASSWORD_401] });
  await enter(p, 'Sign up', 'Cy');
  await menuButton(p, 'Cy').click();
  await p.getByRole('list', { name: 'Player menu' }).getByRole('link', { name: 'Account settings' }).click();
  await p.getByRole('heading', { name: 'Account settings: Cy' }).waitFor();
  const pw = p.getByRole('form', { name: 'Change password' });
  await pw.getByLabel('Current password').fill('not the password');
  await pw.getByLabel('New password').fill('a new password 8');
  await pw.getByRole('button', { name: 'Change password' }).click();
  await pw.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
  await pw.getByLabel('Current password').fill(PASSWORD);
  await pw.getByLabel('New password').fill('a new password 8');
  await pw.getByRole('button', { name: 'Change password' }).click();
  await pw.getByRole('alert').filter({ hasText: 'Password changed.' }).waitFor();
  await fitsWidth(p, 'Account settings (phone)');
  assert.deepEqual(await smallTargets(p, '.mode-account'), []);
  await shot(p, 'account-settings-phone');
  const closing = p.getByRole('form', { name: 'Close account' });
  await closing.getByLabel('Password').fill('a new password 8');
  await closing.getByRole('button', { name: 'Close account' }).click();
  await p.getByRole('dialog').getByRole('button', { name: 'Close account' }).click();
  await playerNav(p).getByRole('link', { name: 'Log in' }).waitFor();
  assert.equal(await serverAccount(one), null);
  // A closed account logs in no more, answered as a wrong password is.
  const form = await enter(p, 'Log in', 'Cy', 'a new password 8');
  await form.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
});

test('Your games (phone): fields the server may add are shown, unknown ones ignored', { skip: SKIP, timeout: 60_000 }, async (t) => {
  const one = await contextOf(t, 'phone');
  const p = await openPage(one, `${env.server.base}/#/play`);
  await enter(p, 'Sign up', 'Di');
  await page(p).yourGames();
  // The server's answer replaced by one with the fields a later server adds.
  const deadline = Date.UTC(2031, 0, 2, 15, 30);
  const games = [
    { game: 'g1', color: 'black', plies: 4, started: true, your_move: false, opponent: 'Eve', updated_ms: 2, link: '/?game=g1',
      clock: { initial_ms: 180_000, increment_ms: 2_000 }, time_left_ms: 65_000, rated: true, future: { nested: [1] } },
    { game: 'g2', color: 'white', plies: 10, started: true, your_move: true, opponent: 'Fay', updated_ms: 1, link: '/?game=g2',
      days_per_move: 3, time_left_ms: (2 * 24 + 3) * 3600 * 1000, deadline_ms: deadline, rated: false },
    { game: 'g3', color: 'white', plies: 0, started: false, your_move: false, opponent: null, updated_ms: 0, link: '/?game=g3',
      time_control: 'Correspondence' },
  ];
  await one.route('**/api/account/games', (route) => route.fulfill({ json: { games } }));
  await p.getByRole('button', { name: 'Refresh' }).click();
  const items = (await page(p).yourGames()).getByRole('listitem');
  await items.filter({ hasText: 'vs Eve' }).waitFor();
  const texts = await items.allTextContents();
  assert.equal(texts.length, 3);
  assert.match(texts[0], /^vs Fay\s*Your move\s*You play White · move 6 · 3 days per move · 2 days 3 hours left · move by /);
  assert.match(texts[0], /2031/);
  assert.match(texts[1], /^vs Eve\s*Their move\s*You play Black · move 3 · 3\+2 · rated · 1:05 left$/);
  assert.match(texts[2], /^No opponent yet\s*Waiting for an opponent\s*You play White · move 1 · Correspondence$/);
  await fitsWidth(p, 'Your games with every field (phone)');
});

test('Log in (desktop): the sixth wrong password in a row is refused with the wait, in words', { skip: SKIP, timeout: 90_000 }, async (t) => {
  const one = await contextOf(t, 'desktop');
  const p = await openPage(one, `${env.server.base}/#/play`, [], {
    // Wrong passwords are answered 401, the refusal 429: console errors in Chromium.
    allow: [WRONG_PASSWORD_401, /status of 429/],
  });
  const form = await enter(p, 'Log in', 'Nobody', 'wrong password 1');
  const alert = form.getByRole('alert');
  await alert.filter({ hasText: 'Wrong username or password.' }).waitFor();
  // The server allows 5 failed logins per account in 15 minutes (docs/protocol.md).
  for (let i = 2; i <= 5; i++) {
    await form.getByLabel('Password').fill(`wrong password ${i}`);
    await form.getByRole('button', { name: 'Log in' }).click();
    await alert.filter({ hasText: 'Wrong username or password.' }).waitFor();
  }
  await form.getByLabel('Password').fill('wrong password 6');
  await form.getByRole('button', { name: 'Log in' }).click();
  await alert.filter({ hasText: /^Too many attempts: try again in (1[0-5]|[1-9]) minutes?\.$/ }).waitFor();
  assert.equal(await serverAccount(one), null);
});
