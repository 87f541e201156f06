//! # hostage-puzzles
//!
//! Hostage Chess puzzles: generated from bot games by the engine, proved or
//! re-checked, themed, rated with Glicko-2, and served near the player's
//! rating.
//!
//! - [`record`]: the data format (one puzzle a line) and its parser.
//! - [`judge`]: win chances and the "only winning move" test.
//! - [`mate`]: the exact mate prover (full width, drops and exchanges).
//! - [`themes`]: chess and Hostage themes, computed from the moves.
//! - [`generate`]: the generator (seeded, shardable).
//! - [`replay`]: a generator game replayed from its seed, and a puzzle's
//!   lead-in move recovered from it.
//! - [`initial`]: initial ratings from the bot levels that solve a puzzle.
//! - [`verify`]: the verifier.
//! - [`compose`]: the set's composition and the selection that meets it.
//! - [`glicko`]: Glicko-2 with lichess's puzzle parameters.
//! - [`selection`]: the next puzzle for a player.
//! - [`simulate`]: players of known strength training on a set.
//! - [`puzzles`]: the committed set, embedded.
//!
//! The library keeps no storage: ratings and the puzzles a player has seen
//! are passed in by the caller. `docs/puzzles.md` describes the whole
//! pipeline, the parameters and where each came from.
//!
//! # Example
//!
//! ```
//! use hostage_puzzles::{glicko::Rating, puzzles, selection::{next_puzzle, Difficulty}};
//!
//! let set = puzzles();
//! assert!(set.len() >= 500);
//! let player = Rating::new_player();
//! let seen = std::collections::HashSet::new();
//! let puzzle = next_puzzle(set, player.rating, Difficulty::Normal, &seen, 1).expect("a puzzle");
//! assert!(puzzle.position.is_legal(&puzzle.moves[0]));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// This crate's README examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod compose;
pub mod generate;
pub mod glicko;
pub mod initial;
pub mod judge;
pub mod mate;
pub mod record;
pub mod replay;
pub mod selection;
pub mod simulate;
pub mod themes;
pub mod verify;

use std::sync::OnceLock;

pub use record::{LeadIn, ParsePuzzleError, Puzzle};

/// The rules course for learners (`data/course.json`): fifteen lessons of
/// tasks, each checked with the rules by this crate's tests. The format is
/// described in the repository's `docs/course/README.md`; the CLI's
/// `hostage course build` writes the course's pages from it, and the Python
/// and JavaScript packages return it (`hostage.course.load()`,
/// `courseData()`).
///
/// ```
/// assert!(hostage_puzzles::COURSE_JSON.trim_start().starts_with('{'));
/// ```
pub const COURSE_JSON: &str = include_str!("../data/course.json");

/// The committed puzzle set's text (`data/puzzles.csv`).
pub const PUZZLES_CSV: &str = include_str!("../data/puzzles.csv");

/// The puzzle of the committed set with this id.
///
/// ```
/// let first = &hostage_puzzles::puzzles()[0];
/// assert_eq!(hostage_puzzles::find(&first.id), Some(first));
/// assert_eq!(hostage_puzzles::find("nope"), None);
/// ```
#[must_use]
pub fn find(id: &str) -> Option<&'static Puzzle> {
    puzzles().iter().find(|p| p.id == id)
}

/// The committed puzzle set, parsed once.
///
/// # Panics
///
/// Never: the embedded file is checked by the crate's tests.
#[must_use]
pub fn puzzles() -> &'static [Puzzle] {
    static SET: OnceLock<Vec<Puzzle>> = OnceLock::new();
    SET.get_or_init(|| record::parse_puzzles(PUZZLES_CSV).expect("the embedded set is tested"))
}
