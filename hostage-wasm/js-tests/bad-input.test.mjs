// tests/vectors/bad-input.txt (format in tests/README.md): every hostile
// input throws a real Error whose `code` is the documented one, never a
// trap (WebAssembly.RuntimeError) and never a string; a failed push leaves
// the board unchanged. Mirrors hostage-core/tests/bad_input.rs:
//   fen → new Board(fen)   san → pushSan   uci → pushUci   pgn → Board.fromPgn
// Then a seeded random test throws junk at every parsing entry point.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { badInputCases, caught as caughtError, hostage, rng, unescape } from './helpers.mjs';

const { Board, Setup, isHostageError, isValidFen } = hostage;

/** The error `fn` throws, checked to be a hostage Error (not a trap). */
function caught(fn) {
  const e = caughtError(fn);
  if (e !== null) {
    assert.ok(isHostageError(e), `no code: ${e}`);
    assert.equal(typeof e.message, 'string');
  }
  return e;
}

const FEN_CODES = new Set([
  'invalid_fen', 'invalid_board', 'invalid_reserves', 'invalid_turn', 'invalid_castling_field',
  'invalid_ep_field', 'invalid_halfmove_clock', 'invalid_fullmoves',
]);

/** The `name` each code is thrown with (docs/javascript.md, "Errors"). */
function errorName(kind, code) {
  if (kind === 'fen') return FEN_CODES.has(code) ? 'FenError' : 'PositionError';
  if (kind === 'pgn') return 'PgnError';
  if (code.startsWith('invalid_')) return 'InvalidMoveError';
  if (code.startsWith('illegal_')) return 'IllegalMoveError';
  return 'AmbiguousMoveError';
}

function run({ kind, position, input }) {
  switch (kind) {
    case 'fen':
      return () => new Board(input);
    case 'san':
    case 'uci': {
      const board = position === '-' ? new Board() : new Board(position);
      const before = [board.fen(), board.ply(), board.hash()];
      const push = kind === 'san' ? () => board.pushSan(input) : () => board.pushUci(input);
      return { push, board, before };
    }
    case 'pgn':
      return () => Board.fromPgn(input);
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

const CASES = badInputCases();

test('the corpus is large and has every kind', () => {
  assert.ok(CASES.length >= 150, `only ${CASES.length} cases`);
  assert.deepEqual(new Set(CASES.map((c) => c.kind)), new Set(['fen', 'san', 'uci', 'pgn']));
});

test('unescape forms', () => {
  assert.equal(unescape(String.raw`a\x00b\\\n\t`), 'a\0b\\\n\t');
  assert.equal(unescape(String.raw`\u{2013}\u{1f600}`), '\u2013\u{1f600}');
  assert.equal(unescape(String.raw`x{repeat:3:a\x7c}y`), 'xa|a|a|y');
  assert.equal(unescape('{repeat:0:a}'), '');
  for (const bad of [String.raw`\q`, String.raw`\x80`, String.raw`\x+1`]) {
    assert.throws(() => unescape(bad));
  }
});

for (const c of CASES) {
  test(`bad-input.txt line ${c.line}: ${c.kind} → ${c.expected}`, () => {
    const r = run(c);
    const fn = typeof r === 'function' ? r : r.push;
    const e = caught(fn);
    if (c.expected === 'ok') {
      assert.equal(e, null, `expected ok, got ${e?.code}: ${e?.message}`);
      if (c.kind === 'fen') assert.ok(isValidFen(c.input));
      return;
    }
    assert.ok(e !== null, `expected ${c.expected}, nothing thrown`);
    assert.equal(e.code, c.expected, `${e.name}: ${e.message}`);
    assert.equal(e.name, errorName(c.kind, c.expected));
    if (c.kind === 'fen') assert.equal(isValidFen(c.input), false);
    if (typeof r !== 'function') {
      assert.deepEqual([r.board.fen(), r.board.ply(), r.board.hash()], r.before);
      // isLegal reads SAN or long form (leniently), so only: a boolean, no throw.
      assert.equal(typeof r.board.isLegal(c.input), 'boolean');
    }
  });
}

// ---- random junk -----------------------------------------------------------

/** A random string: bytes, FEN/SAN/PGN fragments, non-ASCII and lone surrogates. */
function junk(next) {
  const PIECES = [
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR', '[', ']', '#', ' w ', ' b ', 'KQkq', ' - ',
    '0', '1', '/', '8', 'e4', 'Nf3', '(Q-P)', '*', '@', 'x', '=Q', '+', 'O-O', '1.', '{', '}',
    '(', ')', '[Event "', '"]', '\n', '\0', 'é', '\u{1f600}', '\ud800', '$', ';', '%',
  ];
  let s = '';
  const n = Math.floor(next() * 40);
  for (let i = 0; i < n; i++) {
    s += next() < 0.5
      ? PIECES[Math.floor(next() * PIECES.length)]
      : String.fromCharCode(Math.floor(next() * (next() < 0.9 ? 128 : 0x10000)));
  }
  return s;
}

test('random junk into every parsing entry point: only Errors with a code', () => {
  const next = rng(0x5eed);
  const positions = [
    new Board(),
    new Board('rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3'),
    new Board('4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40'),
  ];
  let thrown = 0;
  for (let i = 0; i < 3000; i++) {
    const text = junk(next);
    const board = positions[i % positions.length];
    const before = [board.fen(), board.ply()];
    const calls = [
      () => new Board(text),
      () => isValidFen(text),
      () => Board.fromPgn(text),
      () => board.pieceAt(text),
      () => board.isLegal(text),
      () => board.svg({ lastMove: text, arrows: [{ from: text, to: 'e4', color: text }] }),
      () => board.svg({ marks: [{ square: 'e4', color: text }] }),
      () => new Setup(text),
      () => board.attackers(text),
      () => board.isAttacked(text, 'w'),
      () => board.pinLine(text),
      () => board.lan(text),
      () => board.givesCheck(text),
      () => board.variationSan([text]),
      () => board.setup().put({ color: 'w', role: 'queen' }, text),
    ];
    for (const push of ['push', 'pushSan', 'pushUci']) {
      calls.push(() => {
        board[push](text);
        board.pop(); // a move that happens to be legal: back to where we were
      });
    }
    for (const call of calls) {
      if (caught(call) !== null) thrown++;
    }
    assert.deepEqual([board.fen(), board.ply()], before, JSON.stringify(text));
  }
  assert.ok(thrown > 10000, `only ${thrown} errors: is the junk too tame?`);
  // Every board still works.
  for (const board of positions) assert.ok(board.legalMoves().length > 0);
});
