//! `Board` (a [`Game`]: the start position, the moves played and the
//! positions reached): its state, the moves on its stack, and its
//! `legal_moves` view.
//!
//! The class is split by concern as the wasm binding's `Board` is: this
//! file holds the state and the move stack; the other `#[pymethods] impl
//! PyBoard` blocks add the end of the game ([`crate::outcome`]), the
//! questions of analysis ([`crate::query`]), text ([`crate::text`]),
//! editing ([`crate::edit`]), SVG ([`crate::svg`]) and PGN
//! ([`crate::pgn`]). pyo3's `multiple-pymethods` feature allows one block
//! per file; the alternative, one block here forwarding to helper
//! functions, would list every method twice and make this file import
//! every other one (the import circle board ↔ setup ↔ svg it replaced).
//! Those files import this one, never the reverse.
//!
//! Each method converts its arguments, makes one core call and maps the
//! error; the rules live in hostage-core.

use hostage_core::{game::Game, san::San, CastlingSide, Color, Move, Position, Square};
use pyo3::{
    exceptions::PyIndexError,
    prelude::*,
    types::{PyDict, PyIterator, PyList},
};

use crate::{
    errors::ToPyErr,
    moves::{PyMove, PyPiece},
    reserve::PyReserve,
};

/// A game of Hostage Chess in progress: a position with its move stack.
#[pyclass(name = "Board", module = "hostage")]
#[derive(Clone)]
pub struct PyBoard {
    pub game: Game,
}

impl PyBoard {
    /// A board holding `pos` with an empty move stack.
    pub fn from_position(pos: Position) -> PyBoard {
        PyBoard {
            game: Game::from_position(pos),
        }
    }

    /// The current position.
    pub fn pos(&self) -> &Position {
        self.game.position()
    }

    /// The legal move `mv` names here: its full move if that is legal,
    /// else the move its long form names.
    pub fn resolve(&self, mv: &PyMove) -> PyResult<Move> {
        let pos = self.pos();
        if let Some(m) = mv.full.filter(|m| pos.is_legal(m)) {
            return Ok(m);
        }
        // Otherwise the long form, read as this position reads it: the
        // core's error, as the JavaScript `push` of a move object gives.
        mv.uci.to_move(pos).map_err(|e| e.to_py())
    }

    fn from_fen(fen: Option<&str>) -> PyResult<Game> {
        match fen {
            None => Ok(Game::new()),
            Some(fen) => Position::from_fen(fen)
                .map(Game::from_position)
                .map_err(|e| e.to_py()),
        }
    }
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

    /// Plays a list of moves written as text (SAN or long form, with move
    /// numbers, comments, the inventor's `O O` and a final result allowed:
    /// the core's move-text layer) and returns how many were played. All or
    /// nothing: on error the board is unchanged and the error's `.ply` is
    /// the failing move's place in the list, from 1.
    fn push_moves(&mut self, moves: &str) -> PyResult<usize> {
        self.game.push_move_text(moves).map_err(|e| e.to_py())
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

    /// Forgets the move stack; the current position becomes the root.
    fn clear_stack(&mut self) {
        self.game = Game::from_position(self.pos().clone());
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

    /// Replays the pickled move stack from the start position (the core's
    /// move-list layer; a bad move raises naming its ply and position).
    fn __setstate__(&mut self, state: Vec<String>) -> PyResult<()> {
        self.game = Game::from_moves(self.game.start().clone(), &state).map_err(|e| e.to_py())?;
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
