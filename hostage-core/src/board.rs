//! [`Board`]: where the men stand, by role and by colour.

use core::fmt;

use crate::{attacks, Bitboard, ByColor, Color, Piece, Role, Square};

/// The 64 squares and the men on them. Any placement is representable;
/// [`crate::Position`] decides what is legal.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

impl Board {
    /// The empty board.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
        }
    }

    /// The standard starting placement (R1).
    #[must_use]
    pub const fn new() -> Board {
        Board {
            by_role: [
                Bitboard(0x00ff_0000_0000_ff00),
                Bitboard(0x4200_0000_0000_0042),
                Bitboard(0x2400_0000_0000_0024),
                Bitboard(0x8100_0000_0000_0081),
                Bitboard(0x0800_0000_0000_0008),
                Bitboard(0x1000_0000_0000_0010),
            ],
            by_color: [Bitboard(0xffff), Bitboard(0xffff_0000_0000_0000)],
        }
    }

    /// Every occupied square.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares of `color`'s men.
    #[inline]
    #[must_use]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of men of `role`, both colours.
    #[inline]
    #[must_use]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline]
    #[must_use]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_color(piece.color).0 & self.by_role(piece.role).0)
    }

    /// The squares of both sides' pawns.
    #[inline]
    #[must_use]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role(Role::Pawn)
    }

    /// Rooks and queens, both colours.
    #[inline]
    #[must_use]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens, both colours.
    #[inline]
    #[must_use]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The square of `color`'s king, if there is exactly one.
    #[must_use]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(Role::King.of(color)).single_square()
    }

    /// The role on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|&role| self.by_role(role).contains(sq))
    }

    /// The colour of the man on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The man on `sq`, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Removes and returns the man on `sq`, if any.
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(piece, sq);
        Some(piece)
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.toggle(piece, sq);
    }

    /// Adds or removes `piece` on `sq`; the square must be empty or hold exactly `piece`.
    #[inline]
    pub(crate) fn toggle(&mut self, piece: Piece, sq: Square) {
        self.by_role[piece.role.index()].toggle(sq);
        self.by_color[piece.color.index()].toggle(sq);
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub(crate) fn shift(&mut self, piece: Piece, from: Square, to: Square) {
        let mask = Bitboard::from_square(from) | to;
        self.by_role[piece.role.index()] ^= mask;
        self.by_color[piece.color.index()] ^= mask;
    }

    /// The men of `color` that attack `sq`, in orthodox geometry, given the
    /// occupied squares. R8's frozen pawns are excluded by the caller.
    #[inline]
    #[must_use]
    pub fn attackers_to(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(color);
        (attacks::rook_attacks(sq, occupied) & self.rooks_and_queens()
            | attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens()
            | attacks::knight_attacks(sq) & self.by_role(Role::Knight)
            | attacks::king_attacks(sq) & self.by_role(Role::King)
            | attacks::pawn_attacks(!color, sq) & self.by_role(Role::Pawn))
            & them
    }

    /// Iterates `(square, piece)` over the occupied squares, a1 to h8.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(move |sq| Some((sq, self.piece_at(sq)?)))
    }

    /// How many men of each colour and role stand on the board.
    #[must_use]
    pub fn material(&self) -> ByColor<[u8; 6]> {
        ByColor::new_with(|color| {
            let mut counts = [0; 6];
            for role in Role::ALL {
                counts[role.index()] = self.by_piece(role.of(color)).count() as u8;
            }
            counts
        })
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

/// Draws the board, rank 8 on top, with FEN letters and `.` for empty squares.
impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new_unchecked(rank * 8 + file);
                let ch = self.piece_at(sq).map_or('.', Piece::char);
                write!(f, "{ch}{}", if file < 7 { ' ' } else { '\n' })?;
            }
        }
        Ok(())
    }
}
