//! [`ErrorKind`]: the family an error of FEN or move text belongs to.
//!
//! Every error keeps its own type, message and stable `code()`; the kind
//! groups them for a caller that handles families, not variants — the
//! bindings raise one exception class per kind (`FenError`,
//! `IllegalMoveError`, ...), and a program may tell a typo from an illegal
//! move without matching on every error's variants. The kinds are decided
//! here, once, so that Python, JavaScript and the CLI agree.

/// The family of an error of FEN or move text.
///
/// ```
/// use hostage_core::{ErrorKind, Position};
///
/// let pos = Position::new();
/// assert_eq!(pos.parse_move("e5").unwrap_err().kind(), ErrorKind::IllegalMove);
/// assert_eq!(pos.parse_move("e9").unwrap_err().kind(), ErrorKind::InvalidMove);
/// assert_eq!(Position::from_fen("8/8").unwrap_err().kind(), ErrorKind::InvalidFen);
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Text that is not a Hostage FEN.
    InvalidFen,
    /// A well-formed Hostage FEN of a position the rules do not allow.
    InvalidPosition,
    /// Text that is not a move in SAN or the long form.
    InvalidMove,
    /// A move that no legal move matches.
    IllegalMove,
    /// SAN that several legal moves match.
    AmbiguousMove,
}

impl ErrorKind {
    /// The kind's name, as the bindings name their error classes
    /// (`"IllegalMoveError"`, ...).
    ///
    /// ```
    /// assert_eq!(hostage_core::ErrorKind::InvalidFen.name(), "FenError");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidFen => "FenError",
            ErrorKind::InvalidPosition => "PositionError",
            ErrorKind::InvalidMove => "InvalidMoveError",
            ErrorKind::IllegalMove => "IllegalMoveError",
            ErrorKind::AmbiguousMove => "AmbiguousMoveError",
        }
    }
}
