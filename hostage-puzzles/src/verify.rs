//! The verifier: every puzzle replayed with the core, mates proved, other
//! solutions searched again on four times the generator's budget.
//!
//! Policy, for each puzzle:
//!
//! - the moves are legal in turn (the record parser already replays them)
//!   and the solution has an odd length (it ends with a solver move);
//! - the themes recomputed from the position and moves equal the stored
//!   ones;
//! - a mate (the line ends in checkmate) is **proved** by the exact prover
//!   ([`crate::mate`]): from each solver position with `k` solver moves
//!   left, the given move mates within `k` against every defence, and for
//!   `k > 1` no other move does; no proof may hit the node cap;
//! - any other solution: each solver move is the best move of a search on
//!   [`VERIFY_FACTOR`]` × `[`GENERATION_NODES`] nodes from that position
//!   (a fresh table each time, so the result is reproducible);
//! - across a set, no two puzzles share a position (board, prisons,
//!   airfields, side to move: [`position_key`]).

use core::fmt;
use std::collections::HashMap;

use hostage_engine::{Engine, Limits};

use crate::{
    generate::unique_mating_move,
    judge::{GENERATION_NODES, PROVER_CAP, VERIFY_FACTOR},
    mate::MateProver,
    record::{position_key, Puzzle},
    themes::detect,
};

/// Why a puzzle failed verification.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VerifyError {
    /// The solution has an even number of moves.
    MoveCount,
    /// The stored themes differ from the recomputed ones (these are).
    Themes(String),
    /// A mate's solver move at this ply is not proved to mate in time.
    MateNotProved(usize),
    /// Another move mates as fast at this solver ply.
    MateNotUnique(usize),
    /// The prover hit its node cap.
    ProverCap,
    /// At this ply the deeper search prefers another move (this one).
    MoveChanged(usize, String),
    /// The position already appears in the set (under this id).
    Duplicate(String),
}

impl VerifyError {
    /// A stable code: `move_count`, `themes`, `mate_not_proved`,
    /// `mate_not_unique`, `prover_cap`, `move_changed` or `duplicate`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            VerifyError::MoveCount => "move_count",
            VerifyError::Themes(_) => "themes",
            VerifyError::MateNotProved(_) => "mate_not_proved",
            VerifyError::MateNotUnique(_) => "mate_not_unique",
            VerifyError::ProverCap => "prover_cap",
            VerifyError::MoveChanged(..) => "move_changed",
            VerifyError::Duplicate(_) => "duplicate",
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::MoveCount => write!(f, "the solution has an even number of moves"),
            VerifyError::Themes(t) => write!(f, "themes differ; recomputed: {t}"),
            VerifyError::MateNotProved(i) => write!(f, "ply {i}: the mate is not proved"),
            VerifyError::MateNotUnique(i) => write!(f, "ply {i}: another move mates as fast"),
            VerifyError::ProverCap => write!(f, "the mate prover hit its node cap"),
            VerifyError::MoveChanged(i, m) => {
                write!(f, "ply {i}: the deeper search plays {m}")
            }
            VerifyError::Duplicate(id) => write!(f, "same position as puzzle {id}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// What verifying one puzzle cost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// Positions the mate prover visited.
    pub prover_nodes: u64,
    /// Nodes the engine searched.
    pub search_nodes: u64,
}

/// Verifies one puzzle (everything but the duplicate check).
///
/// # Errors
///
/// The first check that fails.
pub fn verify_puzzle(engine: &mut Engine, puzzle: &Puzzle) -> Result<Checked, VerifyError> {
    let moves = &puzzle.moves;
    if moves.len() % 2 == 0 {
        return Err(VerifyError::MoveCount);
    }
    let themes = detect(&puzzle.position, moves);
    if themes != puzzle.themes {
        let names: Vec<&str> = themes.iter().map(|t| t.name()).collect();
        return Err(VerifyError::Themes(names.join(" ")));
    }
    let mut checked = Checked::default();
    let mut end = puzzle.position.clone();
    for m in moves {
        end.play_unchecked(*m);
    }
    let mut p = puzzle.position.clone();
    if end.is_checkmate() {
        let mut prover = MateProver::new(PROVER_CAP);
        let total = moves.len().div_ceil(2) as u32;
        for (i, m) in moves.iter().enumerate() {
            if i % 2 == 0 {
                let k = total - (i / 2) as u32;
                match prover.move_mates_within(&p, m, k) {
                    crate::mate::MateProof::Proved => {}
                    crate::mate::MateProof::Refuted => return Err(VerifyError::MateNotProved(i)),
                    crate::mate::MateProof::Unknown => return Err(VerifyError::ProverCap),
                }
                if k > 1 && unique_mating_move(&mut prover, &p, k, Some(*m)) != Some(*m) {
                    return Err(if prover.hit_cap() {
                        VerifyError::ProverCap
                    } else {
                        VerifyError::MateNotUnique(i)
                    });
                }
            }
            p.play_unchecked(*m);
        }
        if prover.hit_cap() {
            return Err(VerifyError::ProverCap);
        }
        checked.prover_nodes = prover.nodes();
        return Ok(checked);
    }
    let limits = Limits::nodes(GENERATION_NODES * VERIFY_FACTOR);
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            engine.new_game();
            let res = engine.search(&p, &[], &limits);
            checked.search_nodes += res.nodes;
            match res.best_move {
                Some(best) if best == *m => {}
                Some(best) => return Err(VerifyError::MoveChanged(i, best.to_string())),
                None => return Err(VerifyError::MoveChanged(i, "(none)".into())),
            }
        }
        p.play_unchecked(*m);
    }
    Ok(checked)
}

/// Verifies a set: each puzzle, then the duplicates. Returns one entry per
/// puzzle, in order, and calls `progress(index, result)` as it goes.
pub fn verify_set(
    puzzles: &[Puzzle],
    progress: &mut dyn FnMut(usize, &Result<Checked, VerifyError>),
) -> Vec<Result<Checked, VerifyError>> {
    let mut engine = Engine::with_hash_mb(16);
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut out = Vec::with_capacity(puzzles.len());
    for (i, puzzle) in puzzles.iter().enumerate() {
        let key = position_key(&puzzle.position);
        let result = match seen.get(&key) {
            Some(id) => Err(VerifyError::Duplicate((*id).to_string())),
            None => {
                seen.insert(key, &puzzle.id);
                verify_puzzle(&mut engine, puzzle)
            }
        };
        progress(i, &result);
        out.push(result);
    }
    out
}
