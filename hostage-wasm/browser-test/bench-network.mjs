// Nodes a second of the full-strength search in Chromium: with and without
// the network, with and without WebAssembly SIMD. A benchmark, not a test
// (node --test does not pick it up): it prints figures and checks only that
// the SIMD build searches exactly as the other (same nodes, same moves).
//
//   HOSTAGE_WASM_SIMD_BENCH=1 hostage-wasm/build.sh   (the package's engine
//   is built with SIMD; this adds one without it, outside the package)
//   node hostage-wasm/browser-test/bench-network.mjs [nodes per search] [rounds]
//
// All four variants run in ONE page load, interleaved round by round (the
// order rotated each round), so that a machine shared with other work
// slows them alike: compare the figures with each other, not with another
// run's. The positions are those of the Rust bench
// (hostage-engine/examples/bench.rs); each search is a fresh engine with a
// node budget, on the page's main thread.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = resolve(HERE, '..');
const NOSIMD = join(ROOT, 'target', 'wasm', 'simd-bench');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const NODES = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 3);

for (const f of [join(HERE, 'pkg', 'web', 'hostage_engine.js'), join(NOSIMD, 'hostage_engine_nosimd.js')]) {
  if (!existsSync(f)) throw new Error(`no ${f}: run HOSTAGE_WASM_SIMD_BENCH=1 hostage-wasm/build.sh`);
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>bench</title>
<script type="module">
import initPlain, * as plain from '/nosimd/hostage_engine_nosimd.js';
import initSimd, * as simd from '/pkg/web/hostage_engine.js';
import { fetchNetwork } from '/pkg/web/network.js';
await initPlain({ module_or_path: '/nosimd/hostage_engine_nosimd_bg.wasm' });
await initSimd({ module_or_path: '/pkg/web/hostage_engine_bg.wasm' });
const network = await fetchNetwork('/pkg/web/nnue.bin');
const POSITIONS = ${JSON.stringify([
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1',
  'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3',
  'r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12',
  '4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40',
  'r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7',
])};
const VARIANTS = {
  'hand, no SIMD': [plain, false],
  'hand, SIMD': [simd, false],
  'network, no SIMD': [plain, true],
  'network, SIMD': [simd, true],
};
window.bench = (nodes, rounds) => {
  const names = Object.keys(VARIANTS);
  const out = Object.fromEntries(names.map((n) => [n, { nodes: 0, ms: 0, rounds: [], results: [] }]));
  for (let r = 0; r < rounds; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length]);
    for (const name of order) {
      const [m, withNetwork] = VARIANTS[name];
      let n = 0, ms = 0;
      const results = [];
      for (const fen of POSITIONS) {
        const engine = new m.Engine(withNetwork ? { network } : undefined);
        if (engine.usesNetwork !== withNetwork) throw new Error(name + ': usesNetwork');
        const t = performance.now();
        const a = engine.analyse(fen, { nodes });
        ms += performance.now() - t;
        n += a.nodes;
        results.push(a.nodes + ' ' + a.depth + ' ' + (a.bestMove ? a.bestMove.uci : '-'));
        engine.free();
      }
      out[name].nodes += n;
      out[name].ms += ms;
      out[name].rounds.push(Math.round(n / ms));
      out[name].results = results;
    }
  }
  return out;
};
window.ready = true;
</script>`;

const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
  let file = null;
  if (path === '/') file = 'page';
  else if (path.startsWith('/pkg/')) file = join(HERE, path);
  else if (path.startsWith('/nosimd/')) file = join(NOSIMD, path.slice('/nosimd/'.length));
  if (file === 'page') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  } else if (file && existsSync(file)) {
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  } else {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 120_000 });
  const out = await page.evaluate(([n, r]) => window.bench(n, r), [NODES, ROUNDS]);
  console.log(`Chromium ${browser.version()}, ${NODES} nodes a search, 5 positions, ${ROUNDS} rounds, one page load`);
  console.log('| variant | nodes a second (all rounds) | each round |');
  console.log('| --- | --- | --- |');
  for (const [name, v] of Object.entries(out)) {
    console.log(`| ${name} | ${Math.round((v.nodes / v.ms) * 1000).toLocaleString('en')} | ${v.rounds.map((k) => `${k * 1000}`).join(', ')} |`);
  }
  for (const evalName of ['hand', 'network']) {
    const a = out[`${evalName}, no SIMD`].results;
    const b = out[`${evalName}, SIMD`].results;
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      console.error(`${evalName}: the SIMD build searched differently`, a, b);
      process.exitCode = 1;
    } else {
      console.log(`${evalName}: the SIMD build searched the same nodes and moves (${a.join('; ')})`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
