//! Questions an analysis script asks of a position: who attacks a square,
//! what is pinned, which pawns are frozen, what a move does (check, capture,
//! clock, castling rights), and the colour-swapped mirror.
//!
//! Attacks follow R8: a frozen pawn (its side has no Q/R/B/N in the enemy
//! prison to promote to) attacks nothing on its last rank, so it neither
//! gives check nor counts as an attacker there. [`Position::frozen_pawns`]
//! lists those pawns, the one definition the SVG diagram and the bindings
//! use; [`Position::pseudo_checkers`] lists the frozen pawns next to the
//! king to move (R8a). The move questions expect a
//! legal move of this position, as python-chess's do; for another move the
//! answer is unspecified but never a panic.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{Bitboard, Color, Position, Square};
//!
//! let pos = Position::new();
//! // e3 is covered by the d2 and f2 pawns.
//! assert_eq!(pos.attackers_to(Square::E3, Color::White), Bitboard::from_square(Square::D2) | Square::F2);
//! assert!(!pos.is_attacked_by(Square::E4, Color::White));
//! // The mirror of the start: the same men, Black to move.
//! assert_eq!(pos.mirror().board_fen(), pos.board_fen());
//! assert_eq!(pos.mirror().turn(), Color::Black);
//! ```

use crate::{attacks, Bitboard, Color, Move, Piece, Position, Role, Square};

impl Position {
    /// The men of `by` that attack `sq` (R8: frozen pawns attack nothing on
    /// their last rank). A man pinned to its king still attacks.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Bitboard, Color, Position, Square};
    ///
    /// // Black's g2 pawn is frozen (White's prison holds no black piece):
    /// // it does not attack h1, so the king on h1 is not in check.
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/6p1/7K[] w - - 0 1")?;
    /// assert_eq!(pos.attackers_to(Square::H1, Color::Black), Bitboard::EMPTY);
    /// // With a black knight in White's prison it is live again.
    /// let live = Position::from_fen("4k3/8/8/8/8/8/6p1/7K[#n] w - - 0 1")?;
    /// assert_eq!(live.attackers_to(Square::H1, Color::Black), Bitboard::from_square(Square::G2));
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn attackers_to(&self, sq: Square, by: Color) -> Bitboard {
        self.attackers(sq, by, self.board().occupied())
    }

    /// Whether a man of `by` attacks `sq` (R8 applied, as
    /// [`Position::attackers_to`]).
    #[must_use]
    pub fn is_attacked_by(&self, sq: Square, by: Color) -> bool {
        self.attackers_to(sq, by).any()
    }

    /// The squares the man on `sq` attacks (empty for an empty square); a
    /// frozen pawn attacks nothing on its last rank (R8).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Position, Square};
    ///
    /// let pos = Position::new();
    /// assert_eq!(pos.attacks_from(Square::G1).count(), 3); // e2, f3, h3
    /// assert!(pos.attacks_from(Square::E4).is_empty());
    /// ```
    #[must_use]
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.board().piece_at(sq) else {
            return Bitboard::EMPTY;
        };
        let mut targets = attacks::attacks(piece.role, piece.color, sq, self.board().occupied());
        if piece.role == Role::Pawn && !self.can_promote(piece.color) {
            targets &= !Bitboard::from_rank(crate::Rank::EIGHTH.relative_to(piece.color));
        }
        targets
    }

    /// The pawns of `color` that are frozen (R8): on their 7th rank while
    /// the enemy prison holds no knight, bishop, rook or queen of `color` to
    /// promote to. They may not step onto the last rank and attack nothing
    /// there; an exchange or capture that puts such a man in the enemy
    /// prison thaws them all at once.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Bitboard, Color, Position, Square};
    ///
    /// // White's b7 pawn is frozen: Black's prison holds only a white pawn.
    /// let pos = Position::from_fen("4k3/1P6/8/8/8/8/6p1/4K3[#Pn] w - - 0 1")?;
    /// assert_eq!(pos.frozen_pawns_of(Color::White), Bitboard::from_square(Square::B7));
    /// // Black's g2 pawn is live: White's prison holds a black knight.
    /// assert_eq!(pos.frozen_pawns_of(Color::Black), Bitboard::EMPTY);
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn frozen_pawns_of(&self, color: Color) -> Bitboard {
        if self.can_promote(color) {
            return Bitboard::EMPTY;
        }
        self.pieces(Role::Pawn, color)
            & Bitboard::from_rank(crate::Rank::SEVENTH.relative_to(color))
    }

    /// The frozen pawns of both sides (R8; see [`Position::frozen_pawns_of`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Bitboard, Position, Square};
    ///
    /// // Both prisons are empty: the b7 and g2 pawns are both frozen.
    /// let pos = Position::from_fen("4k3/1P6/8/8/8/8/6p1/4K3[] w - - 0 1")?;
    /// assert_eq!(pos.frozen_pawns(), Bitboard::from_square(Square::B7) | Square::G2);
    /// assert!(Position::new().frozen_pawns().is_empty());
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn frozen_pawns(&self) -> Bitboard {
        self.frozen_pawns_of(Color::White) | self.frozen_pawns_of(Color::Black)
    }

    /// The men of `color` pinned to their own king by an enemy rook, bishop
    /// or queen (they may move only along the pin line).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Bitboard, Color, Position, Square};
    ///
    /// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3[] w - - 0 1")?;
    /// assert_eq!(pos.pinned(Color::White), Bitboard::from_square(Square::E2));
    /// assert_eq!(pos.pinned(Color::Black), Bitboard::EMPTY);
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn pinned(&self, color: Color) -> Bitboard {
        self.board()
            .by_color(color)
            .into_iter()
            .filter(|&sq| self.pin_mask(color, sq) != Bitboard::FULL)
            .collect()
    }

    /// The line a man of `color` on `sq` is pinned along (king to pinner,
    /// the whole rank, file or diagonal), or [`Bitboard::FULL`] if it is not
    /// pinned (or `sq` holds no man of `color`), as python-chess's `pin`.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{attacks, Bitboard, Color, Position, Square};
    ///
    /// let pos = Position::from_fen("4k3/4r3/8/8/8/8/4N3/4K3[] w - - 0 1")?;
    /// assert_eq!(pos.pin_mask(Color::White, Square::E2), Bitboard::from_file(hostage_core::File::E));
    /// assert_eq!(pos.pin_mask(Color::White, Square::E1), Bitboard::FULL);
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn pin_mask(&self, color: Color, sq: Square) -> Bitboard {
        let board = self.board();
        let Some(king) = board.king_of(color) else {
            return Bitboard::FULL;
        };
        if board.color_at(sq) != Some(color) || sq == king {
            return Bitboard::FULL;
        }
        let snipers = (attacks::rook_rays(king) & board.rooks_and_queens()
            | attacks::bishop_rays(king) & board.bishops_and_queens())
            & board.by_color(!color);
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & board.occupied();
            if blockers == Bitboard::from_square(sq) {
                return attacks::line(king, sniper);
            }
        }
        Bitboard::FULL
    }

    /// Whether the man of `color` on `sq` is pinned to its king.
    #[must_use]
    pub fn is_pinned(&self, color: Color, sq: Square) -> bool {
        self.pin_mask(color, sq) != Bitboard::FULL
    }

    /// The men of `color` and `role` on the board.
    #[must_use]
    pub fn pieces(&self, role: Role, color: Color) -> Bitboard {
        self.board().by_piece(Piece { color, role })
    }

    /// Whether the legal move `m` puts the opponent in check (pseudo-check
    /// by a frozen pawn does not count, R8a).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R[] w - - 0 1")?;
    /// assert!(pos.gives_check(&pos.parse_move("Rh8")?));
    /// assert!(!pos.gives_check(&pos.parse_move("Rh7")?));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn gives_check(&self, m: &Move) -> bool {
        if !self.is_legal(m) {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(*m);
        after.is_check()
    }

    /// Whether the legal move `m` resets the fifty-move count (R12): a
    /// capture, a pawn move, or a pawn put on the board by an airfield drop
    /// or an exchange. The same as [`Move::is_zeroing`].
    #[must_use]
    pub fn is_zeroing(&self, m: &Move) -> bool {
        m.is_zeroing()
    }

    /// Whether after the legal move `m` no earlier position of the game can
    /// occur again (R12 compares board, turn, castling rights in force,
    /// en passant, prisons and airfields).
    ///
    /// In Hostage Chess almost every change can be undone: a captured man
    /// comes back by exchange and drop, a pawn can be dropped back on its
    /// second rank, and a rook dropped on its corner revives a castling right
    /// (R9). What never comes back is a king's unmoved state, so `m` is
    /// irreversible exactly when it moves the king of a side that has a
    /// castling right in force: that right is gone for good. Captures and
    /// pawn moves, irreversible in orthodox chess, are [`Position::is_zeroing`].
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K2R[] w K - 0 1")?;
    /// assert!(pos.is_irreversible(&pos.parse_move("Kf1")?));
    /// assert!(pos.is_irreversible(&pos.parse_move("O-O")?));
    /// assert!(!pos.is_irreversible(&pos.parse_move("e4")?)); // zeroing, not irreversible
    /// assert!(!pos.is_irreversible(&pos.parse_move("Rh2")?)); // a rook dropped on h1 would revive K
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn is_irreversible(&self, m: &Move) -> bool {
        let us = self.turn();
        let king_moves = match *m {
            Move::Castle { .. } => true,
            Move::Normal { role, .. } => role == Role::King,
            _ => false,
        };
        king_moves
            && crate::CastlingSide::ALL
                .into_iter()
                .any(|side| self.has_castling_right(us, side))
    }

    /// The position with colours swapped and ranks flipped: each man changes
    /// colour and moves to the mirrored square, the side to move changes,
    /// and the prisons and airfields swap owners with their men recoloured
    /// (White's prison of black men becomes Black's prison of white men).
    /// Castling rights and the `E`/`e` marker swap sides (`K` becomes `k`),
    /// the en-passant square is mirrored, the clocks stay.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/R3K3[N#Pq] b Qe e3 0 1")?;
    /// assert_eq!(pos.mirror().fen(), "r3k3/8/8/3Pp3/8/8/8/4K3[n#Qp] w Eq e6 0 1");
    /// assert_eq!(pos.mirror().mirror(), pos);
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn mirror(&self) -> Position {
        let setup = self.to_setup().mirror();
        // The mirror image of a legal position is legal: every condition of
        // `from_setup` is symmetric in the colours.
        Position::from_setup(setup).unwrap_or_else(|_| self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("test FEN")
    }

    #[test]
    fn attackers_with_a_pin_and_frozen_pawns() {
        // The e2 knight is pinned by the e7 rook, yet it attacks d4 and f4.
        let p = pos("4k3/4r3/8/8/8/8/4N3/4K3[] w - - 0 1");
        assert!(p
            .attackers_to(Square::D4, Color::White)
            .contains(Square::E2));
        assert!(p.is_attacked_by(Square::E2, Color::Black));
        assert!(p.is_pinned(Color::White, Square::E2));
        assert!(!p.is_pinned(Color::Black, Square::E7));
        // A frozen white pawn on b7 attacks neither a8 nor c8 (R8).
        let frozen = pos("r1n1k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
        assert!(frozen.attacks_from(Square::B7).is_empty());
        assert!(!frozen.is_attacked_by(Square::A8, Color::White));
        let live = pos("r1n1k3/1P6/8/8/8/8/8/4K3[#R] w - - 0 1");
        assert_eq!(
            live.attacks_from(Square::B7),
            Bitboard::from_square(Square::A8) | Square::C8
        );
    }

    #[test]
    fn frozen_pawns_follow_the_enemy_prison() {
        // White pawns b7 (its 7th rank) and a2; Black pawns h7 (its 2nd
        // rank) and g2 (its 7th). A white queen in Black's prison lets White
        // promote; White's prison is empty, so Black's g2 pawn is frozen.
        let p = pos("4k3/1P5p/8/8/8/8/P5p1/4K3[#Q] w - - 0 1");
        assert_eq!(p.frozen_pawns(), Bitboard::from_square(Square::G2));
        assert_eq!(p.frozen_pawns_of(Color::White), Bitboard::EMPTY);
        // The prisons the other way round: now b7 is frozen and g2 live.
        let q = pos("4k3/1P5p/8/8/8/8/P5p1/4K3[#q] w - - 0 1");
        assert_eq!(q.frozen_pawns(), Bitboard::from_square(Square::B7));
        // A pawn held in the enemy prison cannot be promoted to (R7).
        let r = pos("4k3/1P5p/8/8/8/8/P5p1/4K3[#Pp] w - - 0 1");
        assert_eq!(
            r.frozen_pawns(),
            Bitboard::from_square(Square::B7) | Square::G2
        );
    }

    #[test]
    fn checks_by_exchange_and_drop() {
        // White's airfield holds a rook: R*e7 is check, R*a7 is not.
        let p = pos("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1");
        assert!(p.gives_check(&p.parse_move("R*e7").expect("legal")));
        assert!(!p.gives_check(&p.parse_move("R*a7").expect("legal")));
        // An illegal move gives no check.
        let illegal = Move::Drop {
            role: Role::Queen,
            to: Square::E7,
        };
        assert!(!p.gives_check(&illegal));
    }

    #[test]
    fn equal_positions_hash_equally() {
        use std::collections::HashSet;
        // Two move orders to the same position (clocks included: 4 plies,
        // no capture or pawn move).
        let play = |moves: &[&str]| {
            let mut p = Position::new();
            for text in moves {
                let m = p.parse_move(text).expect("legal");
                p.play_unchecked(m);
            }
            p
        };
        let a = play(&["Nf3", "Nc6", "Nc3", "Nf6"]);
        let b = play(&["Nc3", "Nf6", "Nf3", "Nc6"]);
        assert_eq!(a, b);
        let set: HashSet<Position> = [a, b, Position::new()].into_iter().collect();
        assert_eq!(set.len(), 2);
    }

    #[test]
    fn mirror_swaps_reserves_by_colour() {
        // White's airfield: a knight; White's prison: a black queen; Black's
        // prison: a white pawn. Mirrored: Black's airfield a knight, Black's
        // prison a white queen, White's prison a black pawn.
        let p = pos("4k3/8/8/8/8/8/8/4K3[N#Pq] w - - 3 7");
        let m = p.mirror();
        assert_eq!(m.airfield(Color::Black).count(Role::Knight), 1);
        assert!(m.airfield(Color::White).is_empty());
        assert_eq!(m.prison(Color::Black).count(Role::Queen), 1);
        assert_eq!(m.prison(Color::White).count(Role::Pawn), 1);
        assert_eq!(m.turn(), Color::Black);
        assert_eq!(m.fen(), "4k3/8/8/8/8/8/8/4K3[n#Qp] b - - 3 7");
    }
}
