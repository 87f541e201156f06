//! Quiescence: the search below the horizon, until the position is quiet.
//!
//! Captures and promotions only (R7 promotions are swaps with a prisoner),
//! in order of material gain, without those that cannot reach alpha even
//! winning the man outright (delta pruning, not for pawns) and those that
//! lose material by static exchange ([`crate::see`], the captured man
//! counted as a prisoner). The side to move may stand pat on its static
//! evaluation. Drops and exchanges are left out: with 100–200 of them a
//! node, a quiescence search that tried them would not stay bounded (the
//! explosion crazyhouse programmers report). In check every evasion is
//! tried, drops included, up to [`QS_EVASION_PLIES`] plies deep.
//!
//! The transposition table serves here too (as in Stockfish and Ethereal):
//! every stored search is at least as deep as quiescence, so a stored bound
//! that decides the window ends the node, and a stored static evaluation
//! spares computing it again. Results are stored at depth 0 only where the
//! table knows nothing deeper of the position ([`Options::qs_store`]).

use hostage_core::{Move, MoveList, Position, Role};

use super::{Options, Searcher, MAX_PLY, QS_EVASION_PLIES};
use crate::{
    correction::Keys,
    eval::evaluate_with,
    ordering::{gain, is_tactical, pick},
    score::{from_tt, to_tt, INFINITE, MATE},
    tt::{Bound, Entry},
};

impl Searcher<'_> {
    /// The quiescence value of `pos` within `(alpha, beta)`, `ply` plies
    /// from the root and `qply` below the horizon.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return evaluate_with(pos, &self.params);
        }
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
        let start = if in_check {
            self.evasions(pos, ply, qply, &mut moves)
        } else {
            self.stand_pat(pos, entry, beta, ply, &mut moves)
        };
        let (stand_pat, raw_eval) = match start {
            Ok(start) => start,
            Err(value) => {
                self.buffers[ply] = moves;
                self.scores[ply] = scores;
                return value;
            }
        };
        if !in_check {
            alpha = alpha.max(stand_pat);
        }
        let mut best = stand_pat;
        let mut best_move = None;
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
            if !in_check && skips(pos, &mv, stand_pat, alpha) {
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
        if !self.stopped && stores(&self.options, entry) {
            let bound = bound(best, best_move, original_alpha, beta);
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

    /// In check: every evasion into `moves`, with a stand-pat value of
    /// `-INFINITE` (`Ok((stand_pat, raw_eval))`), or the node's value
    /// (`Err`): mated, or the static evaluation past the evasion plies.
    fn evasions(
        &mut self,
        pos: &Position,
        ply: usize,
        qply: u32,
        moves: &mut MoveList,
    ) -> Result<(i32, i32), i32> {
        pos.legal_moves_into(moves);
        if moves.is_empty() {
            return Err(-MATE + ply as i32);
        }
        if qply >= QS_EVASION_PLIES {
            return Err(evaluate_with(pos, &self.params));
        }
        Ok((-INFINITE, 0))
    }

    /// Not in check: the corrected static evaluation as the stand-pat
    /// value, and the captures and promotions into `moves`
    /// (`Ok((stand_pat, raw_eval))`), or the stand-pat value when it
    /// reaches `beta` (`Err`, stored where the table knew nothing).
    fn stand_pat(
        &mut self,
        pos: &Position,
        entry: Option<Entry>,
        beta: i32,
        ply: usize,
        moves: &mut MoveList,
    ) -> Result<(i32, i32), i32> {
        // Not in check here, so neither was the stored node: its
        // evaluation is this position's.
        let raw_eval =
            entry.map_or_else(|| evaluate_with(pos, &self.params), |e| i32::from(e.eval));
        let keys = self.options.correction.then(|| Keys::of(pos));
        let stand_pat = self.corrected(raw_eval, keys);
        if stand_pat >= beta {
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
            return Err(stand_pat);
        }
        pos.legal_captures_into(moves);
        Ok((stand_pat, raw_eval))
    }
}

/// Whether quiescence (not in check) skips the capture or promotion `m` of
/// `pos`: delta pruning (even winning this man outright cannot lift
/// `stand_pat` to `alpha`; never a pawn's move) or SEE pruning (it loses
/// material by static exchange).
fn skips(pos: &Position, m: &Move, stand_pat: i32, alpha: i32) -> bool {
    (stand_pat + gain(m) + 200 <= alpha && m.role() != Role::Pawn) || !crate::see::see_ge(pos, m, 0)
}

/// Whether quiescence stores its result: with the switch on, and only
/// where the table knows nothing of the position but a quiescence result,
/// so that a deeper result is never overwritten.
fn stores(options: &Options, entry: Option<Entry>) -> bool {
    options.qs_store && entry.is_none_or(|e| e.depth == 0)
}

/// How quiescence's `best` value, found within `(alpha, beta)`, bounds
/// the true one: exact only with a move that raised alpha (standing pat
/// proves no more than a bound).
fn bound(best: i32, best_move: Option<Move>, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha && best_move.is_some() {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
