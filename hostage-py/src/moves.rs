//! `Move`, `MoveKind` and `Piece`, and the conversions between Python's
//! plain values (squares 0..63, roles 1..6, colours as bools) and the core's
//! types.
//!
//! A Python `Move` is python-chess-like: its identity is its long (UCI) form,
//! so `Move.from_uci("e2e4") == move_from_legal_moves` and both hash alike. A
//! move taken from a board also remembers the core [`Move`] (moving role,
//! capture, kind); a move built from text without a board knows only what
//! the text says, and a board resolves it when it is played.

use std::{
    collections::hash_map::DefaultHasher,
    hash::{Hash, Hasher},
};

use hostage_core::{uci::UciMove, Color, Move, MoveKind, Piece, Role, Square};
use pyo3::{
    basic::CompareOp,
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    types::{PyInt, PyType},
    IntoPyObjectExt,
};

use crate::errors::{error, SquareError, ToPyErr};

/// A square from a Python int (0 = a1 ... 63 = h8).
pub fn square(obj: &Bound<'_, PyAny>) -> PyResult<Square> {
    let index: i64 = obj.extract().map_err(|e| {
        if obj.is_instance_of::<PyInt>() {
            square_error(obj)
        } else {
            e
        }
    })?;
    u32::try_from(index)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| square_error(obj))
}

fn square_error(obj: &Bound<'_, PyAny>) -> PyErr {
    error::<SquareError>(
        "invalid_square",
        format!("invalid square index: {}", named(obj)),
    )
}

/// A role from a Python int (1 = pawn ... 6 = king), as python-chess numbers them.
pub fn role(obj: &Bound<'_, PyAny>) -> PyResult<Role> {
    let n: i64 = obj.extract().map_err(|e| {
        if obj.is_instance_of::<PyInt>() {
            role_error(obj)
        } else {
            e
        }
    })?;
    role_from_int(n).ok_or_else(|| role_error(obj))
}

/// The role numbered `n` (1..=6), if any.
pub fn role_from_int(n: i64) -> Option<Role> {
    usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| Role::ALL.get(i).copied())
}

fn role_error(obj: &Bound<'_, PyAny>) -> PyErr {
    PyValueError::new_err(format!(
        "invalid role (piece type) {}: expected 1 (PAWN) to 6 (KING)",
        named(obj)
    ))
}

/// `obj` as it prints, shortened as the core shortens the input its errors
/// name (a huge int or string is never echoed whole).
pub fn named(obj: &Bound<'_, PyAny>) -> hostage_core::Excerpt {
    hostage_core::Excerpt::new(obj.to_string().as_bytes())
}

/// The Python number of a role.
pub fn role_int(role: Role) -> u8 {
    role as u8
}

/// A colour from a Python bool (`WHITE = True`).
pub fn color(obj: &Bound<'_, PyAny>) -> PyResult<Color> {
    obj.extract::<bool>().map(Color::from_white).map_err(|_| {
        PyTypeError::new_err("a colour is a bool: hostage.WHITE (True) or hostage.BLACK (False)")
    })
}

/// What kind of turn a move is.
#[pyclass(name = "MoveKind", module = "hostage", eq, eq_int, frozen, hash)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub enum PyMoveKind {
    /// A man moves on the board (perhaps capturing or promoting).
    #[pyo3(name = "NORMAL")]
    Normal,
    /// A pawn captures en passant.
    #[pyo3(name = "EN_PASSANT")]
    EnPassant,
    /// Castling.
    #[pyo3(name = "CASTLE")]
    Castle,
    /// A man of the airfield is dropped.
    #[pyo3(name = "DROP")]
    Drop,
    /// An exchange of prisoners, the rescued man dropped.
    #[pyo3(name = "EXCHANGE")]
    Exchange,
}

impl From<MoveKind> for PyMoveKind {
    fn from(kind: MoveKind) -> PyMoveKind {
        match kind {
            MoveKind::Normal => PyMoveKind::Normal,
            MoveKind::EnPassant => PyMoveKind::EnPassant,
            MoveKind::Castle => PyMoveKind::Castle,
            MoveKind::Drop => PyMoveKind::Drop,
            MoveKind::Exchange => PyMoveKind::Exchange,
        }
    }
}

#[pymethods]
impl PyMoveKind {
    /// `"normal"`, `"en_passant"`, `"castle"`, `"drop"` or `"exchange"`.
    #[getter]
    fn value(&self) -> &'static str {
        self.core().name()
    }
}

impl PyMoveKind {
    fn core(self) -> MoveKind {
        match self {
            PyMoveKind::Normal => MoveKind::Normal,
            PyMoveKind::EnPassant => MoveKind::EnPassant,
            PyMoveKind::Castle => MoveKind::Castle,
            PyMoveKind::Drop => MoveKind::Drop,
            PyMoveKind::Exchange => MoveKind::Exchange,
        }
    }
}

/// A move, python-chess style: equal and hashed by its long (UCI) form.
#[pyclass(name = "Move", module = "hostage", frozen)]
#[derive(Clone)]
pub struct PyMove {
    /// What the move says as text.
    pub uci: UciMove,
    /// The full move, when it came from a board.
    pub full: Option<Move>,
}

impl PyMove {
    /// A move taken from a board.
    pub fn from_core(m: Move) -> PyMove {
        PyMove {
            uci: UciMove::from_move(&m),
            full: Some(m),
        }
    }

    fn parse(text: &str) -> PyResult<PyMove> {
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(|e| e.to_py())?;
        Ok(PyMove { uci, full: None })
    }
}

#[pymethods]
impl PyMove {
    /// A board move from square to square (promotion: the role fetched from the prison).
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn new(
        from_square: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
        promotion: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        let (from, to) = (square(from_square)?, square(to_square)?);
        let promotion = promotion.map(role).transpose()?;
        // The text form goes through the core's parser, which rejects what UCI cannot say.
        let text = UciMove::Normal {
            from,
            to,
            promotion,
        }
        .to_string();
        PyMove::parse(&text)
    }

    /// Parses the long form: `e2e4`, `e7e8q`, `N@c7`, `P@c7`, `N#B@c7`.
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, uci: &str) -> PyResult<PyMove> {
        PyMove::parse(uci)
    }

    /// An airfield drop of `role` on `to_square`.
    #[classmethod]
    fn drop(
        _cls: &Bound<'_, PyType>,
        role: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
    ) -> PyResult<PyMove> {
        let text = UciMove::Drop {
            role: self::role(role)?,
            to: square(to_square)?,
        }
        .to_string();
        PyMove::parse(&text)
    }

    /// An exchange: release `released` from the mover's prison, rescue
    /// `rescued` and drop it on `to_square`.
    #[classmethod]
    fn exchange(
        _cls: &Bound<'_, PyType>,
        released: &Bound<'_, PyAny>,
        rescued: &Bound<'_, PyAny>,
        to_square: &Bound<'_, PyAny>,
    ) -> PyResult<PyMove> {
        let text = UciMove::Exchange {
            rescued: role(rescued)?,
            released: role(released)?,
            to: square(to_square)?,
        }
        .to_string();
        PyMove::parse(&text)
    }

    /// The long (UCI) form.
    fn uci(&self) -> String {
        self.uci.to_string()
    }

    /// The kind of move; `None` for a board move built without a board
    /// (`Move.from_uci("e1g1")` may be castling or not).
    #[getter]
    fn kind(&self) -> Option<PyMoveKind> {
        match (self.full, self.uci) {
            (Some(m), _) => Some(m.kind().into()),
            (None, UciMove::Drop { .. }) => Some(PyMoveKind::Drop),
            (None, UciMove::Exchange { .. }) => Some(PyMoveKind::Exchange),
            (None, UciMove::Normal { .. }) => None,
        }
    }

    /// The start square of a board move; `None` for drops and exchanges.
    #[getter(from_square)]
    fn origin(&self) -> Option<u32> {
        match self.uci {
            UciMove::Normal { from, .. } => Some(from.index()),
            _ => None,
        }
    }

    /// The square the man lands on (the king's square for castling).
    #[getter]
    fn to_square(&self) -> u32 {
        match self.uci {
            UciMove::Normal { to, .. }
            | UciMove::Drop { to, .. }
            | UciMove::Exchange { to, .. } => to.index(),
        }
    }

    /// The role of the man that moves or is put on the board; `None` for a
    /// board move built without a board.
    #[getter]
    fn role(&self) -> Option<u8> {
        match (self.full, self.uci) {
            (Some(m), _) => Some(role_int(m.role())),
            (None, UciMove::Drop { role, .. }) => Some(role_int(role)),
            (None, UciMove::Exchange { rescued, .. }) => Some(role_int(rescued)),
            (None, UciMove::Normal { .. }) => None,
        }
    }

    /// The role fetched from the prison by a promotion.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        match self.uci {
            UciMove::Normal { promotion, .. } => promotion.map(role_int),
            _ => None,
        }
    }

    /// The role captured; `None` when nothing is captured or when the move
    /// was built without a board.
    #[getter]
    fn captured(&self) -> Option<u8> {
        self.full.and_then(|m| m.capture()).map(role_int)
    }

    /// For an exchange: the role of the enemy man released from the mover's prison.
    #[getter]
    fn released(&self) -> Option<u8> {
        match self.uci {
            UciMove::Exchange { released, .. } => Some(role_int(released)),
            _ => None,
        }
    }

    /// For an exchange: the role of the mover's man rescued and dropped.
    #[getter]
    fn rescued(&self) -> Option<u8> {
        match self.uci {
            UciMove::Exchange { rescued, .. } => Some(role_int(rescued)),
            _ => None,
        }
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        match (other.cast::<PyMove>(), op) {
            (Ok(o), CompareOp::Eq) => (self.uci == o.get().uci).into_py_any(py),
            (Ok(o), CompareOp::Ne) => (self.uci != o.get().uci).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.uci.hash(&mut h);
        h.finish()
    }

    fn __str__(&self) -> String {
        self.uci.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_uci")?,
            (slf.get().uci.to_string(),),
        ))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// A man: a role and a colour.
#[pyclass(name = "Piece", module = "hostage", frozen, eq, hash)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct PyPiece(pub Piece);

#[pymethods]
impl PyPiece {
    #[new]
    fn new(piece_type: &Bound<'_, PyAny>, color: &Bound<'_, PyAny>) -> PyResult<PyPiece> {
        Ok(PyPiece(Piece {
            role: role(piece_type)?,
            color: self::color(color)?,
        }))
    }

    /// The piece of a FEN letter (`"P"` white pawn, `"q"` black queen).
    #[classmethod]
    fn from_symbol(_cls: &Bound<'_, PyType>, symbol: &str) -> PyResult<PyPiece> {
        let mut chars = symbol.chars();
        match (chars.next().and_then(Piece::from_char), chars.next()) {
            (Some(p), None) => Ok(PyPiece(p)),
            _ => Err(PyValueError::new_err(format!(
                "invalid piece symbol {}",
                hostage_core::Excerpt::new(symbol.as_bytes())
            ))),
        }
    }

    /// The role: 1 (PAWN) to 6 (KING).
    #[getter]
    fn piece_type(&self) -> u8 {
        role_int(self.0.role)
    }

    /// `True` for White.
    #[getter]
    fn color(&self) -> bool {
        self.0.color.is_white()
    }

    /// The FEN letter.
    fn symbol(&self) -> String {
        self.0.char().to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.char())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_symbol")?,
            (slf.get().symbol(),),
        ))
    }
}
