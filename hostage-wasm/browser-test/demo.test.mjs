// The demo page (www/) in a real browser: Debian's Chromium driven by
// playwright-core. Plays a short game with a capture, an exchange, a drop
// and a drag through clicks, and checks the FEN and move list the page shows.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SHOT = process.env.HOSTAGE_SCREENSHOT ?? join(tmpdir(), 'hostage-demo.png');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

let server;
let browser;
let base;

before(async () => {
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(HERE, path);
    if (!file.startsWith(HERE) || !existsSync(file) || !/^\/(www|pkg)\//.test(path)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('demo page: capture, exchange, drop, drag, FEN box', { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${base}/www/index.html`);
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
  const page = await browser.newPage();
  await page.goto(`${base}/www/index.html`);
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
