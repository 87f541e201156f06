//! Conversions between core values and plain JavaScript values.
//!
//! Colours are `'w'`/`'b'` (as in FEN and chess.js), roles their English
//! names (`'knight'`, as in chessops), squares their names (`'e4'`).
//! Nothing here knows a rule: each function only reshapes what the core
//! computed.

use hostage_core::{san::San, Color, Move, Piece, Position, Reserve, Role, Square};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

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

/// The plain move object of `m`, legal in `pos` (see `Move` in the TS types).
pub(crate) fn move_object(pos: &Position, m: &Move) -> JsValue {
    let (released, rescued) = match *m {
        Move::Exchange {
            released, rescued, ..
        } => (Some(released), Some(rescued)),
        _ => (None, None),
    };
    let obj = Object::new();
    set(&obj, "uci", m.to_uci().to_string());
    set(&obj, "san", San::write(pos, m));
    set(&obj, "kind", m.kind().name());
    set(&obj, "color", color(pos.turn()));
    set(&obj, "from", square(m.from()));
    set(&obj, "to", square(Some(m.to())));
    set(&obj, "role", role(Some(m.role())));
    set(&obj, "capture", role(m.capture()));
    set(&obj, "promotion", role(m.promotion()));
    set(&obj, "released", role(released));
    set(&obj, "rescued", role(rescued));
    obj.into()
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
