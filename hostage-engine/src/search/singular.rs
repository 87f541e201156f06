//! Singular extensions (Stockfish's idea, parameters our own): is the
//! table's move, proved good to nearly this depth, the only good one?
//!
//! At depth ≥ [`SINGULAR_DEPTH`], away from the root, when the table holds
//! a lower bound or an exact value (not a mate) searched at least 3 plies
//! less deep than this node, the other moves are searched at half depth
//! against a bar of that value less 2 centipawns a ply. If none reaches
//! it, the table's move is singular and searched a ply deeper; if even the
//! bar is at or above beta, another move already reaches beta and the node
//! is cut ("multi-cut"). Off by default ([`Options::singular`]): a match
//! showed it costs strength here.

use hostage_core::Position;

use super::{
    facts::{Kind, Node},
    Options, Searcher,
};
use crate::{
    score::{from_tt, MATE_BOUND},
    tt::{Bound, Entry},
};

/// The least depth at which singular extensions are tried.
const SINGULAR_DEPTH: i32 = 6;

/// The bar of the singular test of the table's move at `node`, when the
/// table's `entry` makes it a candidate.
pub(super) fn singular_beta(options: &Options, node: &Node, entry: &Entry) -> Option<i32> {
    if !options.singular || node.ply == 0 || node.excluded.is_some() {
        return None;
    }
    let tt_value = from_tt(i32::from(entry.value), node.ply as u32);
    let candidate = node.depth >= SINGULAR_DEPTH
        && i32::from(entry.depth) >= node.depth - 3
        && matches!(entry.bound, Bound::Lower | Bound::Exact)
        && tt_value.abs() < MATE_BOUND;
    candidate.then_some(tt_value - 2 * node.depth)
}

/// The depth at which the other moves are searched.
pub(super) fn test_depth(depth: i32) -> i32 {
    (depth - 1) / 2
}

/// What the test found.
pub(super) enum Verdict {
    /// The table's move is singular: one ply more for it.
    Extend,
    /// Without the table's move another move already reaches beta: the
    /// node returns this value.
    Cut(i32),
    /// Neither.
    Neither,
}

/// The verdict of a test whose search of the other moves returned `value`
/// against the bar `singular_beta`, at a node whose window ends at `beta`.
pub(super) fn verdict(value: i32, singular_beta: i32, beta: i32) -> Verdict {
    if value < singular_beta {
        Verdict::Extend
    } else if singular_beta >= beta {
        Verdict::Cut(singular_beta)
    } else {
        Verdict::Neither
    }
}

impl Searcher<'_> {
    /// The singular test of the table's move `tt_move` at `node`: `Ok` with
    /// the extension of the table's move (0 or 1), or `Err` with the value
    /// the node returns (a multi-cut, or 0 when the search was stopped).
    pub(super) fn singular(
        &mut self,
        pos: &Position,
        node: &Node,
        entry: Option<Entry>,
        beta: i32,
    ) -> Result<i32, i32> {
        let (Some(entry), Some(tt_move)) = (entry, node.tt_move) else {
            return Ok(0);
        };
        let Some(singular_beta) = singular_beta(&self.options, node, &entry) else {
            return Ok(0);
        };
        let ply = node.ply;
        self.excluded[ply] = Some(tt_move);
        let value = self.negamax(
            pos,
            test_depth(node.depth),
            singular_beta - 1,
            singular_beta,
            ply,
            // A null-window search, never a PV one; a cut node's test
            // expects a cut too, as Stockfish's does.
            if node.kind == Kind::Cut {
                Kind::Cut
            } else {
                Kind::All
            },
        );
        self.excluded[ply] = None;
        self.pv[ply].clear();
        if self.stopped {
            return Err(0);
        }
        match verdict(value, singular_beta, beta) {
            Verdict::Extend => Ok(1),
            Verdict::Cut(value) => Err(value),
            Verdict::Neither => Ok(0),
        }
    }
}
