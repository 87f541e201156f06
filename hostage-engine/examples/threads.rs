//! Lazy SMP speed: nodes per second and depth of the full search at 1 and
//! 2 threads, the same positions for the same time each
//! (`cargo run --release -p hostage-engine --example threads [MS]
//! [hand|nnue]`: the hand-written evaluation or the network, the engine's
//! default without either). On a shared machine the figures move with the
//! load: run it alone.

use std::time::{Duration, Instant};

use hostage_core::Position;
use hostage_engine::{Engine, Limits};

const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    "r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7",
];

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3_000);
    // `hand` or `nnue`: the evaluation (the engine's default otherwise).
    let evaluation = std::env::args().nth(2);
    for threads in [1, 2] {
        let (mut nodes, mut secs, mut depth) = (0, 0.0, 0);
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let mut engine = Engine::new();
            engine.set_threads(threads);
            match evaluation.as_deref() {
                Some("hand") => engine.set_nnue(false),
                Some("nnue") => engine.set_nnue(true),
                _ => {}
            }
            let start = Instant::now();
            let r = engine.search(&pos, &[], &Limits::movetime(Duration::from_millis(ms)));
            secs += start.elapsed().as_secs_f64();
            nodes += r.nodes;
            depth += r.depth;
        }
        println!(
            "threads {threads}: {nodes} nodes in {secs:.2} s = {:.0} knps, mean depth {:.1}",
            nodes as f64 / secs / 1000.0,
            f64::from(depth) / POSITIONS.len() as f64
        );
    }
}
