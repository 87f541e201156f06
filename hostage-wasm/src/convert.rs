//! Conversions between core values and plain JavaScript values.
//!
//! Colours are `'w'`/`'b'` (as in FEN and chess.js), roles their English
//! names (`'knight'`, as in chessops), squares their names (`'e4'`).
//! Nothing here knows a rule: each function only reshapes what the core
//! computed.
//!
//! Move objects are made in JavaScript (`js/moves.js`) from numbers packed
//! here ([`MoveObjects`]): setting their eleven keys from Rust crossed the
//! module boundary and converted a string for every key and every value,
//! which cost more than the rules themselves did.

use hostage_core::{san::San, Color, Move, Piece, Position, Reserve, Role, Square};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{prelude::wasm_bindgen, JsValue};

use crate::errors::{type_error, Throw};

/// Sets `obj[key] = value` on a fresh plain object (cannot fail).
pub(crate) fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &key.into(), &value.into());
}

/// `'w'` or `'b'`.
pub(crate) fn color(c: Color) -> JsValue {
    JsValue::from_str(if c.is_white() { "w" } else { "b" })
}

/// `'pawn'` ... `'king'`, or `null`.
pub(crate) fn role(r: Option<Role>) -> JsValue {
    r.map_or(JsValue::NULL, |r| r.name().into())
}

/// `'e4'`, or `null`.
pub(crate) fn square(sq: Option<Square>) -> JsValue {
    sq.map_or(JsValue::NULL, |sq| sq.to_string().into())
}

/// An array of square names.
pub(crate) fn squares(sqs: impl IntoIterator<Item = Square>) -> Array {
    sqs.into_iter()
        .map(|sq| JsValue::from(sq.to_string()))
        .collect()
}

/// `{ color, role }`.
pub(crate) fn piece(p: Piece) -> Object {
    let obj = Object::new();
    set(&obj, "color", color(p.color));
    set(&obj, "role", role(Some(p.role)));
    obj
}

/// `{ color, role }` for a man, `null` for an empty square.
pub(crate) fn piece_or_null(p: Option<Piece>) -> JsValue {
    p.map_or(JsValue::NULL, |p| piece(p).into())
}

/// `{ queen: n, rook: n, bishop: n, knight: n, pawn: n }`.
pub(crate) fn reserve(r: &Reserve) -> Object {
    let obj = Object::new();
    for role in Role::HOSTAGES {
        set(&obj, role.name(), r.count(role));
    }
    obj
}

/// `{ w: f(White), b: f(Black) }`.
pub(crate) fn by_color(mut f: impl FnMut(Color) -> JsValue) -> Object {
    let obj = Object::new();
    set(&obj, "w", f(Color::White));
    set(&obj, "b", f(Color::Black));
    obj
}

#[wasm_bindgen(module = "/js/moves.js")]
extern "C" {
    /// The move objects of `packed` ([`STRIDE`] bytes a move, as [`pack`]
    /// writes them), their long form and SAN in `texts` ([`push_texts`]).
    #[wasm_bindgen(js_name = moveObjects)]
    fn js_move_objects(packed: &[u8], texts: &str) -> Array;

    /// The move object of the one move in `packed`, whose long form and
    /// SAN are `texts` ([`push_texts`]).
    #[wasm_bindgen(js_name = moveObject)]
    fn js_move_object(packed: &[u8], texts: &str) -> JsValue;
}

/// Bytes a move takes in the packed form `js/moves.js` reads.
const STRIDE: usize = 8;

/// The `from` byte of a move that has no starting square (a drop, an
/// exchange).
const NO_SQUARE: u8 = 64;

/// `m`, made by `turn`, packed for `js/moves.js`: kind, colour, from
/// (`Square::index`, or [`NO_SQUARE`]), to, role, capture, promotion and
/// released, each role as `Role as u8` (0 for none).
fn pack(turn: Color, m: &Move) -> [u8; STRIDE] {
    let released = match *m {
        Move::Exchange { released, .. } => Some(released),
        _ => None,
    };
    let role = |r: Option<Role>| r.map_or(0, |r| r as u8);
    // Square indexes are below 64.
    #[allow(clippy::cast_possible_truncation)]
    let square = |sq: Square| sq.index() as u8;
    [
        m.kind() as u8,
        turn as u8,
        m.from().map_or(NO_SQUARE, square),
        square(m.to()),
        m.role() as u8,
        role(m.capture()),
        role(m.promotion()),
        role(released),
    ]
}

/// Appends `m`'s long form and SAN, as the core writes them, to `texts`,
/// separated by a space (neither has one): the JavaScript side writes no
/// move text of its own.
fn push_texts(texts: &mut String, pos: &Position, m: &Move) {
    use core::fmt::Write as _;
    // Writing into a String cannot fail.
    let _ = write!(texts, "{} ", m.to_uci());
    texts.push_str(&San::write(pos, m));
}

/// Move objects made in one call into JavaScript: the moves packed, their
/// long forms and SANs in one string, separated by spaces.
pub(crate) struct MoveObjects {
    packed: Vec<u8>,
    texts: String,
}

impl MoveObjects {
    /// Room for `n` moves.
    pub(crate) fn with_capacity(n: usize) -> MoveObjects {
        MoveObjects {
            packed: Vec::with_capacity(n * STRIDE),
            // About six bytes of long form and six of SAN a move.
            texts: String::with_capacity(n * 12),
        }
    }

    /// Adds `m`, legal in `pos`.
    pub(crate) fn push(&mut self, pos: &Position, m: &Move) {
        if !self.packed.is_empty() {
            self.texts.push(' ');
        }
        self.packed.extend_from_slice(&pack(pos.turn(), m));
        push_texts(&mut self.texts, pos, m);
    }

    /// The array of move objects, in the order pushed.
    pub(crate) fn finish(self) -> Array {
        js_move_objects(&self.packed, &self.texts)
    }
}

/// The plain move object of `m`, legal in `pos` (see `Move` in the TS types).
pub(crate) fn move_object(pos: &Position, m: &Move) -> JsValue {
    let mut texts = String::new();
    push_texts(&mut texts, pos, m);
    js_move_object(&pack(pos.turn(), m), &texts)
}

/// A JavaScript string argument, or a `TypeError` naming `what`.
pub(crate) fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| type_error(&format!("{what} must be a string")))
}

/// A square name argument.
pub(crate) fn square_arg(value: &JsValue) -> Result<Square, JsValue> {
    string_arg(value, "square")?
        .parse::<Square>()
        .map_err(|e| e.throw())
}

/// The text of a move argument: a string as given (SAN or long form), or
/// the `uci` field of a move object.
pub(crate) enum MoveArg {
    /// SAN or long form.
    Text(String),
    /// The `uci` field of a move object.
    Uci(String),
}

/// Reads a `Move | string` argument.
pub(crate) fn move_arg(value: &JsValue) -> Result<MoveArg, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(MoveArg::Text(text));
    }
    if value.is_object() {
        if let Some(uci) = Reflect::get(value, &"uci".into())
            .ok()
            .and_then(|v| v.as_string())
        {
            return Ok(MoveArg::Uci(uci));
        }
    }
    Err(type_error(
        "move must be a string (SAN or UCI) or a move object with a `uci` field",
    ))
}

/// A colour argument: `'w'` or `'b'`.
pub(crate) fn color_arg(value: &JsValue) -> Result<Color, JsValue> {
    match value.as_string().as_deref() {
        Some("w") => Ok(Color::White),
        Some("b") => Ok(Color::Black),
        _ => Err(type_error("color must be 'w' or 'b'")),
    }
}

/// A role argument: `'pawn'` ... `'king'`.
pub(crate) fn role_arg(value: &JsValue) -> Result<Role, JsValue> {
    let name = value.as_string();
    Role::ALL
        .into_iter()
        .find(|r| name.as_deref() == Some(r.name()))
        .ok_or_else(|| {
            type_error("role must be 'pawn', 'knight', 'bishop', 'rook', 'queen' or 'king'")
        })
}

/// A `{ color, role }` argument.
pub(crate) fn piece_arg(value: &JsValue) -> Result<Piece, JsValue> {
    if !value.is_object() {
        return Err(type_error("piece must be an object { color, role }"));
    }
    let field = |key: &str| Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    Ok(Piece {
        color: color_arg(&field("color"))?,
        role: role_arg(&field("role"))?,
    })
}

/// A `{ queen?, rook?, bishop?, knight?, pawn? }` argument of counts
/// (missing roles count 0).
pub(crate) fn reserve_arg(value: &JsValue) -> Result<Reserve, JsValue> {
    if !value.is_object() {
        return Err(type_error("reserve must be an object of counts by role"));
    }
    let mut out = Reserve::EMPTY;
    for role in Role::HOSTAGES {
        let n = Reflect::get(value, &role.name().into()).unwrap_or(JsValue::UNDEFINED);
        if n.is_undefined() {
            continue;
        }
        let count = n
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (0.0..=16.0).contains(n))
            .ok_or_else(|| type_error("a reserve count must be an integer from 0 to 16"))?;
        out.set(role, count as u8);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use hostage_core::{Color, File, Move, MoveKind, Position, Rank, Role, Square};

    use super::{pack, NO_SQUARE, STRIDE};

    const MOVES_JS: &str = include_str!("../js/moves.js");

    /// The text between the brackets or quotes of `const NAME = ...;` in
    /// js/moves.js.
    fn table(name: &str) -> &'static str {
        let start = MOVES_JS
            .find(&format!("const {name} = "))
            .unwrap_or_else(|| panic!("no {name} in js/moves.js"));
        let line = MOVES_JS[start..].lines().next().unwrap();
        let value = &line[line.find(" = ").unwrap() + 3..line.len() - 1];
        &value[1..value.len() - 1]
    }

    /// The entries of a JavaScript array of strings and `null`.
    fn names(name: &str) -> Vec<String> {
        table(name)
            .split(", ")
            .map(|v| v.trim_matches('\'').to_owned())
            .collect()
    }

    #[test]
    fn the_tables_of_moves_js_follow_the_core_numbering() {
        let kinds = [
            MoveKind::Normal,
            MoveKind::EnPassant,
            MoveKind::Castle,
            MoveKind::Drop,
            MoveKind::Exchange,
        ];
        let js = names("KINDS");
        assert_eq!(js.len(), kinds.len());
        for k in kinds {
            assert_eq!(js[k as usize], k.name());
        }
        let js = names("COLORS");
        assert_eq!(js.len(), 2);
        for c in Color::ALL {
            assert_eq!(js[c as usize], c.char().to_string());
        }
        let js = names("ROLES");
        assert_eq!(js.len(), Role::ALL.len() + 1);
        assert_eq!(js[0], "null");
        for r in Role::ALL {
            assert_eq!(js[r as usize], r.name());
        }
        assert!(MOVES_JS.contains(&format!("const STRIDE = {STRIDE};")));
        // js/moves.js lists the squares rank by rank, a to h within a rank.
        for (i, rank) in Rank::ALL.into_iter().enumerate() {
            for (j, file) in File::ALL.into_iter().enumerate() {
                let sq = Square::from_coords(file, rank);
                assert_eq!(sq.index() as usize, i * 8 + j, "{sq}");
            }
        }
        assert_eq!(u32::from(NO_SQUARE), 64);
    }

    #[test]
    fn moves_are_packed_field_by_field() {
        let pos = Position::new();
        let e4 = pos.parse_uci("e2e4").unwrap();
        assert_eq!(pack(Color::White, &e4), [0, 0, 12, 28, 1, 0, 0, 0]);
        let drop = Move::Drop {
            role: Role::Knight,
            to: Square::C7,
        };
        assert_eq!(pack(Color::Black, &drop), [3, 1, 64, 50, 2, 0, 0, 0]);
        let exchange = Move::Exchange {
            released: Role::Bishop,
            rescued: Role::Queen,
            to: Square::D4,
        };
        assert_eq!(pack(Color::White, &exchange), [4, 0, 64, 27, 5, 0, 0, 3]);
        let promotion = Position::from_fen("7k/3P4/8/8/8/8/8/K7[#R] w - - 0 1")
            .unwrap()
            .parse_uci("d7d8r")
            .unwrap();
        assert_eq!(pack(Color::White, &promotion), [0, 0, 51, 59, 1, 0, 4, 0]);
        let castle = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
            .unwrap()
            .parse_uci("e1g1")
            .unwrap();
        assert_eq!(pack(Color::White, &castle), [2, 0, 4, 6, 6, 0, 0, 0]);
        let capture = Position::from_fen("4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1")
            .unwrap()
            .parse_uci("e4d6")
            .unwrap();
        assert_eq!(pack(Color::White, &capture), [0, 0, 28, 43, 2, 1, 0, 0]);
    }
}
