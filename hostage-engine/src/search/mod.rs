//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a quiescence search at the leaves.
//!
//! What it does, in the order a node does it:
//!
//! - draws: a position repeated since the root, or occurring for the third
//!   time in the game (R12: board, turn, castling, en passant, both prisons
//!   and both airfields, which the Zobrist hash covers); the fifty-move rule
//!   (R12: mate on the 100th ply still wins). Perpetual check ends in a
//!   repetition, so it is a draw here too;
//! - mate-distance pruning and the transposition table;
//! - the static evaluation (the network's, [`Options::nnue`], updated
//!   along the path from the parent's accumulator; else the hand-written
//!   one) plus the correction history's correction
//!   ([`crate::correction`]: what searches of positions with the same pawns
//!   or the same reserves found it gets wrong);
//! - "improving": whether the static evaluation is above the one at our
//!   previous turn; a side that is not improving is pruned and reduced
//!   harder;
//! - internal iterative reduction (off by default, [`Options::iir`]): one
//!   ply less where the table has no move;
//! - at non-PV nodes not in check: reverse futility (static eval far above
//!   beta), null-move pruning (not in check; Hostage Chess has few
//!   zugzwangs, since a side with an airfield or prisoners can always drop
//!   or exchange);
//! - a singular extension test of the table's move (depth ≥ 6), which may
//!   also cut the node (multi-cut); off by default ([`Options::singular`]);
//! - moves in the order of [`crate::ordering`], each played on a copy of the
//!   position once the pruning has kept it (a move that cannot give check
//!   is judged before it is played); checks are extended one ply unless the checking man is
//!   lost by static exchange ([`crate::see`]); late quiet moves (quiet board
//!   moves, drops, exchanges) are reduced (LMR; by history too with
//!   [`Options::history_lmr`], off by default) or, near the leaves, pruned
//!   (late-move and futility pruning), but never a move that gives check,
//!   since drop mates are the game's sharpest tactic; with
//!   [`Options::see_pruning`] (on by default) a move that loses material
//!   by static exchange beyond a depth-scaled margin is skipped near the
//!   leaves, checks included, and a check that loses its checking man is
//!   reduced like a quiet move;
//! - quiescence: captures and promotions only (R7 promotions are swaps with
//!   a prisoner), without those that lose material by static exchange, and
//!   with the transposition table's bounds and stored evaluation, storing
//!   its own results where the table knows nothing deeper. Drops
//!   and exchanges are left out: with 100–200 of them a
//!   node, a quiescence search that tried them would not stay bounded (the
//!   explosion crazyhouse programmers report). In check every evasion is
//!   tried, drops included, up to [`QS_EVASION_PLIES`] plies deep.
//!
//! Where each step lives: iterative deepening, aspiration windows and the
//! root in `iterate.rs`; a node of the main search in `node.rs`, which
//! calls the decisions of `pruning.rs` (reverse futility, null move,
//! late-move and futility pruning), `reduction.rs` (LMR), `singular.rs`
//! (the singular test), `extension.rs` (check extension) and `checks.rs`
//! (whether a move may give check, before it is played), and takes its
//! moves in the order of `picker.rs`; what a node knows and its kind (PV,
//! cut, all) in `facts.rs`; quiescence in `quiescence.rs`;
//! the switches in `options.rs`. This file holds the searcher's state,
//! node counting and limits, repetitions and the corrected evaluation.
//!
//! Each pruning technique can be switched off in [`Options`], so a match
//! can show what it is worth (`docs/engine.md` has the figures).
//!
//! One `Searcher` is one thread. Lazy SMP (`engine.rs`) runs several on
//! one shared table; a single searcher under node and depth limits is fully
//! deterministic: the node counter is compared with the limit at every
//! node, and nothing depends on the clock unless a move time or a clock
//! (`timeman.rs`: the hard limit while searching, the soft one after each
//! iteration) is set.

mod checks;
mod extension;
mod facts;
mod iterate;
mod node;
mod options;
mod picker;
mod pruning;
mod quiescence;
mod reduction;
mod singular;

use alloc::{vec, vec::Vec};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use hostage_core::{Move, MoveList, Position};

pub use options::Options;

use crate::{
    correction::Keys,
    eval::{evaluate_with, Params},
    limits::{Clock, Limits},
    nnue::{self, Network},
    ordering::Heuristics,
    score::{Score, INFINITE, MATE_BOUND},
    timeman::TimeManager,
    tt::Table,
};

/// The deepest ply a search path may reach (extensions and quiescence
/// included); beyond it the static evaluation is returned.
pub(crate) const MAX_PLY: usize = 128;
/// How many plies of check evasions quiescence follows.
pub const QS_EVASION_PLIES: u32 = 4;
/// With [`Options::qs_recaptures`], how many plies below the horizon
/// quiescence tries every capture before it tries only recaptures
/// (Stockfish's `DEPTH_QS_RECAPTURES`, −5, before version 12).
pub(crate) const QS_RECAPTURE_PLY: u32 = 5;

/// One move of the root with what the last iterations said of it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    /// The value found this iteration (`-INFINITE` when it failed low and
    /// is only known to be worse than the others).
    pub value: i32,
    /// The value of the last completed iteration.
    pub prev: i32,
    /// Whether `prev` is exact (searched with an open window).
    pub exact: bool,
    exact_now: bool,
    pub pv: Vec<Move>,
    pub seldepth: u32,
}

/// What one completed iteration reports.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The lines, best first (as many as MultiPV asked for).
    pub lines: Vec<Line>,
    /// Transposition table use, per mille.
    pub hashfull: u32,
}

/// One line of a search result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Line {
    /// Its first move.
    pub mv: Move,
    /// Its score for the side to move at the root.
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// One thread's search: the shared table and histories it uses, its
/// limits, and the per-ply state of the path it is searching.
pub(crate) struct Searcher<'a> {
    pub tt: &'a Table,
    pub heuristics: &'a mut Heuristics,
    pub params: Params,
    pub options: Options,
    pub limits: &'a Limits,
    pub stop: &'a AtomicBool,
    /// The level's root margin: root moves within this many centipawns of
    /// the best get exact values (0 for the normal search).
    pub margin: i32,
    /// Hashes of the game's positions before the root, sorted.
    pub history: Vec<u64>,
    clock: Clock,
    /// The clock's budget (`go wtime …`), if the search plays on one.
    time: Option<TimeManager>,
    /// Set while pondering: no time limit runs until it is cleared (UCI
    /// `ponderhit`), and the clock starts then.
    ponder: Option<&'a AtomicBool>,
    /// Nodes of the other threads of a Lazy SMP search (each helper adds
    /// its count here every 256 nodes), for reporting.
    shared_nodes: Option<&'a AtomicU64>,
    /// 0 for the main thread (reads `shared_nodes`), `k` for the `k`-th
    /// helper (adds to it and, with `Options::smp_vote`, skips some depths:
    /// `smp.rs`).
    helper: usize,
    /// Nodes already added to `shared_nodes`.
    flushed: u64,
    pub nodes: u64,
    /// The depth of the iteration being searched.
    root_depth: i32,
    seldepth: u32,
    stopped: bool,
    /// Whether the limits are enforced yet (not before depth 1 is done, so
    /// that every search has a move).
    armed: bool,
    path: Vec<u64>,
    buffers: Vec<MoveList>,
    scores: Vec<Vec<i32>>,
    /// Per ply: the quiet moves tried so far (for the history malus).
    quiets: Vec<Vec<Move>>,
    /// Per ply: the captures and promotions tried so far (for the capture
    /// history malus).
    tacticals: Vec<Vec<Move>>,
    pv: Vec<Vec<Move>>,
    /// Per ply: the move played there (`None` for a null move), for the
    /// continuation histories of the plies below.
    played: Vec<Option<Move>>,
    /// Per ply: the static evaluation (`-INFINITE` in check), for the
    /// "improving" flag.
    evals: Vec<i32>,
    /// Per ply: the move a singular-extension search leaves out.
    excluded: Vec<Option<Move>>,
    /// Reused by [`picker::next`] to sort a node's late moves without allocating.
    sort_buf: Vec<(i32, Move)>,
    /// The network's accumulators along the path, when the search
    /// evaluates with the network ([`Options::nnue`]).
    nnue: Option<nnue::Stack<'a>>,
    pub root_moves: Vec<RootMove>,
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        tt: &'a Table,
        heuristics: &'a mut Heuristics,
        params: Params,
        options: Options,
        network: Option<&'a Network>,
        limits: &'a Limits,
        stop: &'a AtomicBool,
        margin: i32,
        history: &[u64],
    ) -> Searcher<'a> {
        let mut sorted = history.to_vec();
        sorted.sort_unstable();
        if options.continuation {
            heuristics.use_continuation();
        }
        Searcher {
            tt,
            heuristics,
            params,
            options,
            limits,
            stop,
            margin,
            history: sorted,
            clock: Clock::start(),
            time: None,
            ponder: None,
            shared_nodes: None,
            helper: 0,
            flushed: 0,
            nodes: 0,
            root_depth: 0,
            seldepth: 0,
            stopped: false,
            armed: false,
            path: Vec::with_capacity(MAX_PLY + 1),
            buffers: (0..=MAX_PLY).map(|_| MoveList::with_capacity(64)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            quiets: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            tacticals: (0..=MAX_PLY).map(|_| Vec::with_capacity(16)).collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            played: vec![None; MAX_PLY + 1],
            evals: vec![-INFINITE; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            sort_buf: Vec::with_capacity(256),
            nnue: network.map(|net| nnue::Stack::new(net, MAX_PLY + 1)),
            root_moves: Vec::new(),
        }
    }

    /// Plays on a clock: `time` decides when to stop (with `limits`).
    pub(crate) fn with_time(mut self, time: Option<TimeManager>) -> Self {
        self.time = time;
        self
    }

    /// Ponders while `flag` is set (see the field).
    pub(crate) fn with_ponder(mut self, flag: &'a AtomicBool) -> Self {
        self.ponder = Some(flag);
        self
    }

    /// Counts this searcher's nodes into `counter` as the Lazy SMP helper
    /// `helper` (1 and up), or reads the helpers' nodes from it as the main
    /// thread (`helper` 0).
    pub(crate) fn with_shared_nodes(mut self, counter: &'a AtomicU64, helper: usize) -> Self {
        self.shared_nodes = Some(counter);
        self.helper = helper;
        self
    }

    /// Nodes of this thread and of the helpers (as far as they reported).
    pub(crate) fn total_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(counter) if self.helper == 0 => self.nodes + counter.load(Ordering::Relaxed),
            _ => self.nodes,
        }
    }

    /// A helper adds the nodes it has not reported yet.
    fn flush_nodes(&mut self) {
        if let (Some(counter), true) = (self.shared_nodes, self.helper > 0) {
            counter.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// Whether the search waits for `ponderhit` (time limits off).
    fn pondering(&mut self) -> bool {
        match self.ponder {
            Some(flag) if flag.load(Ordering::Relaxed) => true,
            Some(_) => {
                // The ponder hit: our clock runs from now.
                self.ponder = None;
                // The time manager's iterations so far still count.
                self.clock = Clock::start();
                false
            }
            None => false,
        }
    }

    fn limit_reached(&mut self) -> bool {
        if !self.armed {
            return false;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                return true;
            }
        }
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.pondering() {
            return false;
        }
        let Some(elapsed) = self.clock.elapsed() else {
            return false;
        };
        if self.limits.movetime.is_some_and(|limit| elapsed >= limit) {
            return true;
        }
        self.time
            .as_ref()
            .is_some_and(|time| elapsed >= time.hard())
    }

    /// Counts a node and decides whether to stop.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if !self.armed {
            return false;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes > n {
                self.stopped = true;
                return true;
            }
        }
        // Every 256 nodes: often enough that a search on a clock stops
        // within a millisecond or two of its hard limit even in a debug
        // build, seldom enough to cost nothing.
        if self.nodes & 255 == 0 {
            self.flush_nodes();
            if self.limit_reached() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn is_repetition(&self, hash: u64, ply: usize) -> bool {
        // Since the root: a second occurrence is enough (the side that
        // repeats could repeat again).
        if self.path[..ply]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&h| h == hash)
        {
            return true;
        }
        // Before the root: the third occurrence of a game position (R12).
        let first = self.history.partition_point(|&h| h < hash);
        self.history[first..]
            .iter()
            .take_while(|&&h| h == hash)
            .count()
            >= 2
    }

    /// The static evaluation of `pos` at `ply` of the path: the network's
    /// with [`Options::nnue`], else the hand-written one's.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            // A network's output is not bounded by construction; the
            // mate scores above it must stay apart.
            Some(stack) => stack
                .evaluate(pos, ply)
                .clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
            None => evaluate_with(pos, &self.params),
        }
    }

    /// The static evaluation with the correction history's correction
    /// (none in check, where `raw` is `-INFINITE`, or without keys).
    #[inline]
    fn corrected(&self, raw: i32, keys: Option<Keys>) -> i32 {
        match keys {
            Some(k) if raw != -INFINITE => {
                (raw + self.heuristics.correction.get(k)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
            }
            _ => raw,
        }
    }
}
