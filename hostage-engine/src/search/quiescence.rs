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
//! tried, drops included, up to [`QS_EVASION_PLIES`] plies deep; with
//! [`Options::qs_evasion_pruning`] (off by default) captures of the
//! checker come first, then king steps, then the interpositions, and once
//! one has shown the side is not mated the other quiet evasions are
//! skipped after the first.
//!
//! With [`Options::qs_recaptures`] (off by default) quiescence stays
//! bounded the way Stockfish's did before version 12: from
//! [`QS_RECAPTURE_PLY`] plies below the horizon on, a side not in check
//! tries only the captures on the square of the move before (the
//! recaptures), so a long chain of captures elsewhere on a board full of
//! dropped men ends there.
//!
//! The transposition table serves here too (as in Stockfish and Ethereal):
//! every stored search is at least as deep as quiescence, so a stored bound
//! that decides the window ends the node, and a stored static evaluation
//! spares computing it again. Results are stored at depth 0 only where the
//! table knows nothing deeper of the position ([`Options::qs_store`]).

use hostage_core::{Move, MoveList, Position, Role};

use super::{Options, Searcher, MAX_PLY, QS_EVASION_PLIES, QS_RECAPTURE_PLY};
use crate::{
    correction::Keys,
    ordering::{gain, is_tactical, pick},
    score::{from_tt, to_tt, INFINITE, MATE, MATE_BOUND},
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
            return self.evaluate(pos, ply);
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
        let evasion_order = in_check && self.options.qs_evasion_pruning;
        scores.extend(moves.iter().map(|m| {
            if is_tactical(m) {
                1_000_000 + crate::ordering::tactical_score(m)
            } else if evasion_order && m.role() == Role::King && matches!(m, Move::Normal { .. }) {
                // A king step before the interpositions: it gives up no man.
                1
            } else {
                0
            }
        }));
        let mut quiet_evasions = 0;
        let recaptures_only = (!in_check && self.options.qs_recaptures && qply >= QS_RECAPTURE_PLY)
            .then(|| ply.checked_sub(1).and_then(|p| self.played[p]))
            .flatten()
            .map(|last| last.to());
        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            if recaptures_only.is_some_and(|to| mv.to() != to) {
                continue;
            }
            if !in_check && skips(pos, &mv, stand_pat, alpha) {
                continue;
            }
            if in_check && !is_tactical(&mv) {
                if skips_evasion(&self.options, pos, &mv, best, quiet_evasions) {
                    continue;
                }
                quiet_evasions += 1;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if self.options.qs_recaptures {
                self.played[ply] = Some(mv);
            }
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
            return Err(self.evaluate(pos, ply));
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
        let raw_eval = entry.map_or_else(|| self.evaluate(pos, ply), |e| i32::from(e.eval));
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

/// Whether quiescence in check skips the quiet evasion `m` of `pos` (a
/// king step, or an interposition by move, drop or exchange), with
/// [`Options::qs_evasion_pruning`]: once an evasion has scored `best`
/// above a mate against us, every quiet evasion after the first
/// (`quiet_evasions` were searched) and any that loses material by static
/// exchange. Stockfish's quiescence prunes its evasions the same way (it
/// stops after two quiet ones, and skips those losing by exchange); with
/// men in hand a check has dozens of interposing drops, and one evasion
/// that holds already proves the node is no mate.
fn skips_evasion(
    options: &Options,
    pos: &Position,
    m: &Move,
    best: i32,
    quiet_evasions: usize,
) -> bool {
    options.qs_evasion_pruning
        && best > -MATE_BOUND
        && (quiet_evasions >= 1 || !crate::see::see_ge(pos, m, 0))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        let mut moves = MoveList::new();
        pos.legal_moves_into(&mut moves);
        *moves
            .iter()
            .find(|m| m.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not legal"))
    }

    #[test]
    fn quiet_evasions_past_the_first_are_skipped_once_one_holds() {
        // White's king on e1 is checked along the e-file by the rook on
        // e8; White holds a knight and a pawn in its airfield to drop.
        let pos = Position::from_fen("4r1k1/8/8/8/8/8/8/4K3[NP#] w - - 0 30").expect("fen");
        assert!(pos.is_check());
        let on = Options {
            qs_evasion_pruning: true,
            ..Options::default()
        };
        let step = mv(&pos, "e1d1");
        // Guarded by the king: the drop keeps its value by exchange.
        let block = mv(&pos, "N@e2");
        // Nothing known yet, or only mates against us: every evasion.
        for best in [-INFINITE, -MATE + 3] {
            assert!(!skips_evasion(&on, &pos, &step, best, 0));
            assert!(!skips_evasion(&on, &pos, &block, best, 5));
        }
        // One evasion holds: the first quiet one is still tried, later
        // ones are not.
        assert!(!skips_evasion(&on, &pos, &block, -120, 0));
        assert!(skips_evasion(&on, &pos, &block, -120, 1));
        let off = Options {
            qs_evasion_pruning: false,
            ..Options::default()
        };
        assert!(!skips_evasion(&off, &pos, &block, -120, 1));
    }

    #[test]
    fn an_evasion_that_loses_its_man_is_skipped_once_one_holds() {
        // The rook on e8 checks: a knight dropped on e3 is taken for
        // nothing, one on e2 is guarded by the king and keeps its value.
        let pos = Position::from_fen("4r1k1/8/8/8/8/8/8/4K3[NP#] w - - 0 30").expect("fen");
        let lost = mv(&pos, "N@e3");
        let kept = mv(&pos, "N@e2");
        let on = Options {
            qs_evasion_pruning: true,
            ..Options::default()
        };
        assert!(skips_evasion(&on, &pos, &lost, -120, 0));
        assert!(!skips_evasion(&on, &pos, &kept, -120, 0));
        assert!(!skips_evasion(&on, &pos, &lost, -INFINITE, 0));
    }
}
