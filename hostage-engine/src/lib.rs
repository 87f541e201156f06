//! # hostage-engine
//!
//! A Hostage Chess engine built on [`hostage_core`]: an alpha-beta search
//! with an evaluation made for prisons and airfields, five bot levels from
//! Novice to Club, the players and statistics of engine matches, and the
//! UCI protocol.
//!
//! - [`Engine`]: search a position within [`Limits`] (nodes, depth, move
//!   time, MultiPV) for a [`SearchResult`] (best move, [`Score`],
//!   principal variation, depth, nodes, one [`Line`] per MultiPV line), or
//!   let a bot [`Level`] choose a move with a seed.
//! - [`eval`]: the static evaluation, every term documented.
//! - [`players`]: the players of a match (a level, full strength at a node
//!   budget, `random`, `greedy`), [`matches`] and [`stats`] to run one and
//!   judge it (W/D/L, Elo with its 95% interval, SPRT).
//! - [`book`]: the default opening book of matches and its generator.
//! - [`uci`]: the UCI protocol with `UCI_Variant hostage`, Hostage FEN and
//!   the library's long move form (`P@e4`, `N#B@c7`).
//!
//! The search is deterministic under node and depth limits, so a bot's move
//! is the same natively, in Python and in WebAssembly (`docs/engine.md`).
//!
//! # Example
//!
//! ```
//! use hostage_core::Position;
//! use hostage_engine::{Engine, Limits};
//!
//! let mut engine = Engine::new();
//! let result = engine.search(&Position::new(), &[], &Limits::nodes(5_000));
//! let best = result.best_move.expect("the start has moves");
//! assert!(Position::new().is_legal(&best));
//! assert!(result.depth >= 1 && result.nodes > 0);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

/// The README's Rust examples (rules and engine), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

pub mod book;
mod engine;
pub mod eval;
mod level;
mod limits;
pub mod matches;
mod ordering;
pub mod players;
mod rng;
mod score;
mod search;
pub mod see;
pub mod stats;
mod tt;
pub mod uci;

pub use engine::{history_of, Engine, SearchResult};
pub use level::{Level, ParseLevelError, Recipe};
pub use limits::{Limits, MAX_DEPTH};
pub use rng::Rng;
pub use score::Score;
pub use search::{Info, Line, Options, QS_EVASION_PLIES};
pub use tt::DEFAULT_HASH_MB;

/// `s` cut to at most 40 characters for an error message (long input is
/// never echoed whole).
pub(crate) fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}…")
    }
}
