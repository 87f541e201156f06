// Shared helpers of the node:test suites: where the built package, the
// shared vectors and the core CLI are.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '..', '..');
/** The built package (hostage-wasm/pkg, or $HOSTAGE_PKG). */
export const PKG = resolve(process.env.HOSTAGE_PKG ?? join(here, '..', 'pkg'));
export const VECTORS = join(ROOT, 'tests', 'vectors');

if (!existsSync(join(PKG, 'package.json'))) {
  throw new Error(`no built package at ${PKG}: run hostage-wasm/build.sh first`);
}

const require = createRequire(import.meta.url);
/** The rules (`hostage-chess`) as Node's ESM entry gives them. */
export const hostage = await import(join(PKG, 'node', 'index.mjs'));
/** The rules as require() gives them. */
export const hostageCjs = require(join(PKG, 'node', 'hostage.cjs'));
/** `hostage-chess/engine`: ESM and CommonJS. */
export const engine = await import(join(PKG, 'node', 'engine.mjs'));
export const engineCjs = require(join(PKG, 'node', 'hostage_engine.cjs'));
/** `hostage-chess/puzzles`: ESM and CommonJS. */
export const puzzles = await import(join(PKG, 'node', 'puzzles.mjs'));
export const puzzlesCjs = require(join(PKG, 'node', 'hostage_puzzles.cjs'));

/** `tests/vectors/*.perft` as [{ file, id, epd, perft: [[depth, count]] }]. */
export function perftVectors() {
  const out = [];
  for (const file of readdirSync(VECTORS).filter((f) => f.endsWith('.perft')).sort()) {
    let cur = null;
    for (const raw of readFileSync(join(VECTORS, file), 'utf8').split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const [key, ...rest] = line.split(/\s+/);
      if (key === 'id') out.push((cur = { file, id: rest.join(' '), epd: null, perft: [] }));
      else if (key === 'epd') {
        if (!cur || cur.epd) out.push((cur = { file, id: `${file}:${out.length}`, epd: null, perft: [] }));
        cur.epd = rest.join(' ');
      } else if (key === 'perft') cur.perft.push([Number(rest[0]), Number(rest[1])]);
    }
  }
  return out;
}

/** Lines of a `|`-separated vector file (comments and blanks dropped), or null if absent. */
export function tableVectors(name) {
  const path = join(VECTORS, name);
  if (!existsSync(path)) return null;
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l, i) => ({ line: i + 1, raw: l }))
    .filter((l) => l.raw.trim() && !l.raw.trim().startsWith('#'))
    .map((l) => ({ line: l.line, raw: l.raw.split('|'), fields: l.raw.split('|').map((f) => f.trim()) }));
}

/** `tests/vectors/bad-input.txt` as [{ line, kind, position, input, expected }], `input` unescaped. */
export function badInputCases() {
  return tableVectors('bad-input.txt').map(({ line, fields }) => {
    assert.equal(fields.length, 4, `bad-input.txt line ${line}: expected 4 fields`);
    const [kind, position, input, expected] = fields;
    return { line, kind, position, input: unescape(input), expected };
  });
}

/** The error `fn` throws, checked to be a real Error (never a trap or a string), or null. */
export function caught(fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `trapped: ${e}`);
    return e;
  }
  return null;
}

/** The core CLI binary: $HOSTAGE_CLI, else target/{release,debug}/hostage, else null. */
export function cliPath() {
  if (process.env.HOSTAGE_CLI) return process.env.HOSTAGE_CLI;
  for (const p of ['release', 'debug'].map((d) => join(ROOT, 'target', d, 'hostage'))) {
    if (existsSync(p)) return p;
  }
  return null;
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ESC = /\{repeat:(\d+):([^}]*)\}|\\x([0-7][0-9a-fA-F])|\\u\{([0-9a-fA-F]{1,6})\}|\\([\\nt])|\\/g;

/** Expands `{repeat:N:text}` and the escapes `\\ \n \t \xHH \u{H..}` of the vector files. */
export function unescape(s) {
  return s.replace(ESC, (m, count, text, x, u, c) => {
    if (count !== undefined) return unescape(text).repeat(Number(count));
    if (x !== undefined) return String.fromCharCode(parseInt(x, 16));
    if (u !== undefined) return String.fromCodePoint(parseInt(u, 16));
    if (c !== undefined) return { '\\': '\\', n: '\n', t: '\t' }[c];
    throw new Error(`bad escape in ${JSON.stringify(s)}`);
  });
}
