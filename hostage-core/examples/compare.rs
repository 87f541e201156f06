//! Perft throughput of hostage-core side by side with shakmaty, in one run:
//! `cargo run --release -p hostage-core --example compare`.
//!
//! Shared rows are positions and depths where Hostage Chess and orthodox
//! chess have the same move tree (no exchange, drop or promotion can occur
//! within the depth), so both libraries do the same work; their node counts
//! are asserted equal. Hostage-only rows time hostage-core alone.
//!
//! Columns: `bulk` is [`hostage_core::perft`] (last ply counted, not
//! played), `full` is [`hostage_core::perft_full`] (every leaf played),
//! `shak` is `shakmaty::perft` (last ply generated, not played) and
//! `shak-full` plays every leaf in shakmaty, the counterpart of `full`.
//!
//! Each cell is the best of 3 samples; a sample repeats the call until it
//! has run for at least `MIN_SAMPLE`, and the time shown is per call.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hostage_core::{perft, perft_full, Position};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position as _};

/// Shared rows: `(name, FEN, depth)`, same count in both libraries.
const SHARED: &[(&str, &str, u32)] = &[
    ("start", START, 3),
    ("start", START, 4),
    // White has no capture at ply 1, so no exchange is possible at ply 3.
    ("quiet-mid", QUIET, 3),
];

/// Hostage-only rows: `(name, FEN, depth)`.
const HOSTAGE: &[(&str, &str, u32)] = &[
    ("start", START, 5),
    // 1.e4 d5 2.exd5 Qxd5: one man in each prison.
    (
        "scandi",
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
        3,
    ),
    // Both prisons full: many exchanges.
    ("prisons", PRISONS, 3),
    // Men in both prisons and both airfields: exchanges and drops.
    ("airfields", AIRFIELDS, 3),
];

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const QUIET: &str = "r2q1rk1/pp1nbppp/2p1pnb1/3p4/3P1B2/2P1PN2/PP1NBPPP/R2Q1RK1 w - - 0 9";
const PRISONS: &str = "r1b1k2r/pp3ppp/2n5/3q4/8/2N5/PP3PPP/R1BQK2R[#BNPPPbnppp] w KQkq - 0 10";
const AIRFIELDS: &str = "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[BNbn#BPPbpp] w KQkq - 0 12";

/// shakmaty without bulk counting: every leaf is played, like `perft_full`.
/// The same walk as `perft_full`: the last ply is played on a copy and
/// counted, without a call per leaf.
fn shakmaty_full(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(*m);
                std::hint::black_box(&child);
                1
            })
            .sum();
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty_full(&child, depth - 1)
        })
        .sum()
}

const MIN_SAMPLE: Duration = Duration::from_millis(100);

/// Best-of-3 time per call of `f`, and its result.
fn time(mut f: impl FnMut() -> u64) -> (Duration, u64) {
    let start = Instant::now();
    let nodes = black_box(f());
    let once = start.elapsed().max(Duration::from_nanos(1));
    let reps = (MIN_SAMPLE.as_nanos() / once.as_nanos()).clamp(1, 10_000) as u32;
    let best = (0..3)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reps {
                assert_eq!(black_box(f()), nodes);
            }
            start.elapsed() / reps
        })
        .min()
        .expect("three samples");
    (best, nodes)
}

fn cell(d: Duration, nodes: u64) -> String {
    let secs = d.as_secs_f64();
    format!("{:>10.3} {:>8.1}", secs * 1e3, nodes as f64 / secs / 1e6)
}

fn cell_wide(d: Duration, nodes: u64) -> String {
    format!("  {}", cell(d, nodes))
}

fn hostage(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad Hostage FEN {fen}: {e}"))
}

fn main() {
    println!(
        "{:<10} {:>2} {:>12} {:>12} | {:>10} {:>8} | {:>10} {:>8} | {:>10} {:>8} | {:>12} {:>8} | {:>9}",
        "position",
        "d",
        "nodes(ours)",
        "nodes(shak)",
        "bulk ms",
        "Mnps",
        "full ms",
        "Mnps",
        "shak ms",
        "Mnps",
        "shak-full ms",
        "Mnps",
        "bulk/shak"
    );
    println!("{}", "-".repeat(146));
    for &(name, fen, depth) in SHARED {
        let pos = hostage(fen);
        let chess: Chess = fen
            .parse::<Fen>()
            .expect("orthodox FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal orthodox position");
        let (bulk, n_bulk) = time(|| perft(black_box(&pos), depth));
        let (full, n_full) = time(|| perft_full(black_box(&pos), depth));
        let (shak, n_shak) = time(|| shakmaty::perft(black_box(&chess), depth));
        let (shak_full, n_shak_full) = time(|| shakmaty_full(black_box(&chess), depth));
        assert_eq!(
            n_shak, n_shak_full,
            "{name} depth {depth}: shakmaty bulk != full"
        );
        assert_eq!(n_bulk, n_full, "{name} depth {depth}: bulk != full");
        assert_eq!(
            n_bulk, n_shak,
            "{name} depth {depth}: hostage-core != shakmaty"
        );
        println!(
            "{name:<10} {depth:>2} {n_bulk:>12} {n_shak:>12} | {} | {} | {} | {} | {:>8.2}x",
            cell(bulk, n_bulk),
            cell(full, n_full),
            cell(shak, n_shak),
            cell_wide(shak_full, n_shak),
            shak.as_secs_f64() / bulk.as_secs_f64(),
        );
    }
    println!("{}", "-".repeat(146));
    for &(name, fen, depth) in HOSTAGE {
        let pos = hostage(fen);
        let (bulk, n_bulk) = time(|| perft(black_box(&pos), depth));
        let (full, n_full) = time(|| perft_full(black_box(&pos), depth));
        assert_eq!(n_bulk, n_full, "{name} depth {depth}: bulk != full");
        println!(
            "{name:<10} {depth:>2} {n_bulk:>12} {:>12} | {} | {} | {:>10} {:>8} | {:>12} {:>8} |",
            "-",
            cell(bulk, n_bulk),
            cell(full, n_full),
            "-",
            "-",
            "-",
            "-",
        );
    }
    println!("bulk = hostage_core::perft (last ply counted, not played); full = perft_full;");
    println!(
        "shak = shakmaty::perft (last ply generated, not played); shak-full plays every leaf."
    );
    println!("bulk/shak = shak ms / bulk ms: above 1 means hostage-core's bulk perft is faster.");
}
