//! `SquareSet`: the core's `Bitboard` with python-chess's `SquareSet` surface
//! (iteration in square order, `len`, `in`, set operators, `int()`, an 8x8
//! drawing). Comparison accepts anything a `SquareSet` can be built from
//! (an int mask or an iterable of squares), as python-chess's does.

use hostage_core::{Bitboard, Square};
use pyo3::{exceptions::PyTypeError, prelude::*, types::PyInt};

/// A set of squares.
#[pyclass(name = "SquareSet", module = "hostage", frozen)]
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct PySquareSet(pub Bitboard);

impl PySquareSet {
    /// A set from an int mask, a `SquareSet` or an iterable of squares.
    fn from_any(obj: &Bound<'_, PyAny>) -> PyResult<Bitboard> {
        if let Ok(set) = obj.cast::<PySquareSet>() {
            return Ok(set.get().0);
        }
        if obj.is_instance_of::<PyInt>() {
            let mask: u64 = obj.extract().map_err(|_| {
                let given = crate::moves::named(obj);
                PyTypeError::new_err(format!("not a 64-bit square mask: {given}"))
            })?;
            return Ok(Bitboard(mask));
        }
        let mut bb = Bitboard::EMPTY;
        for item in obj.try_iter()? {
            bb.add(crate::moves::square(&item?)?);
        }
        Ok(bb)
    }
}

#[pymethods]
impl PySquareSet {
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<PySquareSet> {
        squares
            .map_or(Ok(Bitboard::EMPTY), PySquareSet::from_any)
            .map(PySquareSet)
    }

    /// The set as a 64-bit int (bit `n` for square `n`).
    #[getter]
    fn mask(&self) -> u64 {
        self.0 .0
    }

    fn __int__(&self) -> u64 {
        self.0 .0
    }

    fn __len__(&self) -> usize {
        self.0.count() as usize
    }

    fn __bool__(&self) -> bool {
        self.0.any()
    }

    fn __contains__(&self, square: &Bound<'_, PyAny>) -> bool {
        crate::moves::square(square).is_ok_and(|sq| self.0.contains(sq))
    }

    fn __iter__(&self) -> SquareSetIter {
        SquareSetIter(self.0)
    }

    fn __reversed__(&self) -> Vec<u32> {
        let mut squares = self.tolist();
        squares.reverse();
        squares
    }

    /// The squares, ascending.
    fn tolist(&self) -> Vec<u32> {
        self.0.into_iter().map(Square::index).collect()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        PySquareSet::from_any(other).is_ok_and(|bb| bb == self.0)
    }

    fn __hash__(&self) -> u64 {
        self.0 .0
    }

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(self.0 | PySquareSet::from_any(other)?))
    }

    fn __ror__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__or__(other)
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(self.0 & PySquareSet::from_any(other)?))
    }

    fn __rand__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__and__(other)
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(self.0 ^ PySquareSet::from_any(other)?))
    }

    fn __rxor__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__xor__(other)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(self.0 & !PySquareSet::from_any(other)?))
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(PySquareSet::from_any(other)? & !self.0))
    }

    fn __invert__(&self) -> PySquareSet {
        PySquareSet(!self.0)
    }

    /// Whether every square of this set is in `other`.
    fn issubset(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok((self.0 & !PySquareSet::from_any(other)?).is_empty())
    }

    /// Whether every square of `other` is in this set.
    fn issuperset(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok((PySquareSet::from_any(other)? & !self.0).is_empty())
    }

    /// Whether the sets share no square.
    fn isdisjoint(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(!self.0.intersects(PySquareSet::from_any(other)?))
    }

    /// The union (`|`).
    fn union(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__or__(other)
    }

    /// The intersection (`&`).
    fn intersection(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__and__(other)
    }

    /// The difference (`-`).
    fn difference(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__sub__(other)
    }

    /// The symmetric difference (`^`).
    fn symmetric_difference(&self, other: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        self.__xor__(other)
    }

    /// The same set (sets are immutable).
    fn copy(&self) -> PySquareSet {
        *self
    }

    /// The set with ranks flipped (a1 <-> a8).
    fn mirror(&self) -> PySquareSet {
        PySquareSet(self.0.flip_vertical())
    }

    /// The set of one square.
    #[staticmethod]
    fn from_square(square: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet(Bitboard::from_square(crate::moves::square(
            square,
        )?)))
    }

    /// The whole rank, file or diagonal through `a` and `b` (empty if they
    /// share none).
    #[staticmethod]
    fn ray(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        let (a, b) = (crate::moves::square(a)?, crate::moves::square(b)?);
        Ok(PySquareSet(hostage_core::attacks::line(a, b)))
    }

    /// The squares strictly between `a` and `b` on a line (empty if none).
    #[staticmethod]
    fn between(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        let (a, b) = (crate::moves::square(a)?, crate::moves::square(b)?);
        Ok(PySquareSet(hostage_core::attacks::between(a, b)))
    }

    fn __repr__(&self) -> String {
        format!("SquareSet({:#018x})", self.0 .0)
    }

    /// An 8x8 grid, rank 8 on top: `1` for a square in the set, `.` otherwise.
    fn __str__(&self) -> String {
        let rows: Vec<String> = (0..8u32)
            .rev()
            .map(|rank| {
                (0..8u32)
                    .map(|file| {
                        let sq = Square::new(rank * 8 + file).unwrap_or(Square::A1);
                        if self.0.contains(sq) {
                            "1"
                        } else {
                            "."
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        rows.join("\n")
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u64,))> {
        Ok((slf.get_type().into_any(), (slf.get().0 .0,)))
    }
}

/// Iterates a `SquareSet` in ascending square order.
#[pyclass(module = "hostage")]
pub struct SquareSetIter(Bitboard);

#[pymethods]
impl SquareSetIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<u32> {
        let sq = self.0.first()?;
        self.0.discard(sq);
        Some(sq.index())
    }
}
