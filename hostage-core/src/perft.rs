//! Perft: counting the leaves of the legal move tree, to check move
//! generation against known numbers.

use alloc::vec::Vec;

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
    walk(pos, depth, true, &mut Buffers::new(depth))
}

/// Perft without bulk counting: every leaf is played. Slower; for
/// benchmarks and for testing `play_unchecked` itself.
#[must_use]
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    walk(pos, depth, false, &mut Buffers::new(depth))
}

/// One move list per ply, reused across the whole walk (no allocation per
/// node).
struct Buffers(Vec<MoveList>);

impl Buffers {
    fn new(depth: u32) -> Buffers {
        Buffers((0..depth).map(|_| MoveList::with_capacity(64)).collect())
    }
}

fn walk(pos: &Position, depth: u32, bulk: bool, buffers: &mut Buffers) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let mut moves = core::mem::take(&mut buffers.0[depth as usize - 1]);
    moves.clear();
    pos.legal_moves_into(&mut moves);
    // What every child shares (the turn passed, the clocks, the
    // side-to-move key) is done once; each child is a copy of it with its
    // move played.
    let base = pos.passed();
    let nodes = if depth == 1 {
        play_leaves(&base, &moves)
    } else {
        moves
            .iter()
            .map(|m| {
                let mut child = base.clone();
                child.play_passed(m);
                walk(&child, depth - 1, bulk, buffers)
            })
            .sum()
    };
    buffers.0[depth as usize - 1] = moves;
    nodes
}

/// Every leaf played (not bulk): each move made on a copy of `base`, the
/// parent with its turn passed ([`Position::passed`]), and counted. Kept
/// out of the walk so that the copy reads the parent from memory rather
/// than from the generator's registers.
#[inline(never)]
fn play_leaves(base: &Position, moves: &[Move]) -> u64 {
    moves
        .iter()
        .map(|m| {
            let mut child = base.clone();
            child.play_passed(m);
            core::hint::black_box(&child);
            1
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
