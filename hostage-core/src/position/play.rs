//! Playing a move on a [`Position`], the "make" of copy-make search.
//!
//! The board, the four reserves, the castling state, the clocks and the
//! Zobrist hash change together. Playing is two steps: what every move
//! does (the en-passant chance lapses, the clock advances, the turn and
//! the side-to-move key pass: `Position::pass_turn`), then what this
//! move does (`Position::play_passed`). A walk that plays every move of
//! one position (perft) does the first step once and starts each
//! child from a copy of it. Each kind of move collects the keys it toggles
//! (the men moved, captured or dropped, each reserve count that changes,
//! the castling rights) and xors them into the hash once. Board moves,
//! airfield drops and exchanges, nearly every move a search plays, take
//! short paths inlined into the caller; en passant, castling, promotions
//! and the rare changes of the castling state stay out of line.

use crate::{
    attacks,
    zobrist::{self, airfield_slot, prison_slot},
    Bitboard, CastlingSide, Color, Move, Role, Square,
};

use super::{PlayError, Position};

impl Position {
    /// Plays `m`, or hands back the unchanged position if it is not legal.
    ///
    /// # Errors
    ///
    /// [`PlayError`], holding the move and this position.
    // The error hands the position back by value, as shakmaty does: the
    // caller keeps it without a clone, so its size is the point.
    #[allow(clippy::result_large_err)]
    pub fn play(mut self, m: Move) -> Result<Position, PlayError> {
        if self.is_legal(&m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(PlayError {
                mv: m,
                position: self,
            })
        }
    }

    /// Plays `m` in place without checking legality. For move generators and
    /// perft; `m` must come from [`Position::legal_moves`] of this position,
    /// otherwise the position may become inconsistent (it never panics on a
    /// consistent one).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.play_ref(&m);
    }

    /// [`Position::play_unchecked`] reading the move in place, field by
    /// field as each kind needs them.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn play_ref(&mut self, m: &Move) {
        self.pass_turn();
        self.play_passed(m);
    }

    /// What every move does, whatever it is: the en-passant chance lapses,
    /// the halfmove clock advances (a zeroing move resets it afterwards),
    /// the turn passes and Black's moves are counted, with the side-to-move
    /// key. Walks that play many moves of one position start each from a
    /// copy of this ([`Position::passed`]).
    #[inline]
    fn pass_turn(&mut self) {
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.hash ^= zobrist::black_to_move();
        self.fullmoves = self.fullmoves.saturating_add(self.turn.index() as u32);
        self.turn = !self.turn;
    }

    /// This position with [`Position::pass_turn`] applied: the common
    /// start of every child, for [`Position::play_passed`].
    #[inline]
    pub(crate) fn passed(&self) -> Position {
        let mut base = self.clone();
        base.pass_turn();
        base
    }

    /// The rest of playing `m`, a legal move of the position this one was
    /// passed from ([`Position::pass_turn`]): `m`'s mover is the side *not*
    /// to move here.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn play_passed(&mut self, m: &Move) {
        self.play_passed_as(!self.turn, m);
    }

    /// [`Position::play_passed`] with its mover `us` (`!self.turn`) given,
    /// so that a caller that knows it as a constant makes every choice by
    /// colour (key and reserve indices) once, when compiled.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn play_passed_as(&mut self, us: Color, m: &Move) {
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => self.play_normal(us, role, from, capture, to, promotion),
            Move::Drop { role, to } => self.play_drop(us, role, to),
            Move::Exchange {
                released,
                rescued,
                to,
            } => self.play_exchange(us, released, rescued, to),
            Move::EnPassant { from, to } => self.play_en_passant(us, from, to),
            Move::Castle { king, rook } => self.play_castle(us, king, rook),
        }
    }

    /// [`Position::play_passed`] for a [`Move::Normal`].
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn play_normal(
        &mut self,
        us: Color,
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    ) {
        let mut key = 0;
        // R12: a capture or a pawn move resets the clock (`Move::is_zeroing`).
        if role == Role::Pawn || capture.is_some() {
            self.halfmoves = 0;
        }
        if let Some(captured) = capture {
            key ^= self.capture_on(us, captured, to);
        }
        match promotion {
            None => {
                self.board.shift(role.of(us), from, to);
                key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
            }
            Some(promoted) => key ^= self.promote(us, from, to, promoted),
        }
        // R9: the castling state changes only when a king moves or a man
        // leaves or is taken on a square of `unmoved` (a home corner or a
        // king's home square): one test for the common case.
        if role == Role::King || self.unmoved.intersects(Bitboard::from_square(from) | to) {
            key ^= self.update_unmoved(us, role, from, to, capture.is_some());
        }
        if role == Role::Pawn && from.index() ^ to.index() == 16 {
            // R10: only a double step beside an enemy pawn may allow en
            // passant. (A pawn's squares differ by 16 in their index bits
            // only after a double step: a push of one rank changes the
            // rank's bits by 1, 3 or 7, a capture changes the file.)
            let skipped = Square::new_unchecked((from.index() + to.index()) / 2);
            let adjacent =
                attacks::pawn_attacks(us, skipped) & self.board.by_piece(Role::Pawn.of(!us));
            if adjacent.any() {
                self.ep_square = Some(skipped);
            }
        }
        self.hash ^= key;
    }

    /// R6: a man of our airfield is put on the empty square `to`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn play_drop(&mut self, us: Color, role: Role, to: Square) {
        let slot = airfield_slot(us);
        let level = self.reserves[slot].take(role);
        self.board.toggle(role.of(us), to);
        let mut key = zobrist::piece(us, role, to) ^ zobrist::reserve(slot, role, level);
        if role == Role::Rook && Bitboard::CORNERS.contains(to) {
            key ^= self.rook_dropped_on_corner(us, to);
        }
        // R12: a pawn drop resets the clock.
        if role == Role::Pawn {
            self.halfmoves = 0;
        }
        self.hash ^= key;
    }

    /// R5: the enemy man of role `released` goes from our prison to their
    /// airfield, and our man of role `rescued` from their prison onto the
    /// empty square `to`.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn play_exchange(&mut self, us: Color, released: Role, rescued: Role, to: Square) {
        let ours = prison_slot(us);
        let theirs = prison_slot(!us);
        let airfield = airfield_slot(!us);
        let released_out = self.reserves[ours].take(released);
        let released_in = self.reserves[airfield].push(released);
        let rescued_out = self.reserves[theirs].take(rescued);
        self.board.toggle(rescued.of(us), to);
        let mut key = zobrist::piece(us, rescued, to)
            ^ zobrist::reserve(ours, released, released_out)
            ^ zobrist::reserve(airfield, released, released_in)
            ^ zobrist::reserve(theirs, rescued, rescued_out);
        if rescued == Role::Rook && Bitboard::CORNERS.contains(to) {
            key ^= self.rook_dropped_on_corner(us, to);
        }
        // R12: an exchange rescuing a pawn resets the clock.
        if rescued == Role::Pawn {
            self.halfmoves = 0;
        }
        self.hash ^= key;
    }

    /// R10: our pawn takes the enemy pawn beside it, landing behind it.
    #[inline(never)]
    fn play_en_passant(&mut self, us: Color, from: Square, to: Square) {
        let them = !us;
        let captured = Square::from_coords(to.file(), from.rank());
        self.board.toggle(Role::Pawn.of(them), captured);
        self.board.shift(Role::Pawn.of(us), from, to);
        let level = self.reserves[prison_slot(us)].push(Role::Pawn);
        self.hash ^= zobrist::piece(them, Role::Pawn, captured)
            ^ zobrist::piece(us, Role::Pawn, from)
            ^ zobrist::piece(us, Role::Pawn, to)
            ^ zobrist::reserve(prison_slot(us), Role::Pawn, level);
        self.halfmoves = 0;
    }

    /// R9: king and rook move together; the side's castling ends.
    #[inline(never)]
    fn play_castle(&mut self, us: Color, king: Square, rook: Square) {
        let side = if rook.index() < king.index() {
            CastlingSide::QueenSide
        } else {
            CastlingSide::KingSide
        };
        let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
        // Orthodox castling: neither man lands where the other starts.
        self.board.shift(Role::King.of(us), king, king_to);
        self.board.shift(Role::Rook.of(us), rook, rook_to);
        let unmoved = self.unmoved & !castling_squares(us);
        self.hash ^= zobrist::piece(us, Role::King, king)
            ^ zobrist::piece(us, Role::Rook, rook)
            ^ zobrist::piece(us, Role::King, king_to)
            ^ zobrist::piece(us, Role::Rook, rook_to)
            ^ self.set_unmoved(unmoved);
    }

    /// Takes the enemy man of role `captured` on `to` into our prison (R2);
    /// returns the keys it toggles.
    #[inline]
    fn capture_on(&mut self, us: Color, captured: Role, to: Square) -> u64 {
        let them = !us;
        self.board.toggle(captured.of(them), to);
        let level = self.reserves[prison_slot(us)].push(captured);
        zobrist::piece(them, captured, to) ^ zobrist::reserve(prison_slot(us), captured, level)
    }

    /// R7: the pawn on `from` and our man of role `promoted` in the
    /// opponent's prison change places, the man landing on `to`; returns
    /// the keys it toggles.
    #[cold]
    fn promote(&mut self, us: Color, from: Square, to: Square, promoted: Role) -> u64 {
        let slot = prison_slot(!us);
        self.board.toggle(Role::Pawn.of(us), from);
        self.board.toggle(promoted.of(us), to);
        let promoted_out = self.reserves[slot].take(promoted);
        let pawn_in = self.reserves[slot].push(Role::Pawn);
        zobrist::piece(us, Role::Pawn, from)
            ^ zobrist::piece(us, promoted, to)
            ^ zobrist::reserve(slot, promoted, promoted_out)
            ^ zobrist::reserve(slot, Role::Pawn, pawn_in)
    }

    /// R9: a man of `role` left `from` for `to` (taking a man there if
    /// `capture`):
    /// the squares lose their unmoved mark, and a king move ends castling.
    /// Returns the keys it toggles.
    #[cold]
    fn update_unmoved(
        &mut self,
        us: Color,
        role: Role,
        from: Square,
        to: Square,
        capture: bool,
    ) -> u64 {
        let mut cleared = Bitboard::from_square(from);
        if capture {
            cleared.add(to);
        }
        if role == Role::King {
            cleared |= castling_squares(us);
        }
        self.set_unmoved(self.unmoved & !cleared)
    }

    /// R9: a rook of ours dropped on the corner `to` counts as unmoved if
    /// `to` is one of our home corners and our king never moved, so the
    /// right comes back. Returns the keys it toggles.
    #[cold]
    fn rook_dropped_on_corner(&mut self, us: Color, to: Square) -> u64 {
        if self.king_unmoved(us) && CastlingSide::ALL.iter().any(|s| s.rook_square(us) == to) {
            self.set_unmoved(self.unmoved.with(to))
        } else {
            0
        }
    }

    /// The position with the turn passed to the other side and nothing
    /// moved: the "null move" of engines' null-move pruning. Not a move of
    /// the game. `None` when the side to move is in check (passing would
    /// leave its king attacked). The en-passant chance lapses and the
    /// halfmove clock advances, as after any non-zeroing move.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Color, Position};
    ///
    /// let pos = Position::new();
    /// let passed = pos.null_move().expect("not in check");
    /// assert_eq!(passed.turn(), Color::Black);
    /// assert_eq!(passed.board(), pos.board());
    /// assert_eq!(passed.zobrist_hash(), passed.zobrist_hash_from_scratch());
    /// ```
    #[must_use]
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        Some(self.passed())
    }

    /// Sets the castling state; returns the keys of the rights that change.
    #[inline]
    fn set_unmoved(&mut self, unmoved: Bitboard) -> u64 {
        if unmoved == self.unmoved {
            return 0;
        }
        let key = zobrist::castling_rights(self.unmoved) ^ zobrist::castling_rights(unmoved);
        self.unmoved = unmoved;
        key
    }
}

/// `color`'s king home square and home corners: the squares whose
/// unmoved marks end when its king moves or castles (R9).
#[inline]
fn castling_squares(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard::from_square(Square::E1) | Square::A1 | Square::H1,
        Color::Black => Bitboard::from_square(Square::E8) | Square::A8 | Square::H8,
    }
}
