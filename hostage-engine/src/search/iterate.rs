//! Iterative deepening and the root.
//!
//! Each iteration searches the root one ply deeper than the last, every
//! MultiPV line with its own aspiration window (from depth 4, 30
//! centipawns either side of the line's last value, widened by doubling
//! steps on a fail and opened entirely past 1,000); its moves start in the
//! last iteration's order. A level's root margin gives exact values to
//! every root move within it of the best. The search stops after an
//! iteration when a limit is reached, when a mate for the side to move is
//! confirmed at twice its length, or when the clock's time manager says so
//! (`timeman.rs`).

use alloc::{vec, vec::Vec};

use hostage_core::Position;

use super::{facts::Kind, reduction, Info, Line, RootMove, Searcher};
use crate::{
    ordering::is_tactical,
    score::{Score, INFINITE, MATE, MATE_BOUND},
};

impl Searcher<'_> {
    /// Iterative deepening from `root`; `report` sees each completed
    /// iteration. Leaves the root moves of the last completed iteration
    /// sorted best first in `self.root_moves`, and returns the last depth
    /// completed.
    pub(crate) fn run(&mut self, root: &Position, report: &mut dyn FnMut(&Info)) -> u32 {
        self.tt.new_search();
        self.root_moves = root_moves(root);
        if self.root_moves.is_empty() {
            return 0;
        }
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let max_depth = self.limits.max_depth();
        let mut completed = 0;
        let mut saved = self.root_moves.clone();
        for depth in 1..=max_depth as i32 {
            if self.options.smp_vote && crate::smp::skips(self.helper, depth) {
                continue;
            }
            self.seldepth = 0;
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.exact_now = false;
            }
            for pv_idx in 0..multipv {
                self.aspiration(root, depth, pv_idx);
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
            if self.done_after(depth) {
                break;
            }
        }
        self.flush_nodes();
        self.root_moves = saved;
        completed
    }

    /// The line `pv_idx` of an iteration of `depth`, in an aspiration
    /// window around its last value, widened until the value falls inside.
    fn aspiration(&mut self, root: &Position, depth: i32, pv_idx: usize) {
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
    }

    /// Whether the search ends after completing an iteration of `depth`:
    /// a mate found for the side to move, a limit, or the clock.
    fn done_after(&mut self, depth: i32) -> bool {
        // A mate found for the side to move: search on until the depth
        // is twice its length, so that reductions cannot hide a shorter
        // one, then stop.
        let best = self.root_moves[0].prev;
        if best > MATE_BOUND && depth >= 2 * (MATE - best) + 2 {
            return true;
        }
        if self.limit_reached() {
            return true;
        }
        if !self.pondering() {
            let best = &self.root_moves[0];
            let elapsed = self.clock.elapsed();
            let only_move = self.root_moves.len() == 1;
            if let (Some(time), Some(elapsed)) = (&mut self.time, elapsed) {
                if time.iteration_done(best.mv, best.prev, elapsed) || only_move {
                    return true;
                }
            }
        }
        false
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
            self.evaluate(root, 0)
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
                -self.negamax(&child, new_depth, -beta, -alpha, 1, Kind::Pv)
            } else {
                let index = i - pv_idx;
                let quiet = !is_tactical(&mv);
                let checks = in_check || gives_check;
                let r = reduction::reduces(&self.options, depth, true, index, quiet, checks)
                    .then(|| reduction::at_root(depth, index, new_depth));
                self.search_late(&child, 1, new_depth, r, (floor, beta), Kind::Pv)
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
}

/// The legal moves of `root`, captures first for the first iteration.
fn root_moves(root: &Position) -> Vec<RootMove> {
    let mut moves: Vec<RootMove> = root
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
    moves.sort_by_key(|rm| {
        core::cmp::Reverse(if is_tactical(&rm.mv) {
            crate::ordering::tactical_score(&rm.mv)
        } else {
            0
        })
    });
    moves
}
