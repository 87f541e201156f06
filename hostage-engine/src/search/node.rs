//! A node of the principal-variation search ([`Searcher::negamax`]), step
//! by step:
//!
//! 1. the horizon (quiescence at depth 0), the node count, draws (R12:
//!    the fifty-move rule, where a mate on the 100th ply still wins, and
//!    repetitions) and the deepest ply;
//! 2. mate-distance pruning and the transposition table's cut-off;
//! 3. the static evaluation with its correction, and "improving";
//! 4. internal iterative reduction (off by default, [`Options::iir`]): one
//!    ply less where the table has no move, since this node's order is
//!    then a guess and a shallower search costs little;
//! 5. pruning before the move loop ([`super::pruning`]);
//! 6. the singular test of the table's move ([`super::singular`]);
//! 7. the move loop: the table's move first, the others in the order of
//!    [`crate::ordering`]; pruning near the leaves, extensions
//!    ([`super::extension`]), and late-move reductions
//!    ([`super::reduction`]) in a principal-variation search;
//! 8. the result: the correction history's update and the table's entry.

use alloc::vec::Vec;

use hostage_core::{Color, Move, MoveList, Position};

use super::{
    checks,
    extension::extension,
    facts::{Candidate, Kind, Node},
    picker::next,
    pruning::{self, LeafPruning},
    reduction, Options, Searcher, MAX_PLY,
};
use crate::{
    correction::Keys,
    ordering::{is_tactical, Context},
    score::{from_tt, to_tt, INFINITE, MATE, MATE_BOUND},
    tt::{Bound, Entry},
};

/// The moves a node has tried so far, for the histories' malus at a
/// cut-off.
struct Tried {
    /// Quiet moves (board moves, drops, exchanges).
    quiets: Vec<Move>,
    /// Captures and promotions.
    tacticals: Vec<Move>,
}

/// What a node's move loop found.
struct Found {
    /// The best value (`-INFINITE` when no move was searched).
    best: i32,
    /// The move that raised alpha last.
    best_move: Option<Move>,
}

impl Searcher<'_> {
    /// The value of `pos` searched `depth` plies deep within
    /// `(alpha, beta)`, `ply` plies from the root; `kind` what the node
    /// is expected to be ([`Kind::Pv`]: searched with an open window).
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        kind: Kind,
    ) -> i32 {
        let pv_node = kind == Kind::Pv;
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
        if let Some(value) = self.draw_or_horizon(pos, hash, in_check, ply) {
            return value;
        }
        let excluded = self.excluded[ply];
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // The table: a stored result that decides the window ends the node,
        // but not at a PV node (whose line it would cut short) nor in a
        // singular test (whose result leaves a move out).
        let entry = self.tt.probe(hash);
        if let Some(e) = entry {
            let value = from_tt(i32::from(e.value), ply as u32);
            if !pv_node && excluded.is_none() && table_cuts(&e, value, depth, alpha, beta) {
                return value;
            }
        }
        let (raw_eval, eval, keys) = self.static_eval(pos, entry, in_check, ply);
        let tt_move = entry.and_then(|e| e.mv);
        let node = Node {
            depth: if iir(&self.options, depth, tt_move) {
                depth - 1
            } else {
                depth
            },
            ply,
            kind,
            in_check,
            hash,
            raw_eval,
            eval,
            keys,
            improving: pruning::improving(&self.options, in_check, eval, &self.evals[..ply]),
            tt_move,
            excluded,
        };

        if !pv_node && !in_check && excluded.is_none() {
            if let Some(value) = self.prune_before_moves(pos, &node, beta) {
                return value;
            }
        }
        let singular_ext = match self.singular(pos, &node, entry, beta) {
            Ok(ext) => ext,
            Err(value) => return value,
        };

        let Some(found) = self.search_moves(pos, &node, alpha, beta, singular_ext) else {
            // No legal move: R11 mate, R12 stalemate.
            return if in_check { -MATE + ply as i32 } else { 0 };
        };
        if self.stopped {
            return 0;
        }
        if excluded.is_some() {
            // Only the singular test's bound matters; nothing is stored,
            // since the result leaves a move out. No move left but the
            // excluded one: it is singular.
            return if found.best == -INFINITE {
                alpha
            } else {
                found.best
            };
        }
        self.record(&node, &found, alpha, beta);
        found.best
    }

    /// The value of a node that ends before its evaluation: a draw (R12:
    /// the fifty-move rule, where a mate on the 100th ply still wins; a
    /// repetition) or the deepest ply, where the static evaluation is
    /// returned.
    fn draw_or_horizon(
        &mut self,
        pos: &Position,
        hash: u64,
        in_check: bool,
        ply: usize,
    ) -> Option<i32> {
        if pos.halfmoves() >= 100 {
            return Some(if in_check && pos.count_legal_moves() == 0 {
                -MATE + ply as i32
            } else {
                0
            });
        }
        if self.is_repetition(hash, ply) {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos, ply));
        }
        None
    }

    /// The static evaluation of `pos` (the table's stored one if any) as
    /// computed and with the correction history's correction, and the
    /// correction's keys; recorded for the plies below ("improving").
    fn static_eval(
        &mut self,
        pos: &Position,
        entry: Option<Entry>,
        in_check: bool,
        ply: usize,
    ) -> (i32, i32, Option<Keys>) {
        let raw_eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| self.evaluate(pos, ply), |e| i32::from(e.eval))
        };
        let keys = (self.options.correction && !in_check).then(|| Keys::of(pos));
        let eval = self.corrected(raw_eval, keys);
        self.evals[ply] = eval;
        (raw_eval, eval, keys)
    }

    /// Pruning before the move loop (non-PV nodes not in check): reverse
    /// futility, then a null-move search. The value the node returns if
    /// either cuts it (0 if the search was stopped meanwhile).
    fn prune_before_moves(&mut self, pos: &Position, node: &Node, beta: i32) -> Option<i32> {
        if let Some(value) = pruning::reverse_futility(&self.options, node, beta) {
            return Some(value);
        }
        let r = pruning::null_move(&self.options, node, beta, pos)?;
        let child = pos.null_move()?;
        self.played[node.ply] = None;
        self.path.push(node.hash);
        let value = -self.negamax(
            &child,
            node.depth - 1 - r,
            -beta,
            -beta + 1,
            node.ply + 1,
            node.kind.child(),
        );
        self.path.pop();
        if self.stopped {
            return Some(0);
        }
        (value >= beta).then(|| pruning::null_move_value(value, beta))
    }

    /// The move loop of `node` within `(alpha, beta)`; `singular_ext` is
    /// the table's move's extension from the singular test. `None` when
    /// the position has no legal move.
    fn search_moves(
        &mut self,
        pos: &Position,
        node: &Node,
        mut alpha: i32,
        beta: i32,
        singular_ext: i32,
    ) -> Option<Found> {
        let ply = node.ply;
        let (mut moves, mut scores, tt_first) = self.generate(pos, ply, node.tt_move)?;
        let us = pos.turn();
        let mut scored = false;
        let ctx = self.context(us, ply);

        self.path.push(node.hash);
        let mut found = Found {
            best: -INFINITE,
            best_move: None,
        };
        let mut tried = Tried {
            quiets: core::mem::take(&mut self.quiets[ply]),
            tacticals: core::mem::take(&mut self.tacticals[ply]),
        };
        tried.quiets.clear();
        tried.tacticals.clear();
        let mut searched = 0usize;
        let leaf = LeafPruning::new(&self.options, node);
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
                        node.tt_move,
                        us,
                        ply as u32,
                        &ctx,
                        self.options
                            .checks_first
                            .then_some(checks::may_give_check as fn(&Position, &Move) -> bool),
                    );
                }
                next(&mut moves, &mut scores, i, &mut self.sort_buf)
            };
            if Some(mv) == node.excluded {
                continue;
            }
            let quiet = !is_tactical(&mv);
            // A move that cannot give check is judged before it is played,
            // so a pruned one costs no copy of the position.
            let played = checks::may_give_check(pos, &mv).then(|| play(pos, mv));
            let gives_check = played.as_ref().is_some_and(Position::is_check);
            let candidate = Candidate {
                quiet,
                gives_check,
                safe_check: gives_check
                    && (!self.options.see_pruning || crate::see::see_ge(pos, &mv, 0)),
                searched,
                quiets_tried: tried.quiets.len(),
                lmr_depth: pruning::lmr_depth(node, searched),
                near_king: quiet && pruning::near_king(&self.options, pos, &mv),
                far_drop: quiet && pruning::far_drop(&self.options, pos, &mv),
                bad_history: quiet
                    && self.options.history_pruning
                    && self.heuristics.quiet_score(us, &mv, &ctx) < 0,
            };
            if pruning::prunes_late_move(&self.options, node, &leaf, &candidate, found.best, alpha)
            {
                continue;
            }
            // A check already found to keep its man (exchange ≥ 0) clears
            // every threshold, all of them ≤ 0: no second exchange.
            if pruning::see_threshold(&self.options, node, &candidate, found.best)
                .is_some_and(|t| !candidate.safe_check && !crate::see::see_ge(pos, &mv, t))
            {
                continue;
            }

            let child = played.unwrap_or_else(|| play(pos, mv));
            let singular = if i == 0 && tt_first { singular_ext } else { 0 };
            let new_depth = node.depth - 1
                + extension(
                    &self.options,
                    pos,
                    &mv,
                    gives_check,
                    (ply, self.root_depth),
                    singular,
                    (node.depth, node.eval),
                );
            self.played[ply] = Some(mv);
            let value = if searched == 0 {
                let kind = node.kind.first_child();
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, kind)
            } else {
                let r = self.late_reduction(node, &candidate, &mv, new_depth, us, &ctx);
                self.search_late(&child, ply + 1, new_depth, r, (alpha, beta), node.kind)
            };
            searched += 1;
            if self.stopped {
                break;
            }
            if value > found.best {
                found.best = value;
                if value > alpha {
                    found.best_move = Some(mv);
                    alpha = value;
                    if node.pv() {
                        self.update_pv(ply, mv);
                    }
                    if alpha >= beta {
                        self.cutoff(node, us, mv, quiet, &tried, &ctx);
                        break;
                    }
                }
            }
            if quiet {
                tried.quiets.push(mv);
            } else {
                tried.tacticals.push(mv);
            }
        }
        self.path.pop();
        self.buffers[ply] = moves;
        self.scores[ply] = scores;
        self.quiets[ply] = tried.quiets;
        self.tacticals[ply] = tried.tacticals;
        Some(found)
    }

    /// The continuation histories' context of a node at `ply` with `us` to
    /// move: the opponent's last move and our own before it (none without
    /// [`Options::continuation`]).
    fn context(&self, us: Color, ply: usize) -> Context {
        if self.options.continuation {
            Context::new(
                us,
                self.played[ply - 1],
                ply.checked_sub(2).and_then(|p| self.played[p]),
            )
        } else {
            Context::default()
        }
    }

    /// The late-move reduction of move `mv`, the `m` of `node` whose full
    /// search would be `new_depth` deep (`None`: not reduced), with its
    /// history when [`Options::history_lmr`] asks for it.
    fn late_reduction(
        &self,
        node: &Node,
        m: &Candidate,
        mv: &Move,
        new_depth: i32,
        us: Color,
        ctx: &Context,
    ) -> Option<i32> {
        // A check that loses its checking man by static exchange (a
        // sacrificial checking drop) is reduced like a quiet move: only the
        // checks that keep the man are searched in full (all are reduced
        // with `check_reductions`).
        let checks = !self.options.check_reductions
            && ((node.in_check && !self.options.evasion_reductions) || m.safe_check);
        if !reduction::reduces(
            &self.options,
            node.depth,
            node.pv(),
            m.searched,
            m.quiet,
            checks,
        ) {
            return None;
        }
        let history = self
            .options
            .history_lmr
            .then(|| self.heuristics.quiet_score(us, mv, ctx));
        Some(reduction::at_node(
            &self.options,
            node,
            m,
            new_depth,
            history,
        ))
    }

    /// A cut-off by `mv` at `node` (`quiet`: not a capture or promotion):
    /// the capture history and, for a quiet move, the quiet histories,
    /// killers and counter-move learn from it and from the moves `tried`
    /// before it.
    fn cutoff(
        &mut self,
        node: &Node,
        us: Color,
        mv: Move,
        quiet: bool,
        tried: &Tried,
        ctx: &Context,
    ) {
        if self.options.capture_history {
            self.heuristics
                .capture_cutoff(us, node.depth as u32, mv, &tried.tacticals);
        }
        if quiet {
            self.heuristics.cutoff(
                us,
                node.ply as u32,
                node.depth as u32,
                mv,
                &tried.quiets,
                ctx,
            );
        }
    }

    /// The legal moves of `pos` in this ply's buffers, with zeroed scores,
    /// the table's move `tt_move` swapped to the front if it is among them
    /// (then `true`): at most nodes it cuts off, and scoring 100–200 drops
    /// before it would be wasted. `None`, the buffers given back, when
    /// there is no legal move.
    fn generate(
        &mut self,
        pos: &Position,
        ply: usize,
        tt_move: Option<Move>,
    ) -> Option<(MoveList, Vec<i32>, bool)> {
        let mut moves = core::mem::take(&mut self.buffers[ply]);
        let mut scores = core::mem::take(&mut self.scores[ply]);
        moves.clear();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            self.scores[ply] = scores;
            return None;
        }
        scores.clear();
        scores.resize(moves.len(), 0);
        let tt_first = match tt_move.and_then(|t| moves.iter().position(|m| *m == t)) {
            Some(idx) => {
                moves.swap(0, idx);
                true
            }
            None => false,
        };
        Some((moves, scores, tt_first))
    }

    /// A move after the first of a node (the root included), `child` at
    /// `ply`, in a principal-variation search: with a null window at
    /// alpha, first `reduction` plies shallower when it is reduced, then
    /// at the full `new_depth` if it beat alpha, and at a PV node
    /// (`parent` [`Kind::Pv`]) with the full `window` if it fell inside
    /// it. The reduced search expects a cut node, as Stockfish's does; the
    /// full-depth one the `parent`'s child kind.
    pub(super) fn search_late(
        &mut self,
        child: &Position,
        ply: usize,
        new_depth: i32,
        reduction: Option<i32>,
        (alpha, beta): (i32, i32),
        parent: Kind,
    ) -> i32 {
        let mut value = match reduction {
            Some(r) => -self.negamax(child, new_depth - r, -alpha - 1, -alpha, ply, Kind::Cut),
            None => alpha + 1,
        };
        if value > alpha && !self.stopped {
            value = -self.negamax(child, new_depth, -alpha - 1, -alpha, ply, parent.child());
        }
        if parent == Kind::Pv && value > alpha && value < beta && !self.stopped {
            value = -self.negamax(child, new_depth, -beta, -alpha, ply, Kind::Pv);
        }
        value
    }

    /// The principal variation at `ply`: `mv`, then the child's.
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// What a node searched within `(alpha, beta)` leaves behind: the
    /// correction history's update and the table's entry.
    fn record(&mut self, node: &Node, found: &Found, alpha: i32, beta: i32) {
        let bound = bound(found.best, alpha, beta);
        if let Some(keys) = node.keys {
            if corrects(bound, found, node.eval) {
                self.heuristics
                    .correction
                    .update(keys, node.depth, found.best - node.raw_eval);
            }
        }
        let stored_eval = if node.in_check { 0 } else { node.raw_eval };
        self.tt.store(
            node.hash,
            found.best_move,
            to_tt(found.best, node.ply as u32),
            stored_eval,
            node.depth as u32,
            bound,
        );
    }
}

/// The position after `mv`.
fn play(pos: &Position, mv: Move) -> Position {
    let mut child = pos.clone();
    child.play_unchecked(mv);
    child
}

/// Whether the table's entry `e`, of `value` at this node, ends a node of
/// `depth` within `(alpha, beta)`: searched as deep, and a bound that
/// decides the window.
fn table_cuts(e: &Entry, value: i32, depth: i32, alpha: i32, beta: i32) -> bool {
    i32::from(e.depth) >= depth && e.bound.cuts(value, alpha, beta)
}

/// Internal iterative reduction: whether a node of `depth` without a
/// table's move is searched a ply shallower.
fn iir(options: &Options, depth: i32, tt_move: Option<Move>) -> bool {
    options.iir && depth >= 4 && tt_move.is_none()
}

/// How a node's `best` value searched within `(alpha, beta)` bounds its
/// true value.
fn bound(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether what the search found tells what the static evaluation `eval`
/// gets wrong: a quiet best move (or none), not a mate, and a `bound` on
/// the far side of the evaluation.
fn corrects(bound: Bound, found: &Found, eval: i32) -> bool {
    let says_something = match bound {
        Bound::Lower => found.best > eval,
        Bound::Upper => found.best < eval,
        Bound::Exact => true,
    };
    says_something
        && !found.best_move.is_some_and(|m| is_tactical(&m))
        && found.best.abs() < MATE_BOUND
}
