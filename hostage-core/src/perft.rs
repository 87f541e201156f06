//! Perft: counting the leaves of the legal move tree, to check move
//! generation against known numbers.

use crate::{Move, MoveList, Position};

/// The number of move sequences of length `depth` from `pos`.
///
/// The last ply is counted without being played (bulk counting), and
/// drops and exchanges there are counted by square sets.
///
/// # Examples
///
/// ```
/// use hostage_core::{perft, Position};
///
/// assert_eq!(perft(&Position::new(), 3), 8902);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::with_capacity(64);
            pos.legal_moves_into(&mut moves);
            moves
                .into_iter()
                .map(|m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Perft without bulk counting: every leaf is played. Slower; for
/// benchmarks and for testing `play_unchecked` itself.
#[must_use]
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            perft_full(&child, depth - 1)
        })
        .sum()
}

/// Perft split by first move: each legal move with the count below it.
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> alloc::vec::Vec<(Move, u64)> {
    if depth == 0 {
        return alloc::vec::Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
