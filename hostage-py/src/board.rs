//! `Board` (a [`Game`]: the start position, the moves played and the
//! positions reached), its `legal_moves` view, the `Reserve` mapping of a
//! prison or an airfield, and `Outcome`/`Termination`.
//!
//! Each method converts its arguments, makes one core call and maps the
//! error; the rules live in hostage-core.

use hostage_core::{
    game::Game, pgn::PgnResult, san::San, text::TextOptions, uci::UciMove, CastlingSide, Color,
    Move, Outcome, Position, Reserve, Role, Square, Termination,
};
use pyo3::{
    basic::CompareOp,
    exceptions::{PyIndexError, PyKeyError},
    prelude::*,
    types::{PyDict, PyIterator, PyList},
    IntoPyObjectExt,
};

use crate::{
    errors::{error, IllegalMoveError, ToPyErr},
    moves::{color, role_from_int, role_int, PyMove, PyPiece},
    setup::PySetup,
    squareset::PySquareSet,
};

/// How a game ended.
#[pyclass(name = "Termination", module = "hostage", eq, eq_int, frozen, hash)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub enum PyTermination {
    /// The side to move is in check and has no legal move (R11).
    #[pyo3(name = "CHECKMATE")]
    Checkmate,
    /// The side to move is not in check and has no legal move (R12).
    #[pyo3(name = "STALEMATE")]
    Stalemate,
    /// 100 plies without a capture, pawn move or pawn drop (R12).
    #[pyo3(name = "FIFTY_MOVES")]
    FiftyMoves,
    /// A position occurred for the third time (R12).
    #[pyo3(name = "THREEFOLD_REPETITION")]
    ThreefoldRepetition,
    /// A threefold repetition in which one side gave check with every move (R12).
    #[pyo3(name = "PERPETUAL_CHECK")]
    PerpetualCheck,
}

#[pymethods]
impl PyTermination {
    /// `"checkmate"`, `"stalemate"`, `"fifty_moves"`, `"threefold_repetition"`
    /// or `"perpetual_check"`.
    #[getter]
    fn value(&self) -> &'static str {
        Termination::from(*self).name()
    }
}

impl From<Termination> for PyTermination {
    fn from(t: Termination) -> PyTermination {
        match t {
            Termination::Checkmate => PyTermination::Checkmate,
            Termination::Stalemate => PyTermination::Stalemate,
            Termination::FiftyMoves => PyTermination::FiftyMoves,
            Termination::ThreefoldRepetition => PyTermination::ThreefoldRepetition,
            Termination::PerpetualCheck => PyTermination::PerpetualCheck,
        }
    }
}

impl From<PyTermination> for Termination {
    fn from(t: PyTermination) -> Termination {
        match t {
            PyTermination::Checkmate => Termination::Checkmate,
            PyTermination::Stalemate => Termination::Stalemate,
            PyTermination::FiftyMoves => Termination::FiftyMoves,
            PyTermination::ThreefoldRepetition => Termination::ThreefoldRepetition,
            PyTermination::PerpetualCheck => Termination::PerpetualCheck,
        }
    }
}

/// The end of a game: how, and who won (`None` for a draw).
#[pyclass(name = "Outcome", module = "hostage", frozen, eq, hash)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct PyOutcome(pub Outcome);

#[pymethods]
impl PyOutcome {
    #[new]
    #[pyo3(signature = (termination, winner))]
    fn new(termination: PyTermination, winner: Option<&Bound<'_, PyAny>>) -> PyResult<PyOutcome> {
        let winner = winner.map(color).transpose()?;
        Ok(PyOutcome(Outcome {
            termination: termination.into(),
            winner,
        }))
    }

    /// How the game ended.
    #[getter]
    fn termination(&self) -> PyTermination {
        self.0.termination.into()
    }

    /// `True` (White), `False` (Black) or `None` (draw).
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.0.winner.map(Color::is_white)
    }

    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    fn result(&self) -> &'static str {
        PgnResult::from_outcome(Some(self.0)).as_str()
    }

    fn __repr__(&self) -> String {
        let winner = match self.0.winner {
            Some(Color::White) => "True",
            Some(Color::Black) => "False",
            None => "None",
        };
        let name = self.0.termination.name().to_ascii_uppercase();
        format!("Outcome(termination=Termination.{name}, winner={winner})")
    }
}

/// A prison or an airfield: a read-only mapping role → count, holding only
/// roles with a non-zero count (like `collections.Counter`, a missing role
/// reads as 0).
#[pyclass(name = "Reserve", module = "hostage", frozen, mapping)]
#[derive(Copy, Clone)]
pub struct PyReserve(pub Reserve);

impl PyReserve {
    fn key(key: &Bound<'_, PyAny>) -> Option<Role> {
        key.extract::<i64>().ok().and_then(role_from_int)
    }

    fn letters(&self) -> String {
        self.0
            .iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r.upper_char(), usize::from(n)))
            .collect()
    }
}

#[pymethods]
impl PyReserve {
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<u8> {
        match PyReserve::key(key) {
            Some(role) => Ok(self.0.count(role)),
            None => Err(PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        PyReserve::key(key).is_some_and(|r| self.0.has(r))
    }

    fn __len__(&self) -> usize {
        self.0.roles().count()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.keys(py)?.try_iter()
    }

    /// The roles held, in the order Q R B N P.
    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.0.roles().map(role_int).collect::<Vec<_>>())
    }

    /// The counts, in the order of `keys()`.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.0.iter().map(|(_, n)| n).collect::<Vec<_>>())
    }

    /// `(role, count)` pairs, in the order of `keys()`.
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(
            py,
            self.0
                .iter()
                .map(|(r, n)| (role_int(r), n))
                .collect::<Vec<_>>(),
        )
    }

    /// The count of `key`, or `default` if it is not a role held.
    #[pyo3(signature = (key, default = None))]
    fn get(&self, key: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Py<PyAny>> {
        let py = key.py();
        match PyReserve::key(key) {
            Some(role) if self.0.has(role) => self.0.count(role).into_py_any(py),
            _ => Ok(default.unwrap_or_else(|| py.None())),
        }
    }

    /// How many men of `role` (0 if none).
    fn count(&self, role: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.0.count(crate::moves::role(role)?))
    }

    /// How many men in all.
    fn total(&self) -> u32 {
        self.0.total()
    }

    fn __bool__(&self) -> bool {
        !self.0.is_empty()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let equal = if let Ok(o) = other.cast::<PyReserve>() {
            self.0 == o.get().0
        } else if other.cast::<PyDict>().is_ok() {
            let mine = PyDict::from_sequence(&self.items(py)?.into_any())?;
            mine.eq(other)?
        } else {
            return Ok(py.NotImplemented());
        };
        match op {
            CompareOp::Eq => equal.into_py_any(py),
            CompareOp::Ne => (!equal).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        Role::HOSTAGES
            .iter()
            .fold(0u64, |h, &r| h * 31 + u64::from(self.0.count(r)))
    }

    fn __repr__(&self) -> String {
        format!("Reserve('{}')", self.letters())
    }

    fn __str__(&self) -> String {
        self.letters()
    }
}

/// A game of Hostage Chess in progress: a position with its move stack.
#[pyclass(name = "Board", module = "hostage")]
#[derive(Clone)]
pub struct PyBoard {
    pub game: Game,
}

impl PyBoard {
    fn pos(&self) -> &Position {
        self.game.position()
    }

    /// The legal move `mv` names here: its full move if that is legal,
    /// else the move its long form names.
    fn resolve(&self, mv: &PyMove) -> PyResult<Move> {
        let pos = self.pos();
        if let Some(m) = mv.full.filter(|m| pos.is_legal(m)) {
            return Ok(m);
        }
        mv.uci.to_move(pos).map_err(|_| illegal(mv, pos))
    }

    fn from_fen(fen: Option<&str>) -> PyResult<Game> {
        match fen {
            None => Ok(Game::new()),
            Some(fen) => Position::from_fen(fen)
                .map(Game::from_position)
                .map_err(|e| e.to_py()),
        }
    }

    fn render(&self) -> String {
        self.pos().text(&TextOptions::default())
    }
}

/// The error for a move that names no legal move in `pos` (the core's
/// `illegal_move`), naming the move and the position.
fn illegal(mv: &PyMove, pos: &Position) -> PyErr {
    error::<IllegalMoveError>(
        "illegal_move",
        format!("illegal move {} in {}", mv.uci, pos.fen()),
    )
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<PyBoard> {
        Ok(PyBoard {
            game: PyBoard::from_fen(fen)?,
        })
    }

    /// The canonical Hostage FEN of the current position.
    fn fen(&self) -> String {
        self.pos().fen()
    }

    /// Replaces the game with the position of `fen` and an empty move stack.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        self.game = PyBoard::from_fen(Some(fen))?;
        Ok(())
    }

    /// Back to the starting position with an empty move stack.
    fn reset(&mut self) {
        self.game = Game::new();
    }

    /// The side to move: `True` (WHITE) or `False` (BLACK).
    #[getter]
    fn turn(&self) -> bool {
        self.pos().turn().is_white()
    }

    /// The man on `square`, or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        Ok(self
            .pos()
            .board()
            .piece_at(crate::moves::square(square)?)
            .map(PyPiece))
    }

    /// Every man on the board, by square.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let map = PyDict::new(py);
        for (sq, p) in self.pos().board().iter() {
            map.set_item(sq.index(), PyPiece(p))?;
        }
        Ok(map)
    }

    /// `color`'s prison: the enemy men `color` has captured (R2).
    fn prison(&self, color: &Bound<'_, PyAny>) -> PyResult<PyReserve> {
        Ok(PyReserve(*self.pos().prison(crate::moves::color(color)?)))
    }

    /// `color`'s airfield: `color`'s own men released by the opponent (R3).
    fn airfield(&self, color: &Bound<'_, PyAny>) -> PyResult<PyReserve> {
        Ok(PyReserve(*self.pos().airfield(crate::moves::color(color)?)))
    }

    /// The rook corners whose castling right is in force, as a bitmask of
    /// squares (python-chess's convention: bit `1 << H1` for White's `K`).
    #[getter]
    fn castling_rights(&self) -> u64 {
        let pos = self.pos();
        let mut mask = 0;
        for c in [Color::White, Color::Black] {
            for side in CastlingSide::ALL {
                if pos.has_castling_right(c, side) {
                    mask |= 1u64 << side.rook_square(c).index();
                }
            }
        }
        mask
    }

    /// Whether `color` keeps a castling right on either side.
    fn has_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        let c = crate::moves::color(color)?;
        Ok(CastlingSide::ALL
            .iter()
            .any(|&s| self.pos().has_castling_right(c, s)))
    }

    /// Whether `color` keeps the right to castle king side (`K`/`k`).
    fn has_kingside_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self
            .pos()
            .has_castling_right(crate::moves::color(color)?, CastlingSide::KingSide))
    }

    /// Whether `color` keeps the right to castle queen side (`Q`/`q`).
    fn has_queenside_castling_rights(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self
            .pos()
            .has_castling_right(crate::moves::color(color)?, CastlingSide::QueenSide))
    }

    /// Whether `color`'s king has never moved, so that a rook dropped on a
    /// home corner brings a castling right back (R9; FEN `E`/`e`).
    fn king_unmoved(&self, color: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.pos().king_unmoved(crate::moves::color(color)?))
    }

    /// The en-passant square, only when an en-passant capture is legal.
    #[getter]
    fn ep_square(&self) -> Option<u32> {
        self.pos().ep_square().map(Square::index)
    }

    /// Plies since the last capture, pawn move or pawn drop (R12).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.game.halfmove_clock()
    }

    /// The move number: 1 at the start, incremented after each Black move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos().fullmoves().get()
    }

    /// The number of moves on the move stack.
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The legal moves: a live view supporting `len()`, `in` and iteration.
    #[getter]
    fn legal_moves(slf: Py<Self>) -> PyLegalMoves {
        PyLegalMoves { board: slf }
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> bool {
        r#move
            .cast::<PyMove>()
            .is_ok_and(|m| self.resolve(m.get()).is_ok())
    }

    /// Plays `move`; raises `IllegalMoveError` (board unchanged) if it is not legal.
    fn push(&mut self, r#move: PyRef<'_, PyMove>) -> PyResult<()> {
        if let Some(m) = r#move.full {
            if self.game.push(m).is_ok() {
                return Ok(());
            }
        }
        let m = self.resolve(&r#move)?;
        self.game.push(m).map_err(|e| e.to_py())
    }

    /// Plays a move written in SAN and returns it.
    fn push_san(&mut self, san: &str) -> PyResult<PyMove> {
        self.game
            .push_san(san)
            .map(PyMove::from_core)
            .map_err(|e| e.to_py())
    }

    /// Plays a move written in long (UCI) form and returns it.
    fn push_uci(&mut self, uci: &str) -> PyResult<PyMove> {
        self.game
            .push_uci(uci)
            .map(PyMove::from_core)
            .map_err(|e| e.to_py())
    }

    /// Takes back the last move and returns it; `IndexError` if there is none.
    fn pop(&mut self) -> PyResult<PyMove> {
        self.game
            .pop()
            .map(PyMove::from_core)
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))
    }

    /// The last move played; `IndexError` if there is none.
    fn peek(&self) -> PyResult<PyMove> {
        self.game
            .moves()
            .last()
            .copied()
            .map(PyMove::from_core)
            .ok_or_else(|| PyIndexError::new_err("peek at empty move stack"))
    }

    /// The moves played since the start position, oldest first (a copy).
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.game
            .moves()
            .iter()
            .copied()
            .map(PyMove::from_core)
            .collect()
    }

    /// A copy; with `stack=False` the copy starts from the current position.
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> PyBoard {
        if stack {
            self.clone()
        } else {
            PyBoard {
                game: Game::from_position(self.pos().clone()),
            }
        }
    }

    /// The start position of the move stack, as a new board.
    fn root(&self) -> PyBoard {
        PyBoard {
            game: Game::from_position(self.game.start().clone()),
        }
    }

    /// The canonical SAN of a legal move, with `+`/`#`.
    fn san(&self, r#move: PyRef<'_, PyMove>) -> PyResult<String> {
        Ok(San::write(self.pos(), &self.resolve(&r#move)?))
    }

    /// The long (UCI) form of a legal move.
    fn uci(&self, r#move: PyRef<'_, PyMove>) -> PyResult<String> {
        Ok(self.resolve(&r#move)?.to_string())
    }

    /// The legal move a SAN text names (lenient reading).
    fn parse_san(&self, san: &str) -> PyResult<PyMove> {
        self.pos()
            .parse_san(san)
            .map(PyMove::from_core)
            .map_err(|e| e.to_py())
    }

    /// The legal move a long-form text names.
    fn parse_uci(&self, uci: &str) -> PyResult<PyMove> {
        self.pos()
            .parse_uci(uci)
            .map(PyMove::from_core)
            .map_err(|e| e.to_py())
    }

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

    /// Whether the side to move is checkmated (R11).
    fn is_checkmate(&self) -> bool {
        self.pos().is_checkmate()
    }

    /// Whether the side to move is stalemated (R12).
    fn is_stalemate(&self) -> bool {
        self.pos().is_stalemate()
    }

    /// Whether 100 plies passed without a capture, pawn move or pawn drop (R12).
    fn is_fifty_moves(&self) -> bool {
        self.pos().is_fifty_moves()
    }

    /// Whether the current position has occurred at least `count` times.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: u32) -> bool {
        self.game.is_repetition(count)
    }

    /// How many times the current position has occurred (this time included).
    fn repetition_count(&self) -> u32 {
        self.game.repetition_count()
    }

    /// How the game has ended, or `None` (all of R11-R12; draws are automatic).
    fn outcome(&self) -> Option<PyOutcome> {
        self.game.outcome().map(PyOutcome)
    }

    /// Whether the game has ended.
    fn is_game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` while the game goes on.
    fn result(&self) -> &'static str {
        PgnResult::from_outcome(self.game.outcome()).as_str()
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

    /// Forgets the move stack; the current position becomes the root.
    fn clear_stack(&mut self) {
        self.game = Game::from_position(self.pos().clone());
    }

    /// Replaces the position with its mirror image (see `mirror`) and
    /// clears the move stack.
    fn apply_mirror(&mut self) {
        self.game = Game::from_position(self.pos().mirror());
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

    /// Whether the position has occurred three times: R12's automatic draw.
    fn can_claim_threefold_repetition(&self) -> bool {
        self.game.is_threefold_repetition()
    }

    /// Whether 100 plies passed without capture, pawn move or pawn drop:
    /// R12's automatic draw.
    fn can_claim_fifty_moves(&self) -> bool {
        self.game.is_fifty_moves()
    }

    /// Whether R12's automatic draw by repetition or fifty moves happened.
    fn can_claim_draw(&self) -> bool {
        self.game.can_claim_draw()
    }

    /// Whether the position has occurred five times.
    fn is_fivefold_repetition(&self) -> bool {
        self.game.is_fivefold_repetition()
    }

    /// Whether 150 plies passed without capture, pawn move or pawn drop.
    fn is_seventyfive_moves(&self) -> bool {
        self.game.is_seventyfive_moves()
    }

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
        self.pos().text(&TextOptions {
            unicode: true,
            borders,
            invert_color,
            empty_square,
            orientation: Color::from_white(orientation),
            reserves: true,
        })
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

    /// The colour-swapped mirror image (ranks flipped, prisons and airfields
    /// swapped between the sides), with an empty move stack.
    fn mirror(&self) -> PyBoard {
        PyBoard {
            game: Game::from_position(self.pos().mirror()),
        }
    }

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

    /// Always `True`: a `Board` holds only legal positions (see `Setup`).
    fn is_valid(&self) -> bool {
        true
    }

    /// The current position as an editable `Setup`.
    fn setup(&self) -> PySetup {
        PySetup(self.pos().to_setup())
    }

    /// Equal when the current positions are (board, reserves, turn,
    /// castling state, en passant and clocks; not the move stack).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBoard>()
            .is_ok_and(|o| o.borrow().pos() == self.pos())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.pos().fen())
    }

    /// The position as SVG, the last move highlighted (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        crate::svg::default_svg(self.pos(), self.game.moves().last().copied())
    }

    fn __str__(&self) -> String {
        self.render()
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// Pickled as `Board(start_fen)` plus the move stack in long form.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String,), Vec<String>)> {
        let this = slf.borrow();
        let moves = this.game.moves().iter().map(ToString::to_string).collect();
        Ok((slf.get_type().into_any(), (this.game.start().fen(),), moves))
    }

    fn __setstate__(&mut self, state: Vec<String>) -> PyResult<()> {
        let mut game = Game::from_position(self.game.start().clone());
        for uci in &state {
            game.push_uci(uci).map_err(|e| e.to_py())?;
        }
        self.game = game;
        Ok(())
    }
}

/// The legal moves of a board: `len()`, `in`, iteration; always of the
/// board's current position.
#[pyclass(name = "LegalMoves", module = "hostage", frozen)]
pub struct PyLegalMoves {
    board: Py<PyBoard>,
}

#[pymethods]
impl PyLegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.borrow(py).pos().count_legal_moves()
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        self.__len__(py) > 0
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        self.board.borrow(py).is_legal(r#move)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let moves = self.board.borrow(py).pos().legal_moves();
        PyList::new(py, moves.into_iter().map(PyMove::from_core))?.try_iter()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let board = self.board.borrow(py);
        let pos = board.pos();
        let sans: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| San::write(pos, m))
            .collect();
        format!("<LegalMoves ({})>", sans.join(", "))
    }
}
