// Puzzles mode in Chromium against a static server: one puzzle solved through
// the board (its solution read from the package's Puzzles in the page, each
// move made by clicks: moves, drops, exchanges, the promotion picker), the
// rating going up; another failed, the rating going down; a reload keeping
// the rating; the solution shown. Screenshots in target/app/.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shot, useApp } from './helpers.mjs';

const app = useApp();

const Z = '#mode-puzzles';

async function fresh(viewport, extra) {
  const { context, page, errors } = await app.open('puzzles', viewport, extra);
  await page.waitForSelector(`${Z}[data-puzzle]:not([data-puzzle=""])`);
  return { context, page, errors };
}

const rating = async (page) => Number(await page.getAttribute(Z, 'data-rating'));

/** The puzzle on the page, from the package in the page (same module instance). */
async function puzzleOf(page) {
  return page.evaluate(async (id) => {
    const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
    return Puzzles.get(id);
  }, await page.getAttribute(Z, 'data-puzzle'));
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

/** Makes a move through the UI, as a player would: clicks only. */
async function play(page, m) {
  const them = m.turn === 'w' ? 'b' : 'w';
  if (m.kind === 'drop') {
    await page.click(`${Z} #airfield-${m.turn} .man[data-role="${m.role}"]`);
  } else if (m.kind === 'exchange') {
    await page.click(`${Z} #prison-${m.turn} .man[data-role="${m.released}"]`);
    await page.click(`${Z} #prison-${them} .man[data-role="${m.rescued}"]`);
  } else {
    await page.click(`${Z} [data-square="${m.from}"]`);
  }
  await page.click(`${Z} [data-square="${m.to}"]`);
  if (await page.isVisible(`${Z} .picker`)) {
    await page.click(`${Z} .picker .choice[data-role="${m.promotion ?? m.released}"]`);
  }
}

test('puzzles: solve one (rating up), fail one (rating down), reload keeps it, solution shown', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await fresh();
  const start = await rating(page);
  assert.equal(Math.round(start), 1500, 'a new player is rated 1500');
  assert.match(await page.textContent(`${Z} .puzzle-status`), /to play and win/);
  assert.ok(await page.isDisabled(`${Z} [data-act="next"]`), 'no skipping an unfinished puzzle');

  // 1. Solve: every solver move through the board; the replies come by themselves.
  const p = await puzzleOf(page);
  for (let i = 0; i < p.moves.length; i += 2) {
    await page.waitForSelector(`${Z} .table.interactive`);
    await play(page, await moveObject(page, p.fen, p.moves.slice(0, i), p.moves[i]));
    if (i + 1 < p.moves.length) {
      await page.waitForFunction(([z, n]) => document.querySelectorAll(`${z} .moves .mv`).length === n, [Z, i + 2]);
    }
  }
  assert.equal(await page.getAttribute(Z, 'data-result'), 'solved');
  assert.match(await page.textContent(`${Z} .puzzle-status`), /solved/);
  const solved = await rating(page);
  assert.ok(solved > start, `rating went up: ${start} -> ${solved}`);
  assert.match(await page.textContent(`${Z} .delta`), /^\+\d+$/);
  const themes = await page.$$eval(`${Z} .puzzle-themes .theme`, (els) => els.map((e) => e.textContent));
  assert.deepEqual(themes, p.themes.length ? p.themes : ['none']);
  assert.ok(await page.isVisible(`${Z} .puzzle-themes`));
  await shot(page, 'puzzle-solved');

  // 2. Fail: a legal move the package does not accept.
  await page.click(`${Z} [data-act="next"]`);
  await page.waitForFunction(([z, id]) => document.querySelector(z).dataset.puzzle !== id, [Z, p.id]);
  const q = await puzzleOf(page);
  assert.notEqual(q.id, p.id);
  const wrong = await page.evaluate(async (q) => {
    const { Board } = await import('/vendor/hostage-chess/index.js');
    const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
    const b = new Board(q.fen);
    const ms = b.legalMoves().filter((m) => !Puzzles.accepts(q.id, 0, m.uci));
    const m = ms.find((x) => x.kind === 'normal' && !x.promotion) ?? ms[0];
    return { ...m, turn: b.turn() };
  }, q);
  await page.waitForSelector(`${Z} .table.interactive`);
  await play(page, wrong);
  assert.equal(await page.getAttribute(Z, 'data-result'), 'failed');
  assert.match(await page.textContent(`${Z} .puzzle-status`), /not it/);
  const failed = await rating(page);
  assert.ok(failed < solved, `rating went down: ${solved} -> ${failed}`);
  assert.match(await page.textContent(`${Z} .delta`), /^−\d+$/);
  assert.ok(!(await page.$(`${Z} .table.interactive`)), 'no more moves after a failure');

  // 3. The solution: from the start, stepped to its end; no second rating change.
  await page.click(`${Z} [data-act="solution"]`);
  assert.match(await page.textContent(`${Z} .puzzle-status`), /^Solution: /);
  const sanCount = q.moves.length;
  await page.waitForFunction(([z, n]) => {
    const cur = document.querySelector(`${z} .moves .mv[aria-current]`);
    return document.querySelectorAll(`${z} .moves .mv`).length === n && cur === [...document.querySelectorAll(`${z} .moves .mv`)].at(-1);
  }, [Z, sanCount], { timeout: 30_000 });
  assert.equal(await rating(page), failed);
  await shot(page, 'puzzle-solution');

  // 4. A reload keeps the rating and the ids seen.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await page.waitForSelector(`${Z}[data-puzzle]:not([data-puzzle=""])`);
  assert.equal(await rating(page), failed);
  assert.match(await page.textContent(`${Z} .puzzle-count`), /^2 of \d+ puzzles tried/);
  const third = await page.getAttribute(Z, 'data-puzzle');
  assert.ok(![p.id, q.id].includes(third), 'a seen puzzle is not served again');
  assert.deepEqual(errors, []);
  await context.close();
});

test('puzzles: difficulty choice and the phone layout', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await fresh({ width: 360, height: 740 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const options = await page.$$eval(`${Z} .difficulty option`, (os) => os.map((o) => o.value));
  assert.deepEqual(options, ['easiest', 'easier', 'normal', 'harder', 'hardest']);
  // The served puzzle follows the package's choice for the selected difficulty.
  await page.selectOption(`${Z} .difficulty`, 'hardest');
  await page.click(`${Z} [data-act="solution"]`);
  await page.click(`${Z} [data-act="next"]`);
  const expected = await page.evaluate(async () => {
    const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
    const s = JSON.parse(localStorage.getItem('hostage.puzzles.v1'));
    const normal = Puzzles.next(s.rating.rating, { difficulty: 'normal', seen: s.seen, seed: s.seen.length }).id;
    return { hardest: Puzzles.next(s.rating.rating, { difficulty: 'hardest', seen: s.seen, seed: s.seen.length }).id, normal };
  });
  assert.equal(await page.getAttribute(Z, 'data-puzzle'), expected.hardest);
  assert.notEqual(expected.hardest, expected.normal, 'the difficulty changes the puzzle served');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `page is ${width}px wide`);
  await shot(page, 'phone-puzzle');
  assert.deepEqual(errors, []);
  await context.close();
});
