//! `Position::play_unchecked` against the position rebuilt from scratch, for
//! every move of every kind in the rule vectors (`tests/vectors/*.perft`).
//!
//! `play_unchecked` keeps the Zobrist hash, the castling state, the clocks
//! and the four reserves up to date incrementally, with a short path for
//! board moves. After each legal move (and each reply, where the tree is
//! small) the result must equal the same position validated afresh from its
//! plain data: same FEN, same unmoved marks, same hash, and the incremental
//! hash equal to the one computed from scratch.

use std::{fs, path::PathBuf};

use hostage_core::{MoveKind, Position};

/// Positions whose two-ply tree is at most this big are checked to depth 2.
const DEPTH_2_LIMIT: usize = 20_000;

fn vector_positions() -> Vec<(String, Position)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|file| {
            fs::read_to_string(file)
                .expect("readable")
                .lines()
                .filter_map(|line| line.trim().strip_prefix("epd ").map(str::trim))
                .map(|fen| {
                    let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                    (fen.to_owned(), pos)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Checks `child`, reached from `parent_fen` by `what`, against itself
/// rebuilt from plain data.
fn check(child: &Position, parent_fen: &str, what: &str) {
    let at = format!("{parent_fen} then {what}");
    assert_eq!(
        child.zobrist_hash(),
        child.zobrist_hash_from_scratch(),
        "incremental hash after {at}"
    );
    let rebuilt = Position::from_setup(child.to_setup())
        .unwrap_or_else(|e| panic!("{at} gives an invalid position: {e}"));
    assert_eq!(rebuilt.fen(), child.fen(), "{at}");
    assert_eq!(rebuilt.unmoved(), child.unmoved(), "{at}");
    assert_eq!(rebuilt.zobrist_hash(), child.zobrist_hash(), "{at}");
    assert_eq!(rebuilt.halfmoves(), child.halfmoves(), "{at}");
    assert_eq!(rebuilt.fullmoves(), child.fullmoves(), "{at}");
}

#[test]
fn play_unchecked_matches_the_position_rebuilt_from_scratch() {
    let positions = vector_positions();
    assert!(positions.len() >= 20, "only {} positions", positions.len());
    let mut kinds = Vec::new();
    let mut checked = 0;
    for (fen, pos) in &positions {
        let moves = pos.legal_moves();
        let deep = moves
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                child.count_legal_moves()
            })
            .sum::<usize>()
            <= DEPTH_2_LIMIT;
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            check(&child, fen, &m.to_string());
            checked += 1;
            if !kinds.contains(&m.kind()) {
                kinds.push(m.kind());
            }
            if deep {
                for reply in child.legal_moves() {
                    let mut grandchild = child.clone();
                    grandchild.play_unchecked(reply);
                    check(&grandchild, fen, &format!("{m} {reply}"));
                    checked += 1;
                }
            }
        }
    }
    // The vectors must exercise every kind of move, or this test says little.
    for kind in [
        MoveKind::Normal,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::Drop,
        MoveKind::Exchange,
    ] {
        assert!(kinds.contains(&kind), "no {} move played", kind.name());
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}
