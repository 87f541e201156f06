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
use hostage_core::{perft, perft_full};

mod positions;
use positions::{hostage, orthodox, HOSTAGE, SHARED};

fn shared(c: &mut Criterion) {
    for row in SHARED {
        let (name, depth, nodes) = (format!("{}-d{}", row.name, row.depth), row.depth, row.nodes);
        let pos = hostage(row.fen);
        let chess = orthodox(row.fen);
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
    for row in HOSTAGE {
        let (name, depth, nodes) = (format!("{}-d{}", row.name, row.depth), row.depth, row.nodes);
        let pos = hostage(row.fen);
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
