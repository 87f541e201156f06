//! [`Node`]: what the search knows at a node once its static evaluation
//! is done, and [`Candidate`], a move of its loop. The node's steps
//! ([`super::node`]) fill them in; the decisions that need only their
//! inputs ([`super::pruning`], [`super::reduction`]) read them, so that
//! all depend on this file and not on each other.

use hostage_core::Move;

use crate::correction::Keys;

/// What a node is expected to be, in Knuth and Moore's terms as Stockfish
/// names them: on the principal variation (an open window), or, searched
/// with a null window, expected to fail high (a cut node: one move will
/// refute) or to fail low (an all node: every move is searched).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// On the principal variation.
    Pv,
    /// Expected to fail high.
    Cut,
    /// Expected to fail low.
    All,
}

impl Kind {
    /// The kind of a child searched at full depth with a null window: the
    /// expectation flips (a refutation's answers are all searched, an all
    /// node's moves are each expected to be refuted). A PV node's later
    /// moves are expected to be refuted.
    pub(super) fn child(self) -> Kind {
        match self {
            Kind::Pv | Kind::All => Kind::Cut,
            Kind::Cut => Kind::All,
        }
    }

    /// The kind of the first move's child: a PV node's stays on the PV.
    pub(super) fn first_child(self) -> Kind {
        match self {
            Kind::Pv => Kind::Pv,
            other => other.child(),
        }
    }
}

/// What a node knows once its static evaluation is done: the inputs of
/// the decisions before and in its move loop.
pub(super) struct Node {
    /// The depth left (after internal iterative reduction).
    pub depth: i32,
    /// Plies from the root.
    pub ply: usize,
    /// What the node is expected to be (PV: searched with an open window).
    pub kind: Kind,
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

impl Node {
    /// A PV node (searched with an open window).
    pub(super) fn pv(&self) -> bool {
        self.kind == Kind::Pv
    }
}

/// A move of the loop as the pruning and the reductions see it.
pub(super) struct Candidate {
    /// Not a capture or promotion.
    pub quiet: bool,
    /// It gives check.
    pub gives_check: bool,
    /// It gives check and keeps the checking man by static exchange (any
    /// check, without [`super::Options::see_pruning`]).
    pub safe_check: bool,
    /// Moves searched before it at this node.
    pub searched: usize,
    /// Quiet moves tried before it at this node.
    pub quiets_tried: usize,
    /// The depth a late-move reduction would search it to, at least 0
    /// (see [`super::pruning::lmr_depth`]).
    pub lmr_depth: i32,
    /// A drop or exchange next to either king, with
    /// [`super::Options::king_zone_drops`] (see [`super::pruning::near_king`]).
    pub near_king: bool,
    /// A quiet drop or exchange more than two squares from both kings,
    /// with [`super::Options::far_drop_pruning`] (see
    /// [`super::pruning::far_drop`]).
    pub far_drop: bool,
    /// A quiet move whose history is below 0, with
    /// [`super::Options::history_pruning`].
    pub bad_history: bool,
}
