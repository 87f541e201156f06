//! One perft run in one library, as a whole process: the unit of the
//! side-by-side timings of `scripts/perft-peers` and of instruction counts
//! under callgrind.
//!
//! `cargo run --release -p hostage-core --example peers -- LIBRARY MODE
//! DEPTH [FEN [REPEAT]]`, where LIBRARY is `hostage`, `shakmaty` or `cozy`, MODE is
//! `bulk` (the last ply counted without being played, as each library's
//! own perft does) or `full` (every leaf played on a copy of its parent),
//! FEN defaults to the start position and REPEAT (default 1) runs the same
//! perft that many times, so that a small tree outweighs the start of the
//! process. Prints the node count.

use std::hint::black_box;

use hostage_core::{perft, perft_full, Position};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position as _};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// shakmaty with every leaf played, the walk of `perft_full`.
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
                black_box(&child);
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

/// cozy-chess's perft: moves come grouped by piece; `bulk` counts the last
/// ply's groups by their length, as cozy-chess's own perft example does.
fn cozy(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if bulk && depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for m in moves {
            let mut child = board.clone();
            child.play_unchecked(m);
            nodes += if depth == 1 {
                black_box(&child);
                1
            } else {
                cozy(&child, depth - 1, bulk)
            };
        }
        false
    });
    nodes
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: peers hostage|shakmaty|cozy bulk|full DEPTH [FEN [REPEAT]]";
    let (Some(library), Some(mode), Some(depth)) = (args.first(), args.get(1), args.get(2)) else {
        panic!("{usage}");
    };
    let depth: u32 = depth.parse().expect(usage);
    let bulk = match mode.as_str() {
        "bulk" => true,
        "full" => false,
        _ => panic!("{usage}"),
    };
    let fen = args.get(3).map_or(START, String::as_str);
    let repeat: usize = args.get(4).map_or(Ok(1), |r| r.parse()).expect(usage);
    let hostage = Position::from_fen(fen).ok();
    let chess: Option<Chess> = fen
        .parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok());
    let board: Option<cozy_chess::Board> = fen.parse().ok();
    let mut counts = (0..repeat).map(|_| match library.as_str() {
        "hostage" => {
            let pos = hostage.as_ref().expect("Hostage FEN");
            if bulk {
                perft(black_box(pos), depth)
            } else {
                perft_full(black_box(pos), depth)
            }
        }
        "shakmaty" => {
            let pos = chess.as_ref().expect("legal orthodox FEN");
            if bulk {
                shakmaty::perft(black_box(pos), depth)
            } else {
                shakmaty_full(black_box(pos), depth)
            }
        }
        "cozy" => cozy(
            black_box(board.as_ref().expect("orthodox FEN")),
            depth,
            bulk,
        ),
        _ => panic!("{usage}"),
    });
    let nodes = counts.next().unwrap_or(0);
    assert!(
        counts.all(|n| n == nodes),
        "a repetition counted differently"
    );
    println!("{nodes}");
}
