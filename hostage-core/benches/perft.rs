//! Perft throughput, hostage-core against shakmaty: `cargo bench -p hostage-core --bench perft`.
//!
//! `shared/*` groups run the same move tree in both libraries: positions and
//! depths where no exchange, drop or promotion can occur, so Hostage Chess
//! and orthodox chess agree (the counts are asserted before timing).
//! `hostage/*` groups time hostage-core alone on positions with men in the
//! prisons and airfields. Throughput is in elements = nodes, so criterion
//! reports nodes per second. Sample sizes are small: the whole run takes
//! about a minute and a half.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use hostage_core::{perft, perft_full, Position};
use shakmaty::{fen::Fen, CastlingMode, Chess};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White has no capture at ply 1, so no exchange is possible at ply 3.
const QUIET: &str = "r2q1rk1/pp1nbppp/2p1pnb1/3p4/3P1B2/2P1PN2/PP1NBPPP/R2Q1RK1 w - - 0 9";

/// `(group name, FEN, depth, expected nodes)`, the same in both libraries.
const SHARED: &[(&str, &str, u32, u64)] = &[
    ("start-d3", START, 3, 8_902),
    ("start-d4", START, 4, 197_281),
    ("quiet-mid-d3", QUIET, 3, 54_827),
];

/// `(group name, FEN, depth, expected nodes)`, Hostage Chess only.
const HOSTAGE: &[(&str, &str, u32, u64)] = &[
    ("start-d5", START, 5, 4_865_877),
    (
        "scandi-d3",
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
        3,
        199_491,
    ),
    (
        "prisons-d3",
        "r1b1k2r/pp3ppp/2n5/3q4/8/2N5/PP3PPP/R1BQK2R[#BNPPPbnppp] w KQkq - 0 10",
        3,
        12_938_448,
    ),
    (
        "airfields-d3",
        "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[BNbn#BPPbpp] w KQkq - 0 12",
        3,
        8_217_040,
    ),
];

fn hostage(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad Hostage FEN {fen}: {e}"))
}

fn shared(c: &mut Criterion) {
    for &(name, fen, depth, nodes) in SHARED {
        let pos = hostage(fen);
        let chess: Chess = fen
            .parse::<Fen>()
            .expect("orthodox FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal orthodox position");
        assert_eq!(perft(&pos, depth), nodes, "{name}: hostage-core bulk");
        assert_eq!(perft_full(&pos, depth), nodes, "{name}: hostage-core full");
        assert_eq!(shakmaty::perft(&chess, depth), nodes, "{name}: shakmaty");

        let mut group = c.benchmark_group(format!("shared/{name}"));
        group
            .throughput(Throughput::Elements(nodes))
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        group.bench_function("hostage-core bulk", |b| {
            b.iter(|| perft(black_box(&pos), black_box(depth)));
        });
        group.bench_function("hostage-core full", |b| {
            b.iter(|| perft_full(black_box(&pos), black_box(depth)));
        });
        group.bench_function("shakmaty", |b| {
            b.iter(|| shakmaty::perft(black_box(&chess), black_box(depth)));
        });
        group.finish();
    }
}

fn hostage_only(c: &mut Criterion) {
    for &(name, fen, depth, nodes) in HOSTAGE {
        let pos = hostage(fen);
        assert_eq!(perft(&pos, depth), nodes, "{name}: hostage-core bulk");

        let mut group = c.benchmark_group(format!("hostage/{name}"));
        group
            .throughput(Throughput::Elements(nodes))
            .sample_size(10)
            // Full perft here takes up to ~0.25 s a call: flat sampling keeps
            // criterion from needing 55 calls for 10 linear samples.
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        group.bench_function("hostage-core bulk", |b| {
            b.iter(|| perft(black_box(&pos), black_box(depth)));
        });
        group.bench_function("hostage-core full", |b| {
            b.iter(|| perft_full(black_box(&pos), black_box(depth)));
        });
        group.finish();
    }
}

criterion_group!(benches, shared, hostage_only);
criterion_main!(benches);
