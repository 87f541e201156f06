//! The perft positions of the `perft` bench and of the `compare` example
//! (`#[path]`-included there), with their node counts and the FEN read in
//! both libraries: one table, so that both time the same work.

use hostage_core::Position;
use shakmaty::{fen::Fen, CastlingMode, Chess};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White has no capture at ply 1, so no exchange is possible at ply 3.
const QUIET: &str = "r2q1rk1/pp1nbppp/2p1pnb1/3p4/3P1B2/2P1PN2/PP1NBPPP/R2Q1RK1 w - - 0 9";
/// 1.e4 d5 2.exd5 Qxd5: one man in each prison.
const SCANDI: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";
/// Both prisons full: many exchanges.
const PRISONS: &str = "r1b1k2r/pp3ppp/2n5/3q4/8/2N5/PP3PPP/R1BQK2R[#BNPPPbnppp] w KQkq - 0 10";
/// Men in both prisons and both airfields: exchanges and drops.
const AIRFIELDS: &str = "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[BNbn#BPPbpp] w KQkq - 0 12";

/// A position searched to `depth`, and the perft count there.
pub struct Row {
    pub name: &'static str,
    pub fen: &'static str,
    pub depth: u32,
    pub nodes: u64,
}

const fn row(name: &'static str, fen: &'static str, depth: u32, nodes: u64) -> Row {
    Row {
        name,
        fen,
        depth,
        nodes,
    }
}

/// Positions and depths where no exchange, drop or promotion can occur, so
/// Hostage Chess and orthodox chess have the same move tree and count.
pub const SHARED: &[Row] = &[
    row("start", START, 3, 8_902),
    row("start", START, 4, 197_281),
    row("quiet-mid", QUIET, 3, 54_827),
];

/// Hostage Chess only.
pub const HOSTAGE: &[Row] = &[
    row("start", START, 5, 4_865_877),
    row("scandi", SCANDI, 3, 199_491),
    row("prisons", PRISONS, 3, 12_938_448),
    row("airfields", AIRFIELDS, 3, 8_217_040),
];

/// The position in hostage-core.
pub fn hostage(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad Hostage FEN {fen}: {e}"))
}

/// The position in shakmaty (orthodox chess), for the shared rows.
pub fn orthodox(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("orthodox FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal orthodox position")
}
