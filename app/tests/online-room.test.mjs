// The room of an online game through `hostage serve` (docs/protocol.md):
// two browser contexts (White at desktop 1280x800, Black on a 390x844
// phone). A draw offer declined, with each side told the right thing, and
// one withdrawn by a move; a timed game whose first move is not made in
// time is aborted; a game aborted with the button before both have moved;
// an opponent who closes the tab, comes back (the countdown stops), closes
// it again, and the other claims the win after the countdown. The server
// runs with a short `--first-move-ms` and `--abandon-after-ms`. Everything is found by
// role and visible label; any console or page error fails the test
// (helpers.mjs).
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { failOnPageErrors, gameCard, move, openPage, shot, waitMoves } from './helpers.mjs';
import { twoPlayers, useHostageServe, waitStatus } from './serve-helpers.mjs';

/** The time for a first move in a timed game, short for the abort test. */
const FIRST_MOVE_MS = 4_000;
/** How long an opponent must be gone before a claim, short for the abandonment test. */
const ABANDON_AFTER_MS = 4_000;

const { SKIP, env } = useHostageServe({
  name: 'room',
  what: 'online room',
  args: ['--first-move-ms', String(FIRST_MOVE_MS), '--abandon-after-ms', String(ABANDON_AFTER_MS)],
  requires: ['--first-move-ms', '--abandon-after-ms'],
});

failOnPageErrors();

const button = (page, name) => gameCard(page).getByRole('button', { name, exact: true });
const text = (page, words) => gameCard(page).getByText(words, { exact: true });

test('online room: a draw offer declined and one withdrawn by a move, each side told the right thing', { skip: SKIP, timeout: 120_000 }, async () => {
  const { a, b, close } = await twoPlayers(env);
  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);

  // White offers: White is told it was sent and cannot offer again; Black is asked.
  await button(a, 'Offer draw').click();
  await text(a, 'Draw offer sent.').waitFor();
  assert.ok(await button(a, 'Offer draw').isDisabled(), 'no second offer while one stands');
  const offer = gameCard(b).getByText('White offers a draw.');
  await offer.waitFor();
  await shot(b, 'online-room-draw-offered-phone');
  await button(b, 'Decline').tap();
  await offer.waitFor({ state: 'hidden' });
  await text(a, 'Your draw offer was declined.').waitFor();
  assert.ok(await text(a, 'Draw offer sent.').isHidden(), 'the offer no longer stands');
  assert.ok(await button(a, 'Offer draw').isEnabled(), 'White may offer again');
  assert.ok(await text(b, 'Your draw offer was declined.').isHidden(), 'the decliner is not told its own decline as a refusal');
  await shot(a, 'online-room-draw-declined-desktop');

  // Black offers, White moves instead: the offer is withdrawn and both are told.
  await move(b, 'e7', 'e5');
  await waitMoves(a, 2);
  assert.ok(await text(a, 'Your draw offer was declined.').isHidden(), 'the decline is old news after a move');
  await button(b, 'Offer draw').tap();
  await text(b, 'Draw offer sent.').waitFor();
  await gameCard(a).getByText('Black offers a draw.').waitFor();
  await move(a, 'g1', 'f3');
  await waitMoves(b, 3);
  for (const page of [a, b]) await text(page, 'The draw offer was withdrawn by the move.').waitFor();
  assert.ok(await text(b, 'Draw offer sent.').isHidden());
  assert.ok(await gameCard(a).getByText('Black offers a draw.').isHidden());
  assert.ok(await button(b, 'Offer draw').isEnabled());
  // The next move: the withdrawal is old news too.
  await move(b, 'b8', 'c6');
  await waitMoves(a, 4);
  for (const page of [a, b]) assert.ok(await text(page, 'The draw offer was withdrawn by the move.').isHidden());
  await close();
});

test('online room: a first move not made in time aborts a timed game', { skip: SKIP, timeout: 120_000 }, async () => {
  const { a, b, close } = await twoPlayers(env, '5 min + 3 s');
  // Each is told who must move, by when; Black may abort.
  await gameCard(a).getByText(/^Make your first move within \d+ s, or the game is aborted\.$/).waitFor();
  await gameCard(b).getByText(/^White must make a first move within \d+ s, or the game is aborted\.$/).waitFor();
  assert.ok(await button(b, 'Abort game').isVisible());
  await shot(b, 'online-room-first-move-phone');
  // Nobody moves: aborted, no result, on both sides.
  for (const page of [a, b]) await waitStatus(page, /^Game aborted: no result/);
  const end = a.getByRole('region', { name: /^\* · Aborted/ });
  await end.waitFor();
  assert.ok(await button(a, 'Abort game').isHidden(), 'nothing to abort any more');
  assert.ok(await gameCard(a).getByText(/first move within/).isHidden(), 'the countdown is gone');
  await shot(a, 'online-room-aborted-desktop');
  await close();
});

test('online room: either player aborts before both have moved, not after', { skip: SKIP, timeout: 120_000 }, async () => {
  const { a, b, close } = await twoPlayers(env);
  // An untimed game: no countdown.
  assert.ok(await gameCard(a).getByText(/first move within/).isHidden());
  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);
  await button(b, 'Abort game').tap();
  for (const page of [a, b]) await waitStatus(page, /^Game aborted: no result/);
  await close();

  // Both have moved: the button is gone.
  const second = await twoPlayers(env);
  await move(second.a, 'e2', 'e4');
  await waitMoves(second.b, 1);
  await move(second.b, 'e7', 'e5');
  await waitMoves(second.a, 2);
  for (const page of [second.a, second.b]) assert.ok(await button(page, 'Abort game').isHidden());
  await second.close();
});

test('online room: the opponent closes the tab, comes back, leaves again, and the player claims the win', { skip: SKIP, timeout: 120_000 }, async () => {
  const { a, b, black, url, close } = await twoPlayers(env);
  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);
  const left = gameCard(a).getByText(/^Opponent left the game\./);
  assert.ok(await left.isHidden(), 'nothing said while the opponent is here');

  // Black closes the tab: White is told at once, with a countdown.
  await b.close();
  await gameCard(a).getByText(/^Opponent left the game\. You can claim victory in \d+ s\.$/).waitFor({ timeout: 10_000 });
  assert.ok(await button(a, 'Claim victory').isHidden(), 'no claim before the time');
  await shot(a, 'online-room-opponent-left-desktop');
  // Black comes back (the seat's token is kept): the countdown stops.
  const again = await openPage(black, url);
  await waitMoves(again, 1);
  await left.waitFor({ state: 'hidden', timeout: 10_000 });

  // Black leaves for good; after the countdown White claims the win.
  await again.close();
  await left.waitFor({ timeout: 10_000 });
  await button(a, 'Claim victory').waitFor({ timeout: 15_000 });
  assert.ok(await button(a, 'Call it a draw').isVisible());
  await shot(a, 'online-room-claim-desktop');
  await button(a, 'Claim victory').click();
  await waitStatus(a, /^White wins by abandonment/);
  assert.ok(await left.isHidden(), 'the notice ends with the game');
  await close();
});
