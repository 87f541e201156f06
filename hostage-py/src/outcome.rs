//! The end of a game: `Termination`, `Outcome`, and the `Board` methods
//! that ask whether and how the game has ended (R11, R12; the draws are
//! automatic, see `hostage_core::game`).

use hostage_core::{pgn::PgnResult, Color, Outcome, Termination};
use pyo3::prelude::*;

use crate::{board::PyBoard, moves::color};

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

#[pymethods]
impl PyBoard {
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
}
