// Takeback requests in an online game through `hostage serve`
// (docs/protocol.md, Takebacks): two browser contexts (White at desktop
// 1280x800, Black on a 390x844 phone). A takeback declined (the request
// still shown after a reload), with each side told the right thing and the
// proposer free to ask again; then one
// accepted: the board is back, the move list shorter, the right side to
// move, and the notices go with the next move. Everything is found by role
// and visible label; any console or page error fails the test
// (helpers.mjs).
//
// Needs a `hostage` binary with the `serve` subcommand (HOSTAGE_BIN, default
// target/release/hostage). Without one every test here is SKIPPED, loudly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { failOnPageErrors, gameCard, move, shot, squareOf, waitMoves } from './helpers.mjs';
import { twoPlayers, useHostageServe, waitStatus } from './serve-helpers.mjs';

const { SKIP, env } = useHostageServe({ name: 'takeback', what: 'takeback' });

failOnPageErrors();

const button = (page, name) => gameCard(page).getByRole('button', { name, exact: true });
const text = (page, words) => gameCard(page).getByText(words, { exact: true });

/** Waits until the board's square `sq` is named as `re` says (its piece or 'empty'). */
async function waitLabel(page, sq, re, timeout = 10_000) {
  const t0 = Date.now();
  for (;;) {
    const label = await squareOf(page, sq).getAttribute('aria-label');
    if (re.test(label)) return;
    if (Date.now() - t0 > timeout) throw new Error(`square ${sq} is "${label}", not ${re}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

test('takeback: one declined (both told, the proposer may ask again), one accepted (board, move list and turn back)', { skip: SKIP, timeout: 120_000 }, async () => {
  const { a, b, close } = await twoPlayers(env);
  // Nobody has moved: nothing to take back.
  assert.ok(await button(a, 'Propose takeback').isDisabled(), 'no move of White to take back');
  await move(a, 'e2', 'e4');
  await waitMoves(b, 1);
  await move(b, 'e7', 'e5');
  await waitMoves(a, 2);
  await move(a, 'g1', 'f3');
  await waitMoves(b, 3);

  // White asks on Black's turn (its own Nf3); Black declines.
  await button(a, 'Propose takeback').click();
  await text(a, 'Takeback proposed.').waitFor();
  await button(a, 'Propose takeback').and(a.locator(':disabled')).waitFor();
  await text(b, 'Opponent proposes a takeback.').waitFor();
  assert.ok(await button(b, 'Propose takeback').isDisabled(), 'one request at a time');
  assert.ok(await text(a, 'Opponent proposes a takeback.').isHidden(), 'the proposer is not asked');
  await shot(b, 'takeback-offered-phone');
  // A reload shows the request still standing (the server's state has it).
  await b.reload();
  await waitMoves(b, 3);
  await text(b, 'Opponent proposes a takeback.').waitFor();
  await button(b, 'Decline takeback').tap();
  await text(a, 'Your takeback request was declined.').waitFor();
  await text(b, 'Takeback declined.').waitFor();
  assert.ok(await text(a, 'Takeback proposed.').isHidden(), 'the request no longer stands');
  assert.ok(await text(b, 'Opponent proposes a takeback.').isHidden());
  assert.ok(await button(b, 'Accept takeback').isHidden());
  await button(a, 'Propose takeback').and(a.locator(':enabled')).waitFor();
  await waitMoves(a, 3);
  await waitMoves(b, 3);
  await shot(a, 'takeback-declined-desktop');

  // Black asks on its own turn: its e5 and White's Nf3 go; White accepts.
  await button(b, 'Propose takeback').tap();
  await text(b, 'Takeback proposed.').waitFor();
  await text(a, 'Opponent proposes a takeback.').waitFor();
  assert.ok(await text(a, 'Your takeback request was declined.').isHidden(), 'the old decline is no longer news');
  await button(a, 'Accept takeback').click();
  for (const page of [a, b]) {
    await waitMoves(page, 1);
    await waitStatus(page, /^Black to move/);
    await text(page, 'Takeback accepted: the moves were taken back.').waitFor();
    // The board is back: Black's pawn home, White's knight home, e4 kept.
    for (const [sq, what] of [['e7', /^e7, black pawn/i], ['e5', /^e5, empty/], ['g1', /^g1, white knight/i], ['f3', /^f3, empty/], ['e4', /^e4, white pawn/i]]) {
      await waitLabel(page, sq, what);
    }
  }
  assert.ok(await text(b, 'Takeback proposed.').isHidden());
  assert.ok(await button(a, 'Accept takeback').isHidden());
  // Black has no move left to take back; White's e4 may still go.
  assert.ok(await button(b, 'Propose takeback').isDisabled());
  assert.ok(await button(a, 'Propose takeback').isEnabled());
  await shot(b, 'takeback-accepted-phone');
  await shot(a, 'takeback-accepted-desktop');

  // The game goes on from there; the notice goes with the next move.
  await move(b, 'c7', 'c5');
  await waitMoves(a, 2);
  await waitStatus(a, /^White to move/);
  for (const page of [a, b]) assert.ok(await text(page, 'Takeback accepted: the moves were taken back.').isHidden());
  await close();
});
