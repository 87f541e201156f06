// Random games played through the JavaScript API, compared with the core's
// command-line tool (hostage-cli): the same FEN after the same moves, and the
// same legal moves (SAN and long form) along the way.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { cliPath, hostage, rng } from './helpers.mjs';

const { Board } = hostage;
const cli = cliPath();
const GAMES = 24;
const PLIES = 90;

function cliRun(args) {
  return execFileSync(cli, args, { encoding: 'utf8' });
}

test('random games agree with hostage-cli', { skip: cli ? false : 'hostage-cli not built (cargo build -p hostage-cli)' }, () => {
  let plies = 0;
  let exchanges = 0;
  let drops = 0;
  for (let g = 0; g < GAMES; g++) {
    const random = rng(1000 + g);
    const board = new Board();
    const ucis = [];
    for (let ply = 0; ply < PLIES && !board.isGameOver(); ply++) {
      const moves = board.legalMoves();
      if (ply % 15 === 7) {
        const theirs = cliRun(['moves', '--fen', board.fen()]).trim().split('\n').filter(Boolean).sort();
        const ours = moves.map((m) => `${m.san}\t${m.uci}`).sort();
        assert.deepEqual(ours, theirs, `legal moves at ${board.fen()}`);
      }
      // Prefer captures, drops and exchanges so the hostage rules get used.
      const special = moves.filter((m) => m.capture || m.kind === 'drop' || m.kind === 'exchange');
      const pool = special.length && random() < 0.6 ? special : moves;
      const m = pool[Math.floor(random() * pool.length)];
      if (m.kind === 'exchange') exchanges++;
      if (m.kind === 'drop') drops++;
      assert.equal(board.push(m).uci, m.uci);
      ucis.push(m.uci);
      plies++;
    }
    const theirs = cliRun(['fen', '--moves', ucis.join(' ')]).trim().split('\n').pop();
    assert.equal(board.fen(), theirs, `game ${g}: ${ucis.join(' ')}`);
    // Undo everything: back to the start.
    while (board.pop()) { /* undo */ }
    assert.equal(board.fen(), new Board().fen());
  }
  assert.ok(exchanges > 10 && drops > 5, `exercised ${exchanges} exchanges, ${drops} drops in ${plies} plies`);
});
