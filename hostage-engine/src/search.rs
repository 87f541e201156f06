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
//! - the static evaluation plus the correction history's correction
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
//!   position; checks are extended one ply unless the checking man is
//!   lost by static exchange ([`crate::see`]); late quiet moves (quiet board
//!   moves, drops, exchanges) are reduced (LMR; by history too with
//!   [`Options::history_lmr`], off by default) or, near the leaves, pruned
//!   (late-move and futility pruning), but never a move that gives check,
//!   since drop mates are the game's sharpest tactic;
//! - quiescence: captures and promotions only (R7 promotions are swaps with
//!   a prisoner), without those that lose material by static exchange, and
//!   with the transposition table's bounds and stored evaluation, storing
//!   its own results where the table knows nothing deeper. Drops
//!   and exchanges are left out: with 100–200 of them a
//!   node, a quiescence search that tried them would not stay bounded (the
//!   explosion crazyhouse programmers report). In check every evasion is
//!   tried, drops included, up to [`QS_EVASION_PLIES`] plies deep.
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

use alloc::{vec, vec::Vec};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use hostage_core::{Move, MoveList, Position, Role};

use crate::{
    correction::Keys,
    eval::{evaluate_with, Params},
    limits::{Clock, Limits},
    ordering::{gain, is_tactical, pick, Context, Heuristics},
    score::{from_tt, to_tt, Score, INFINITE, MATE, MATE_BOUND},
    timeman::TimeManager,
    tt::{Bound, Table},
};

/// The deepest ply a search path may reach (extensions and quiescence
/// included); beyond it the static evaluation is returned.
pub(crate) const MAX_PLY: usize = 128;
/// The least depth at which singular extensions are tried.
const SINGULAR_DEPTH: i32 = 6;
/// How many plies of check evasions quiescence follows.
pub const QS_EVASION_PLIES: u32 = 4;

/// Switches for the search's selective techniques, so each can be measured
/// against the search without it. On by default are those a match showed
/// to help (`docs/engine.md`, "Measured" and "Strength work").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning and futility pruning near the leaves.
    pub leaf_pruning: bool,
    /// Reverse futility pruning (static null-move pruning).
    pub reverse_futility: bool,
    /// Aspiration windows at the root.
    pub aspiration: bool,
    /// One ply more for moves that give check.
    pub check_extension: bool,
    /// Counter-moves and continuation histories (by the opponent's last
    /// move and by our own move before it) in the order of quiet moves.
    /// Off by default: a match did not show it helps (`docs/engine.md`).
    pub continuation: bool,
    /// Late-move reductions shortened or lengthened by the move's history.
    /// Off by default: a match did not show it helps.
    pub history_lmr: bool,
    /// The "improving" flag (static evaluation above that of two plies
    /// before) in the pruning margins and reductions.
    pub improving: bool,
    /// Internal iterative reduction: one ply less where the table has no
    /// move. Off by default: a match did not show it helps.
    pub iir: bool,
    /// Correction history (`correction.rs`): the static evaluation plus
    /// what searches of positions with the same pawns or the same reserves
    /// found it got wrong.
    pub correction: bool,
    /// Quiescence stores its results in the transposition table (depth 0,
    /// never over a deeper entry of the same position).
    pub qs_store: bool,
    /// Capture history: captures and promotions that refuted before are
    /// tried earlier among those of equal material gain.
    pub capture_history: bool,
    /// Late-move pruning up to depth 8 (not only 3) and futility pruning
    /// up to depth 6 (not only 2).
    pub deep_pruning: bool,
    /// Singular extensions: the table's move is searched a ply deeper when
    /// a shallower search without it shows every other move is clearly
    /// worse; when even the others reach beta, the node is cut ("multi-cut").
    /// Off by default: a match showed it costs strength here.
    pub singular: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            null_move: true,
            lmr: true,
            leaf_pruning: true,
            reverse_futility: true,
            aspiration: true,
            check_extension: true,
            continuation: false,
            history_lmr: false,
            improving: true,
            iir: false,
            correction: true,
            qs_store: true,
            capture_history: true,
            deep_pruning: true,
            singular: false,
        }
    }
}

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
    /// Whether this searcher is a helper (adds to `shared_nodes`) or the
    /// main thread (reads it).
    helper: bool,
    /// Nodes already added to `shared_nodes`.
    flushed: u64,
    pub nodes: u64,
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
    /// Reused by [`next`] to sort a node's late moves without allocating.
    sort_buf: Vec<(i32, Move)>,
    pub root_moves: Vec<RootMove>,
}

/// LMR reduction for a move at `index` of a node of `depth`:
/// 0.77 + 0.2·⌊log2 depth⌋·⌊log2 index⌋, about 0.77 + ln d · ln i / 2.4,
/// the logarithmic shape common to modern engines (Ethereal publishes
/// 0.75 + ln d · ln i / 2.25); in integers so every platform agrees.
fn reduction(depth: i32, index: usize) -> i32 {
    let lg = |x: u64| 63 - x.max(1).leading_zeros() as i32;
    (77 + 20 * lg(depth.max(1) as u64) * lg(index as u64)) / 100
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        tt: &'a Table,
        heuristics: &'a mut Heuristics,
        params: Params,
        options: Options,
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
            helper: false,
            flushed: 0,
            nodes: 0,
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

    /// Counts this searcher's nodes into `counter` as a Lazy SMP helper, or
    /// reads the helpers' nodes from it as the main thread (`helper` false).
    pub(crate) fn with_shared_nodes(mut self, counter: &'a AtomicU64, helper: bool) -> Self {
        self.shared_nodes = Some(counter);
        self.helper = helper;
        self
    }

    /// Nodes of this thread and of the helpers (as far as they reported).
    pub(crate) fn total_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(counter) if !self.helper => self.nodes + counter.load(Ordering::Relaxed),
            _ => self.nodes,
        }
    }

    /// A helper adds the nodes it has not reported yet.
    fn flush_nodes(&mut self) {
        if let (Some(counter), true) = (self.shared_nodes, self.helper) {
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

    /// Iterative deepening from `root`; `report` sees each completed
    /// iteration. Leaves the root moves of the last completed iteration
    /// sorted best first in `self.root_moves`, and returns the last depth
    /// completed.
    pub(crate) fn run(&mut self, root: &Position, report: &mut dyn FnMut(&Info)) -> u32 {
        self.tt.new_search();
        self.root_moves = root
            .legal_moves()
            .into_iter()
            .map(|mv| RootMove {
                mv,
                value: -INFINITE,
                prev: -INFINITE,
                exact: false,
                exact_now: false,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        if self.root_moves.is_empty() {
            return 0;
        }
        // Order the first iteration by captures first.
        self.root_moves.sort_by_key(|rm| {
            core::cmp::Reverse(if is_tactical(&rm.mv) {
                crate::ordering::tactical_score(&rm.mv)
            } else {
                0
            })
        });
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let max_depth = self.limits.max_depth();
        let mut completed = 0;
        let mut saved = self.root_moves.clone();
        for depth in 1..=max_depth as i32 {
            self.seldepth = 0;
            for rm in &mut self.root_moves {
                rm.exact_now = false;
            }
            for pv_idx in 0..multipv {
                let prev = self.root_moves[pv_idx].prev;
                let mut delta = 30;
                let (mut alpha, mut beta) =
                    if self.options.aspiration && depth >= 4 && prev.abs() < MATE_BOUND {
                        (prev - delta - self.margin, prev + delta)
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let value = self.root(root, depth, alpha, beta, pv_idx);
                    // Stable: moves that failed low keep last iteration's order.
                    self.root_moves[pv_idx..].sort_by_key(|rm| core::cmp::Reverse(rm.value));
                    if self.stopped {
                        break;
                    }
                    if value <= alpha && alpha > -INFINITE {
                        alpha = (alpha - delta).max(-INFINITE);
                    } else if value >= beta && beta < INFINITE {
                        beta = (beta + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            // Each line was searched with its own window, so a later line
            // can come out better than an earlier one: report them in order.
            self.root_moves[..multipv].sort_by_key(|rm| core::cmp::Reverse(rm.value));
            for rm in &mut self.root_moves {
                rm.prev = rm.value;
                rm.exact = rm.exact_now;
            }
            completed = depth as u32;
            self.armed = true;
            saved = self.root_moves.clone();
            let info = self.info(completed, multipv);
            report(&info);
            // A mate found for the side to move: search on until the depth
            // is twice its length, so that reductions cannot hide a shorter
            // one, then stop.
            let best = self.root_moves[0].prev;
            if best > MATE_BOUND && depth >= 2 * (MATE - best) + 2 {
                break;
            }
            if self.limit_reached() {
                break;
            }
            if !self.pondering() {
                let best = &self.root_moves[0];
                let elapsed = self.clock.elapsed();
                let only_move = self.root_moves.len() == 1;
                if let (Some(time), Some(elapsed)) = (&mut self.time, elapsed) {
                    if time.iteration_done(best.mv, best.prev, elapsed) || only_move {
                        break;
                    }
                }
            }
        }
        self.flush_nodes();
        self.root_moves = saved;
        completed
    }

    fn info(&self, depth: u32, multipv: usize) -> Info {
        Info {
            depth,
            seldepth: self.seldepth(depth),
            nodes: self.total_nodes(),
            lines: self.lines(multipv),
            hashfull: self.tt.hashfull(),
        }
    }

    /// The first `count` root moves as lines, with the last completed
    /// iteration's scores.
    pub(crate) fn lines(&self, count: usize) -> Vec<Line> {
        self.root_moves
            .iter()
            .take(count)
            .map(|rm| Line {
                mv: rm.mv,
                score: Score::from_value(rm.prev),
                pv: rm.pv.clone(),
            })
            .collect()
    }

    /// The deepest ply reached under any root move (at least `depth`).
    pub(crate) fn seldepth(&self, depth: u32) -> u32 {
        self.root_moves
            .iter()
            .map(|r| r.seldepth)
            .max()
            .unwrap_or(0)
            .max(depth)
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

    /// The root of one iteration: searches `root_moves[pv_idx..]`.
    fn root(
        &mut self,
        root: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_idx: usize,
    ) -> i32 {
        let mut best = -INFINITE;
        self.path.clear();
        self.path.push(root.zobrist_hash());
        let in_check = root.is_check();
        self.evals[0] = if in_check {
            -INFINITE
        } else {
            evaluate_with(root, &self.params)
        };
        for i in pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.played[0] = Some(mv);
            let mut child = root.clone();
            child.play_unchecked(mv);
            let gives_check = child.is_check();
            let ext = i32::from(self.options.check_extension && gives_check);
            let new_depth = depth - 1 + ext;
            self.seldepth = 0;
            // The level margin: moves within it of the best get exact
            // values too, not only the best.
            // Not around mate scores: the shortest mate is played anyway,
            // and proving that no move mates within a margin's worth of
            // extra moves would cost a search of its own.
            let floor = if self.margin > 0 && best > -INFINITE && best.abs() < MATE_BOUND {
                alpha.min(best - self.margin)
            } else {
                alpha
            };
            let value = if i == pv_idx {
                -self.negamax(&child, new_depth, -beta, -alpha, 1, true)
            } else {
                let reduce = self.options.lmr
                    && depth >= 3
                    && i >= pv_idx + 3
                    && !in_check
                    && !gives_check
                    && !is_tactical(&mv);
                let mut v = if reduce {
                    let r = reduction(depth, i - pv_idx).clamp(0, (new_depth - 1).max(0));
                    -self.negamax(&child, new_depth - r, -floor - 1, -floor, 1, false)
                } else {
                    floor + 1
                };
                if v > floor && !self.stopped {
                    v = -self.negamax(&child, new_depth, -floor - 1, -floor, 1, false);
                }
                if v > floor && v < beta && !self.stopped {
                    v = -self.negamax(&child, new_depth, -beta, -floor, 1, true);
                }
                v
            };
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            rm.seldepth = self.seldepth;
            if i == pv_idx || value > floor {
                rm.value = value;
                rm.exact_now = value > floor && value < beta;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.value = -INFINITE;
            }
            if value > best {
                best = value;
            }
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
        best
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

    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, 0);
        }
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let hash = pos.zobrist_hash();
        let in_check = pos.is_check();

        // R12 draws. A mate on the 100th ply still wins.
        if pos.halfmoves() >= 100 {
            return if in_check && pos.count_legal_moves() == 0 {
                -MATE + ply as i32
            } else {
                0
            };
        }
        if self.is_repetition(hash, ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return evaluate_with(pos, &self.params);
        }
        let excluded = self.excluded[ply];
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let entry = self.tt.probe(hash);
        let mut tt_move = None;
        let mut tt_eval = None;
        if let Some(e) = entry {
            tt_move = e.mv;
            tt_eval = Some(i32::from(e.eval));
            let value = from_tt(i32::from(e.value), ply as u32);
            if !pv_node
                && excluded.is_none()
                && i32::from(e.depth) >= depth
                && e.bound.cuts(value, alpha, beta)
            {
                return value;
            }
        }

        let raw_eval = if in_check {
            -INFINITE
        } else {
            tt_eval.unwrap_or_else(|| evaluate_with(pos, &self.params))
        };
        let keys = (self.options.correction && !in_check).then(|| Keys::of(pos));
        let eval = self.corrected(raw_eval, keys);
        self.evals[ply] = eval;
        // Improving: better than at our last turn (when we were in check
        // then, the turn before; none known counts as improving).
        let improving = self.options.improving
            && !in_check
            && match ply {
                0 | 1 => true,
                _ if self.evals[ply - 2] != -INFINITE => eval > self.evals[ply - 2],
                2 | 3 => true,
                _ => self.evals[ply - 4] == -INFINITE || eval > self.evals[ply - 4],
            };
        let improving_i = i32::from(improving);
        // Internal iterative reduction: without a table move this node's
        // order is a guess, and a shallower search costs little.
        if self.options.iir && depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }

        if !pv_node && !in_check && excluded.is_none() {
            if self.options.reverse_futility
                && depth <= 6
                && eval.abs() < MATE_BOUND
                && eval - 90 * (depth - improving_i) >= beta
            {
                return eval;
            }
            if self.options.null_move
                && depth >= 3
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && has_men_to_move(pos)
            {
                if let Some(child) = pos.null_move() {
                    let r = 3 + depth / 4;
                    self.played[ply] = None;
                    self.path.push(hash);
                    let v = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.path.pop();
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if v > MATE_BOUND { beta } else { v };
                    }
                }
            }
        }

        // Singular extension (Stockfish's idea, parameters our own): is the
        // table's move, proved good to nearly this depth, the only good
        // one? Search the others at half depth against a bar a little
        // under its value.
        let mut singular_ext = 0;
        if let (true, Some(e), Some(tt_mv), None) =
            (self.options.singular && ply > 0, entry, tt_move, excluded)
        {
            let tt_value = from_tt(i32::from(e.value), ply as u32);
            if depth >= SINGULAR_DEPTH
                && i32::from(e.depth) >= depth - 3
                && matches!(e.bound, Bound::Lower | Bound::Exact)
                && tt_value.abs() < MATE_BOUND
            {
                let singular_beta = tt_value - 2 * depth;
                self.excluded[ply] = Some(tt_mv);
                let v = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                );
                self.excluded[ply] = None;
                self.pv[ply].clear();
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    singular_ext = 1;
                } else if singular_beta >= beta {
                    // Multi-cut: without the table's move another move
                    // already reaches beta.
                    return singular_beta;
                }
            }
        }

        let mut moves = core::mem::take(&mut self.buffers[ply]);
        let mut scores = core::mem::take(&mut self.scores[ply]);
        moves.clear();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            self.scores[ply] = scores;
            // R11 mate, R12 stalemate.
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        scores.clear();
        scores.resize(moves.len(), 0);
        let us = pos.turn();
        // The table's move goes first, before anything is scored: at most
        // nodes it cuts off, and scoring 100–200 drops would be wasted.
        let tt_first = match tt_move.and_then(|t| moves.iter().position(|m| *m == t)) {
            Some(idx) => {
                moves.swap(0, idx);
                true
            }
            None => false,
        };
        let mut scored = false;
        let ctx = if self.options.continuation {
            Context::new(
                us,
                self.played[ply - 1],
                ply.checked_sub(2).and_then(|p| self.played[p]),
            )
        } else {
            Context::default()
        };

        self.path.push(hash);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried = core::mem::take(&mut self.quiets[ply]);
        quiets_tried.clear();
        let mut tacticals_tried = core::mem::take(&mut self.tacticals[ply]);
        tacticals_tried.clear();
        let mut searched = 0usize;
        // Late-move pruning: how many quiet moves a node near the leaves
        // tries; a third fewer when the side is not improving.
        let lmp_limit = match depth {
            // 4 + d² + 3d: 8, 14, 22, 32, … 92 quiet moves.
            1..=8 if self.options.deep_pruning => (4 + depth * depth + 3 * depth) as usize,
            1 => 8,
            2 => 14,
            3 => 24,
            _ => usize::MAX,
        };
        let futility_depth = if self.options.deep_pruning { 6 } else { 2 };
        let lmp_limit = if self.options.improving && !improving {
            lmp_limit - lmp_limit / 3
        } else {
            lmp_limit
        };
        for i in 0..moves.len() {
            let mv = if i == 0 && tt_first {
                moves[0]
            } else {
                if !scored {
                    scored = true;
                    self.heuristics.score(
                        pos,
                        &moves[i..],
                        &mut scores[i..],
                        tt_move,
                        us,
                        ply as u32,
                        &ctx,
                    );
                }
                next(&mut moves, &mut scores, i, &mut self.sort_buf)
            };
            if Some(mv) == excluded {
                continue;
            }
            let quiet = !is_tactical(&mv);
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let gives_check = child.is_check();

            if !pv_node
                && !in_check
                && quiet
                && !gives_check
                && searched > 0
                && best > -MATE_BOUND
                && self.options.leaf_pruning
            {
                if quiets_tried.len() >= lmp_limit {
                    continue;
                }
                if depth <= futility_depth && eval + 100 + 120 * depth <= alpha {
                    continue;
                }
            }

            // A check is extended only when the checking man is not simply
            // lost by static exchange: sacrificial checking drops (a man
            // dropped next to the king where it is taken) chained into
            // long extended lines and a selective depth of 30 plies.
            let mut ext = i32::from(
                self.options.check_extension
                    && gives_check
                    && ply < 2 * MAX_PLY / 3
                    && crate::see::see_ge(pos, &mv, 0),
            );
            if i == 0 && tt_first && ply < 2 * MAX_PLY / 3 {
                ext = ext.max(singular_ext);
            }
            let new_depth = depth - 1 + ext;
            self.played[ply] = Some(mv);
            let value = if searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, pv_node)
            } else {
                let reduce = self.options.lmr
                    && depth >= 3
                    && searched >= 2 + usize::from(pv_node)
                    && quiet
                    && !in_check
                    && !gives_check;
                let mut v = if reduce {
                    let mut r = reduction(depth, searched);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving && self.options.improving {
                        r += 1;
                    }
                    if self.options.history_lmr {
                        // A move history likes is reduced less, one it
                        // dislikes more (the stat is within ±3·2^14).
                        r -= self.heuristics.quiet_score(us, &mv, &ctx) / 12_000;
                    }
                    let r = r.clamp(0, new_depth - 1);
                    -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, false)
                } else {
                    alpha + 1
                };
                if v > alpha && !self.stopped {
                    v = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if pv_node && v > alpha && v < beta && !self.stopped {
                    v = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                v
            };
            searched += 1;
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        if self.options.capture_history {
                            self.heuristics
                                .capture_cutoff(us, depth as u32, mv, &tacticals_tried);
                        }
                        if quiet {
                            self.heuristics.cutoff(
                                us,
                                ply as u32,
                                depth as u32,
                                mv,
                                &quiets_tried,
                                &ctx,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(mv);
            } else {
                tacticals_tried.push(mv);
            }
        }
        self.path.pop();
        self.buffers[ply] = moves;
        self.scores[ply] = scores;
        self.quiets[ply] = quiets_tried;
        self.tacticals[ply] = tacticals_tried;
        if self.stopped {
            return 0;
        }
        if excluded.is_some() {
            // Only the singular test's bound matters; nothing is stored,
            // since the result leaves a move out. No move left but the
            // excluded one: it is singular.
            return if best == -INFINITE { alpha } else { best };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // What the search found the evaluation gets wrong, when the result
        // says so: a quiet best move (or none), not a mate, and a bound on
        // the far side of the evaluation.
        if let Some(keys) = keys {
            let says_something = match bound {
                Bound::Lower => best > eval,
                Bound::Upper => best < eval,
                Bound::Exact => true,
            };
            if says_something
                && !best_move.is_some_and(|m| is_tactical(&m))
                && best.abs() < MATE_BOUND
            {
                self.heuristics
                    .correction
                    .update(keys, depth, best - raw_eval);
            }
        }
        let stored_eval = if in_check { 0 } else { raw_eval };
        self.tt.store(
            hash,
            best_move,
            to_tt(best, ply as u32),
            stored_eval,
            depth as u32,
            bound,
        );
        best
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return evaluate_with(pos, &self.params);
        }
        // The transposition table in quiescence (as Stockfish and Ethereal
        // do): every stored search is at least as deep as quiescence, so a
        // stored bound that decides the window ends the node, and a stored
        // static evaluation spares computing it again.
        let entry = self.tt.probe(pos.zobrist_hash());
        if let Some(e) = entry {
            let value = from_tt(i32::from(e.value), ply as u32);
            if e.bound.cuts(value, alpha, beta) {
                return value;
            }
        }
        let in_check = pos.is_check();
        let mut moves = core::mem::take(&mut self.buffers[ply]);
        let mut scores = core::mem::take(&mut self.scores[ply]);
        moves.clear();
        let original_alpha = alpha;
        let mut best;
        let mut best_move = None;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                self.buffers[ply] = moves;
                self.scores[ply] = scores;
                return -MATE + ply as i32;
            }
            if qply >= QS_EVASION_PLIES {
                self.buffers[ply] = moves;
                self.scores[ply] = scores;
                return evaluate_with(pos, &self.params);
            }
            best = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            // Not in check here, so neither was the stored node: its
            // evaluation is this position's.
            raw_eval =
                entry.map_or_else(|| evaluate_with(pos, &self.params), |e| i32::from(e.eval));
            let keys = self.options.correction.then(|| Keys::of(pos));
            stand_pat = self.corrected(raw_eval, keys);
            if stand_pat >= beta {
                self.buffers[ply] = moves;
                self.scores[ply] = scores;
                if self.options.qs_store && entry.is_none() {
                    self.tt.store(
                        pos.zobrist_hash(),
                        None,
                        to_tt(stand_pat, ply as u32),
                        raw_eval,
                        0,
                        Bound::Lower,
                    );
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            pos.legal_captures_into(&mut moves);
        }
        scores.clear();
        scores.extend(moves.iter().map(|m| {
            if is_tactical(m) {
                1_000_000 + crate::ordering::tactical_score(m)
            } else {
                0
            }
        }));
        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            // Delta pruning: even winning this man outright cannot reach alpha.
            if !in_check && stand_pat + gain(&mv) + 200 <= alpha && mv.role() != Role::Pawn {
                continue;
            }
            // SEE pruning: a capture that loses material by static exchange
            // (the captured man counted as a prisoner, see `crate::see`) is
            // not worth a quiescence node.
            if !in_check && !crate::see::see_ge(pos, &mv, 0) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let value = -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.scores[ply] = scores;
        // Stored at depth 0 only where the table knows nothing of this
        // position, so that a deeper result is never overwritten.
        if self.options.qs_store && !self.stopped && entry.is_none_or(|e| e.depth == 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let stored_eval = if in_check { 0 } else { raw_eval };
            self.tt.store(
                pos.zobrist_hash(),
                best_move,
                to_tt(best, ply as u32),
                stored_eval,
                0,
                bound,
            );
        }
        best
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

/// How many moves of a node are picked one by one (selection) before the
/// rest is sorted at once: the first few decide most cut-offs, and picking
/// through 150 drops one by one would cost a pass over them each.
const PICKED: usize = 6;

/// The `i`-th move of the node in order: picked while `i` < [`PICKED`],
/// then from the rest sorted once, best first (a stable sort, so equal
/// scores keep the order of generation).
fn next(moves: &mut [Move], scores: &mut [i32], i: usize, rest: &mut Vec<(i32, Move)>) -> Move {
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

/// Whether null-move pruning is safe enough: the side to move has a piece
/// on the board or anything to drop or exchange (pawn-and-king-only sides
/// are the zugzwang cases of chess).
fn has_men_to_move(pos: &Position) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let pieces = board.by_color(us) & !board.pawns() & !board.by_role(Role::King);
    pieces.any() || !pos.airfield(us).is_empty() || !pos.prison(us).is_empty()
}
