// Shared by the browser tests: a static server for www/ and
// pkg/ (node's http module) and Debian's Chromium through playwright-core,
// started before the tests of a file and stopped after them.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json' };

/**
 * Registers the hooks that serve the demo page and launch Chromium; the
 * returned object's `base` (the server's URL) and `browser` are set once
 * the tests run.
 */
export function useDemo() {
  const ctx = { base: '', browser: null };
  let server;
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
    ctx.base = `http://127.0.0.1:${server.address().port}`;
    ctx.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  after(async () => {
    await ctx.browser?.close();
    server?.close();
  });
  return ctx;
}
