//! Core errors as thrown JavaScript `Error` objects.
//!
//! Every error the bindings throw is a real `Error` (never a string) with a
//! `name` that says what failed (`FenError`, `IllegalMoveError`, ...) and a
//! `code` equal to the core's `code()` (`"invalid_board"`,
//! `"illegal_san"`, ...). Arguments of the wrong JavaScript type throw a
//! `TypeError` with code `"invalid_argument"`. The table of names and codes
//! is in docs/javascript.md.

use core::fmt::Display;

use hostage_core::{
    fen::FenError,
    game::GameError,
    pgn::PgnError,
    san::{ParseMoveError, SanError},
    uci::UciError,
    MoveTextError, ParseSquareError,
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

impl Throw for FenError {
    fn throw(&self) -> JsValue {
        let name = match self {
            FenError::Parse { .. } => "FenError",
            FenError::Position { .. } => "PositionError",
        };
        error(name, self.code(), self)
    }
}

impl Throw for SanError {
    fn throw(&self) -> JsValue {
        let name = match self {
            SanError::Syntax { .. } => "InvalidMoveError",
            SanError::Illegal { .. } => "IllegalMoveError",
            SanError::Ambiguous { .. } => "AmbiguousMoveError",
        };
        error(name, self.code(), self)
    }
}

impl Throw for UciError {
    fn throw(&self) -> JsValue {
        let name = match self {
            UciError::Syntax { .. } => "InvalidMoveError",
            UciError::Illegal { .. } => "IllegalMoveError",
        };
        error(name, self.code(), self)
    }
}

impl Throw for GameError {
    fn throw(&self) -> JsValue {
        match self {
            GameError::IllegalMove { .. } => error("IllegalMoveError", self.code(), self),
            GameError::San(e) => e.throw(),
            GameError::Uci(e) => e.throw(),
        }
    }
}

impl Throw for ParseMoveError {
    fn throw(&self) -> JsValue {
        match self {
            ParseMoveError::San(e) => e.throw(),
            ParseMoveError::Uci(e) => e.throw(),
        }
    }
}

/// A bad move in a list: the name of the move's own error, the list's
/// message (which names the ply); text that is not a move list is an
/// `InvalidMoveError`.
impl Throw for MoveTextError {
    fn throw(&self) -> JsValue {
        let name = match self {
            MoveTextError::Move { error, .. } => match error {
                ParseMoveError::San(SanError::Syntax { .. })
                | ParseMoveError::Uci(UciError::Syntax { .. }) => "InvalidMoveError",
                ParseMoveError::San(SanError::Ambiguous { .. }) => "AmbiguousMoveError",
                _ => "IllegalMoveError",
            },
            MoveTextError::Syntax { .. } => "InvalidMoveError",
        };
        error(name, self.code(), self)
    }
}

impl Throw for PgnError {
    fn throw(&self) -> JsValue {
        error("PgnError", self.code(), self)
    }
}

impl Throw for ParseSquareError {
    fn throw(&self) -> JsValue {
        error("SquareError", self.code(), self)
    }
}
