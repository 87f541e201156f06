// The lobby through `hostage serve` (docs/protocol.md, Lobby): two browser
// contexts, one at desktop size (1280x800) and one on a phone (390x844),
// then the other way round. A challenge made in one appears in the other's
// list with its creator's name, is accepted there, and both land in the same
// game (Play online) and can move; a cancelled challenge leaves the other's
// list; a quick-pairing button pressed in both pairs them. Everything is
// found by its role and visible label; every console error fails the test
// (helpers.mjs).
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  DESKTOP, PHONE, PHONE_CONTEXT, failOnPageErrors, gameCard, move, openPage, shot, waitMoves,
} from './helpers.mjs';
import { useHostageServe, waitStatus } from './serve-helpers.mjs';

const { SKIP, env } = useHostageServe({ name: 'lobby', what: 'lobby' });

failOnPageErrors();

/**
 * Two players' pages on the lobby: the first at `first` size, the second at
 * the other. Their contexts close when the test `t` ends, pass or fail (which
 * withdraws their open challenges).
 */
async function twoPlayers(t, first) {
  const sizes = { desktop: [DESKTOP, {}], phone: [PHONE, PHONE_CONTEXT] };
  const second = first === 'desktop' ? 'phone' : 'desktop';
  const contexts = [];
  t.after(() => Promise.all(contexts.map((c) => c.close())));
  const pages = [];
  for (const size of [first, second]) {
    const [viewport, extra] = sizes[size];
    const context = await env.browser.newContext({ viewport, ...extra });
    contexts.push(context);
    pages.push(await openPage(context, `${env.server.base}/#/lobby`));
  }
  for (const page of pages) await lobbyOf(page).getByRole('status').filter({ hasText: /Connected|Accept a challenge/ }).waitFor({ timeout: 20_000 });
  return { a: pages[0], b: pages[1], sizes: [first, second] };
}

const lobbyOf = (page) => page.getByRole('region', { name: 'Open challenges' });
const challengesOf = (page) => page.getByRole('list', { name: 'Open challenges' });

/** Reaches the lobby from the navigation, as a player would. */
async function openLobbyFromNav(page) {
  await page.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Lobby' }).click();
  await lobbyOf(page).waitFor();
}

async function setName(page, name) {
  const field = page.getByRole('textbox', { name: 'Your name' });
  await field.fill(name);
  await field.press('Tab'); // the change is kept on leaving the field
}

async function createChallenge(page, { color, clock }) {
  const form = page.getByRole('form', { name: 'Create a challenge' });
  await form.getByRole('combobox', { name: 'You play' }).selectOption({ label: color });
  await form.getByRole('combobox', { name: 'Time control' }).selectOption({ label: clock });
  await form.getByRole('button', { name: 'Create challenge' }).click();
}

/** Both pages are in one game of Play online: its id. */
async function bothInOneGame(a, b) {
  for (const page of [a, b]) {
    await page.waitForURL(/[?&]game=[a-z0-9]+.*#\/play/, { timeout: 20_000 });
    await waitStatus(page, /^White to move/);
  }
  const id = new URL(a.url()).searchParams.get('game');
  assert.equal(new URL(b.url()).searchParams.get('game'), id, 'the same game');
  return id;
}

for (const first of ['desktop', 'phone']) {
  test(`lobby (${first} makes the challenge): seen with its name, accepted, both play one game`, { skip: SKIP, timeout: 120_000 }, async (t) => {
    const { a, b, sizes } = await twoPlayers(t, first);
    await setName(a, 'Alice');
    await createChallenge(a, { color: 'White', clock: '5+3' });
    // Alice sees her own challenge, to cancel; Bob sees it with her name, to accept.
    await challengesOf(a).getByRole('button', { name: 'Cancel your 5+3 challenge' }).waitFor();
    await lobbyOf(a).getByRole('status').filter({ hasText: 'Waiting for an opponent…' }).waitFor();
    const accept = challengesOf(b).getByRole('button', { name: "Accept Alice's 5+3 challenge" });
    await accept.waitFor({ timeout: 15_000 });
    const item = challengesOf(b).getByRole('listitem').filter({ has: b.getByRole('button', { name: "Accept Alice's 5+3 challenge" }) });
    assert.match(await item.textContent(), /Alice.*5\+3.*White/);
    await shot(a, `lobby-waiting-${sizes[0]}`);
    await shot(b, `lobby-list-${sizes[1]}`);
    await accept.click();
    await bothInOneGame(a, b);
    // Alice took White: she moves first, Bob answers.
    await move(a, 'e2', 'e4');
    await waitMoves(b, 1);
    await move(b, 'e7', 'e5');
    await waitMoves(a, 2);
    assert.ok(await gameCard(a).getByText('Connected', { exact: true }).isVisible());
  });
}

test('lobby: a cancelled challenge leaves the other player\'s list', { skip: SKIP, timeout: 90_000 }, async (t) => {
  const { a, b } = await twoPlayers(t, 'phone');
  // The lobby is reached from the navigation too.
  await a.getByRole('navigation', { name: 'Modes' }).getByRole('link', { name: 'Play' }).click();
  await a.getByRole('form', { name: 'New game' }).waitFor();
  await openLobbyFromNav(a);
  await setName(a, '');
  await createChallenge(a, { color: 'Random', clock: 'No clock' });
  const accept = challengesOf(b).getByRole('button', { name: "Accept Anonymous's No clock challenge" });
  await accept.waitFor({ timeout: 15_000 });
  await challengesOf(a).getByRole('button', { name: 'Cancel your No clock challenge' }).click();
  await accept.waitFor({ state: 'detached', timeout: 15_000 });
  await lobbyOf(b).getByText(/No open challenges yet/).waitFor();
  await lobbyOf(a).getByText(/No open challenges yet/).waitFor();
});

test('lobby: a quick-pairing button pressed by two players pairs them', { skip: SKIP, timeout: 90_000 }, async (t) => {
  const { a, b } = await twoPlayers(t, 'desktop');
  const quick = (page) => page.getByRole('region', { name: 'Quick pairing' }).getByRole('button', { name: '3+2', exact: true });
  await quick(a).click();
  await lobbyOf(a).getByRole('status').filter({ hasText: 'Waiting for an opponent…' }).waitFor({ timeout: 15_000 });
  await challengesOf(b).getByRole('button', { name: /^Accept .*'s 3\+2 challenge$/ }).waitFor({ timeout: 15_000 });
  await quick(b).click();
  await bothInOneGame(a, b);
});
