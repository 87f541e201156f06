//! Engine speed: nodes per second of the full search on a fixed set of
//! positions at a fixed node budget (`cargo run --release -p hostage-engine
//! --example bench [NODES] [hand|nnue]`: the hand-written evaluation or the
//! network, the engine's default without either). The node counts are
//! deterministic; only the time varies from machine to machine.

use std::time::Instant;

use hostage_core::Position;
use hostage_engine::{Engine, Level, Limits};

/// Quiet and hostage-rich positions (the start, an early exchange of
/// pawns, a middlegame with men in every prison and airfield, a sharp
/// seventh-rank ending).
const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
    "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
    "r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7",
];

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    // `hand` or `nnue`: the evaluation (the engine's default otherwise).
    let evaluation = std::env::args().nth(2);
    let mut total_nodes = 0;
    let mut total_secs = 0.0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut engine = Engine::new();
        match evaluation.as_deref() {
            Some("hand") => engine.set_nnue(false),
            Some("nnue") => engine.set_nnue(true),
            _ => {}
        }
        let start = Instant::now();
        let result = engine.search(&pos, &[], &Limits::nodes(nodes));
        let secs = start.elapsed().as_secs_f64();
        total_nodes += result.nodes;
        total_secs += secs;
        println!(
            "{:>9} nodes {:>6.0} knps depth {:>2} {:<10} {} {}",
            result.nodes,
            result.nodes as f64 / secs / 1000.0,
            result.depth,
            result.score.to_string(),
            result.best_move.map(|m| m.to_string()).unwrap_or_default(),
            fen
        );
    }
    println!(
        "total {} nodes, {:.0} knps",
        total_nodes,
        total_nodes as f64 / total_secs / 1000.0
    );
    // What a Club move costs: its own budget, on the same positions.
    let mut worst: f64 = 0.0;
    let mut sum = 0.0;
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let start = Instant::now();
        let r = Engine::new().play_level_at(&pos, &[], Level::Club, 1);
        let secs = start.elapsed().as_secs_f64();
        worst = worst.max(secs);
        sum += secs;
        println!("club: {:>7} nodes {:.3} s", r.nodes, secs);
    }
    println!(
        "club: mean {:.3} s, worst {:.3} s per move",
        sum / POSITIONS.len() as f64,
        worst
    );
}
