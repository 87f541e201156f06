//! The questions of analysis, as python-chess asks them: check and
//! pseudo-check, frozen pawns, attackers and attacks, pins, where the men
//! stand, what a legal move does, perft and the Zobrist hash.
//!
//! Attacks follow R8 (a frozen pawn attacks nothing on its last rank); the
//! move questions take a legal move of the position (`IllegalMoveError`
//! otherwise).

use hostage_core::{uci::UciMove, CastlingSide, Color, Square};
use pyo3::prelude::*;

use crate::{
    board::PyBoard,
    errors::ToPyErr,
    moves::{color, role_int, PyMove},
    squareset::PySquareSet,
};

#[pymethods]
impl PyBoard {
    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Whether the king to move is attacked only by a frozen pawn (R8a).
    fn is_pseudo_check(&self) -> bool {
        self.pos().is_pseudo_check()
    }

    /// The squares of the men giving check.
    fn checkers(&self) -> PySquareSet {
        PySquareSet(self.pos().checkers())
    }

    /// The enemy pawns next to the king to move that would check it if
    /// they were not frozen (R8a); empty whenever the enemy can promote.
    fn pseudo_checkers(&self) -> PySquareSet {
        PySquareSet(self.pos().pseudo_checkers())
    }

    /// The frozen pawns (R8: on their 7th rank while the enemy prison holds
    /// no Q/R/B/N of their side): of `color`, or of both sides for `None`.
    #[pyo3(signature = (color = None))]
    fn frozen_pawns(&self, color: Option<&Bound<'_, PyAny>>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(match color {
            Some(c) => self.pos().frozen_pawns_of(self::color(c)?),
            None => self.pos().frozen_pawns(),
        }))
    }

    /// The men of `color` attacking `square` (R8: a frozen pawn attacks
    /// nothing on its last rank).
    fn attackers(
        &self,
        color: &Bound<'_, PyAny>,
        square: &Bound<'_, PyAny>,
    ) -> PyResult<PySquareSet> {
        let (c, sq) = (self::color(color)?, crate::moves::square(square)?);
        Ok(PySquareSet(self.pos().attackers_to(sq, c)))
    }

    /// Whether a man of `color` attacks `square` (R8 applied).
    fn is_attacked_by(
        &self,
        color: &Bound<'_, PyAny>,
        square: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let (c, sq) = (self::color(color)?, crate::moves::square(square)?);
        Ok(self.pos().is_attacked_by(sq, c))
    }

    /// The squares the man on `square` attacks (empty if there is none).
    fn attacks(&self, square: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(
            self.pos().attacks_from(crate::moves::square(square)?),
        ))
    }

    /// The line along which the man of `color` on `square` is pinned to its
    /// king, or every square if it is not pinned (python-chess's `pin`).
    fn pin(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        let (c, sq) = (self::color(color)?, crate::moves::square(square)?);
        Ok(PySquareSet(self.pos().pin_mask(c, sq)))
    }

    /// Whether the man of `color` on `square` is pinned to its king.
    fn is_pinned(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (c, sq) = (self::color(color)?, crate::moves::square(square)?);
        Ok(self.pos().is_pinned(c, sq))
    }

    /// The men of `color` pinned to their king.
    fn pinned(&self, color: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(self.pos().pinned(self::color(color)?)))
    }

    /// The square of `color`'s king (always present: positions are legal).
    fn king(&self, color: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        Ok(self
            .pos()
            .board()
            .king_of(self::color(color)?)
            .map(Square::index))
    }

    /// The squares of the men of role `piece_type` and colour `color`.
    fn pieces(
        &self,
        piece_type: &Bound<'_, PyAny>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<PySquareSet> {
        let (r, c) = (crate::moves::role(piece_type)?, self::color(color)?);
        Ok(PySquareSet(self.pos().pieces(r, c)))
    }

    /// The colour of the man on `square` (`True` for White), or `None`.
    fn color_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        let sq = crate::moves::square(square)?;
        Ok(self.pos().board().color_at(sq).map(Color::is_white))
    }

    /// The role (piece type) of the man on `square`, or `None`.
    fn piece_type_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        let sq = crate::moves::square(square)?;
        Ok(self.pos().board().role_at(sq).map(role_int))
    }

    /// `attackers(color, square)` as an int mask.
    fn attackers_mask(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.attackers(color, square)?.0 .0)
    }

    /// `attacks(square)` as an int mask.
    fn attacks_mask(&self, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.attacks(square)?.0 .0)
    }

    /// `pieces(piece_type, color)` as an int mask.
    fn pieces_mask(
        &self,
        piece_type: &Bound<'_, PyAny>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<u64> {
        Ok(self.pieces(piece_type, color)?.0 .0)
    }

    /// `pin(color, square)` as an int mask.
    fn pin_mask(&self, color: &Bound<'_, PyAny>, square: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.pin(color, square)?.0 .0)
    }

    /// `checkers()` as an int mask.
    fn checkers_mask(&self) -> u64 {
        self.pos().checkers().0
    }

    /// Whether an en-passant capture is legal now.
    fn has_legal_en_passant(&self) -> bool {
        self.pos().ep_square().is_some()
    }

    /// The legal board move from `from_square` to `to_square` (promoting to
    /// `promotion` if given); `IllegalMoveError` if there is none.
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn find_move(
        &self,
        from_square: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
        promotion: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        let uci = UciMove::Normal {
            from: crate::moves::square(from_square)?,
            to: crate::moves::square(to_square)?,
            promotion: promotion.map(crate::moves::role).transpose()?,
        };
        uci.to_move(self.pos())
            .map(PyMove::from_core)
            .map_err(|e| e.to_py())
    }

    /// Whether the legal `move` castles king side.
    fn is_kingside_castling(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        let side = self.resolve(&r#move)?.castling_side();
        Ok(side == Some(CastlingSide::KingSide))
    }

    /// Whether the legal `move` castles queen side.
    fn is_queenside_castling(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        let side = self.resolve(&r#move)?.castling_side();
        Ok(side == Some(CastlingSide::QueenSide))
    }

    /// Whether the legal `move` gives check.
    fn gives_check(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.pos().gives_check(&self.resolve(&r#move)?))
    }

    /// Whether the legal `move` captures (en passant included).
    fn is_capture(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.is_capture())
    }

    /// Whether the legal `move` resets the fifty-move count (R12: capture,
    /// pawn move, pawn drop or pawn rescued by exchange).
    fn is_zeroing(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.pos().is_zeroing(&self.resolve(&r#move)?))
    }

    /// Whether after the legal `move` no earlier position can recur: only a
    /// king's move while its side has a castling right (see docs/python.md).
    fn is_irreversible(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.pos().is_irreversible(&self.resolve(&r#move)?))
    }

    /// Whether the legal `move` is an en-passant capture.
    fn is_en_passant(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.is_en_passant())
    }

    /// Whether the legal `move` is castling.
    fn is_castling(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.is_castling())
    }

    /// Whether the legal `move` puts a man on the board from outside it (an
    /// airfield drop or the drop of an exchange).
    fn is_drop(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.is_drop())
    }

    /// Whether the legal `move` is an exchange (R5).
    fn is_exchange(&self, r#move: PyRef<'_, PyMove>) -> PyResult<bool> {
        Ok(self.resolve(&r#move)?.is_exchange())
    }

    /// The number of legal move sequences of `depth` plies (perft).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.pos().clone();
        py.detach(move || hostage_core::perft(&pos, depth))
    }

    /// The Zobrist hash: equal for positions R12 counts as the same.
    fn zobrist_hash(&self) -> u64 {
        self.pos().zobrist_hash()
    }
}
