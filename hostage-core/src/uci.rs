//! The long, UCI-style move form, for engines and wire formats.
//!
//! | move | written |
//! | --- | --- |
//! | board move | `e2e4` |
//! | promotion | `e7e8q` (the role fetched from the prison, R7) |
//! | castling | `e1g1` (the king's move) |
//! | airfield drop | `N@c7`, `P@c7` |
//! | exchange | `N#B@c7`: rescued role, `#`, released role, `@`, square |
//!
//! Role letters of drops and exchanges are read in either case and written
//! uppercase. A [`UciMove`] is context-free text; [`UciMove::to_move`] finds
//! the legal [`Move`] it names in a position.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{uci::UciMove, Position};
//!
//! let pos = Position::new();
//! let m = UciMove::from_ascii(b"g1f3")?.to_move(&pos)?;
//! assert_eq!(UciMove::from_move(&m).to_string(), "g1f3");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use alloc::string::{String, ToString};
use core::{fmt, str::FromStr};

use crate::{
    illegal::Because, CastlingSide, Excerpt, File, IllegalReason, Move, Position, Role, Square,
};

/// A move in long form, not yet checked against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A board move (castling is the king's two-square move).
    Normal {
        /// Start square.
        from: Square,
        /// Destination.
        to: Square,
        /// Role fetched from the prison by a promotion.
        promotion: Option<Role>,
    },
    /// An airfield drop.
    Drop {
        /// Role dropped.
        role: Role,
        /// Destination.
        to: Square,
    },
    /// An exchange.
    Exchange {
        /// Role rescued from the opponent's prison and dropped.
        rescued: Role,
        /// Role released from the mover's prison.
        released: Role,
        /// Destination of the rescued man.
        to: Square,
    },
}

/// Why a long-form move was rejected. The message names the text given
/// and, for an illegal move, the position's FEN.
///
/// # Examples
///
/// ```
/// use hostage_core::{uci::UciMove, Position};
///
/// let err = UciMove::from_ascii(b"e2e9").unwrap_err();
/// assert_eq!(err.to_string(), "invalid uci: 'e2e9' (at character 3)");
/// let err = UciMove::from_ascii(b"e2e5")?.to_move(&Position::new()).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "illegal uci: 'e2e5' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1: \
///      that man does not move that way"
/// );
/// assert_eq!(err.reason(), Some(hostage_core::IllegalReason::WrongWay));
/// # Ok::<_, hostage_core::uci::UciError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum UciError {
    /// The text is not a long-form move; `position` is the byte offset of the
    /// first character that does not fit.
    #[error("invalid uci: {uci} (at character {position})")]
    Syntax {
        /// Byte offset into the input.
        position: usize,
        /// The text given.
        uci: Excerpt,
    },
    /// The text is well formed but names no legal move in the position.
    /// The message ends with the reason's clause when there is one.
    #[error("illegal uci: {uci} in {fen}{}", Because(*.reason))]
    Illegal {
        /// The text given.
        uci: Excerpt,
        /// The FEN of the position.
        fen: String,
        /// Why the move is illegal ([`Position::illegal_reason`];
        /// [`IllegalReason::NoOwnMan`] when the start square is empty).
        reason: Option<IllegalReason>,
    },
}

impl UciError {
    /// The error's family: invalid or illegal move.
    #[must_use]
    pub const fn kind(&self) -> crate::ErrorKind {
        match self {
            UciError::Syntax { .. } => crate::ErrorKind::InvalidMove,
            UciError::Illegal { .. } => crate::ErrorKind::IllegalMove,
        }
    }

    /// `"invalid_uci"` or `"illegal_uci"`, shared with the bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            UciError::Syntax { .. } => "invalid_uci",
            UciError::Illegal { .. } => "illegal_uci",
        }
    }

    /// Why the move is illegal, for [`UciError::Illegal`].
    #[must_use]
    pub const fn reason(&self) -> Option<IllegalReason> {
        match self {
            UciError::Illegal { reason, .. } => *reason,
            UciError::Syntax { .. } => None,
        }
    }

    /// The same error naming `text` as the move given.
    #[must_use]
    pub(crate) fn naming(mut self, text: &[u8]) -> UciError {
        let (UciError::Syntax { uci, .. } | UciError::Illegal { uci, .. }) = &mut self;
        *uci = Excerpt::new(text);
        self
    }

    fn syntax(position: usize) -> UciError {
        UciError::Syntax {
            position,
            uci: Excerpt::default(),
        }
    }
}

fn square_at(s: &[u8], at: usize) -> Result<Square, UciError> {
    match s.get(at..at + 2) {
        Some(name) => Square::from_ascii(name).map_err(|_| {
            UciError::syntax(if File::from_char(name[0] as char).is_some() {
                at + 1
            } else {
                at
            })
        }),
        None => Err(UciError::syntax(s.len().min(at + 1))),
    }
}

fn hostage_role(c: Option<&u8>, at: usize) -> Result<Role, UciError> {
    match c.and_then(|&c| Role::from_char(c as char)) {
        Some(Role::King) | None => Err(UciError::syntax(at)),
        Some(role) => Ok(role),
    }
}

impl UciMove {
    /// Parses a long-form move.
    ///
    /// # Errors
    ///
    /// [`UciError::Syntax`] with the offset of the first bad character.
    pub fn from_ascii(s: &[u8]) -> Result<UciMove, UciError> {
        UciMove::parse(s).map_err(|e| e.naming(s))
    }

    fn parse(s: &[u8]) -> Result<UciMove, UciError> {
        let expect = |at: usize, c: u8| -> Result<(), UciError> {
            if s.get(at) == Some(&c) {
                Ok(())
            } else {
                Err(UciError::syntax(at.min(s.len())))
            }
        };
        let end = |at: usize| -> Result<(), UciError> {
            if s.len() == at {
                Ok(())
            } else {
                Err(UciError::syntax(at.min(s.len())))
            }
        };
        match s.get(1) {
            Some(b'@') => {
                let role = hostage_role(s.first(), 0)?;
                let to = square_at(s, 2)?;
                end(4)?;
                Ok(UciMove::Drop { role, to })
            }
            Some(b'#') => {
                let rescued = hostage_role(s.first(), 0)?;
                let released = hostage_role(s.get(2), 2)?;
                expect(3, b'@')?;
                let to = square_at(s, 4)?;
                end(6)?;
                Ok(UciMove::Exchange {
                    rescued,
                    released,
                    to,
                })
            }
            _ => {
                let from = square_at(s, 0)?;
                let to = square_at(s, 2)?;
                let promotion = match s.get(4) {
                    None => None,
                    Some(&c) => match Role::from_char(c as char) {
                        Some(role) if Role::PROMOTION.contains(&role) => Some(role),
                        _ => return Err(UciError::syntax(4)),
                    },
                };
                end(if promotion.is_some() { 5 } else { 4 })?;
                Ok(UciMove::Normal {
                    from,
                    to,
                    promotion,
                })
            }
        }
    }

    /// The long form of a move.
    #[must_use]
    pub fn from_move(m: &Move) -> UciMove {
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => UciMove::Normal {
                from,
                to,
                promotion,
            },
            Move::EnPassant { from, to } => UciMove::Normal {
                from,
                to,
                promotion: None,
            },
            Move::Castle { king, .. } => UciMove::Normal {
                from: king,
                to: m.to(),
                promotion: None,
            },
            Move::Drop { role, to } => UciMove::Drop { role, to },
            Move::Exchange {
                released,
                rescued,
                to,
            } => UciMove::Exchange {
                rescued,
                released,
                to,
            },
        }
    }

    /// The legal move this names in `pos`.
    ///
    /// # Errors
    ///
    /// [`UciError::Illegal`] if it names no legal move.
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        let illegal = |reason: Option<IllegalReason>| UciError::Illegal {
            uci: Excerpt::new(self.to_string().as_bytes()),
            fen: pos.fen(),
            reason,
        };
        let m = match *self {
            UciMove::Drop { role, to } => Move::Drop { role, to },
            UciMove::Exchange {
                rescued,
                released,
                to,
            } => Move::Exchange {
                released,
                rescued,
                to,
            },
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                let board = pos.board();
                let piece = board
                    .piece_at(from)
                    .ok_or_else(|| illegal(Some(IllegalReason::NoOwnMan)))?;
                let us = pos.turn();
                if piece.role == Role::King
                    && from == crate::king_home(us)
                    && promotion.is_none()
                    && from.rank() == to.rank()
                    && from.index().abs_diff(to.index()) == 2
                {
                    let side = if to.index() > from.index() {
                        CastlingSide::KingSide
                    } else {
                        CastlingSide::QueenSide
                    };
                    Move::Castle {
                        king: from,
                        rook: side.rook_square(us),
                    }
                } else {
                    // An en-passant capture even where it is not legal, so
                    // that the error says why.
                    pos.board_move(piece.role, from, to, promotion)
                }
            }
        };
        if pos.is_legal(&m) {
            Ok(m)
        } else {
            Err(illegal(pos.illegal_reason(&m)))
        }
    }
}

impl Position {
    /// The legal move named by the long-form `text`; the error names `text`.
    ///
    /// # Errors
    ///
    /// [`UciError`]: syntax or illegal.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::new();
    /// assert_eq!(pos.parse_uci("g1f3")?.to_string(), "g1f3");
    /// assert_eq!(pos.parse_uci("g1g3").map_err(|e| e.code()), Err("illegal_uci"));
    /// # Ok::<_, hostage_core::uci::UciError>(())
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        UciMove::from_ascii(text.as_bytes())
            .and_then(|uci| uci.to_move(self))
            .map_err(|e| e.naming(text.as_bytes()))
    }
}

impl FromStr for UciMove {
    type Err = UciError;
    fn from_str(s: &str) -> Result<UciMove, UciError> {
        UciMove::from_ascii(s.as_bytes())
    }
}

/// A move displays in the long form (`e2e4`, `N@c7`, `N#B@c7`), which this
/// module writes.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&UciMove::from_move(self), f)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.char())?;
                }
                Ok(())
            }
            UciMove::Drop { role, to } => write!(f, "{}@{to}", role.upper_char()),
            UciMove::Exchange {
                rescued,
                released,
                to,
            } => {
                write!(f, "{}#{}@{to}", rescued.upper_char(), released.upper_char())
            }
        }
    }
}

impl Move {
    /// The long (UCI-style) form of this move.
    #[must_use]
    pub fn to_uci(&self) -> UciMove {
        UciMove::from_move(self)
    }
}
