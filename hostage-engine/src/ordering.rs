//! Move ordering: which moves a node tries first, so that alpha-beta cuts
//! off early.
//!
//! The order is the usual one of strong engines: the transposition-table
//! move, then captures and promotions that do not lose material by static
//! exchange ([`crate::see`]), by most valuable victim / least valuable
//! attacker, then the two killer moves of the ply, then the rest (quiet
//! board moves, drops and exchanges) by the history heuristic, and last the
//! captures that lose the capturing man for less. In a
//! Hostage middlegame most of the 100–200 legal moves are drops and
//! exchanges (R5, R6); history learns which of them refute, so the late
//! ones can be reduced or pruned.
//!
//! Moves are scored once, then picked best-first by a selection step, so a
//! cut-off after the first few moves never pays for sorting the rest.

use hostage_core::{Color, Move, Position, Role};

use crate::{eval::value, see::see_ge};

/// The score of the transposition-table move.
const TT_MOVE: i32 = 1 << 30;
/// Base of captures and promotions.
const TACTICAL: i32 = 1 << 24;
/// Base of captures that lose material by static exchange: after every
/// quiet move (history scores stay within ±[`HISTORY_MAX`]).
const BAD_TACTICAL: i32 = -(1 << 24);
/// The first and the second killer.
const KILLER: [i32; 2] = [(1 << 23) + 1, 1 << 23];
/// History scores stay within this bound (the "gravity" update keeps them
/// there).
const HISTORY_MAX: i32 = 1 << 14;

/// Killer moves per ply and the history table.
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; crate::limits::MAX_DEPTH as usize + 8],
    /// Indexed by side, kind (0 board move, 1 drop or exchange), role of
    /// the man that lands, and its square.
    history: [[[[i32; 64]; 6]; 2]; 2],
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; crate::limits::MAX_DEPTH as usize + 8],
            history: [[[[0; 64]; 6]; 2]; 2],
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = Heuristics::new();
    }

    fn history_slot(&mut self, color: Color, m: &Move) -> &mut i32 {
        let kind = usize::from(m.is_drop());
        &mut self.history[color as usize][kind][m.role() as usize - 1][m.to().index() as usize]
    }

    fn history(&self, color: Color, m: &Move) -> i32 {
        let kind = usize::from(m.is_drop());
        self.history[color as usize][kind][m.role() as usize - 1][m.to().index() as usize]
    }

    /// A quiet move `best` caused a cut-off at `ply` after `tried` (the
    /// quiet moves searched before it) had failed: reward it, punish them.
    pub(crate) fn cutoff(
        &mut self,
        color: Color,
        ply: u32,
        depth: u32,
        best: Move,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply as usize];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        let bonus = (depth * depth) as i32;
        let bonus = bonus.min(HISTORY_MAX / 4);
        update(self.history_slot(color, &best), bonus);
        for m in tried {
            update(self.history_slot(color, m), -bonus);
        }
    }

    /// Scores `moves` for picking, best first.
    pub(crate) fn score(
        &self,
        pos: &Position,
        moves: &[Move],
        scores: &mut [i32],
        tt_move: Option<Move>,
        color: Color,
        ply: u32,
    ) {
        let killers = self.killers.get(ply as usize).copied().unwrap_or([None; 2]);
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = if Some(*m) == tt_move {
                TT_MOVE
            } else if is_tactical(m) {
                if see_ge(pos, m, 0) {
                    TACTICAL + tactical_score(m)
                } else {
                    BAD_TACTICAL + tactical_score(m)
                }
            } else if Some(*m) == killers[0] {
                KILLER[0]
            } else if Some(*m) == killers[1] {
                KILLER[1]
            } else {
                self.history(color, m)
            };
        }
    }
}

/// The "gravity" history update: large scores grow slowly, so the table
/// never saturates.
fn update(slot: &mut i32, bonus: i32) {
    *slot += bonus - *slot * bonus.abs() / HISTORY_MAX;
}

/// Captures and promotions: the moves quiescence searches.
#[inline]
pub(crate) fn is_tactical(m: &Move) -> bool {
    m.is_capture()
        || matches!(
            m,
            Move::Normal {
                promotion: Some(_),
                ..
            }
        )
}

/// Most valuable victim first, then least valuable attacker; a promotion
/// counts the man it fetches (R7).
#[inline]
pub(crate) fn tactical_score(m: &Move) -> i32 {
    let victim = m.capture().map_or(0, value);
    let promoted = match m {
        Move::Normal {
            promotion: Some(r), ..
        } => value(*r),
        _ => 0,
    };
    (victim + promoted) * 16 - value(m.role()) / 16
}

/// Picks the best-scored move of `moves[from..]`, swaps it to `from` and
/// returns it.
#[inline]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], from: usize) -> Move {
    let mut best = from;
    for i in from + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(from, best);
    scores.swap(from, best);
    moves[from]
}

/// The value a move wins at once (victim plus promotion gain), for
/// quiescence delta pruning.
#[inline]
pub(crate) fn gain(m: &Move) -> i32 {
    let victim = m.capture().map_or(0, value);
    let promoted = match m {
        Move::Normal {
            promotion: Some(r), ..
        } => value(*r) - value(Role::Pawn),
        _ => 0,
    };
    victim + promoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostage_core::Square;

    #[test]
    fn mvv_lva_prefers_the_bigger_victim_then_the_smaller_attacker() {
        let pxq = Move::Normal {
            role: Role::Pawn,
            from: Square::E4,
            capture: Some(Role::Queen),
            to: Square::D5,
            promotion: None,
        };
        let qxq = Move::Normal {
            role: Role::Queen,
            from: Square::D1,
            capture: Some(Role::Queen),
            to: Square::D5,
            promotion: None,
        };
        let pxn = Move::Normal {
            role: Role::Pawn,
            from: Square::E4,
            capture: Some(Role::Knight),
            to: Square::D5,
            promotion: None,
        };
        assert!(tactical_score(&pxq) > tactical_score(&qxq));
        assert!(tactical_score(&qxq) > tactical_score(&pxn));
    }

    #[test]
    fn history_stays_bounded() {
        let mut slot = 0;
        for _ in 0..10_000 {
            update(&mut slot, HISTORY_MAX / 4);
        }
        assert!(slot <= HISTORY_MAX);
        for _ in 0..10_000 {
            update(&mut slot, -HISTORY_MAX / 4);
        }
        assert!(slot >= -HISTORY_MAX);
    }
}
