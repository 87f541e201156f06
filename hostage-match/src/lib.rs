//! # hostage-match
//!
//! Engine matches for Hostage Chess, on top of [`hostage_engine`]: who
//! plays, how a game is refereed, how a match is scheduled and judged, and
//! the openings it starts from. The `hostage match` and `hostage book`
//! commands and the puzzle generator use it; the engine itself knows
//! nothing of it.
//!
//! - [`players`]: the [`Player`](players::Player) trait and the built-in
//!   players (a bot level, full strength at a node budget, `random`,
//!   `greedy`); [`uci_player`]: an external UCI engine as a player, which
//!   is restarted when it crashes or hangs.
//! - [`book`] (`hostage_engine::book`, re-exported): openings, books of
//!   them, the default book and the generator that made it.
//! - [`referee`]: one game between two players, with its ending, any
//!   forfeit and the engines' scores; [`clock`]: Fischer clocks for
//!   matches on time; [`adjudication`]: forfeited games judged from both
//!   engines' scores.
//! - [`matches`](mod@matches): a match over a book on several threads, with an optional
//!   SPRT stop; [`stats`]: W/D/L, Elo with its 95% interval, SPRT.
//!
//! Modules depend downwards only: `stats` and `players` on the engine,
//! `referee` on `book`, `players`, `clock` and `adjudication`, `matches`
//! on `referee` and `stats`.
//!
//! # Example
//!
//! ```
//! use hostage_match::{
//!     matches::{run_match, MatchConfig},
//!     book::Opening,
//!     players::{GreedyPlayer, RandomPlayer},
//! };
//!
//! let config = MatchConfig::new(Opening::parse_book("e2e4 e7e5\n")?).with_max_plies(40);
//! let result = run_match(
//!     &config,
//!     &|| Box::new(GreedyPlayer),
//!     &|| Box::new(RandomPlayer),
//!     &|_, _| {},
//! )?;
//! assert_eq!(result.wdl.games(), 2);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// This crate's README examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod adjudication;
pub use hostage_engine::book;
pub mod clock;
pub mod matches;
pub mod players;
pub mod referee;
pub mod stats;
pub mod uci_player;
