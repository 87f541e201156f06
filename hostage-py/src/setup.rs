//! `Setup`: an editable position that need not be legal (the core's
//! [`Setup`]), what a board editor works on. Men and reserve contents are
//! set freely; `board()` validates and raises `PositionError` (naming the
//! FEN) when the result is not a legal position.

use hostage_core::{fen::Fen, Reserve, Setup};
use pyo3::{
    exceptions::PyTypeError,
    prelude::*,
    types::{PyDict, PyType},
};

use crate::{
    board::PyBoard,
    errors::ToPyErr,
    moves::{color, role, square, PyPiece},
    reserve::PyReserve,
};

/// A position that may be illegal, for editing.
#[pyclass(name = "Setup", module = "hostage", eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PySetup(pub Setup);

/// A reserve from a mapping of role numbers to counts.
fn reserve(counts: &Bound<'_, PyAny>) -> PyResult<Reserve> {
    let mut out = Reserve::EMPTY;
    let items = counts.call_method0("items").map_err(|_| {
        PyTypeError::new_err(format!(
            "reserve counts must be a mapping of roles to counts, not {}",
            crate::moves::named(counts)
        ))
    })?;
    for item in items.try_iter()? {
        let (key, n): (Bound<'_, PyAny>, u8) = item?.extract()?;
        out.set(role(&key)?, n);
    }
    Ok(out)
}

#[pymethods]
impl PySetup {
    /// The setup of a Hostage FEN (read, not validated); the start position
    /// by default.
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<PySetup> {
        match fen {
            None => Ok(PySetup(Setup::start())),
            Some(text) => Fen::from_ascii(text.as_bytes())
                .map(|f| PySetup(f.into_setup()))
                .map_err(|e| e.to_py()),
        }
    }

    /// An empty board, empty reserves, White to move.
    #[classmethod]
    fn empty(_cls: &Bound<'_, PyType>) -> PySetup {
        PySetup(Setup::empty())
    }

    /// The Hostage FEN of the setup (written even if it is not legal).
    fn fen(&self) -> String {
        Fen(self.0.clone()).to_string()
    }

    /// The man on `square`, or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        Ok(self.0.board.piece_at(self::square(square)?).map(PyPiece))
    }

    /// Every man on the board, by square.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        for (sq, p) in self.0.board.iter() {
            map.set_item(sq.index(), PyPiece(p))?;
        }
        Ok(map)
    }

    /// Puts `piece` on `square` (replacing what stood there); `None` empties it.
    fn set_piece_at(&mut self, square: &Bound<'_, PyAny>, piece: Option<PyPiece>) -> PyResult<()> {
        let sq = self::square(square)?;
        match piece {
            Some(PyPiece(p)) => self.0.board.set_piece_at(sq, p),
            None => {
                self.0.board.remove_piece_at(sq);
            }
        }
        Ok(())
    }

    /// Empties `square` and returns the man that stood there, if any.
    fn remove_piece_at(&mut self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        Ok(self
            .0
            .board
            .remove_piece_at(self::square(square)?)
            .map(PyPiece))
    }

    /// Empties the board and the reserves; White to move, no castling
    /// state, clocks `0 1`.
    fn clear(&mut self) {
        self.0 = Setup::empty();
    }

    /// `color`'s prison (the enemy men it holds).
    fn prison(&self, color: &Bound<'_, PyAny>) -> PyResult<PyReserve> {
        Ok(PyReserve(*self.0.prison(self::color(color)?)))
    }

    /// `color`'s airfield (its own men released by the opponent).
    fn airfield(&self, color: &Bound<'_, PyAny>) -> PyResult<PyReserve> {
        Ok(PyReserve(*self.0.airfield(self::color(color)?)))
    }

    /// Replaces `color`'s prison with `counts` (role number → count).
    fn set_prison(&mut self, color: &Bound<'_, PyAny>, counts: &Bound<'_, PyAny>) -> PyResult<()> {
        *self.0.prisons.get_mut(self::color(color)?) = reserve(counts)?;
        Ok(())
    }

    /// Replaces `color`'s airfield with `counts` (role number → count).
    fn set_airfield(
        &mut self,
        color: &Bound<'_, PyAny>,
        counts: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        *self.0.airfields.get_mut(self::color(color)?) = reserve(counts)?;
        Ok(())
    }

    /// The side to move (`True` for White).
    #[getter]
    fn get_turn(&self) -> bool {
        self.0.turn.is_white()
    }

    #[setter]
    fn set_turn(&mut self, turn: &Bound<'_, PyAny>) -> PyResult<()> {
        self.0.turn = color(turn)?;
        Ok(())
    }

    /// Drops castling state the board no longer supports (a king off its
    /// square, a corner without its rook).
    fn clean_castling_rights(&mut self) {
        self.0.clean_castling_rights();
    }

    /// The colour-swapped mirror image (see `Board.mirror`).
    fn mirror(&self) -> PySetup {
        PySetup(self.0.mirror())
    }

    /// `None` for a legal position, else the `PositionError` code
    /// (`"missing_king"`, ...).
    fn status(&self) -> Option<&'static str> {
        self.0.validate().err().map(|e| e.code())
    }

    /// Whether the setup is a legal position.
    fn is_valid(&self) -> bool {
        self.0.validate().is_ok()
    }

    /// The position as a `Board` with an empty move stack; raises
    /// `PositionError` (naming the FEN) if it is not legal.
    fn board(&self) -> PyResult<PyBoard> {
        Fen(self.0.clone())
            .into_position()
            .map(PyBoard::from_position)
            .map_err(|e| e.to_py())
    }

    fn __repr__(&self) -> String {
        format!("Setup('{}')", self.fen())
    }

    fn __copy__(&self) -> PySetup {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PySetup {
        self.clone()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.borrow().fen(),)))
    }
}
