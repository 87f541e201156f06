//! [`Setup`]: a position as plain data, not necessarily legal.

use core::num::NonZeroU32;

use crate::{mv::king_home, Bitboard, Board, ByColor, CastlingSide, Color, Reserve, Role, Square};

/// A not necessarily legal position: what the FEN parser produces and what
/// [`crate::Position::from_setup`] validates.
///
/// # Prisons and airfields
///
/// `prisons.white` is **White's prison**, holding the *black* men White
/// captured; `airfields.white` is **White's airfield**, holding *white* men
/// that Black released in exchanges (R2, R3).
///
/// # Castling
///
/// R9 needs more than the four orthodox rights, because a right can come
/// back: `unmoved` holds each king home square (e1, e8) whose king has never
/// moved, and each home corner (a1, h1, a8, h8) whose rook counts as unmoved
/// (it has stood there since the start or since it was dropped there). A
/// right is in force when both the king's square and the corner are in the
/// set. A corner without its king's square means nothing and is dropped by
/// [`Setup::normalized_unmoved`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The men on the board.
    pub board: Board,
    /// `prisons.white` holds the black men White captured, and vice versa (R2).
    pub prisons: ByColor<Reserve>,
    /// `airfields.white` holds white men Black released, and vice versa (R3).
    pub airfields: ByColor<Reserve>,
    /// The side to move.
    pub turn: Color,
    /// Never-moved kings (e1/e8) and unmoved home-corner rooks (R9).
    pub unmoved: Bitboard,
    /// The square behind a pawn that just made a double step, if any (R10).
    pub ep_square: Option<Square>,
    /// Plies since the last capture, pawn move or pawn drop (R12).
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after Black's move.
    pub fullmoves: NonZeroU32,
}

impl Setup {
    /// The starting position (R1): empty prisons and airfields, all castling
    /// rights.
    #[must_use]
    pub fn start() -> Setup {
        Setup {
            board: Board::new(),
            prisons: ByColor::default(),
            airfields: ByColor::default(),
            turn: Color::White,
            unmoved: Bitboard::CORNERS | Square::E1 | Square::E8,
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }

    /// An empty board, nothing held, White to move, no castling state.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            prisons: ByColor::default(),
            airfields: ByColor::default(),
            turn: Color::White,
            unmoved: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: NonZeroU32::MIN,
        }
    }

    /// `color`'s prison: the enemy men `color` captured (R2).
    #[must_use]
    pub const fn prison(&self, color: Color) -> &Reserve {
        self.prisons.get(color)
    }

    /// `color`'s airfield: `color`'s own men waiting to be dropped (R3).
    #[must_use]
    pub const fn airfield(&self, color: Color) -> &Reserve {
        self.airfields.get(color)
    }

    /// `unmoved` without corners whose king square is missing.
    #[must_use]
    pub fn normalized_unmoved(&self) -> Bitboard {
        let mut unmoved = self.unmoved & (Bitboard::CORNERS | Square::E1 | Square::E8);
        for color in Color::ALL {
            if !unmoved.contains(king_home(color)) {
                for side in CastlingSide::ALL {
                    unmoved.discard(side.rook_square(color));
                }
            }
        }
        unmoved
    }

    /// Whether `color` may still castle on `side` some time, i.e. the right
    /// written `K`, `Q`, `k` or `q` in FEN is in force (R9).
    #[must_use]
    pub fn has_castling_right(&self, color: Color, side: CastlingSide) -> bool {
        castling_right(self.unmoved, color, side)
    }

    /// How many men of each role `color` has in all: on the board, in its own
    /// airfield and in the enemy prison. A legal move never changes it (R1/R2).
    #[must_use]
    pub fn men(&self, color: Color) -> [u32; 6] {
        let mut men = [0; 6];
        for role in Role::ALL {
            men[role.index()] = self.board.by_piece(role.of(color)).count()
                + u32::from(self.airfield(color).count(role))
                + u32::from(self.prison(!color).count(role));
        }
        men
    }
}

impl Setup {
    /// The setup with colours swapped and ranks flipped (see
    /// [`crate::Position::mirror`]): men recoloured on mirrored squares, the
    /// prisons and airfields swapped between the sides, castling state and
    /// en-passant square mirrored, the other side to move.
    #[must_use]
    pub fn mirror(&self) -> Setup {
        let mut board = Board::empty();
        for (sq, piece) in self.board.iter() {
            board.set_piece_at(
                sq.flip_vertical(),
                crate::Piece {
                    color: !piece.color,
                    role: piece.role,
                },
            );
        }
        Setup {
            board,
            // White's prison (black men) becomes Black's prison (white men):
            // the counts per role stay, the owner and the men's colour swap.
            prisons: ByColor::new(
                *self.prisons.get(Color::Black),
                *self.prisons.get(Color::White),
            ),
            airfields: ByColor::new(
                *self.airfields.get(Color::Black),
                *self.airfields.get(Color::White),
            ),
            turn: !self.turn,
            unmoved: self.unmoved.flip_vertical(),
            ep_square: self.ep_square.map(Square::flip_vertical),
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// Drops the castling state the board no longer supports (python-chess's
    /// `clean_castling_rights`): a never-moved king mark whose king is off
    /// its home square, and an unmoved-rook corner without its own rook or
    /// without its king's mark (R9).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{fen::Fen, Square};
    ///
    /// let mut setup = Fen::from_ascii(b"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1")?.into_setup();
    /// setup.clean_castling_rights();
    /// assert_eq!(Fen(setup).to_string(), "4k3/8/8/8/8/8/8/4K2R[] w K - 0 1");
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    pub fn clean_castling_rights(&mut self) {
        let mut unmoved = self.normalized_unmoved();
        for color in Color::ALL {
            let king = Role::King.of(color);
            if self.board.piece_at(king_home(color)) != Some(king) {
                unmoved.discard(king_home(color));
            }
            for side in CastlingSide::ALL {
                let corner = side.rook_square(color);
                let rook = Role::Rook.of(color);
                if !unmoved.contains(king_home(color)) || self.board.piece_at(corner) != Some(rook)
                {
                    unmoved.discard(corner);
                }
            }
        }
        self.unmoved = unmoved;
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}

/// Whether the `unmoved` set (see [`Setup::unmoved`]) gives `color` the
/// right to castle on `side`: its king never moved and that corner's rook
/// counts as unmoved (R9).
pub(crate) fn castling_right(unmoved: Bitboard, color: Color, side: CastlingSide) -> bool {
    unmoved.contains(king_home(color)) && unmoved.contains(side.rook_square(color))
}
