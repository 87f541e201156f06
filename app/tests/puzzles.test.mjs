// Puzzles mode in Chromium against a static server, at desktop 1280x800 and
// phone 390x844: the task in words, the puzzle's rating hidden until it is
// over; the opponent's lead-in move played first (animated, heard, listed,
// the board going from the position before it to the puzzle's); one puzzle
// solved through the board (its solution read from the
// package's Puzzles in the page, each move made by clicks on the squares and
// reserve men by their names: moves, drops, exchanges, the promotion
// picker), the rating going up, the themes in words, the streak; another
// failed with a legal move the package does not accept, the rating going
// down, Retry, Hint; the solution shown; a reload keeping the rating and the
// chart; the difficulty and a theme choosing the package's puzzle. Any
// console error fails the test (helpers.mjs). Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SIZES, boardOf, listedMoves, manIn, moveListOf, seenPosition, shot, smallTargets, squareOf, useApp, waitMoves } from './helpers.mjs';

const app = useApp();
const COLOR = { w: 'White', b: 'Black' };

/** The card of the puzzle (region named by its heading "Puzzle <id>…"). */
const card = (page) => page.getByRole('region', { name: /^Puzzle / });
const heading = (page) => page.getByRole('heading', { name: /^Puzzle / });
const status = (page) => card(page).getByRole('status');
/** The id shown in the heading, "Puzzle <id>" or "Puzzle <id> · rated 1234". */
const shownId = async (page) => (await heading(page).textContent()).match(/^Puzzle (\S+)/)?.[1] ?? '';
/** The player's rating as shown ("1500", "1650?" while it is uncertain). */
const rating = async (page) => parseInt(await page.getByText('Your puzzle rating', { exact: true }).locator('..').getByRole('strong').textContent(), 10);

async function fresh(viewport, extra) {
  const { context, page } = await app.open('puzzles', viewport, extra);
  await heading(page).filter({ hasText: /^Puzzle \S/ }).waitFor();
  return { context, page };
}

/** The puzzle on the page, from the package in the page (same module instance). */
async function puzzleOf(page) {
  return page.evaluate(async (id) => {
    const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
    return Puzzles.get(id);
  }, await shownId(page));
}

/** The legal move object for long-form `uci` after `before` moves from `fen`. */
function moveObject(page, fen, before, uci) {
  return page.evaluate(async ([fen, before, uci]) => {
    const { Board } = await import('/vendor/hostage-chess/index.js');
    const b = new Board(fen);
    for (const m of before) b.push(m);
    const turn = b.turn();
    const m = b.push(uci);
    return { ...m, turn };
  }, [fen, before, uci]);
}

/** Whether square `sq` shows a man of `color` ("e4, White pawn"). */
async function holds(page, sq, color) {
  return (await squareOf(page, sq).getAttribute('aria-label')).startsWith(`${sq}, ${color} `);
}

/**
 * The lead-in of the puzzle on the page: played by itself, listed as the
 * only move, animated and heard; the move list's "First position" shows the
 * position before it, "Last move" the puzzle's. Returns the move.
 */
async function checkLeadIn(page, p) {
  assert.ok(p.leadIn && p.leadInFen, `${p.id} has its lead-in move`);
  const lead = await moveObject(page, p.leadInFen, [], p.leadIn);
  await waitMoves(page, 1);
  assert.deepEqual(await listedMoves(page), [lead.san]);
  const mover = COLOR[lead.turn];
  const solver = COLOR[lead.turn === 'w' ? 'b' : 'w'];
  await status(page).filter({ hasText: `${mover} played ${lead.san}. ${solver} to play and win.` }).waitFor();
  assert.equal(await boardOf(page).getAttribute('data-animated'), `${lead.from ?? 'reserve'}-${lead.to}`);
  assert.ok(await page.locator('body').getAttribute('data-last-sound'), 'the lead-in is heard');
  const after = await seenPosition(page);
  assert.ok(await holds(page, lead.to, mover), `${lead.to} after ${lead.san}`);
  const moves = page.getByRole('toolbar', { name: 'Move navigation' });
  await moves.getByRole('button', { name: 'First position' }).click();
  const before = await seenPosition(page);
  assert.notDeepEqual(before, after, 'the board opened on the position before the lead-in');
  assert.ok(!(await holds(page, lead.to, mover)), `${lead.to} before ${lead.san}`);
  if (lead.from) assert.ok(await holds(page, lead.from, mover), `${lead.from} before ${lead.san}`);
  await moves.getByRole('button', { name: 'Last move' }).click();
  assert.deepEqual(await seenPosition(page), after);
  return lead;
}

/** Makes a move through the UI, as a player would: clicks on what is named so. */
async function play(page, m) {
  const me = COLOR[m.turn];
  const them = COLOR[m.turn === 'w' ? 'b' : 'w'];
  if (m.kind === 'drop') {
    await manIn(page, me, m.role, me, 'airfield').click();
  } else if (m.kind === 'exchange') {
    await manIn(page, them, m.released, me, 'prison').click();
    await manIn(page, me, m.rescued, them, 'prison').click();
  } else {
    await squareOf(page, m.from).click();
  }
  await squareOf(page, m.to).click();
  const picker = page.getByRole('dialog');
  if (await picker.count()) await picker.getByRole('button', { name: new RegExp(`^${m.promotion ?? m.released}: `) }).click();
}

for (const [label, viewport, extra] of SIZES) {
  test(`puzzles (${label}): solve one (rating up), fail one (rating down), retry, hint, reload keeps it, solution shown`, { timeout: 120_000 }, async () => {
    const { context, page } = await fresh(viewport, extra);
    const start = await rating(page);
    assert.equal(start, 1500, 'a new player is rated 1500');
    // 0. The lead-in: the opponent's move that led to the puzzle comes first.
    const p = await puzzleOf(page);
    const lead = await checkLeadIn(page, p);
    assert.match(await status(page).textContent(), /to play and win/);
    assert.ok(await card(page).getByRole('button', { name: 'Next puzzle' }).isDisabled(), 'no skipping an unfinished puzzle');
    // The task in plain words; the puzzle's rating hidden until it is over.
    assert.ok(await card(page).getByText(/^(Mate in \d|Win material|Find the winning move): (White|Black) to play\.$/).isVisible());
    assert.doesNotMatch(await heading(page).textContent(), /rated/);

    // 1. Solve: every solver move through the board; the replies come by themselves.
    for (let i = 0; i < p.moves.length; i += 2) {
      await play(page, await moveObject(page, p.fen, p.moves.slice(0, i), p.moves[i]));
      if (i + 1 < p.moves.length) await waitMoves(page, 1 + i + 2);
    }
    assert.equal((await listedMoves(page))[0], lead.san, 'the lead-in stays first in the list');
    await status(page).filter({ hasText: /solved/ }).waitFor();
    const solved = await rating(page);
    assert.ok(solved > start, `rating went up: ${start} -> ${solved}`);
    assert.match(await card(page).getByText(/^[+−]\d+$/).textContent(), /^\+\d+$/);
    const words = await page.evaluate(async (themes) => {
      const { THEME_WORDS } = await import('/src/puzzles.js');
      return themes.length ? themes.map((t) => THEME_WORDS[t] ?? t) : ['none'];
    }, p.themes);
    for (const w of words) assert.match(w, /^[A-Z][a-z]+( [a-z0-9]+)*( or more)?$|^none$/, `theme in words: ${w}`);
    assert.equal(await card(page).getByText(/^Themes: /).textContent(), `Themes: ${words.join('')}`);
    assert.match(await heading(page).textContent(), /rated \d+/);
    assert.match(await card(page).getByText(/^Streak: /).textContent(), /Streak: 1 solved in a row/);
    await shot(page, `puzzles-solved-${label}`);

    // 2. Fail: a legal move the package does not accept.
    await card(page).getByRole('button', { name: 'Next puzzle' }).click();
    await heading(page).filter({ hasNotText: p.id }).waitFor();
    const q = await puzzleOf(page);
    assert.notEqual(q.id, p.id);
    const qLead = await checkLeadIn(page, q);
    const wrong = await page.evaluate(async (q) => {
      const { Board } = await import('/vendor/hostage-chess/index.js');
      const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
      const b = new Board(q.fen);
      const ms = b.legalMoves().filter((m) => !Puzzles.accepts(q.id, 0, m.uci));
      const m = ms.find((x) => x.kind === 'normal' && !x.promotion) ?? ms[0];
      return { ...m, turn: b.turn() };
    }, q);
    await play(page, wrong);
    await status(page).filter({ hasText: /not it/ }).waitFor();
    const failed = await rating(page);
    assert.ok(failed < solved, `rating went down: ${solved} -> ${failed}`);
    assert.match(await card(page).getByText(/^[+−]\d+$/).textContent(), /^−\d+$/);
    // No more moves after a failure: a man of the solver offers no square.
    const mine = await page.evaluate(async ([q, wrong]) => {
      const { Board } = await import('/vendor/hostage-chess/index.js');
      return new Board(q.fen).legalMoves().find((m) => m.kind === 'normal' && ![wrong.from, wrong.to].includes(m.from)).from;
    }, [q, wrong]);
    await squareOf(page, mine).click();
    assert.equal(await boardOf(page).getByRole('gridcell', { name: /, legal destination/ }).count(), 0, 'no more moves after a failure');
    assert.match(await card(page).getByText(/^Streak: /).textContent(), /Streak: 0 solved in a row · best 1/);
    await shot(page, `puzzles-failed-${label}`);

    // Retry takes the wrong move back (the lead-in stays); the rating does not move again.
    await card(page).getByRole('button', { name: 'Retry' }).click();
    await waitMoves(page, 1);
    assert.deepEqual(await listedMoves(page), [qLead.san]);
    // A hint marks the man to move (or names the drop or exchange).
    await card(page).getByRole('button', { name: 'Hint' }).click();
    const first = await moveObject(page, q.fen, [], q.moves[0]);
    const hint = first.from ? `Hint: move the man on ${first.from}.`
      : first.kind === 'drop' ? `Hint: drop a ${first.role} from your airfield.` : `Hint: an exchange: rescue your ${first.rescued}.`;
    assert.equal(await status(page).textContent(), hint);
    assert.equal(await rating(page), failed);

    // 3. The solution: from the start, stepped to its end; no second rating change.
    await card(page).getByRole('button', { name: 'Show solution' }).click();
    assert.match(await status(page).textContent(), /^Solution: /);
    const solutionSan = await page.evaluate(async (q) => {
      const { Board } = await import('/vendor/hostage-chess/index.js');
      const b = new Board(q.fen);
      for (const m of q.moves) b.push(m);
      return b.history();
    }, q);
    assert.equal(await status(page).textContent(), `Solution: ${solutionSan.join(' ')}`, 'the solution starts after the lead-in');
    await waitMoves(page, 1 + q.moves.length);
    await moveListOf(page).getByRole('button').last().and(page.locator('[aria-current]')).waitFor({ timeout: 30_000 });
    assert.equal(await rating(page), failed);
    await shot(page, `puzzles-solution-${label}`);

    // 4. A reload keeps the rating and the ids seen; the history is a chart.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await heading(page).filter({ hasText: /^Puzzle \S/ }).waitFor();
    assert.equal(await rating(page), failed);
    assert.ok(await page.getByText(/^2 of \d+ puzzles tried/).isVisible());
    assert.ok(await page.getByRole('img', { name: /^Rating history: from 1500 to \d+ over 2 puzzles$/ }).isVisible());
    const third = await shownId(page);
    assert.ok(![p.id, q.id].includes(third), 'a seen puzzle is not served again');
    await context.close();
  });

  test(`puzzles (${label}): difficulty and theme choice`, { timeout: 90_000 }, async () => {
    const { context, page } = await fresh(viewport, extra);
    const difficulty = page.getByRole('combobox', { name: 'Difficulty' });
    const options = await difficulty.getByRole('option').allTextContents();
    assert.deepEqual(options, ['Easiest (−600)', 'Easier (−300)', 'Normal', 'Harder (+300)', 'Hardest (+600)']);
    // The served puzzle follows the package's choice for the selected difficulty.
    await difficulty.selectOption({ label: 'Hardest (+600)' });
    await card(page).getByRole('button', { name: 'Show solution' }).click();
    await card(page).getByRole('button', { name: 'Next puzzle' }).click();
    const expected = await page.evaluate(async () => {
      const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
      const s = JSON.parse(localStorage.getItem('hostage.puzzles.v1'));
      const normal = Puzzles.next(s.rating.rating, { difficulty: 'normal', seen: s.seen, seed: s.seen.length }).id;
      return { hardest: Puzzles.next(s.rating.rating, { difficulty: 'hardest', seen: s.seen, seed: s.seen.length }).id, normal };
    });
    await heading(page).filter({ hasText: new RegExp(`^Puzzle ${expected.hardest}\\b`) }).waitFor();
    assert.notEqual(expected.hardest, expected.normal, 'the difficulty changes the puzzle served');
    // A theme chosen by its name in words: the next puzzle has that theme.
    await card(page).getByRole('button', { name: 'Show solution' }).click();
    await page.getByLabel('Theme').selectOption({ label: 'Mate by a drop' });
    await card(page).getByRole('button', { name: 'Next puzzle' }).click();
    await heading(page).filter({ hasNotText: expected.hardest }).waitFor();
    const served = await puzzleOf(page);
    assert.ok(served.themes.includes('dropMate'), `${served.id}: ${served.themes}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `page is ${width}px wide`);
    if (label === 'phone') assert.deepEqual(await smallTargets(page, '#mode-puzzles'), [], 'tap targets of at least 44 px');
    await shot(page, `puzzles-theme-${label}`);
    await context.close();
  });
}
