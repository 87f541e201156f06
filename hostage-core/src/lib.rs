//! # hostage-core
//!
//! The rules of **Hostage Chess** (John Leslie, 1997): chess where captured
//! men become hostages in the captor's *prison* and come back by *exchange*
//! or from the *airfield*, and where a pawn promotes only to a man held in
//! the enemy prison.
//!
//! This crate knows every rule (numbered R1–R12 in `docs/rules.md`):
//! positions ([`Setup`], [`Position`]), legal moves of every kind
//! ([`Move`]: board moves, airfield drops, exchanges) and why a move is
//! illegal ([`IllegalReason`]), frozen pawns and pseudo-check, Hostage FEN
//! ([`fen`]), SAN ([`san`]) and UCI-style move text ([`uci`]), Zobrist
//! hashing ([`zobrist`]) and [`perft`].
//!
//! # Example
//!
//! ```
//! use hostage_core::{san::San, Color, Position, Role};
//!
//! let mut pos = Position::new();
//! for text in ["e4", "d5", "exd5", "Qxd5"] {
//!     let m = San::from_ascii(text.as_bytes())?.to_move(&pos)?;
//!     pos.play_unchecked(m);
//! }
//! // Each side has taken a pawn: both prisons hold one.
//! assert_eq!(pos.prison(Color::White).count(Role::Pawn), 1);
//! assert_eq!(pos.fen(), "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3");
//! assert_eq!(pos.legal_moves().len(), 62);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//!
//! - `std` (default): thiserror's `std` support. Without it the crate is
//!   `no_std` and needs only `alloc`; the error types still implement
//!   `core::error::Error`.
//! - `serde`: `Serialize`/`Deserialize` for the text types ([`fen::Fen`],
//!   [`san::San`], [`uci::UciMove`], [`Square`]) as strings.
//! - `svg` (default): [`svg::board`] draws a position as an SVG diagram,
//!   prisons and airfields included (no dependencies, `no_std` + `alloc`).

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

extern crate alloc;

/// This crate's README examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod attacks;
mod bitboard;
mod board;
mod color;
mod dests;
mod draws;
mod error_kind;
mod excerpt;
pub mod fen;
pub mod game;
mod hostages;
mod illegal;
mod movegen;
pub mod movetext;
mod mv;
mod perft;
pub mod pgn;
mod position;
mod query;
mod role;
pub mod san;
#[cfg(feature = "serde")]
mod serialize;
mod setup;
mod square;
#[cfg(feature = "svg")]
pub mod svg;
pub mod text;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::{ByColor, Color};
pub use dests::Dests;
pub use error_kind::ErrorKind;
pub use excerpt::Excerpt;
pub use game::{Game, GameError};
pub use hostages::Reserve;
pub use illegal::IllegalReason;
pub use movetext::MoveTextError;
pub use mv::{king_home, CastlingSide, Move, MoveKind, MoveList};
pub use perft::{divide, perft, perft_full};
pub use pgn::{PgnError, PgnGame};
pub use position::{Outcome, PlayError, Position, PositionError, Termination};
pub use role::{ByRole, Piece, Role};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};
