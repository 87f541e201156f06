//! The board as text: the FEN's board field, diagrams in letters or
//! figurines (with the prisons and airfields), LAN and numbered SAN.

use hostage_core::{text::TextOptions, uci::UciMove, Color};
use pyo3::prelude::*;

use crate::{board::PyBoard, errors::ToPyErr, moves::PyMove};

#[pymethods]
impl PyBoard {
    /// The piece placement field of the FEN, without the reserves.
    fn board_fen(&self) -> String {
        self.pos().board_fen()
    }

    /// The board in figurines (python-chess's signature), then the prisons
    /// and airfields.
    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = '⭘', orientation = true))]
    fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: char,
        orientation: bool,
    ) -> String {
        let mut options = TextOptions::default();
        (options.unicode, options.borders, options.invert_color) = (true, borders, invert_color);
        (options.empty_square, options.reserves) = (empty_square, true);
        options.orientation = Color::from_white(orientation);
        self.pos().text(&options)
    }

    /// Long algebraic notation of a legal move (`Ng1-f3`, `e4xd5`, `N*c7`).
    fn lan(&self, r#move: PyRef<'_, PyMove>) -> PyResult<String> {
        Ok(self.pos().lan(&self.resolve(&r#move)?))
    }

    /// The moves as numbered SAN from the current position (`1. e4 e5`).
    fn variation_san(&self, variation: Vec<PyRef<'_, PyMove>>) -> PyResult<String> {
        let moves: Vec<UciMove> = variation.iter().map(|m| m.uci).collect();
        self.pos().variation_san_uci(&moves).map_err(|e| e.to_py())
    }

    fn __str__(&self) -> String {
        self.pos().text(&TextOptions::default())
    }
}
