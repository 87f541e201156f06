//! Python bindings for hostage-core: the native module `hostage._hostage`,
//! re-exported by the `hostage` package (`python/hostage/__init__.py`).
//!
//! Registration only; the classes live in [`board`] (with the rest of
//! `Board` by concern in [`outcome`], [`query`], [`text`], [`edit`],
//! [`svg`] and [`pgn`]), [`moves`], [`reserve`], [`pgn`], [`setup`],
//! [`squareset`], the engine in [`engine`] (its network in [`network`]),
//! the puzzles in [`puzzles`], the
//! SVG function in [`svg`] and the exceptions in [`errors`]. No rules, search or rating here: every method converts,
//! calls into hostage-core, hostage-engine or hostage-puzzles once and maps
//! the error.

// The crate documentation is a map of its private modules, for the people
// who work on it: it is never published on docs.rs.
#![allow(rustdoc::private_intra_doc_links)]

mod board;
mod edit;
mod engine;
mod errors;
mod moves;
mod network;
mod outcome;
mod pgn;
mod puzzles;
mod query;
mod reserve;
mod setup;
mod squareset;
mod svg;
mod text;

use pyo3::prelude::*;

/// The square named `name` (`"e4"` → 28).
#[pyfunction]
fn parse_square(name: &str) -> PyResult<u32> {
    use errors::ToPyErr;
    hostage_core::Square::from_ascii(name.as_bytes())
        .map(|s| s.index())
        .map_err(|e| e.to_py())
}

/// The name of `square` (28 → `"e4"`).
#[pyfunction]
fn square_name(square: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(moves::square(square)?.to_string())
}

/// The rules course ([`hostage_puzzles::COURSE_JSON`]) as JSON text, built into
/// the module; `hostage.course.load` parses it.
#[pyfunction]
fn course_json() -> &'static str {
    hostage_puzzles::COURSE_JSON
}

#[pymodule]
fn _hostage(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<board::PyLegalMoves>()?;
    m.add_class::<reserve::PyReserve>()?;
    m.add_class::<outcome::PyOutcome>()?;
    m.add_class::<outcome::PyTermination>()?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<moves::PyMoveKind>()?;
    m.add_class::<moves::PyPiece>()?;
    m.add_class::<setup::PySetup>()?;
    m.add_class::<squareset::PySquareSet>()?;
    m.add_class::<pgn::PyPgnGame>()?;
    m.add_class::<pgn::PyPgnReader>()?;
    m.add_function(wrap_pyfunction!(parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(square_name, m)?)?;
    m.add_function(wrap_pyfunction!(svg::svg_board, m)?)?;
    m.add_function(wrap_pyfunction!(course_json, m)?)?;
    m.add(
        "SVG_DEFAULT_ARROW_COLOR",
        hostage_core::svg::DEFAULT_ARROW_COLOR,
    )?;
    errors::register(m)?;
    engine::register(m)?;
    network::register(m)?;
    puzzles::register(m)?;
    Ok(())
}
