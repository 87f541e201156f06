//! The order in which a node takes its moves, once they are scored
//! ([`crate::ordering`]): the first few picked one by one, the rest sorted
//! at once.

use alloc::vec::Vec;

use hostage_core::Move;

use crate::ordering::pick;

/// How many moves of a node are picked one by one (selection) before the
/// rest is sorted at once: the first few decide most cut-offs, and picking
/// through 150 drops one by one would cost a pass over them each.
const PICKED: usize = 6;

/// The `i`-th move of the node in order: picked while `i` < [`PICKED`],
/// then from the rest sorted once, best first (a stable sort, so equal
/// scores keep the order of generation).
pub(super) fn next(
    moves: &mut [Move],
    scores: &mut [i32],
    i: usize,
    rest: &mut Vec<(i32, Move)>,
) -> Move {
    if i < PICKED {
        return pick(moves, scores, i);
    }
    if i == PICKED {
        rest.clear();
        rest.extend(scores[i..].iter().copied().zip(moves[i..].iter().copied()));
        rest.sort_by_key(|&(score, _)| core::cmp::Reverse(score));
        for (j, &(score, mv)) in rest.iter().enumerate() {
            scores[i + j] = score;
            moves[i + j] = mv;
        }
    }
    moves[i]
}
