//! `EngineCore`: the native half of `hostage.engine` (python-chess's
//! `chess.engine` shape, in process). `hostage/engine.py` wraps its plain
//! tuples in `Limit`, `PovScore`, `InfoDict` and `PlayResult`.
//!
//! Each method copies what it needs out of the `Board` (the position and
//! the Zobrist hashes of the earlier positions, R12), releases the GIL and
//! drives the engine through the same calls as UCI: `Engine::go` (the search
//! runs on the engine's own thread) then `Engine::wait`. The `Engine` sits in
//! a mutex only because a Python object is shared between threads (calls on
//! one `Engine` run one after another); `stop()` is the engine's own
//! `Stopper`, which takes no lock and ends a running search from any thread.

use std::{
    sync::{Mutex, MutexGuard, PoisonError},
    time::Duration,
};

use hostage_core::pgn::PgnGame;
use hostage_engine::{
    history_of, Engine, Level, Limits, MoveReview, PlayerReview, Score, SearchRequest,
    SearchResult, Stopper, DEFAULT_HASH_MB,
};
use pyo3::{
    exceptions::{PyRuntimeError, PyValueError},
    prelude::*,
};

use crate::{board::PyBoard, errors::error, moves::PyMove};

pyo3::create_exception!(
    hostage,
    LevelError,
    crate::errors::HostageError,
    "A bot level name that is none of novice, beginner, casual, intermediate, club (code invalid_level)."
);

/// One line of a search: `(cp, mate, pv)`, exactly one of `cp` and `mate`
/// set, relative to the side to move.
type PyLine = (Option<i32>, Option<i32>, Vec<PyMove>);

/// A search result: `(best_move, depth, seldepth, nodes, lines)`.
type PyResult5 = (Option<PyMove>, u32, u32, u64, Vec<PyLine>);

fn line(score: Score, pv: &[hostage_core::Move]) -> PyLine {
    let (cp, mate) = match score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    };
    (
        cp,
        mate,
        pv.iter().copied().map(PyMove::from_core).collect(),
    )
}

fn head(r: &SearchResult, lines: Vec<PyLine>) -> PyResult5 {
    (
        r.best_move.map(PyMove::from_core),
        r.depth,
        r.seldepth,
        r.nodes,
        lines,
    )
}

/// The engine of `hostage.engine.Engine`.
#[pyclass(name = "EngineCore", module = "hostage", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stopper: Stopper,
    hash_mb: usize,
}

impl PyEngine {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Engine> {
        // A search never panics half-way through a table update that
        // matters; a poisoned lock still holds a usable engine.
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `go` then `wait`, without the GIL.
    fn run(
        &self,
        py: Python<'_>,
        pos: &hostage_core::Position,
        history: &[u64],
        request: SearchRequest,
    ) -> PyResult<SearchResult> {
        py.detach(|| {
            let mut engine = self.lock();
            engine.go(pos, history, request, |_| {}, |_| {});
            engine.wait()
        })
        .ok_or_else(|| PyRuntimeError::new_err("the search failed"))
    }
}

/// A score as `(cp, mate)`.
fn pair(s: Score) -> (Option<i32>, Option<i32>) {
    match s {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    }
}

/// One reviewed move: `(ply, white, move, san, before, after, best,
/// best_line, win_before, win_after, accuracy, judgement)`, scores for White.
type PyMoveReview = (
    usize,
    bool,
    PyMove,
    String,
    (Option<i32>, Option<i32>),
    (Option<i32>, Option<i32>),
    Option<PyMove>,
    Vec<PyMove>,
    f64,
    f64,
    f64,
    Option<&'static str>,
);

/// A player's summary: `(accuracy, acpl, inaccuracies, mistakes, blunders)`.
type PyPlayerReview = (Option<f64>, Option<u32>, usize, usize, usize);

/// The search limits of `analyse` and `review`; `time` is in seconds.
fn limits(
    nodes: Option<u64>,
    depth: Option<u32>,
    time: Option<f64>,
    multipv: usize,
) -> PyResult<Limits> {
    let movetime = time
        .map(Duration::try_from_secs_f64)
        .transpose()
        .map_err(|_| PyValueError::new_err("time must be a number of seconds >= 0"))?;
    let mut limits = Limits::infinite().with_multipv(multipv);
    (limits.nodes, limits.depth, limits.movetime) = (nodes, depth, movetime);
    Ok(limits)
}

fn move_review(m: &MoveReview) -> PyMoveReview {
    (
        m.ply,
        m.color == hostage_core::Color::White,
        PyMove::from_core(m.mv),
        m.san.clone(),
        pair(m.before),
        pair(m.after),
        m.best.map(PyMove::from_core),
        m.best_line.iter().copied().map(PyMove::from_core).collect(),
        m.win_before,
        m.win_after,
        m.accuracy,
        m.judgement.map(|j| j.name()),
    )
}

fn player_review(p: &PlayerReview) -> PyPlayerReview {
    (p.accuracy, p.acpl, p.inaccuracies, p.mistakes, p.blunders)
}

#[pymethods]
impl PyEngine {
    /// An engine with a table of `hash_mb` MiB, clamped by the engine to
    /// 1 ..= `MAX_HASH_MB` (4096).
    #[new]
    #[pyo3(signature = (hash_mb = DEFAULT_HASH_MB))]
    fn new(hash_mb: usize) -> PyEngine {
        let engine = Engine::with_hash_mb(hash_mb);
        PyEngine {
            stopper: engine.stopper(),
            hash_mb: engine.hash_mb(),
            engine: Mutex::new(engine),
        }
    }

    /// The transposition table size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Searches the board's position within the limits (none: until
    /// `stop()`), its move stack as history.
    #[pyo3(signature = (board, nodes = None, depth = None, time = None, multipv = 1))]
    fn analyse(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        nodes: Option<u64>,
        depth: Option<u32>,
        time: Option<f64>,
        multipv: usize,
    ) -> PyResult<PyResult5> {
        let limits = limits(nodes, depth, time, multipv.max(1))?;
        let pos = board.game.position().clone();
        let history = history_of(&board.game);
        drop(board);
        let r = self.run(py, &pos, &history, SearchRequest::limits(limits))?;
        let lines = r.lines.iter().map(|l| line(l.score, &l.pv)).collect();
        Ok(head(&r, lines))
    }

    /// The move the bot of `level` plays on the board with `seed`: one
    /// line, the chosen move's score and variation.
    fn play_level(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        level: &str,
        seed: u64,
    ) -> PyResult<PyResult5> {
        let level: Level = level
            .parse()
            .map_err(|e: hostage_engine::ParseLevelError| {
                error::<LevelError>(e.code(), e.to_string())
            })?;
        let pos = board.game.position().clone();
        let history = history_of(&board.game);
        drop(board);
        let r = self.run(py, &pos, &history, SearchRequest::level(level, seed))?;
        let lines = if r.best_move.is_some() {
            vec![line(r.score, &r.pv)]
        } else {
            Vec::new()
        };
        Ok(head(&r, lines))
    }

    /// Forgets what earlier searches learned.
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| self.lock().new_game());
    }

    /// Stops the running search (from another thread); it returns what it
    /// has found so far.
    fn stop(&self) {
        self.stopper.stop();
    }

    /// Reviews the game of `board` (its move stack from its start) within
    /// the limits: `(moves, white, black, pgn)`, `pgn` the annotated record
    /// (of `pgn`, the game's own PGN text, when given: its tags kept).
    /// `progress(done, total)` is called after each position searched; an
    /// exception it raises is re-raised once the review ends.
    #[pyo3(signature = (board, nodes = None, depth = None, time = None, progress = None, pgn = None))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn review(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        nodes: Option<u64>,
        depth: Option<u32>,
        time: Option<f64>,
        progress: Option<Py<PyAny>>,
        pgn: Option<String>,
    ) -> PyResult<(Vec<PyMoveReview>, PyPlayerReview, PyPlayerReview, String)> {
        let limits = limits(nodes, depth, time, 1)?;
        let game = board.game.clone();
        drop(board);
        let mut record = match pgn {
            Some(text) => PgnGame::read(&text).map_err(|e| PyValueError::new_err(e.to_string()))?,
            None => PgnGame::from_game(&game),
        };
        let mut failure: Option<PyErr> = None;
        let review = py.detach(|| {
            let mut report = |done: usize, total: usize| {
                if let (Some(cb), None) = (&progress, &failure) {
                    Python::attach(|py| {
                        if let Err(e) = cb.call1(py, (done, total)) {
                            failure = Some(e);
                        }
                    });
                }
            };
            self.lock().review(&game, &limits, &mut report)
        });
        if let Some(e) = failure {
            return Err(e);
        }
        review.annotate(&mut record);
        Ok((
            review.moves.iter().map(move_review).collect(),
            player_review(&review.white),
            player_review(&review.black),
            record.write(),
        ))
    }
}

/// `(name, rating)` of each level, weakest first (the rating is a label).
#[pyfunction]
pub fn engine_levels() -> Vec<(&'static str, u32)> {
    Level::ALL
        .iter()
        .map(|l| (l.name(), l.recipe().rating))
        .collect()
}

/// Adds `EngineCore`, `LevelError` and `engine_levels` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyEngine>()?;
    m.add_function(wrap_pyfunction!(engine_levels, m)?)?;
    m.add("DEFAULT_HASH_MB", DEFAULT_HASH_MB)?;
    m.add("MAX_HASH_MB", hostage_engine::MAX_HASH_MB)?;
    let ty = py.get_type::<LevelError>();
    ty.setattr("code", "")?;
    m.add("LevelError", ty)
}
