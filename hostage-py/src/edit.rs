//! Editing a `Board`: men put and removed, the mirror image, the way to a
//! `Setup`. Every edit keeps the position legal (else `PositionError` and
//! no change) and clears the move stack; edits through illegal positions
//! are made on a `Setup`.

use hostage_core::Game;
use pyo3::prelude::*;

use crate::{board::PyBoard, errors::ToPyErr, moves::PyPiece, setup::PySetup};

#[pymethods]
impl PyBoard {
    /// Puts `piece` on `square` (or empties it for `None`) if the result is
    /// a legal position, and clears the move stack; else raises
    /// `PositionError` (naming the FEN) and changes nothing. For edits that
    /// pass through illegal positions, use a `Setup`.
    fn set_piece_at(&mut self, square: &Bound<'_, PyAny>, piece: Option<PyPiece>) -> PyResult<()> {
        let sq = crate::moves::square(square)?;
        let pos = self
            .pos()
            .edited(|s| match piece {
                Some(PyPiece(p)) => s.board.set_piece_at(sq, p),
                None => {
                    s.board.remove_piece_at(sq);
                }
            })
            .map_err(|e| e.to_py())?;
        self.game = Game::from_position(pos);
        Ok(())
    }

    /// Empties `square` and returns the man that stood there, if the result
    /// is a legal position (the move stack is cleared); else raises
    /// `PositionError` and changes nothing.
    fn remove_piece_at(&mut self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let sq = crate::moves::square(square)?;
        let removed = self.pos().board().piece_at(sq).map(PyPiece);
        let pos = self
            .pos()
            .edited(|s| {
                s.board.remove_piece_at(sq);
            })
            .map_err(|e| e.to_py())?;
        self.game = Game::from_position(pos);
        Ok(removed)
    }

    /// The colour-swapped mirror image (ranks flipped, prisons and airfields
    /// swapped between the sides), with an empty move stack.
    fn mirror(&self) -> PyBoard {
        PyBoard {
            game: Game::from_position(self.pos().mirror()),
        }
    }

    /// Replaces the position with its mirror image (see `mirror`) and
    /// clears the move stack.
    fn apply_mirror(&mut self) {
        self.game = Game::from_position(self.pos().mirror());
    }

    /// Always `True`: a `Board` holds only legal positions (see `Setup`).
    fn is_valid(&self) -> bool {
        true
    }

    /// The current position as an editable `Setup`.
    fn setup(&self) -> PySetup {
        PySetup(self.pos().to_setup())
    }
}
