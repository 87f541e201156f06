//! Initial puzzle ratings from the bot levels that solve the puzzle.
//!
//! Policy: two measurements are made for every puzzle, and the rating
//! comes from the second.
//!
//! - **The bot levels** (recorded as `solvers`): each level (Novice …
//!   Club) tries the puzzle with [`SEEDS`] seeds, playing every solver
//!   move itself while the opponent's replies are given (a mate on the last
//!   move counts whatever mating move it picks, as lichess accepts any mate
//!   in one). A level that solves it with every seed is taken to speak for
//!   the stronger levels, which are then not run.
//! - **The search effort** (recorded as `depth` and `nodes`, see
//!   [`solve_effort`]): the nodes the full-strength engine, from an empty
//!   table, searches before it settles for good on each solver move, summed
//!   over the solver moves.
//!
//! The levels turned out too coarse to rate the set: the generator's own
//! search is close to the strong levels', so in the first runs 84% of the
//! candidates were solved by Novice with every seed and almost all the rest
//! by Casual (`docs/puzzles.md` has the counts). The search effort spreads
//! them: the initial rating is `800 + PER_DOUBLING·log2(nodes / BASE_NODES)`,
//! at least 800 ([`rating_from_effort`]). [`BASE_NODES`] is about what a
//! one-ply search of a Hostage position costs (its 100–200 moves), so a
//! puzzle seen at once is 800; [`PER_DOUBLING`] was chosen so that the
//! candidates spread over the 800–2000 bands. It is a prior, not a
//! measurement of people: Glicko-2 moves each puzzle's rating as players
//! attempt it, starting from a deviation of [`INITIAL_DEVIATION`].
//!
//! # Example
//!
//! ```
//! use hostage_puzzles::initial::{rating_from_effort, BASE_NODES, PER_DOUBLING};
//!
//! assert_eq!(rating_from_effort(BASE_NODES), 800);
//! assert_eq!(rating_from_effort(BASE_NODES * 4), 800 + 2 * PER_DOUBLING);
//! ```

use hostage_core::{Move, Position};
use hostage_engine::{Engine, Level, Limits};

use crate::record::LEVELS;

/// Seeds each level tries a puzzle with.
pub const SEEDS: u8 = 3;
/// The deepest iteration of the solve-depth search.
pub const LADDER_DEPTH: u32 = 7;
/// The node cap of each solve-depth search.
pub const LADDER_NODES: u64 = 400_000;
/// The initial rating deviation of a generated puzzle. The bots' verdict
/// is a real measurement, so it starts below lichess's 500 for an unknown
/// puzzle; `docs/puzzles.md` has the simulation that chose it.
pub const INITIAL_DEVIATION: u32 = 200;

/// The nodes at which the rating is 800.
pub const BASE_NODES: u64 = 64;
/// Rating points per doubling of the search effort.
pub const PER_DOUBLING: u32 = 200;

/// The initial rating for a search effort of `nodes` (see the module
/// policy): 800 at [`BASE_NODES`] or fewer, [`PER_DOUBLING`] more per
/// doubling.
#[must_use]
pub fn rating_from_effort(nodes: u64) -> u32 {
    let ratio = nodes.max(BASE_NODES) as f64 / BASE_NODES as f64;
    800 + (f64::from(PER_DOUBLING) * ratio.log2()).round() as u32
}

/// How much search the full-strength engine needs to solve a puzzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Effort {
    /// The deepest iteration at which a solver move settled (1 to
    /// [`LADDER_DEPTH`]` + 1`, the latter for never).
    pub depth: u8,
    /// The nodes searched when each solver move settled, summed over the
    /// solver moves (a move that never settles counts
    /// 2 × [`LADDER_NODES`]).
    pub nodes: u64,
}

/// The search effort of a puzzle: for each solver move a search from a
/// fresh table, capped at [`LADDER_DEPTH`] and [`LADDER_NODES`], notes the
/// iteration after which the best move is the solution (any mate for the
/// last move of a mate) and stays so; the search stops two iterations
/// after that.
pub fn solve_effort(engine: &mut Engine, pos: &Position, moves: &[Move], mate: bool) -> Effort {
    let mut effort = Effort { depth: 1, nodes: 0 };
    let mut p = pos.clone();
    for (i, expected) in moves.iter().enumerate() {
        if i % 2 == 0 {
            let last = i + 1 == moves.len();
            let right = |m: Move| {
                m == *expected || {
                    let mut after = p.clone();
                    after.play_unchecked(m);
                    last && mate && after.is_checkmate()
                }
            };
            let mut settled: Option<(u32, u64)> = None;
            engine.new_game();
            let stop = engine.stop_flag();
            let limits = Limits::depth(LADDER_DEPTH).with_nodes(LADDER_NODES);
            engine.search_with_info(&p, &[], &limits, &mut |info| match info.lines.first() {
                Some(line) if right(line.mv) => {
                    let (d, _) = *settled.get_or_insert((info.depth, info.nodes));
                    if info.depth >= d + 2 {
                        stop.store(true, core::sync::atomic::Ordering::Relaxed);
                    }
                }
                _ => settled = None,
            });
            let (d, n) = settled.unwrap_or((LADDER_DEPTH + 1, 2 * LADDER_NODES));
            effort.depth = effort.depth.max(d as u8);
            effort.nodes += n;
        }
        p.play_unchecked(*expected);
    }
    effort
}

/// Whether `level` with `seed` solves the puzzle `moves` from `pos`
/// (solver's moves at even indices).
pub fn level_solves(
    engine: &mut Engine,
    pos: &Position,
    moves: &[Move],
    mate: bool,
    level: Level,
    seed: u64,
) -> bool {
    let mut p = pos.clone();
    for (i, expected) in moves.iter().enumerate() {
        if i % 2 == 0 {
            let Some(chosen) = engine.play_level_at(&p, &[], level, seed).best_move else {
                return false;
            };
            let last = i + 1 == moves.len();
            if chosen != *expected {
                let mut after = p.clone();
                after.play_unchecked(chosen);
                return last && mate && after.is_checkmate();
            }
        }
        p.play_unchecked(*expected);
    }
    true
}

/// The solver profile of a puzzle: per level, how many of [`SEEDS`] seeds
/// solve it (see the module policy for the levels that are not run).
pub fn solver_profile(
    engine: &mut Engine,
    pos: &Position,
    moves: &[Move],
    mate: bool,
) -> [u8; LEVELS] {
    let mut out = [0u8; LEVELS];
    for (slot, level) in Level::ALL.into_iter().enumerate() {
        let solved = (1..=u64::from(SEEDS))
            .filter(|&seed| level_solves(engine, pos, moves, mate, level, seed))
            .count() as u8;
        out[slot] = solved;
        if solved == SEEDS {
            for rest in out.iter_mut().skip(slot + 1) {
                *rest = SEEDS;
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_grow_per_doubling() {
        assert_eq!(rating_from_effort(0), 800);
        assert_eq!(rating_from_effort(BASE_NODES), 800);
        assert_eq!(rating_from_effort(BASE_NODES * 2), 800 + PER_DOUBLING);
        assert_eq!(rating_from_effort(BASE_NODES * 64), 800 + 6 * PER_DOUBLING);
        // Between doublings: log2(3) = 1.585.
        let three = 800 + (1.585 * f64::from(PER_DOUBLING)).round() as u32;
        assert!(rating_from_effort(BASE_NODES * 3).abs_diff(three) <= 1);
        assert!(rating_from_effort(u64::MAX) > 2000);
    }

    #[test]
    fn every_level_finds_a_drop_mate_in_one() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1").expect("fen");
        let m = hostage_core::uci::UciMove::from_ascii(b"R@a8")
            .and_then(|u| u.to_move(&pos))
            .expect("legal");
        let mut engine = Engine::with_hash_mb(4);
        assert_eq!(solver_profile(&mut engine, &pos, &[m], true), [3; 5]);
        let effort = solve_effort(&mut engine, &pos, &[m], true);
        assert_eq!(effort.depth, 1);
        assert!(effort.nodes > 0 && effort.nodes < 2 * LADDER_NODES);
    }
}
