// Move objects, the `Move` type of index.d.ts:
// { uci, san, kind, color, from, to, role, capture, promotion, released, rescued }.
// hostage-wasm's Rust side (src/convert.rs, `MoveObjects`) packs each move
// into STRIDE bytes and hands them over with the moves' SAN in one string;
// this module makes the objects, their keys and string values taken from
// the tables below. Setting eleven keys from Rust cost a crossing of the
// module boundary and a string conversion for each key and each value.
// wasm-bindgen imports it from the glue of the rules and engine modules;
// build.sh puts it beside them, as web/moves.js and, with its last line
// made `module.exports = { ... };`, as node/moves.cjs.

// The bytes of a move, in order: kind (KINDS), colour (COLORS), from
// (SQUARES, 64 for a drop or an exchange), to, role (ROLES; an exchange's
// rescued man), capture, promotion, released (ROLES, 0 for none).
const STRIDE = 8;
// By `MoveKind as u8`, `Color as u8`, `Role as u8` (from 1), `Square::index`
// in hostage-core; src/convert.rs tests that the tables agree.
const KINDS = ['normal', 'en_passant', 'castle', 'drop', 'exchange'];
const COLORS = ['w', 'b'];
const ROLES = [null, 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const LETTERS = ' pnbrqk';
const UPPER = ' PNBRQK';
const SQUARES = [];
for (const rank of '12345678') for (const file of 'abcdefgh') SQUARES.push(file + rank);
SQUARES.push(null);

// The move packed at `packed[at..at + STRIDE]`, whose SAN is `san`. Its
// long form as hostage-core writes it: e2e4, e7e8q, N@c7, N#B@c7.
function make(packed, at, san) {
  const from = SQUARES[packed[at + 2]];
  const to = SQUARES[packed[at + 3]];
  const role = packed[at + 4];
  const promotion = packed[at + 6];
  const released = packed[at + 7];
  let uci;
  if (from !== null) uci = promotion ? from + to + LETTERS[promotion] : from + to;
  else if (released) uci = UPPER[role] + '#' + UPPER[released] + '@' + to;
  else uci = UPPER[role] + '@' + to;
  return {
    uci,
    san,
    kind: KINDS[packed[at]],
    color: COLORS[packed[at + 1]],
    from,
    to,
    role: ROLES[role],
    capture: ROLES[packed[at + 5]],
    promotion: ROLES[promotion],
    released: ROLES[released],
    rescued: released ? ROLES[role] : null,
  };
}

/** The move objects of `packed` (STRIDE bytes a move), their SAN in `sans`
 * separated by spaces. */
function moveObjects(packed, sans) {
  const san = sans.split(' ');
  const out = [];
  for (let at = 0, i = 0; at < packed.length; at += STRIDE, i++) out.push(make(packed, at, san[i]));
  return out;
}

/** The move object of the one move in `packed`, whose SAN is `san`. */
function moveObject(packed, san) {
  return make(packed, 0, san);
}

export { moveObjects, moveObject };
