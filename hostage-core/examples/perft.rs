//! Perft timing without a benchmark harness:
//! `cargo run --release -p hostage-core --example perft -- [FEN] DEPTH`.

use std::time::Instant;

use hostage_core::{perft, perft_full, Position};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fen, depth) = match args.as_slice() {
        [depth] => (None, depth.clone()),
        [fen, depth] => (Some(fen.clone()), depth.clone()),
        _ => {
            eprintln!("usage: perft [FEN] DEPTH");
            std::process::exit(2);
        }
    };
    let pos = match fen {
        Some(fen) => match Position::from_fen(&fen) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("bad fen: {e}");
                std::process::exit(2);
            }
        },
        None => Position::new(),
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("bad depth");
        std::process::exit(2);
    };
    for (name, f) in [
        ("bulk", perft as fn(&Position, u32) -> u64),
        ("full", perft_full),
    ] {
        let start = Instant::now();
        let nodes = f(&pos, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name}: {nodes} nodes in {secs:.3} s ({:.1} Mnps)",
            nodes as f64 / secs / 1e6
        );
    }
}
