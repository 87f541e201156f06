//! The options object of `board.svg(options)`, read into the core's
//! [`SvgOptions`].
//!
//! Conversion only: every field is optional and has the core's default; a
//! field of the wrong JavaScript type throws a `TypeError` (code
//! `invalid_argument`), a bad square name a `SquareError`, a malformed
//! `lastMove` an `InvalidMoveError`. Colours are passed through: the core
//! replaces an unsafe one with its default colour.

use hostage_core::{
    svg::{Arrow, Mark, SvgOptions, DEFAULT_ARROW_COLOR},
    uci::UciMove,
    Move,
};
use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;

use crate::{
    convert::{move_arg, square_arg, string_arg, MoveArg},
    errors::{type_error, Throw},
};

/// `obj[key]`, or `None` when it is `undefined` or `null`.
fn field(obj: &JsValue, key: &str) -> Option<JsValue> {
    Reflect::get(obj, &key.into())
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// A boolean field, or `default` when absent.
fn flag(obj: &JsValue, key: &str, default: bool) -> Result<bool, JsValue> {
    match field(obj, key) {
        None => Ok(default),
        Some(v) => v
            .as_bool()
            .ok_or_else(|| type_error(&format!("svg option `{key}` must be a boolean"))),
    }
}

/// An array field (empty when absent).
fn list(obj: &JsValue, key: &str) -> Result<Vec<JsValue>, JsValue> {
    match field(obj, key) {
        None => Ok(Vec::new()),
        Some(v) if Array::is_array(&v) => Ok(Array::from(&v).to_vec()),
        Some(_) => Err(type_error(&format!("svg option `{key}` must be an array"))),
    }
}

/// A colour field, or the core's default colour when absent.
fn color(obj: &JsValue) -> Result<String, JsValue> {
    match field(obj, "color") {
        None => Ok(DEFAULT_ARROW_COLOR.into()),
        Some(v) => string_arg(&v, "color"),
    }
}

/// A square-name field that must be there.
fn square(obj: &JsValue, key: &str) -> Result<hostage_core::Square, JsValue> {
    let v = field(obj, key).ok_or_else(|| type_error(&format!("`{key}` must be a square name")))?;
    square_arg(&v)
}

/// Reads the options object; `last` is the last move played on the board
/// (what `lastMove: true` highlights).
pub(crate) fn options(value: &JsValue, last: Option<Move>) -> Result<SvgOptions, JsValue> {
    let mut options = SvgOptions::default();
    if value.is_undefined() || value.is_null() {
        return Ok(options);
    }
    if !value.is_object() {
        return Err(type_error("svg options must be an object"));
    }
    if let Some(size) = field(value, "size") {
        let size = size
            .as_f64()
            .filter(|s| s.fract() == 0.0 && (1.0..=f64::from(u32::MAX)).contains(s))
            .ok_or_else(|| type_error("svg option `size` must be a positive integer"))?;
        // A whole number in u32's range: the cast is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let size = size as u32;
        options.size = Some(size);
    }
    options.flipped = flag(value, "flipped", false)?;
    options.coordinates = flag(value, "coordinates", true)?;
    options.reserves = flag(value, "reserves", true)?;
    options.check = flag(value, "check", true)?;
    options.frozen = flag(value, "frozen", true)?;
    options.last_move = match field(value, "lastMove") {
        None => None,
        Some(v) if v.as_bool() == Some(true) => last.map(|m| m.to_uci()),
        Some(v) if v.as_bool() == Some(false) => None,
        Some(v) => {
            let text = match move_arg(&v)? {
                MoveArg::Text(text) | MoveArg::Uci(text) => text,
            };
            let uci = UciMove::from_ascii(text.as_bytes()).map_err(|e| e.throw())?;
            Some(uci)
        }
    };
    for arrow in list(value, "arrows")? {
        if !arrow.is_object() {
            return Err(type_error("an arrow is an object { from, to, color? }"));
        }
        let (from, to) = (square(&arrow, "from")?, square(&arrow, "to")?);
        options
            .arrows
            .push(Arrow::with_color(from, to, &color(&arrow)?));
    }
    for mark in list(value, "marks")? {
        if !mark.is_object() {
            return Err(type_error("a mark is an object { square, color? }"));
        }
        options
            .marks
            .push(Mark::new(square(&mark, "square")?, &color(&mark)?));
    }
    Ok(options)
}
