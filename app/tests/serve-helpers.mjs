// The setup shared by the app's tests that play through `hostage serve`
// (lobby, online room, takebacks, names and chat): the binary probed once
// (every test of a file SKIPPED, loudly, without it), one server on a free
// port with its database in a scratch folder, one Chromium, all stopped
// after the file; and the two players of an online game.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';

import {
  APP, DESKTOP, PHONE, PHONE_CONTEXT, ROOT, gameCard, launch, openPage, startHostageServe, startGame,
} from './helpers.mjs';

/** The `hostage` binary the tests run (HOSTAGE_BIN, default target/release/hostage). */
export const BIN = process.env.HOSTAGE_BIN ?? join(ROOT, 'target', 'release', 'hostage');

/**
 * Registers the hooks of a test file that needs `hostage serve`: before the
 * file, a scratch folder `hostage-app-NAME-*`, the server
 * (`--port 0 --db DIR/games.db --static app/` and `args`) and Chromium;
 * after it, all three gone. `requires` lists the options `serve --help` must
 * name. Returns `{ SKIP, env }`: SKIP is false or the reason every test of
 * the file is skipped (also printed to stderr); `env.server` (`{ child,
 * base }`) and `env.browser` are set once the file's `before` has run.
 */
export function useHostageServe({ name, what, args = [], requires = [] }) {
  const probe = spawnSync(BIN, ['serve', '--help'], { encoding: 'utf8' });
  const ok = probe.status === 0 && requires.every((option) => probe.stdout.includes(option));
  const needs = requires.length ? `serve ${requires.join(' ')}` : 'serve';
  const SKIP = ok ? false : `${BIN} has no \`${needs}\` (or is missing): ${what} tests SKIPPED`;
  if (SKIP) {
    const bar = '!'.repeat(78);
    process.stderr.write(`\n${bar}\n!!!! ${SKIP}\n!!!! (build hostage-cli with the server, or set HOSTAGE_BIN)\n${bar}\n\n`);
  }

  const env = { server: null, browser: null, dir: null };
  before(async () => {
    if (SKIP) return;
    env.dir = mkdtempSync(join(tmpdir(), `hostage-app-${name}-`));
    env.server = await startHostageServe(BIN,
      ['--host', '127.0.0.1', '--port', '0', '--db', join(env.dir, 'games.db'), '--static', APP, ...args]);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    const child = env.server?.child;
    if (child && child.exitCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    if (env.dir) rmSync(env.dir, { recursive: true, force: true });
  });
  return { SKIP, env };
}

/** The game's status line (whose turn, the result, offers). */
export const gameStatus = (page) => gameCard(page).getByRole('status');

/** Waits until the game's status line matches `re`. */
export const waitStatus = (page, re) => gameStatus(page).filter({ hasText: re }).waitFor({ timeout: 30_000 });

/**
 * White (desktop) creates a game against a friend online (with `clock`, a
 * label of the Clock list, when given), Black (phone) opens its link; both
 * see White to move. Returns both pages and contexts, the game's link, and
 * `close()` for the two contexts.
 */
export async function twoPlayers(env, clock = null) {
  const white = await env.browser.newContext({ viewport: DESKTOP });
  const black = await env.browser.newContext({ viewport: PHONE, ...PHONE_CONTEXT });
  const a = await openPage(white, `${env.server.base}/#/play`);
  await startGame(a, { opponent: 'A friend online', color: 'White', ...(clock ? { clock } : {}) });
  const url = await gameLink(a);
  const b = await openPage(black, url);
  await waitStatus(b, /^White to move/);
  await waitStatus(a, /^White to move/);
  return { a, b, white, black, url, close: async () => { await white.close(); await black.close(); } };
}

/** The link of the game `page` has just created, once the server has given it. */
export async function gameLink(page) {
  const link = page.getByRole('textbox', { name: 'Game link' });
  await page.waitForFunction((el) => /[?&]game=/.test(el.value), await link.elementHandle(), { timeout: 20_000 });
  return link.inputValue();
}
