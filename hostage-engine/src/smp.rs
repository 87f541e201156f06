//! Lazy SMP: which depths a helper thread searches, and which thread's
//! move is played, with [`Options::smp_vote`] (on by default: without it
//! two threads lost to one at 1 s a move, see the switch). Without
//! it every thread searches every depth and the main thread's move is
//! played.
//!
//! The threads of a search share only the transposition table. If every
//! helper searched the same depths as the main thread, they would mostly
//! fill the table with the entries the main thread is about to write
//! itself. So each helper skips some depths (`skips`): the first searches
//! only the even ones, the second only the odd ones, later helpers skip
//! two depths in four, three in six, and so on. A helper is then usually
//! a ply ahead of the main thread, and what it stores is new to the main
//! thread. This is the pattern Stockfish's Lazy SMP used (from version 9,
//! its `SkipSize` and `SkipPhase`: sizes 1, 1, 2, 2, 2, 2, 3, …, phases
//! 0, 1, 0, 1, 2, 3, 0, …, over twenty helpers, then again).
//!
//! When the threads stop, each has the move of its last completed
//! iteration. A helper that completed a deeper iteration knows better
//! than the main thread, so the threads vote (`vote`, with Stockfish 11's
//! weights), but only those whose last iteration is the deepest any
//! thread completed: each of their moves gets the thread's
//! `(score − lowest score + 14) × depth`, and the thread whose move has
//! the most votes is played (of its voters, the best scored; on a tie
//! the first, the main thread if it votes). Scores of different depths do not compare: with drops
//! a score swings with the parity of the depth, and a helper that skips
//! depths is usually a ply from the main thread, so letting every thread
//! vote let a shallower thread's higher score outvote a deeper search
//! (two threads then gained nothing against one at 200 ms a move). A mate
//! found by any thread is played at once, the shortest first. One thread,
//! MultiPV lines and node-limited searches never vote.
//!
//! [`Options::smp_vote`]: crate::Options::smp_vote

use alloc::vec::Vec;

/// What a thread found: the depth of its last completed iteration, its
/// best move's score (centipawns or a mate value, for the side to move)
/// and that move (as any value that compares the moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate<M> {
    pub depth: u32,
    pub value: i32,
    pub mv: M,
}

/// Whether helper `helper` (1 for the first helper; 0, the main thread,
/// never skips) leaves out the iteration of `depth`.
pub(crate) fn skips(helper: usize, depth: i32) -> bool {
    if helper == 0 {
        return false;
    }
    let (size, phase) = pattern((helper - 1) % 20);
    ((depth + phase) / size) % 2 != 0
}

/// The skip size and phase of helper slot `i` (0 to 19): sizes 1, 1, 2,
/// 2, 2, 2, 3 (six times), 4 (eight times); each size's phases count up
/// from 0.
fn pattern(i: usize) -> (i32, i32) {
    let mut first = 0;
    let mut size = 1;
    // Size s takes 2s slots.
    while i >= first + 2 * size {
        first += 2 * size;
        size += 1;
    }
    (size as i32, (i - first) as i32)
}

/// The index of the thread whose move is played: a mate's, else the vote
/// of the threads that completed the deepest iteration (on a tie the
/// first of them, the main thread if it is one). `mate` is the value
/// from which a score is a mate for the side to move; `candidates` is
/// never empty, the main thread first.
pub(crate) fn vote<M: PartialEq + Copy>(candidates: &[Candidate<M>], mate: i32) -> usize {
    // A mate found is played, the shortest (highest value) first.
    let mut best = 0;
    for (i, c) in candidates.iter().enumerate() {
        if c.value >= mate && c.value > candidates[best].value {
            best = i;
        }
    }
    if candidates[best].value >= mate {
        return best;
    }
    // Only the deepest iterations vote (the module's docs say why).
    let deepest = candidates.iter().map(|c| c.depth).max().unwrap_or(0);
    let voters: Vec<usize> = (0..candidates.len())
        .filter(|&i| candidates[i].depth == deepest)
        .collect();
    let Some((&first, rest)) = voters.split_first() else {
        return 0;
    };
    let lowest = voters
        .iter()
        .map(|&i| candidates[i].value)
        .min()
        .unwrap_or(0);
    let weight = |c: &Candidate<M>| i64::from(c.value - lowest + 14) * i64::from(c.depth);
    let votes = |mv: M| -> i64 {
        voters
            .iter()
            .map(|&i| &candidates[i])
            .filter(|c| c.mv == mv)
            .map(weight)
            .sum()
    };
    let mut best = first;
    let mut best_votes = votes(candidates[first].mv);
    for &i in rest {
        let c = &candidates[i];
        let v = votes(c.mv);
        let b = &candidates[best];
        let better = if c.mv == b.mv {
            // The same move: its better-scored line.
            c.value > b.value
        } else {
            v > best_votes
        };
        if better {
            best = i;
            best_votes = v;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(depth: u32, value: i32, mv: char) -> Candidate<char> {
        Candidate { depth, value, mv }
    }

    #[test]
    fn the_main_thread_never_skips() {
        assert!((1..40).all(|d| !skips(0, d)));
    }

    #[test]
    fn the_first_two_helpers_take_alternate_depths() {
        let searched = |h| (1..=8).filter(|&d| !skips(h, d)).collect::<Vec<_>>();
        assert_eq!(searched(1), [2, 4, 6, 8]);
        assert_eq!(searched(2), [1, 3, 5, 7]);
        // Size 2: two depths searched, two skipped.
        assert_eq!(searched(3), [1, 4, 5, 8]);
        assert_eq!(searched(4), [3, 4, 7, 8]);
    }

    #[test]
    fn the_pattern_runs_over_twenty_helpers_then_repeats() {
        assert_eq!(pattern(0), (1, 0));
        assert_eq!(pattern(1), (1, 1));
        assert_eq!(pattern(2), (2, 0));
        assert_eq!(pattern(5), (2, 3));
        assert_eq!(pattern(6), (3, 0));
        assert_eq!(pattern(11), (3, 5));
        assert_eq!(pattern(12), (4, 0));
        assert_eq!(pattern(19), (4, 7));
        assert!((1..30).all(|d| skips(21, d) == skips(1, d)));
    }

    #[test]
    fn agreeing_threads_keep_the_main_thread() {
        assert_eq!(vote(&[c(10, 30, 'a'), c(10, 30, 'a')], 30_000), 0);
        assert_eq!(vote(&[c(10, 30, 'a')], 30_000), 0);
    }

    #[test]
    fn the_same_move_is_played_from_its_deepest_line() {
        assert_eq!(vote(&[c(10, 30, 'a'), c(11, 25, 'a')], 30_000), 1);
    }

    #[test]
    fn a_deeper_better_helper_outvotes_the_main_thread() {
        // (45 − 20 + 14) × 11 = 429 against (20 − 20 + 14) × 10 = 140.
        assert_eq!(vote(&[c(10, 20, 'a'), c(11, 45, 'b')], 30_000), 1);
    }

    #[test]
    fn a_worse_helper_of_the_same_depth_does_not() {
        assert_eq!(vote(&[c(10, 45, 'a'), c(10, 20, 'b')], 30_000), 0);
    }

    #[test]
    fn only_the_deepest_iterations_vote() {
        // A deeper helper is played even with a lower score: the scores
        // of different depths do not compare.
        assert_eq!(vote(&[c(10, 45, 'a'), c(11, 20, 'b')], 30_000), 1);
        // A shallower helper never outvotes, however good its score.
        assert_eq!(vote(&[c(11, 20, 'a'), c(10, 400, 'b')], 30_000), 0);
        // The main thread is behind: the deeper helpers vote alone.
        let votes = [c(9, 500, 'a'), c(10, 20, 'b'), c(10, 60, 'c')];
        assert_eq!(vote(&votes, 30_000), 2);
    }

    #[test]
    fn two_threads_on_one_move_outvote_a_third() {
        // 'a': 14×10 + 19×10 = 330; 'b': 24×10 = 240. Of 'a''s voters,
        // the better scored is played.
        let votes = [c(10, 10, 'b'), c(10, 0, 'a'), c(10, 5, 'a')];
        assert_eq!(vote(&votes, 30_000), 2);
    }

    #[test]
    fn the_shortest_mate_found_is_played() {
        let votes = [c(12, 50, 'a'), c(9, 29_990, 'b'), c(10, 29_995, 'c')];
        assert_eq!(vote(&votes, 29_000), 2);
    }
}
