//! # hostage-engine
//!
//! A Hostage Chess engine built on [`hostage_core`]: an alpha-beta search
//! evaluating with a small network over the board, the prisons and the
//! airfields ([`nnue`]: embedded natively, loaded at run time in
//! WebAssembly, [`Engine::load_network`]) or a hand-written evaluation made
//! for them (the bot levels), five bot levels from Novice to
//! Club, and the UCI protocol. Engine matches (players, the
//! runner, Elo and SPRT, the opening book) are the `hostage-match` crate.
//!
//! - [`Engine`]: search a position within [`Limits`] (nodes, depth, move
//!   time, MultiPV) for a [`SearchResult`] (best move, [`Score`],
//!   principal variation, depth, nodes, one [`Line`] per MultiPV line), or
//!   let a bot [`Level`] choose a move with a seed. Natively it also
//!   searches on its own thread (`Engine::go`, `stop`, `ponderhit`, `wait`
//!   with info and best-move callbacks, a `SearchRequest`), on a clock
//!   ([`TimeControl`], the time manager of `timeman.rs`) and with several
//!   threads sharing its table (Lazy SMP, [`Engine::set_threads`]).
//! - [`review`]: a game review as lichess makes it (judgements, accuracy,
//!   the PGN annotated with `[%eval …]`, NAGs and the best lines).
//! - [`nnue`]: the network evaluation: its inputs, its weights file
//!   ([`nnue::Network`], [`Engine::set_network`], [`Engine::load_network`])
//!   and its evaluation of a position.
//! - `eval` (feature `tuning`): the hand-written evaluation, every term
//!   documented.
//! - [`uci`] (native only): the UCI protocol with `UCI_Variant hostage`, Hostage FEN and
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

/// This crate's README examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod book;
mod correction;
mod engine;
#[cfg(feature = "tuning")]
pub mod eval;
#[cfg(not(feature = "tuning"))]
mod eval;
mod level;
mod limits;
pub mod nnue;
mod ordering;
pub mod review;
mod rng;
mod score;
mod search;
#[cfg(feature = "tuning")]
pub mod see;
#[cfg(not(feature = "tuning"))]
mod see;
mod smp;
#[cfg(not(target_family = "wasm"))]
mod thread;
mod timeman;
mod tt;
// UCI runs searches on the engine's thread: native only.
#[cfg(not(target_family = "wasm"))]
pub mod uci;

pub use engine::{history_of, Engine, SearchResult, MAX_THREADS};
pub use level::{Level, ParseLevelError, Recipe};
pub use limits::{Limits, DEFAULT_FULL_NODES, MAX_DEPTH};
pub use review::{GameReview, Judgement, MoveReview, PlayerReview};
#[cfg(feature = "tuning")]
pub use rng::Rng;
pub use score::Score;
pub use search::{Info, Line};
#[cfg(feature = "tuning")]
pub use search::{Options, QS_EVASION_PLIES};
#[cfg(not(target_family = "wasm"))]
pub use thread::{SearchRequest, Stopper};
pub use timeman::{TimeBudget, TimeControl};
pub use tt::{DEFAULT_HASH_MB, MAX_HASH_MB};
