//! The exception hierarchy and the one place that maps each core error to
//! its class. Every exception carries the core's stable `.code`; an
//! `IllegalMoveError` also carries `.reason`, the code of the core's
//! `IllegalReason` (`"leaves_king_in_check"`, ...) or `None`.
//!
//! ```text
//! ValueError
//! └── HostageError            .code
//!     ├── FenError            malformed FEN text (invalid_board, ...)
//!     │   └── PositionError   well-formed FEN of an illegal position (missing_king, ...)
//!     ├── SquareError         invalid_square
//!     ├── InvalidMoveError    move text that is not SAN/UCI (invalid_san, invalid_uci)
//!     ├── IllegalMoveError    no legal move matches (illegal_move, illegal_san, illegal_uci)
//!     ├── AmbiguousMoveError  several legal moves match (ambiguous_san)
//!     ├── PgnError            pgn_syntax, pgn_limit, pgn_illegal_move, ...
//!     └── ResultError         a result that cannot be recorded (invalid_result,
//!                             invalid_end_reason, result_contradicts_board, result_mismatch)
//! ```

use hostage_core::{
    fen::FenError as CoreFenError,
    game::GameError,
    pgn::{PgnError as CorePgnError, ResultError as CoreResultError},
    san::{ParseMoveError, SanError},
    uci::UciError,
    ErrorKind, IllegalReason, MoveTextError, ParseSquareError,
};
use pyo3::{exceptions::PyValueError, prelude::*, PyTypeInfo};

pyo3::create_exception!(
    hostage,
    HostageError,
    PyValueError,
    "Base class of every error raised by hostage; `.code` is the core's stable error code."
);
pyo3::create_exception!(
    hostage,
    FenError,
    HostageError,
    "A FEN that cannot be read."
);
pyo3::create_exception!(
    hostage,
    PositionError,
    FenError,
    "A well-formed FEN of a position that is not legal (e.g. a side without a king)."
);
pyo3::create_exception!(
    hostage,
    SquareError,
    HostageError,
    "An invalid square name or index."
);
pyo3::create_exception!(
    hostage,
    InvalidMoveError,
    HostageError,
    "Move text that is not valid SAN or UCI."
);
pyo3::create_exception!(
    hostage,
    IllegalMoveError,
    HostageError,
    "A move that is not legal in the position."
);
pyo3::create_exception!(
    hostage,
    AmbiguousMoveError,
    HostageError,
    "SAN that matches several legal moves."
);
pyo3::create_exception!(hostage, PgnError, HostageError, "PGN that cannot be read.");
pyo3::create_exception!(
    hostage,
    ResultError,
    HostageError,
    "A game result that cannot be recorded: not a result, or contradicting the board."
);

/// An exception of class `T` with `.code` set.
pub fn error<T: PyTypeInfo>(code: &'static str, message: String) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<T, _>(message);
        // Setting an attribute on a fresh exception instance cannot fail.
        let _ = err.value(py).setattr("code", code);
        err
    })
}

/// An `IllegalMoveError` with `.code` and `.reason` (the reason's code, or
/// `None` from the class) set.
pub fn illegal_error(code: &'static str, message: String, reason: Option<IllegalReason>) -> PyErr {
    let err = error::<IllegalMoveError>(code, message);
    if let Some(reason) = reason {
        Python::attach(|py| {
            // Setting an attribute on a fresh exception instance cannot fail.
            let _ = err.value(py).setattr("reason", reason.code());
        });
    }
    err
}

/// Maps a core error to its exception class.
pub trait ToPyErr {
    /// The exception for this error.
    fn to_py(&self) -> PyErr;
}

/// A FEN or move error: the class of its kind (the core's [`ErrorKind`]),
/// with `.reason` when the move is illegal.
fn by_kind(
    kind: ErrorKind,
    code: &'static str,
    message: String,
    reason: Option<IllegalReason>,
) -> PyErr {
    match kind {
        ErrorKind::InvalidFen => error::<FenError>(code, message),
        ErrorKind::InvalidPosition => error::<PositionError>(code, message),
        ErrorKind::InvalidMove => error::<InvalidMoveError>(code, message),
        ErrorKind::IllegalMove => illegal_error(code, message, reason),
        ErrorKind::AmbiguousMove => error::<AmbiguousMoveError>(code, message),
        _ => error::<HostageError>(code, message),
    }
}

impl ToPyErr for CoreFenError {
    fn to_py(&self) -> PyErr {
        by_kind(self.kind(), self.code(), self.to_string(), None)
    }
}

impl ToPyErr for SanError {
    fn to_py(&self) -> PyErr {
        by_kind(self.kind(), self.code(), self.to_string(), self.reason())
    }
}

impl ToPyErr for UciError {
    fn to_py(&self) -> PyErr {
        by_kind(self.kind(), self.code(), self.to_string(), self.reason())
    }
}

impl ToPyErr for GameError {
    fn to_py(&self) -> PyErr {
        by_kind(self.kind(), self.code(), self.to_string(), self.reason())
    }
}

impl ToPyErr for ParseMoveError {
    fn to_py(&self) -> PyErr {
        by_kind(self.kind(), self.code(), self.to_string(), self.reason())
    }
}

/// A bad move in a list: the class of the move's own error, the list's
/// message (which names the ply); text that is not a move list is an
/// `InvalidMoveError`.
impl ToPyErr for MoveTextError {
    fn to_py(&self) -> PyErr {
        let err = by_kind(self.kind(), self.code(), self.to_string(), self.reason());
        // The failing move's place in the list, as the JS error's `ply`.
        Python::attach(|py| {
            let _ = err.value(py).setattr("ply", self.ply());
        });
        err
    }
}

impl ToPyErr for CorePgnError {
    fn to_py(&self) -> PyErr {
        error::<PgnError>(self.code(), self.to_string())
    }
}

impl ToPyErr for CoreResultError {
    fn to_py(&self) -> PyErr {
        error::<ResultError>(self.code(), self.to_string())
    }
}

impl ToPyErr for ParseSquareError {
    fn to_py(&self) -> PyErr {
        error::<SquareError>(self.code(), self.to_string())
    }
}

/// Adds the exception classes to the module, each with a class-level `code`
/// of `""` so that instances built from Python also have the attribute, a
/// class-level `ply` of `None` (an error from a move list sets its own) and
/// a class-level `reason` of `None` (an illegal move's error sets its own).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    for (name, ty) in [
        ("HostageError", py.get_type::<HostageError>()),
        ("FenError", py.get_type::<FenError>()),
        ("PositionError", py.get_type::<PositionError>()),
        ("SquareError", py.get_type::<SquareError>()),
        ("InvalidMoveError", py.get_type::<InvalidMoveError>()),
        ("IllegalMoveError", py.get_type::<IllegalMoveError>()),
        ("AmbiguousMoveError", py.get_type::<AmbiguousMoveError>()),
        ("PgnError", py.get_type::<PgnError>()),
        ("ResultError", py.get_type::<ResultError>()),
    ] {
        ty.setattr("code", "")?;
        ty.setattr("ply", py.None())?;
        ty.setattr("reason", py.None())?;
        m.add(name, ty)?;
    }
    Ok(())
}
