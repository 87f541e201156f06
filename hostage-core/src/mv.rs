//! [`Move`]: every kind of turn of Hostage Chess, and [`MoveList`].

use crate::{Color, Role, Square};

/// One turn: a board move (R1, R7, R9, R10), an airfield drop (R6) or an
/// exchange (R5).
///
/// A `Move` knows what it captures so that notation and clocks need no
/// position; get one from [`crate::Position::legal_moves`] or by parsing
/// SAN or UCI against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
// An explicit tag byte: telling the kinds apart is one byte compare, not
// arithmetic on a niche of the pawn's role (six bytes instead of five).
#[repr(u8)]
pub enum Move {
    /// A man moves on the board, perhaps capturing (the captured man goes
    /// into the mover's prison, R2) and perhaps promoting (R7: the pawn
    /// changes places with `promotion`, one of the mover's men held in the
    /// opponent's prison).
    Normal {
        /// The role of the moving man.
        role: Role,
        /// Where it starts.
        from: Square,
        /// The role of the man captured on `to`, if any.
        capture: Option<Role>,
        /// Where it lands.
        to: Square,
        /// The role fetched from the opponent's prison by a promoting pawn.
        promotion: Option<Role>,
    },
    /// A pawn captures en passant (R10); the captured pawn goes into the
    /// mover's prison.
    EnPassant {
        /// Where the capturing pawn starts.
        from: Square,
        /// The square it moves to (behind the captured pawn).
        to: Square,
    },
    /// Castling (R9), given by the king's and the rook's squares.
    Castle {
        /// The king's square before castling.
        king: Square,
        /// The rook's square before castling (a corner).
        rook: Square,
    },
    /// A man of the mover's airfield is put on an empty square (R6).
    Drop {
        /// The role of the dropped man.
        role: Role,
        /// The empty square it is put on.
        to: Square,
    },
    /// An exchange (R5): an enemy man of role `released` leaves the mover's
    /// prison for the opponent's airfield, and the mover's man of role
    /// `rescued` leaves the opponent's prison and is dropped on `to`.
    Exchange {
        /// The role of the enemy man given back (from the mover's prison).
        released: Role,
        /// The role of the mover's man rescued (from the opponent's prison).
        rescued: Role,
        /// The empty square the rescued man is dropped on.
        to: Square,
    },
}

/// The kind of a [`Move`], without its details.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// [`Move::Normal`].
    Normal,
    /// [`Move::EnPassant`].
    EnPassant,
    /// [`Move::Castle`].
    Castle,
    /// [`Move::Drop`].
    Drop,
    /// [`Move::Exchange`].
    Exchange,
}

impl MoveKind {
    /// `"normal"`, `"en_passant"`, `"castle"`, `"drop"` or `"exchange"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MoveKind::Normal => "normal",
            MoveKind::EnPassant => "en_passant",
            MoveKind::Castle => "castle",
            MoveKind::Drop => "drop",
            MoveKind::Exchange => "exchange",
        }
    }
}

impl Move {
    /// The kind of move.
    #[must_use]
    pub const fn kind(&self) -> MoveKind {
        match self {
            Move::Normal { .. } => MoveKind::Normal,
            Move::EnPassant { .. } => MoveKind::EnPassant,
            Move::Castle { .. } => MoveKind::Castle,
            Move::Drop { .. } => MoveKind::Drop,
            Move::Exchange { .. } => MoveKind::Exchange,
        }
    }

    /// The role of the man that moves or is dropped (the king for castling,
    /// the rescued man for an exchange).
    #[must_use]
    pub const fn role(&self) -> Role {
        match *self {
            Move::Normal { role, .. } | Move::Drop { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
            Move::Exchange { rescued, .. } => rescued,
        }
    }

    /// The starting square of a board move; `None` for drops and exchanges.
    #[must_use]
    pub const fn from(&self) -> Option<Square> {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } | Move::Exchange { .. } => None,
        }
    }

    /// The square the man lands on. For castling this is the king's
    /// destination (g or c file), as in UCI.
    #[must_use]
    pub const fn to(&self) -> Square {
        match *self {
            Move::Normal { to, .. }
            | Move::EnPassant { to, .. }
            | Move::Drop { to, .. }
            | Move::Exchange { to, .. } => to,
            Move::Castle { king, rook } => Square::from_coords(
                if rook.index() < king.index() {
                    crate::File::C
                } else {
                    crate::File::G
                },
                king.rank(),
            ),
        }
    }

    /// The role captured, if any (a pawn for en passant).
    #[must_use]
    pub const fn capture(&self) -> Option<Role> {
        match *self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// Whether the move captures.
    #[must_use]
    pub const fn is_capture(&self) -> bool {
        self.capture().is_some()
    }

    /// The role fetched from the prison by a promotion (R7).
    #[must_use]
    pub const fn promotion(&self) -> Option<Role> {
        match *self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether a man is put on the board from outside it (drop or exchange).
    #[must_use]
    pub const fn is_drop(&self) -> bool {
        matches!(self, Move::Drop { .. } | Move::Exchange { .. })
    }

    /// Whether the move is an en-passant capture (R10).
    #[must_use]
    pub const fn is_en_passant(&self) -> bool {
        matches!(self, Move::EnPassant { .. })
    }

    /// Whether the move is castling (R9).
    #[must_use]
    pub const fn is_castling(&self) -> bool {
        matches!(self, Move::Castle { .. })
    }

    /// Whether the move is an exchange (R5).
    #[must_use]
    pub const fn is_exchange(&self) -> bool {
        matches!(self, Move::Exchange { .. })
    }

    /// Whether the move is an airfield drop (R6); [`Move::is_drop`] also
    /// counts the drop that ends an exchange.
    #[must_use]
    pub const fn is_airfield_drop(&self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// Whether the move resets the halfmove clock (R12): a capture, a pawn
    /// move, or a pawn put on the board by a drop or an exchange.
    #[must_use]
    pub const fn is_zeroing(&self) -> bool {
        self.is_capture() || matches!(self.role(), Role::Pawn)
    }

    /// The castling side, for a castling move.
    #[must_use]
    pub const fn castling_side(&self) -> Option<CastlingSide> {
        match *self {
            Move::Castle { king, rook } => Some(if rook.index() < king.index() {
                CastlingSide::QueenSide
            } else {
                CastlingSide::KingSide
            }),
            _ => None,
        }
    }
}

/// The side of the board a king castles to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (`O-O`).
    KingSide,
    /// Towards the a-file (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The rook's home corner for `color` (R9).
    #[must_use]
    pub const fn rook_square(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::H1,
            (CastlingSide::QueenSide, Color::White) => Square::A1,
            (CastlingSide::KingSide, Color::Black) => Square::H8,
            (CastlingSide::QueenSide, Color::Black) => Square::A8,
        }
    }

    /// The king's destination.
    #[must_use]
    pub const fn king_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::G1,
            (CastlingSide::QueenSide, Color::White) => Square::C1,
            (CastlingSide::KingSide, Color::Black) => Square::G8,
            (CastlingSide::QueenSide, Color::Black) => Square::C8,
        }
    }

    /// The rook's destination.
    #[must_use]
    pub const fn rook_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::F1,
            (CastlingSide::QueenSide, Color::White) => Square::D1,
            (CastlingSide::KingSide, Color::Black) => Square::F8,
            (CastlingSide::QueenSide, Color::Black) => Square::D8,
        }
    }
}

/// The king's home square, from which alone it can castle (R9).
#[must_use]
pub const fn king_home(color: Color) -> Square {
    match color {
        Color::White => Square::E1,
        Color::Black => Square::E8,
    }
}

/// A list of moves.
///
/// A Hostage Chess position can have well over a thousand legal moves
/// (16 exchange pairs and 5 airfield roles, each onto up to 62 squares, plus
/// the board moves), far beyond orthodox chess's 218, so the list is a
/// growable vector.
pub type MoveList = alloc::vec::Vec<Move>;
