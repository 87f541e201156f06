//! [`Node`]: what the search knows at a node once its static evaluation
//! is done. The node's steps ([`super::node`]) fill it in; the decisions
//! that need only their inputs ([`super::pruning`]) read it, so that both
//! depend on this file and not on each other.

use hostage_core::Move;

use crate::correction::Keys;

/// What a node knows once its static evaluation is done: the inputs of
/// the decisions before and in its move loop.
pub(super) struct Node {
    /// The depth left (after internal iterative reduction).
    pub depth: i32,
    /// Plies from the root.
    pub ply: usize,
    /// A PV node (searched with an open window).
    pub pv: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// The position's Zobrist hash.
    pub hash: u64,
    /// The static evaluation as computed or stored (`-INFINITE` in check).
    pub raw_eval: i32,
    /// The static evaluation with the correction history's correction
    /// (`-INFINITE` in check).
    pub eval: i32,
    /// The correction history's keys (none in check or with the
    /// correction off).
    pub keys: Option<Keys>,
    /// See [`super::pruning::improving`].
    pub improving: bool,
    /// The transposition table's move.
    pub tt_move: Option<Move>,
    /// The move a singular test leaves out of this node.
    pub excluded: Option<Move>,
}
