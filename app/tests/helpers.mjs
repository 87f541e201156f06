// Shared by the app's browser tests: a tiny static server for app/ (node's
// http module), Debian's Chromium through playwright-core, screenshots.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

export const APP = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = resolve(APP, '..');
export const SHOTS = process.env.HOSTAGE_APP_SHOTS ?? join(ROOT, 'target', 'app');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
};

// playwright-core is a devDependency of hostage-wasm (installed by scripts/test-app).
const require = createRequire(join(ROOT, 'hostage-wasm', 'package.json'));
const { chromium } = require('playwright-core');

/** Serves app/ on a free port: { base, close() }. */
export async function serveApp() {
  const server = createServer((req, res) => {
    let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path.endsWith('/')) path += 'index.html';
    const file = join(APP, path);
    if (!file.startsWith(APP) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { base: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Registers the hooks that serve app/ and launch Chromium for a test file;
 * the returned `open(route, viewport, extra)` makes a fresh browser context
 * on that route of the app: `{ context, page, errors }`.
 */
export function useApp() {
  let server;
  let browser;
  before(async () => {
    server = await serveApp();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  return {
    /** `requests`: an array that receives the URL of every request of the context, from the first. */
    async open(route, viewport = { width: 1280, height: 800 }, extra = {}, { requests } = {}) {
      const context = await browser.newContext({ viewport, ...extra });
      if (requests) context.on('request', (r) => requests.push(r.url()));
      const errors = [];
      const page = await openPage(context, `${server.base}/#/${route}`, errors);
      return { context, page, errors };
    },
  };
}

/** A page that records console errors and page errors into `errors`. */
export async function openPage(context, url, errors) {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  try {
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  } catch (e) {
    throw new Error(`the app did not start: ${errors.join('; ') || e.message}`);
  }
  return page;
}

export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Click-click a move on the board. */
export async function move(page, from, to, scope = '') {
  await page.click(`${scope} [data-square="${from}"]`);
  await page.click(`${scope} [data-square="${to}"]`);
}

/** Drags with real pointer events from one element's centre to another's. */
export async function drag(page, fromSel, toSel) {
  const a = await page.locator(fromSel).first().boundingBox();
  const b = await page.locator(toSel).first().boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** The SAN moves shown in a mode's move list. */
export function listedMoves(page, scope) {
  return page.$$eval(`${scope} .moves .mv`, (els) => els.map((e) => e.textContent));
}

/**
 * The visible tap targets under `scope` (and in the top bar) smaller than
 * 44x44 px, as "TAG "name" WxH" lines: [] on a well-made phone page.
 */
export function smallTargets(page, scope) {
  return page.evaluate((scope) => {
    const out = [];
    const sel = ['button', 'select', 'a[href]', 'summary', 'input:not([type=radio]):not([type=checkbox])',
      'label:has(> input[type=radio])', 'label:has(> input[type=checkbox])'];
    const targets = [...document.querySelectorAll(sel.map((s) => `${scope} ${s}`).join(', ')),
      ...document.querySelectorAll('.topbar a, .topbar button')];
    for (const el of targets) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || el.closest('[hidden]') || el.closest('.visually-hidden')) continue;
      if (r.width < 43.5 || r.height < 43.5) out.push(`${el.tagName} "${(el.getAttribute('aria-label') ?? el.textContent).trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    return out;
  }, scope);
}
