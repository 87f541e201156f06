// Analyse, Learn and Puzzles as a lichess player expects them
// at desktop 1280x800 and phone 390x844: the engine's lines, arrow
// and evaluation bar never outlive their position (stepping to another one
// clears them at once, a finished position shows its result on the bar), a
// drop as the best move is marked on its square; and every move played in
// Analyse, Learn and Puzzles is heard (move sounds) and said to screen
// readers, as in Play. Found by roles and visible labels; no console error.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shot, useApp } from './helpers.mjs';

const app = useApp();
const SIZES = [['desktop', { width: 1280, height: 800 }, {}], ['phone', { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }]];

const cellIn = (page, mode, sq) => page.locator(`#mode-${mode}`).getByRole('grid', { name: /^Board/ }).getByRole('gridcell', { name: new RegExp(`^${sq},`) });

/** Starts recording every sound the page plays (body[data-last-sound] is set on each). */
function recordSounds(page) {
  return page.evaluate(() => {
    window.heardSounds = [];
    new MutationObserver(() => window.heardSounds.push(document.body.dataset.lastSound))
      .observe(document.body, { attributes: true, attributeFilter: ['data-last-sound'] });
  });
}
const heard = (page) => page.evaluate(() => window.heardSounds);

/**
 * Samples Analyse's engine output every 40 ms for `ms`: each sample is the
 * first line's text and the best-move arrow's start square (or null).
 */
function sampleEngine(page, ms) {
  return page.evaluate((ms) => new Promise((ok) => {
    const out = [];
    const t0 = performance.now();
    const tick = () => {
      const li = document.querySelector('#mode-analyse .engine-lines li .pv');
      const arrow = document.querySelector('#mode-analyse .shapes .arrow.auto');
      out.push({ line: li?.textContent ?? null, from: arrow?.dataset.from ?? null });
      if (performance.now() - t0 < ms) setTimeout(tick, 40); else ok(out);
    };
    tick();
  }), ms);
}

for (const [label, viewport, extra] of SIZES) {
  test(`analyse (${label}): stale lines, arrow and bar cleared on another position; a mate on the bar; moves heard`, { timeout: 120_000 }, async () => {
    const { context, page, errors } = await app.open('analyse', viewport, extra);
    await recordSounds(page);
    await page.getByLabel('Engine analysis').check();
    const analyse = page.locator('#mode-analyse');
    // Let it search the start position deeply (each depth takes longer).
    await page.waitForFunction(() => Number(document.querySelector('#mode-analyse').dataset.engineDepth) >= 6, null, { timeout: 60_000 });
    await cellIn(page, 'analyse', 'f2').click();
    await cellIn(page, 'analyse', 'f3').click();
    // From the move on, nothing of the start position's analysis is shown:
    // every line is Black's (1...), every arrow starts on a black man.
    for (const s of await sampleEngine(page, 1500)) {
      if (s.line !== null) assert.match(s.line, /^1\.\.\. /, `a stale line: ${s.line}`);
      if (s.from !== null) assert.match(s.from, /[5-8]$/, `a stale arrow from ${s.from}`);
    }
    assert.deepEqual(await heard(page), ['move']);
    assert.match(await page.textContent('#announce'), /^White: pawn f2 to f3 \(f3\)/);

    // Stepping back: the lines are White's again.
    await page.waitForFunction(() => Number(document.querySelector('#mode-analyse').dataset.engineDepth) >= 5, null, { timeout: 60_000 });
    await page.getByRole('button', { name: 'Previous move' }).click();
    for (const s of await sampleEngine(page, 800)) {
      if (s.line !== null) assert.match(s.line, /^1\. /, `a stale line: ${s.line}`);
      if (s.from !== null) assert.match(s.from, /[1-4]$/, `a stale arrow from ${s.from}`);
    }
    await page.getByRole('button', { name: 'Next move' }).click();
    for (const [from, to] of [['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]) {
      await cellIn(page, 'analyse', from).click();
      await cellIn(page, 'analyse', to).click();
    }
    // Mate: the bar shows the result, not the last search's score; no lines, no arrow.
    const bar = page.getByRole('meter', { name: 'Evaluation' });
    await page.waitForFunction(() => document.querySelector('#mode-analyse .eval-bar').getAttribute('aria-valuetext') === '0-1');
    assert.equal(await bar.getAttribute('aria-valuenow'), '0');
    assert.equal(await analyse.locator('.engine-lines li').count(), 0);
    assert.equal(await analyse.locator('.shapes .auto').count(), 0);
    assert.match(await analyse.getByRole('status').first().textContent(), /Black wins by checkmate/);
    assert.deepEqual(await heard(page), ['move', 'move', 'move', 'end']);
    await shot(page, `analyse-mate-bar-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`analyse (${label}): a drop as the best move is marked on its square`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await app.open('analyse', viewport, extra);
    // A knight in White's airfield: N*f7 is a smothered mate.
    await page.getByLabel('Paste a Hostage FEN or a PGN').fill('6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1');
    await page.getByRole('button', { name: 'Load' }).click();
    await page.getByLabel('Engine analysis').check();
    const analyse = page.locator('#mode-analyse');
    await analyse.getByText(/best N\*f7#/).waitFor({ timeout: 30_000 });
    const ring = analyse.locator('.shapes circle.auto');
    assert.equal(await ring.getAttribute('data-at'), 'f7');
    assert.equal(await ring.getAttribute('data-kind'), 'drop');
    assert.equal(await analyse.locator('.shapes .arrow.auto').count(), 0);
    await shot(page, `analyse-drop-best-${label}`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`learn (${label}): moves heard and announced`, { timeout: 60_000 }, async () => {
    const { context, page, errors } = await app.open('learn', viewport, extra);
    await page.getByRole('combobox', { name: /^Lesson/ }).selectOption({ index: 1 });
    await recordSounds(page);
    await cellIn(page, 'learn', 'a2').click();
    await cellIn(page, 'learn', 'a3').click();
    assert.match(await page.textContent('#announce'), /^White: pawn a2 to a3 \(a3\)/);
    await page.getByRole('button', { name: 'Try again' }).click();
    await cellIn(page, 'learn', 'c3').click();
    await cellIn(page, 'learn', 'd5').click();
    assert.match(await page.textContent('#announce'), /^White: knight c3 takes the queen on d5/);
    assert.deepEqual(await heard(page), ['move', 'capture']);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`puzzles (${label}): your move and the reply heard and announced`, { timeout: 90_000 }, async () => {
    const { context, page, errors } = await app.open('puzzles', viewport, extra);
    const z = page.locator('#mode-puzzles');
    await page.waitForSelector('#mode-puzzles[data-puzzle]:not([data-puzzle=""])');
    // The first move of the solution (from the package in the page), played by clicks.
    const m = await page.evaluate(async (id) => {
      const { Puzzles } = await import('/vendor/hostage-chess/puzzles.js');
      const { Board } = await import('/vendor/hostage-chess/index.js');
      const p = Puzzles.get(id);
      const b = new Board(p.fen);
      const turn = b.turn();
      const mv = b.push(p.moves[0]);
      b.free();
      return { ...mv, turn, replies: p.moves.length > 1, lead: p.leadIn ? 1 : 0 };
    }, await z.getAttribute('data-puzzle'));
    // The opponent's lead-in move is played first (listed first); only
    // then is it the solver's turn, and only our move and the reply are
    // to be heard.
    if (m.lead) await page.waitForFunction(() => document.querySelectorAll('#mode-puzzles .moves .mv').length === 1);
    await recordSounds(page);
    const who = m.turn === 'w' ? 'White' : 'Black';
    const them = m.turn === 'w' ? 'Black' : 'White';
    if (m.kind === 'drop') {
      await z.getByRole('region', { name: new RegExp(`^${who}'s airfield`) }).getByRole('button', { name: new RegExp(`^${who} ${m.role}`) }).click();
    } else if (m.kind === 'exchange') {
      await z.getByRole('region', { name: new RegExp(`^${who}'s prison`) }).getByRole('button', { name: new RegExp(`^${them} ${m.released}`) }).click();
      await z.getByRole('region', { name: new RegExp(`^${them}'s prison`) }).getByRole('button', { name: new RegExp(`^${who} ${m.rescued}`) }).click();
    } else {
      await cellIn(page, 'puzzles', m.from).click();
    }
    await cellIn(page, 'puzzles', m.to).click();
    if (await z.getByRole('dialog').isVisible().catch(() => false)) await z.getByRole('dialog').getByRole('button').first().click();
    assert.match(await page.textContent('#announce'), new RegExp(`^${who}.*\\(${m.san.replace(/[()*+#]/g, '\\$&')}\\)`));
    if (m.replies) {
      await page.waitForFunction((n) => document.querySelectorAll('#mode-puzzles .moves .mv').length === n, m.lead + 2);
      assert.match(await page.textContent('#announce'), new RegExp(`^${them}`));
      assert.equal((await heard(page)).length, 2, 'the reply is heard too');
    } else {
      assert.equal((await heard(page)).length, 1);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
