//! SVG diagrams (`hostage.svg.board`, `Board._repr_svg_`) over
//! `hostage_core::svg`.
//!
//! Conversion only: Python squares, colours and moves become an
//! [`SvgOptions`]; the drawing is the core's.

use hostage_core::svg::{self, Arrow, Mark, SvgOptions};
use pyo3::prelude::*;

use crate::{
    board::PyBoard,
    moves::{square, PyMove},
};

#[pymethods]
impl PyBoard {
    /// The position as SVG with the core's default options, the last move
    /// highlighted (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        let mut options = SvgOptions::default();
        options.last_move = self.game.moves().last().map(|m| m.to_uci());
        svg::board(self.pos(), &options)
    }
}

/// An SVG image of `board` (see `hostage.svg.board`, which wraps it).
#[pyfunction]
#[pyo3(signature = (
    board, *, size = None, flipped = false, coordinates = true, reserves = true,
    lastmove = None, check = true, frozen = true, arrows = Vec::new(), marks = Vec::new()
))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
pub fn svg_board(
    board: PyRef<'_, PyBoard>,
    size: Option<u32>,
    flipped: bool,
    coordinates: bool,
    reserves: bool,
    lastmove: Option<PyRef<'_, PyMove>>,
    check: bool,
    frozen: bool,
    arrows: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>, Option<String>)>,
    marks: Vec<(Bound<'_, PyAny>, String)>,
) -> PyResult<String> {
    let mut options = SvgOptions::default();
    options.size = size;
    options.flipped = flipped;
    options.coordinates = coordinates;
    options.reserves = reserves;
    options.last_move = lastmove.map(|m| m.uci);
    options.check = check;
    options.frozen = frozen;
    for (from, to, color) in &arrows {
        let color = color.as_deref().unwrap_or(svg::DEFAULT_ARROW_COLOR);
        options
            .arrows
            .push(Arrow::with_color(square(from)?, square(to)?, color));
    }
    for (sq, color) in &marks {
        options.marks.push(Mark::new(square(sq)?, color));
    }
    Ok(svg::board(board.game.position(), &options))
}
