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

use hostage_core::{perft, perft_full};
use shakmaty::{Chess, Position as _};

#[path = "../benches/positions/mod.rs"]
mod positions;
use positions::{hostage, orthodox, HOSTAGE, SHARED};

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
    for row in SHARED {
        let (name, depth) = (row.name, row.depth);
        let pos = hostage(row.fen);
        let chess = orthodox(row.fen);
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
            n_bulk, row.nodes,
            "{name} depth {depth}: not the table's count"
        );
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
    for row in HOSTAGE {
        let (name, depth) = (row.name, row.depth);
        let pos = hostage(row.fen);
        let (bulk, n_bulk) = time(|| perft(black_box(&pos), depth));
        let (full, n_full) = time(|| perft_full(black_box(&pos), depth));
        assert_eq!(n_bulk, n_full, "{name} depth {depth}: bulk != full");
        assert_eq!(
            n_bulk, row.nodes,
            "{name} depth {depth}: not the table's count"
        );
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
