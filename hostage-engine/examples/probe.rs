//! Prints the engine's iterations on one position (a debugging aid):
//! `cargo run --release -p hostage-engine --example probe -- FEN [NODES [LEVEL]]`.

use hostage_core::Position;
use hostage_engine::{Engine, Limits};

fn main() {
    let fen = std::env::args().nth(1).expect("FEN");
    let nodes = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let pos = Position::from_fen(&fen).expect("valid FEN");
    let mut engine = Engine::new();
    if let Some(level) = std::env::args().nth(3) {
        let level: hostage_engine::Level = level.parse().expect("level");
        for seed in 1..=5 {
            let r = engine.play_level_at(&pos, &[], level, seed);
            println!(
                "{level} seed {seed}: {:?} {} depth {} nodes {}",
                r.best_move.map(|m| m.to_string()),
                r.score,
                r.depth,
                r.nodes
            );
        }
        return;
    }
    let r = engine.search_with_info(&pos, &[], &Limits::nodes(nodes), &mut |info| {
        let l = &info.lines[0];
        let pv: Vec<String> = l.pv.iter().map(ToString::to_string).collect();
        println!(
            "depth {} nodes {} score {} pv {}",
            info.depth,
            info.nodes,
            l.score,
            pv.join(" ")
        );
    });
    println!(
        "best {:?} score {}",
        r.best_move.map(|m| m.to_string()),
        r.score
    );
}
