//! # hostage-wasm
//!
//! WebAssembly bindings of [`hostage_core`], `hostage-engine` and
//! `hostage-puzzles`, published on npm as `hostage-chess`.
//!
//! The package is three WebAssembly modules, so that a page downloads only
//! what it imports; build.sh compiles this crate once per cargo feature:
//!
//! | feature | entry | exports |
//! | --- | --- | --- |
//! | `rules` | `hostage-chess` | `Board` ([`board`], [`query`], [`svg`]), `Setup` ([`setup`]), `isValidFen`, `isHostageError`, `version` |
//! | `engine` | `hostage-chess/engine` (and the Web Worker) | `Engine`, `engineLevels` ([`engine`]; its network, [`network`]) |
//! | `puzzles` | `hostage-chess/puzzles` | `Puzzles` ([`puzzles`]), `courseData` ([`course`]) |
//!
//! Values cross between the modules as text and plain objects only (FEN,
//! move strings, move objects, a `Board`'s `startFen()` and `history()`),
//! never as pointers into another module's memory. Native builds (tests,
//! clippy) compile all three features together.
//!
//! Each method converts its arguments, makes one call into those crates and
//! converts the result or the error; no rule of the game, search or rating
//! is decided here. Errors are thrown as real `Error` objects with `name`
//! and `code` ([`errors`]); values are plain objects ([`convert`]); the
//! TypeScript unions they follow are in [`types`].

// The crate documentation is a map of its private modules, for the people
// who work on it: it is never published on docs.rs.
#![allow(rustdoc::private_intra_doc_links)]
// A one-module build uses only part of the shared helpers of `convert` and
// `errors`; the all-features build (the one clippy checks) uses them all.
#![cfg_attr(
    not(all(feature = "rules", feature = "engine", feature = "puzzles")),
    allow(dead_code)
)]

/// The repository's README (`../README.md`), its Rust examples run as
/// doctests here: this crate is never packaged, so the file outside it is
/// always present, and it depends on both crates the examples use.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RootReadmeDoctests;

mod convert;
mod errors;
mod types;

#[cfg(feature = "rules")]
mod board;
#[cfg(feature = "rules")]
mod query;
#[cfg(feature = "rules")]
mod setup;
#[cfg(feature = "rules")]
mod svg;

#[cfg(feature = "engine")]
mod engine;
#[cfg(feature = "engine")]
mod network;

#[cfg(feature = "puzzles")]
mod course;
#[cfg(feature = "puzzles")]
mod puzzles;
