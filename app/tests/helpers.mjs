// Shared by the app's browser tests: a tiny static server for app/ (node's
// http module), Debian's Chromium through playwright-core, screenshots.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { after, afterEach, before } from 'node:test';
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

/**
 * Starts `BIN serve ARGS` (stdout piped) and resolves `{ child, base }` once
 * it prints `listening on URL`; rejects when it exits first or stays silent
 * for 20 s.
 */
export function startHostageServe(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['serve', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`hostage serve did not start: ${out}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1].replace(/\/$/, '') });
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`hostage serve exited (${code}): ${out}`)); });
  });
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
 * on that route of the app: `{ context, page, errors }`. After each test the
 * console errors and page errors of every page it opened are checked: any
 * one fails the test (failOnPageErrors), so no test asserts them by hand.
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
  failOnPageErrors();
  return {
    get base() { return server.base; },
    /** `requests`: an array that receives the URL of every request of the context, from the first. */
    async open(route, viewport = DESKTOP, extra = {}, { requests } = {}) {
      const context = await browser.newContext({ viewport, ...extra });
      if (requests) context.on('request', (r) => requests.push(r.url()));
      const errors = [];
      const page = await openPage(context, `${server.base}/#/${route}`, errors);
      return { context, page, errors };
    },
  };
}

/** The two sizes every item is tested at: [label, viewport, context options]. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const PHONE_CONTEXT = { isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const SIZES = [['desktop', DESKTOP, {}], ['phone', PHONE, PHONE_CONTEXT]];

// The pages opened by the running test: their error arrays, and the errors
// each may expect (regexps, each with its reason in the test that allows it).
let watched = [];

/**
 * Registers an afterEach hook that fails the test on any console error or
 * page error recorded by openPage() during it, except those matching the
 * `allow` regexps given to openPage for that page.
 */
export function failOnPageErrors() {
  afterEach(() => {
    const pages = watched;
    watched = [];
    const bad = pages.flatMap(({ url, errors, allow }) => errors
      .filter((e) => !allow.some((re) => re.test(e)))
      .map((e) => `${new URL(url).pathname}${new URL(url).search}${new URL(url).hash}: ${e}`));
    if (bad.length) throw new Error(`console or page errors in the app (none is allowed):\n  ${bad.join('\n  ')}`);
  });
}

/**
 * A page that records console errors and page errors into `errors`; they
 * fail the running test (see failOnPageErrors) unless they match `allow`.
 */
export async function openPage(context, url, errors = [], { allow = [] } = {}) {
  const page = await context.newPage();
  watched.push({ url, errors, allow });
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

/**
 * A full-page screenshot into target/app/<name>.png, once the page has
 * settled: no animation running (a man sliding, a dialog fading) and two
 * frames drawn after that.
 */
export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    null, { timeout: 5_000 }).catch(() => {});
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The board of the page (or of `scope`, a locator), found by its role and name. */
export const boardOf = (scope) => scope.getByRole('grid', { name: /^Board/ });

/** A square of the board by its accessible name, e.g. "e2, White pawn": `sq` is "e2". */
export const squareOf = (scope, sq) => boardOf(scope).getByRole('gridcell', { name: new RegExp(`^${sq},`) });

/** A reserve by its visible name: reserveOf(page, 'White', 'prison'). */
export const reserveOf = (scope, owner, kind) => scope.getByRole('region', { name: new RegExp(`^${owner}'s ${kind}`) });

/**
 * A man in a reserve, a button named like "Black pawn in White's prison" (or
 * "Black pawn (2) in White's prison"): manIn(page, 'Black', 'pawn', 'White', 'prison').
 */
export const manIn = (scope, color, role, owner, kind) => reserveOf(scope, owner, kind)
  .getByRole('button', { name: new RegExp(`^${color} ${role}( \\(\\d+\\))? in ${owner}'s ${kind}$`) });

/**
 * The position as a player sees it: every square's name ("e4, White pawn"),
 * in board order from a1 (marks such as "legal destination" dropped), and
 * every reserve man's ("Black pawn (2) in White's prison").
 */
export async function seenPosition(scope) {
  const squares = await boardOf(scope).getByRole('gridcell').evaluateAll((els) => els
    .map((e) => e.getAttribute('aria-label').split(', ').slice(0, 2).join(', ')).sort());
  const men = [];
  for (const owner of ['White', 'Black']) {
    for (const kind of ['prison', 'airfield']) {
      men.push(...await reserveOf(scope, owner, kind).getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label'))));
    }
  }
  return { squares, men };
}

/** Play's "New game" form, filled by its labels; Start pressed. */
export async function startGame(page, { opponent, level, color, clock, turn } = {}) {
  const form = page.getByRole('form', { name: 'New game' });
  await form.getByLabel(opponent).check();
  if (level) await form.getByLabel('Bot level').selectOption({ label: level });
  if (color) await form.getByLabel(color, { exact: true }).check();
  if (clock) await form.getByLabel('Clock').selectOption({ label: clock });
  if (turn) await form.getByLabel('Turn the board after each move').check();
  await form.getByRole('button', { name: 'Start' }).click();
}

/** Play's game card (region "Game"): its status line, its notices (alert), its buttons. */
export const gameCard = (page) => page.getByRole('region', { name: 'Game', exact: true });

/** Click-click a move on the board of `scope` (the page, or a locator of one mode). */
export async function move(scope, from, to) {
  await squareOf(scope, from).click();
  await squareOf(scope, to).click();
}

/** Drags with real pointer events from one locator's centre to another's. */
export async function drag(page, from, to) {
  const a = await from.first().boundingBox();
  const b = await to.first().boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
}

/**
 * Drags with a finger (CDP touch events, so the page gets pointer events of
 * type "touch") from one locator's centre to another's: for phone contexts
 * (hasTouch).
 */
export async function touchDrag(page, from, to) {
  const a = await from.first().boundingBox();
  const b = await to.first().boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const at = (x, y) => [{ x: Math.round(x), y: Math.round(y) }];
  const [x0, y0, x1, y1] = [a.x + a.width / 2, a.y + a.height / 2, b.x + b.width / 2, b.y + b.height / 2];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(x0, y0) });
  for (let i = 1; i <= 10; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x0 + ((x1 - x0) * i) / 10, y0 + ((y1 - y0) * i) / 10) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** The move list ("Move list") of the page or of `scope`, a locator. */
export const moveListOf = (scope) => scope.getByRole('list', { name: 'Move list' });

/** The SAN moves shown in the move list of the page or of `scope`. */
export function listedMoves(scope) {
  return moveListOf(scope).getByRole('button').allTextContents();
}

/** Waits until the move list of the page (or of `scope`) shows `n` moves. */
export async function waitMoves(scope, n, timeout = 30_000) {
  const buttons = moveListOf(scope).getByRole('button');
  const t0 = Date.now();
  for (;;) {
    const k = await buttons.count();
    if (k === n) return;
    if (Date.now() - t0 > timeout) throw new Error(`the move list shows ${k} moves, not ${n}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
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
