// A logged-in player's puzzle rating through `hostage serve`
// (docs/protocol.md, Puzzles of an account): one browser logs in and
// misses a puzzle (Show solution), the rating shown is the one the server
// stored; another browser context, at the other size, logs in and shows
// the same rating and the puzzle as tried. A server that refuses an
// attempt is said on the page. At 1280x800 and 390x844; everything found
// by role and label; any console error fails the test (helpers.mjs) except
// the one a refused request is reported with, where the test says so.
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DESKTOP, PHONE, PHONE_CONTEXT, failOnPageErrors, openPage, shot } from './helpers.mjs';
import { useHostageServe } from './serve-helpers.mjs';

const { SKIP, env } = useHostageServe({ name: 'puzzle-accounts', what: 'puzzle rating of an account' });

failOnPageErrors();

const SIZES = { desktop: [DESKTOP, {}], phone: [PHONE, PHONE_CONTEXT] };
const PASSWORD = 'correct horse 7';

async function contextOf(t, size) {
  const [viewport, extra] = SIZES[size];
  const context = await env.browser.newContext({ viewport, ...extra });
  t.after(() => context.close());
  return context;
}

const playerNav = (page) => page.getByRole('navigation', { name: 'Player' });

/** Signs up or logs in (`title` 'Sign up' | 'Log in') from the player menu, as a player would. */
async function enter(page, title, username) {
  await playerNav(page).getByRole('link', { name: title }).click();
  const form = page.getByRole('form', { name: title });
  await form.getByRole('textbox', { name: 'Username' }).fill(username);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: title }).click();
  await playerNav(page).getByRole('button', { name: username, exact: true }).waitFor({ timeout: 20_000 });
}

const card = (page) => page.getByRole('region', { name: /^Puzzle / });
/** The rating shown, as text ("1234?" while provisional). */
const shownRating = (page) => page.getByText('Your puzzle rating').locator('..').getByRole('strong').textContent();

/** Opens Puzzles and waits until the page says the rating is the account's. */
async function puzzlesOf(page, username) {
  await page.goto(`${env.server.base}/#/puzzles`);
  await card(page).getByText(`Your puzzle rating is kept with your account, ${username}.`).waitFor({ timeout: 30_000 });
}

/** The account's puzzle standing as the server answers it to this context. */
async function serverStanding(context) {
  const r = await context.request.get(`${env.server.base}/api/account/puzzles`);
  assert.equal(r.status(), 200);
  return r.json();
}

const expectedText = (r) => `${Math.round(r.rating.rating)}${r.rating.deviation >= 110 ? '?' : ''}`;

for (const [first, second] of [['desktop', 'phone'], ['phone', 'desktop']]) {
  test(`puzzle rating of an account (${first} misses a puzzle, ${second} logs in and sees it)`, { skip: SKIP, timeout: 180_000 }, async (t) => {
    const name = `Solver ${first}`;
    const one = await contextOf(t, first);
    const a = await openPage(one, `${env.server.base}/#/play`);
    await enter(a, 'Sign up', name);
    await puzzlesOf(a, name);
    assert.equal(await shownRating(a), '1500?');
    // A miss: the solution shown before solving it.
    const id = (await card(a).getByRole('heading', { name: /^Puzzle / }).textContent()).match(/^Puzzle (\S+)/)[1];
    await card(a).getByRole('button', { name: 'Show solution' }).click();
    await a.waitForSelector('section.mode-puzzles[data-saved="saved"]', { state: 'attached', timeout: 20_000 });
    const stored = await serverStanding(one);
    assert.deepEqual(stored.seen, [id]);
    assert.ok(stored.rating.rating < 1500, `a miss lowers the rating: ${stored.rating.rating}`);
    assert.equal(await shownRating(a), expectedText(stored));
    assert.equal(await a.locator('section.mode-puzzles').getAttribute('data-account'), name);
    await shot(a, `puzzles-account-${first}`);
    // Nothing of the account's in this browser's storage.
    const local = await a.evaluate(() => JSON.parse(localStorage.getItem('hostage.puzzles.v1') ?? '{}'));
    assert.ok(!(local.seen ?? []).includes(id), 'the account\'s puzzle is not in the guest\'s storage');

    // Another browser, at the other size: the same rating, the puzzle tried.
    const two = await contextOf(t, second);
    const b = await openPage(two, `${env.server.base}/#/play`);
    await enter(b, 'Log in', name);
    await puzzlesOf(b, name);
    assert.equal(await shownRating(b), expectedText(stored));
    await card(b).page().getByText(/^1 of \d+ puzzles tried\.$/).waitFor();
    const shownId = (await card(b).getByRole('heading', { name: /^Puzzle / }).textContent()).match(/^Puzzle (\S+)/)[1];
    assert.notEqual(shownId, id, 'the puzzle tried on the other browser is not served again');
    const [scroll, width] = await b.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= width, `no horizontal scroll (${scroll} > ${width})`);
    await shot(b, `puzzles-account-other-${second}`);
  });
}

test('an attempt the server refuses is said on the page', { skip: SKIP, timeout: 120_000 }, async (t) => {
  const name = 'Refused';
  const one = await contextOf(t, 'desktop');
  // The refused request is reported by Chromium as a console error.
  const a = await openPage(one, `${env.server.base}/#/play`, [], { allow: [/status of 503/] });
  await enter(a, 'Sign up', name);
  await puzzlesOf(a, name);
  await a.route('**/api/account/puzzles/attempts', (route) => route.fulfill({
    status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'storage_failed', message: 'down' }),
  }));
  await card(a).getByRole('button', { name: 'Show solution' }).click();
  await card(a).getByRole('alert').filter({ hasText: 'This attempt was not saved to your account' }).first().waitFor();
  await card(a).getByText('Your last attempt was not saved to your account').waitFor();
  assert.equal(await shownRating(a), '1500?');
  const stored = await serverStanding(one);
  assert.deepEqual(stored.seen, []);
});
