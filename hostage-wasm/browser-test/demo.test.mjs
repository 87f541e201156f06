// The demo page (www/) in a real browser: Debian's Chromium driven by
// playwright-core. Plays a short game with a capture, an exchange, a drop
// and a drag through clicks, and checks the FEN and move list the page shows.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { useDemo } from './helpers.mjs';

const SHOT = process.env.HOSTAGE_SCREENSHOT ?? join(tmpdir(), 'hostage-demo.png');

const demo = useDemo();

test('demo page: capture, exchange, drop, drag, FEN box', { timeout: 120_000 }, async () => {
  const page = await demo.browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${demo.base}/www/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });

  const sq = (s) => page.click(`[data-square="${s}"]`);
  const move = async (from, to) => { await sq(from); await sq(to); };
  await move('e2', 'e4');
  await move('d7', 'd5');
  await move('e4', 'd5'); // capture: a black pawn into White's prison
  await move('d8', 'd5'); // capture: a white pawn into Black's prison
  assert.match(await page.textContent('#status'), /White to move/);

  // Exchange: release the black pawn from White's prison, rescue the white
  // pawn from Black's prison, drop it on e3.
  await page.click('#prison-w .man[data-role="pawn"]');
  await page.click('#prison-b .man[data-role="pawn"]');
  assert.ok(await page.$('[data-square="e3"].dest'), 'e3 is offered for the exchange');
  await sq('e3');
  // Black drops the released pawn from its airfield.
  await page.click('#airfield-b .man[data-role="pawn"]');
  await sq('e5');
  // White develops by dragging.
  await page.dragAndDrop('[data-square="g1"] .piece', '[data-square="f3"]');

  const moves = (await page.$$eval('#moves li', (lis) => lis.map((li) => li.textContent.trim().replace(/\s+/g, ' '))));
  assert.deepEqual(moves, ['e4 d5', 'exd5 Qxd5', '(P-P)*e3 *e5', 'Nf3']);
  const fen = await page.inputValue('#fen');
  assert.equal(fen, 'rnb1kbnr/ppp1pppp/8/3qp3/8/4PN2/PPPP1PPP/RNBQKB1R[] b KQkq - 1 4');
  assert.equal(await page.getAttribute('body', 'data-fen'), fen);
  assert.equal(await page.$$eval('#airfield-b .man', (m) => m.length), 0);

  // Two more captures so that both prisons hold men, then the screenshot.
  await move('d5', 'a2');
  await move('a1', 'a2');
  assert.deepEqual(await page.$$eval('#prison-w .man', (m) => m.map((e) => e.dataset.role)), ['queen']);
  assert.deepEqual(await page.$$eval('#prison-b .man', (m) => m.map((e) => e.dataset.role)), ['pawn']);
  assert.equal(await page.$$eval('#moves li', (l) => l.length), 5);
  await page.click('#prison-b .man[data-role="pawn"]'); // Black: release a pawn...
  await page.screenshot({ path: SHOT, fullPage: true });
  console.log(`screenshot: ${SHOT}`);
  await page.keyboard.press('Escape');

  // Load a FEN with a check by the FEN box, then a bad FEN.
  await page.fill('#fen', 'k7/8/8/8/8/8/8/r6K[] w - - 0 1');
  await page.click('#load');
  assert.match(await page.textContent('#status'), /check/);
  assert.ok(await page.$('[data-square="h1"].check'));
  await page.fill('#fen', 'junk');
  await page.click('#load');
  assert.match(await page.textContent('#error'), /FenError \(invalid_board\)/);

  assert.deepEqual(errors, []);
});

test('board.svg() in the browser: DOMParser reads it, an <img> renders it', { timeout: 60_000 }, async () => {
  const page = await demo.browser.newPage();
  await page.goto(`${demo.base}/www/index.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const got = await page.evaluate(async () => {
    const { Board } = await import('/pkg/web/index.js');
    const board = new Board();
    board.pushSan('e4');
    const svg = board.svg({ lastMove: true, arrows: [{ from: 'e7', to: 'e5', color: 'red' }], marks: [{ square: 'd4', color: 'blue' }] });
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const img = new Image();
    img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const colors = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      desc: doc.querySelector('desc')?.textContent,
      width: img.naturalWidth,
      height: img.naturalHeight,
      colors: colors.size,
      fen: board.fen(),
    };
  });
  assert.equal(got.error, null);
  assert.equal(got.root, 'svg');
  assert.equal(got.desc, got.fen);
  assert.ok(got.width >= 300 && got.height > got.width, `${got.width}x${got.height}`);
  assert.ok(got.colors > 20, `only ${got.colors} colours: blank?`);
  await page.close();
});

// Against the bot: the engine runs in a Web Worker (hostage-chess/worker).
const waitForBot = (page) => page.waitForFunction(() => !window.hostageDemo.thinking(), null, { timeout: 30_000 });
const historyOnPage = (page) => page.$$eval('#moves li span', (s) => s.map((e) => e.textContent).filter((t) => t && t !== '…'));

test('demo page: the bot answers with legal moves, with either colour, and the page stays responsive', { timeout: 120_000 }, async () => {
  const page = await demo.browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${demo.base}/www/index.html?seed=7`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const levels = await page.$$eval('#opponent option', (o) => o.map((e) => e.value));
  assert.deepEqual(levels, ['human', 'novice', 'beginner', 'casual', 'intermediate', 'club']);

  await page.selectOption('#opponent', 'casual');
  await page.click('[data-square="e2"]');
  await page.click('[data-square="e4"]');
  await waitForBot(page);
  const first = await historyOnPage(page);
  assert.equal(first.length, 2, `moves: ${first}`);
  // The reply is legal after 1. e4, judged by a fresh Board of the package.
  assert.ok(await page.evaluate(async (san) => {
    const { Board } = await import('/pkg/web/index.js');
    const b = new Board();
    b.pushSan('e4');
    return b.isLegal(san);
  }, first[1]), `reply ${first[1]}`);

  // Club thinks longer: meanwhile the status says so, the main thread
  // answers at once, and clicks on the board change nothing.
  await page.selectOption('#opponent', 'club');
  const fenBefore = await page.evaluate(() => {
    const d = window.hostageDemo;
    d.move(d.legalMoves()[0]);
    return d.fen();
  });
  assert.ok(await page.evaluate(() => window.hostageDemo.thinking()), 'the bot is thinking');
  assert.match(await page.textContent('#status'), /thinking…/);
  const frame = await page.evaluate(() => new Promise((ok) => {
    const t = performance.now();
    requestAnimationFrame(() => ok(performance.now() - t));
  }));
  assert.ok(frame < 500, `a frame took ${frame} ms while the bot thought`);
  await page.click('[data-square="a2"]');
  await page.click('[data-square="a3"]');
  assert.equal(await page.evaluate(() => window.hostageDemo.fen()), fenBefore);
  await waitForBot(page);
  const after = await historyOnPage(page);
  assert.equal(after.length, 4, `moves: ${after}`);
  assert.doesNotMatch(await page.textContent('#status'), /thinking/);

  // Black for the human: a new game, the bot (White) moves first, the board turns.
  await page.selectOption('#opponent', 'beginner');
  await page.selectOption('#color', 'b');
  await page.click('#reset');
  await waitForBot(page);
  const opening = await historyOnPage(page);
  assert.equal(opening.length, 1, `moves: ${opening}`);
  assert.ok(await page.evaluate(async (san) => new (await import('/pkg/web/index.js')).Board().isLegal(san), opening[0]));
  assert.ok(await page.$('#board.flipped'));
  assert.match(await page.textContent('#status'), /Black to move/);
  // Undo goes back to the human's last turn: here the start, where the bot
  // (White) moves again, the same move for the same seed and ply.
  await page.click('#undo');
  await waitForBot(page);
  assert.deepEqual(await historyOnPage(page), opening);
  assert.deepEqual(errors, []);
  await page.close();
});

test('demo page: a game against Novice played to its end', { timeout: 120_000 }, async () => {
  const page = await demo.browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${demo.base}/www/index.html?seed=11`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  await page.selectOption('#opponent', 'novice');
  await page.click('#reset');
  // The human side (White) plays seeded random legal moves through the
  // page; the Novice answers in its worker.
  const end = await page.evaluate(async (cap) => {
    let a = 20240611;
    const rng = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), a | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const d = window.hostageDemo;
    const idle = () => new Promise((ok) => { const tick = () => (d.thinking() ? setTimeout(tick, 2) : ok()); tick(); });
    for (;;) {
      await idle();
      const status = document.querySelector('#status').textContent;
      if (/Checkmate|Draw/.test(status) || d.ply() >= cap) return { status, ply: d.ply() };
      const moves = d.legalMoves();
      d.move(moves[Math.floor(rng() * moves.length)]);
    }
  }, 400);
  assert.match(end.status, /Checkmate|Draw/, `no result after ${end.ply} plies: ${end.status}`);
  // The page's verdict, checked by replaying its move list on a fresh Board.
  const moves = await historyOnPage(page);
  assert.equal(moves.length, end.ply);
  const outcome = await page.evaluate(async (sans) => {
    const { Board } = await import('/pkg/web/index.js');
    const b = new Board();
    for (const s of sans) b.pushSan(s);
    return b.outcome();
  }, moves);
  assert.ok(outcome, 'the replayed game is over');
  if (outcome.termination === 'checkmate') {
    assert.equal(end.status, `Checkmate — ${outcome.winner === 'w' ? 'White' : 'Black'} wins`);
  } else {
    assert.equal(end.status, `Draw (${outcome.termination.replace(/_/g, ' ')})`);
  }
  const shot = SHOT.replace(/(\.png)?$/, '-bot.png');
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`game against Novice: ${end.status} after ${end.ply} plies; screenshot: ${shot}`);
  assert.deepEqual(errors, []);
  await page.close();
});
