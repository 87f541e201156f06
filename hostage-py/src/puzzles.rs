//! The native half of `hostage.puzzles`: the built-in set as plain tuples,
//! selection, the solution check and Glicko-2. `hostage/puzzles.py` wraps
//! the tuples in `Puzzle` and `Rating`. Each function converts, makes one
//! call into `hostage-puzzles` and maps the error.

use std::collections::HashSet;

use hostage_puzzles::{
    glicko::{self, Rating},
    record::{parse_puzzles, ParsePuzzleError, Puzzle},
    selection::{next_puzzle, Difficulty, ParseDifficultyError},
};
use pyo3::prelude::*;

use crate::errors::{error, HostageError, ToPyErr};

pyo3::create_exception!(
    hostage,
    PuzzleError,
    HostageError,
    "A puzzle record that cannot be read, or an unknown puzzle id (codes invalid_puzzle_*, unknown_puzzle)."
);
pyo3::create_exception!(
    hostage,
    DifficultyError,
    HostageError,
    "A difficulty that is none of easiest, easier, normal, harder, hardest (code invalid_difficulty)."
);

impl ToPyErr for ParsePuzzleError {
    fn to_py(&self) -> PyErr {
        error::<PuzzleError>(self.code(), self.to_string())
    }
}

impl ToPyErr for ParseDifficultyError {
    fn to_py(&self) -> PyErr {
        error::<DifficultyError>(self.code(), self.to_string())
    }
}

/// `(id, fen, moves, rating, rd, themes, seed, ply, solvers, depth,
/// lead_in_fen, lead_in)`.
type PyPuzzle = (
    String,
    String,
    Vec<String>,
    u32,
    u32,
    Vec<String>,
    u64,
    u32,
    String,
    u8,
    Option<String>,
    Option<String>,
);

/// `(rating, deviation, volatility)`.
type PyRating = (f64, f64, f64);

fn tuple(p: &Puzzle) -> PyPuzzle {
    (
        p.id.clone(),
        p.fen(),
        p.moves_text(),
        p.rating,
        p.deviation,
        p.themes.iter().map(|t| t.name().to_string()).collect(),
        p.seed,
        p.ply,
        p.solvers.iter().map(|d| char::from(b'0' + d)).collect(),
        p.depth,
        p.lead_in.as_ref().map(|l| l.position.fen()),
        p.lead_in.as_ref().map(|l| l.mv.to_string()),
    )
}

fn rating((rating, deviation, volatility): PyRating) -> Rating {
    Rating {
        rating,
        deviation,
        volatility,
    }
}

fn py_rating(r: Rating) -> PyRating {
    (r.rating, r.deviation, r.volatility)
}

fn find(id: &str) -> PyResult<&'static Puzzle> {
    hostage_puzzles::find(id).ok_or_else(|| {
        let shown: String = id.chars().take(40).collect();
        error::<PuzzleError>("unknown_puzzle", format!("unknown puzzle id: {shown:?}"))
    })
}

/// The built-in puzzle set.
#[pyfunction]
fn puzzle_records() -> Vec<PyPuzzle> {
    hostage_puzzles::puzzles().iter().map(tuple).collect()
}

/// Puzzles read from record text (`data/puzzles.csv` format).
#[pyfunction]
fn parse_puzzle_records(text: &str) -> PyResult<Vec<PyPuzzle>> {
    let set = parse_puzzles(text).map_err(|e| e.to_py())?;
    Ok(set.iter().map(tuple).collect())
}

/// The id of the next puzzle of the built-in set for a player.
#[pyfunction]
fn puzzle_next(
    rating: f64,
    difficulty: &str,
    seen: Vec<String>,
    seed: u64,
) -> PyResult<Option<String>> {
    let difficulty: Difficulty = difficulty
        .parse()
        .map_err(|e: ParseDifficultyError| e.to_py())?;
    let seen: HashSet<String> = seen.into_iter().collect();
    Ok(
        next_puzzle(hostage_puzzles::puzzles(), rating, difficulty, &seen, seed)
            .map(|p| p.id.clone()),
    )
}

/// Whether move text (SAN or long form) is right as move `index` of
/// puzzle `id` (`Puzzle::accepts_text`).
#[pyfunction]
fn puzzle_accepts(id: &str, index: usize, uci: &str) -> PyResult<bool> {
    find(id)?.accepts_text(index, uci).map_err(|e| e.to_py())
}

/// One attempt: `(player, puzzle)` after it (lichess's puzzle parameters).
#[pyfunction]
fn glicko_update(player: PyRating, puzzle: PyRating, solved: bool) -> (PyRating, PyRating) {
    let (p, z) = glicko::update_attempt(rating(player), rating(puzzle), solved);
    (py_rating(p), py_rating(z))
}

/// One rating period: `games` are `(rating, deviation, volatility, score)`.
#[pyfunction]
fn glicko_rate(player: PyRating, games: Vec<(f64, f64, f64, f64)>, tau: f64) -> PyRating {
    let games: Vec<glicko::Game> = games
        .into_iter()
        .map(|(r, d, v, score)| glicko::Game {
            opponent: rating((r, d, v)),
            score,
        })
        .collect();
    py_rating(glicko::rate(rating(player), &games, tau))
}

/// Adds the functions and exceptions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(puzzle_records, m)?)?;
    m.add_function(wrap_pyfunction!(parse_puzzle_records, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle_next, m)?)?;
    m.add_function(wrap_pyfunction!(puzzle_accepts, m)?)?;
    m.add_function(wrap_pyfunction!(glicko_update, m)?)?;
    m.add_function(wrap_pyfunction!(glicko_rate, m)?)?;
    for (name, ty) in [
        ("PuzzleError", py.get_type::<PuzzleError>()),
        ("DifficultyError", py.get_type::<DifficultyError>()),
    ] {
        ty.setattr("code", "")?;
        m.add(name, ty)?;
    }
    Ok(())
}
