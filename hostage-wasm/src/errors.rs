//! Core errors as thrown JavaScript `Error` objects.
//!
//! Every error the bindings throw is a real `Error` (never a string) with a
//! `name` that says what failed (`FenError`, `IllegalMoveError`, ...) and a
//! `code` equal to the core's `code()` (`"invalid_board"`,
//! `"illegal_san"`, ...); an `IllegalMoveError` also has `reason`, the code
//! of the core's `IllegalReason` (`"leaves_king_in_check"`, ...), when the
//! core says why. Arguments of the wrong JavaScript type throw a
//! `TypeError` with code `"invalid_argument"`. The table of names and codes
//! is in docs/javascript.md.

use core::fmt::Display;

use hostage_core::{
    fen::FenError,
    game::GameError,
    pgn::{PgnError, ResultError},
    san::{ParseMoveError, SanError},
    uci::UciError,
    ErrorKind, IllegalReason, MoveTextError, ParseSquareError,
};
use js_sys::{Error, Reflect, TypeError};
use wasm_bindgen::{JsCast, JsValue};

/// An `Error` with `name`, `code` and the core's message.
fn error(name: &str, code: &str, message: impl Display) -> JsValue {
    let e = Error::new(&message.to_string());
    e.set_name(name);
    let _ = Reflect::set(&e, &"code".into(), &code.into());
    e.into()
}

/// An `IllegalMoveError` with `code`, the core's message and, when known,
/// `reason`.
pub(crate) fn illegal(code: &str, message: impl Display, reason: Option<IllegalReason>) -> JsValue {
    let e = error("IllegalMoveError", code, message);
    if let Some(reason) = reason {
        let _ = Reflect::set(&e, &"reason".into(), &reason.code().into());
    }
    e
}

/// A `TypeError` with code `"invalid_argument"`.
pub(crate) fn type_error(message: &str) -> JsValue {
    let e = TypeError::new(message);
    let _ = Reflect::set(&e, &"code".into(), &"invalid_argument".into());
    e.unchecked_into()
}

/// A core error that becomes a thrown JavaScript error.
pub(crate) trait Throw {
    /// The `Error` object to throw.
    fn throw(&self) -> JsValue;
}

/// A FEN or move error: the class of its kind ([`ErrorKind::name`]), and
/// `reason` when the move is illegal.
fn by_kind(
    kind: ErrorKind,
    code: &str,
    message: impl Display,
    reason: Option<IllegalReason>,
) -> JsValue {
    match kind {
        ErrorKind::IllegalMove => illegal(code, message, reason),
        kind => error(kind.name(), code, message),
    }
}

impl Throw for FenError {
    fn throw(&self) -> JsValue {
        by_kind(self.kind(), self.code(), self, None)
    }
}

impl Throw for SanError {
    fn throw(&self) -> JsValue {
        by_kind(self.kind(), self.code(), self, self.reason())
    }
}

impl Throw for UciError {
    fn throw(&self) -> JsValue {
        by_kind(self.kind(), self.code(), self, self.reason())
    }
}

impl Throw for GameError {
    fn throw(&self) -> JsValue {
        by_kind(self.kind(), self.code(), self, self.reason())
    }
}

impl Throw for ParseMoveError {
    fn throw(&self) -> JsValue {
        by_kind(self.kind(), self.code(), self, self.reason())
    }
}

/// A bad move in a list: the class of the move's own error, the list's
/// message (which names the ply) and `ply`, the move's place in the list;
/// text that is not a move list is an `InvalidMoveError`.
impl Throw for MoveTextError {
    fn throw(&self) -> JsValue {
        let e = by_kind(self.kind(), self.code(), self, self.reason());
        // The failing move's place in the list, as the core counts it.
        let ply = u32::try_from(self.ply()).unwrap_or(u32::MAX);
        let _ = Reflect::set(&e, &"ply".into(), &ply.into());
        e
    }
}

impl Throw for PgnError {
    fn throw(&self) -> JsValue {
        error("PgnError", self.code(), self)
    }
}

impl Throw for ResultError {
    fn throw(&self) -> JsValue {
        error("ResultError", self.code(), self)
    }
}

impl Throw for ParseSquareError {
    fn throw(&self) -> JsValue {
        error("SquareError", self.code(), self)
    }
}
