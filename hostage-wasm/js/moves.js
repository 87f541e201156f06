// Move objects, the `Move` type of index.d.ts:
// { uci, san, kind, color, from, to, role, capture, promotion, released, rescued }.
// hostage-wasm's Rust side (src/convert.rs, `MoveObjects`) packs each move
// into STRIDE bytes and hands them over with the moves' long form and SAN,
// as hostage-core writes them, in one string; this module makes the
// objects, their keys and string values taken from the tables below. Setting eleven keys from Rust cost a crossing of the
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
const SQUARES = [];
for (const rank of '12345678') for (const file of 'abcdefgh') SQUARES.push(file + rank);
SQUARES.push(null);

// The move packed at `packed[at..at + STRIDE]`, whose long form is `uci`
// and SAN `san`.
function make(packed, at, uci, san) {
  const role = packed[at + 4];
  const released = packed[at + 7];
  return {
    uci,
    san,
    kind: KINDS[packed[at]],
    color: COLORS[packed[at + 1]],
    from: SQUARES[packed[at + 2]],
    to: SQUARES[packed[at + 3]],
    role: ROLES[role],
    capture: ROLES[packed[at + 5]],
    promotion: ROLES[packed[at + 6]],
    released: ROLES[released],
    rescued: released ? ROLES[role] : null,
  };
}

/** The move objects of `packed` (STRIDE bytes a move), their long form and
 * SAN in `texts`, each move's two separated by a space, as are the moves. */
function moveObjects(packed, texts) {
  const text = texts.split(' ');
  const out = [];
  for (let at = 0, i = 0; at < packed.length; at += STRIDE, i += 2) {
    out.push(make(packed, at, text[i], text[i + 1]));
  }
  return out;
}

/** The move object of the one move in `packed`, whose long form and SAN
 * are `texts`, separated by a space. */
function moveObject(packed, texts) {
  const [uci, san] = texts.split(' ');
  return make(packed, 0, uci, san);
}

export { moveObjects, moveObject };
