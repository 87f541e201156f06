// The ```js examples of the READMEs and of docs/javascript.md run as
// written, importing the package by its name `hostage-chess`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { PKG, ROOT } from './helpers.mjs';

function jsBlocks(file) {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^```(?:js|javascript)\n([\s\S]*?)^```/gm)].map((m) => m[1]);
}

// The repository README, the JS guide and the npm package's README.
const SOURCES = ['README.md', join('docs', 'javascript.md'), join('hostage-wasm', 'README.md')];

for (const name of SOURCES) {
  const blocks = jsBlocks(join(ROOT, name));
  test(`JS examples of ${name} run`, () => {
    assert.ok(blocks.length > 0, 'no ```js block found');
    const dir = mkdtempSync(join(tmpdir(), 'hostage-readme-'));
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(PKG, join(dir, 'node_modules', 'hostage-chess'), 'dir');
      blocks.forEach((code, i) => {
        const cjs = /\brequire\(/.test(code);
        const file = join(dir, `example${i}.${cjs ? 'cjs' : 'mjs'}`);
        writeFileSync(file, code);
        execFileSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
