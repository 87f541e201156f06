//! Move ordering: which moves a node tries first, so that alpha-beta cuts
//! off early.
//!
//! The order is the usual one of strong engines: the transposition-table
//! move, then captures and promotions that do not lose material by static
//! exchange ([`crate::see`]), by most valuable victim / least valuable
//! attacker (with [`crate::Options::capture_history`], on by default: by
//! the victim's value plus an eighth of the capture history, keyed by side,
//! capturing role, target square and role taken, rewarded for captures
//! that cut off and penalised for those tried before them), then the two
//! killer moves of the ply, then the rest (quiet
//! board moves, drops and exchanges) by history: the main table (side,
//! kind, role that lands, square). Last come the captures that lose the
//! capturing man for less.
//!
//! With [`crate::Options::continuation`] (off by default: matches showed no
//! gain, `docs/engine.md`) the counter-move (the quiet move that last
//! refuted the opponent's last move) comes after the killers, and two
//! continuation tables, indexed by the opponent's last move and by our move
//! before it (the "continuation history" of Stockfish and Ethereal), add to
//! the history score. In a Hostage
//! middlegame most of the 100–200 legal moves are drops and exchanges
//! (R5, R6); history learns which of them refute, so the late ones can be
//! reduced or pruned.
//!
//! The search tries the table's move before anything is scored (it cuts
//! off at most nodes); the rest are scored once, the first few picked
//! best-first by selection and the remainder sorted once.

use alloc::{vec, vec::Vec};

use hostage_core::{Color, Move, Position, Role};

use crate::{correction::Correction, eval::value, see::see_ge};

/// The score of the transposition-table move.
const TT_MOVE: i32 = 1 << 30;
/// Base of captures and promotions.
const TACTICAL: i32 = 1 << 24;
/// Base of captures that lose material by static exchange: after every
/// quiet move (history scores stay within ±3·[`HISTORY_MAX`]).
const BAD_TACTICAL: i32 = -(1 << 24);
/// The first and the second killer.
const KILLER: [i32; 2] = [(1 << 23) + 1, 1 << 23];
/// The counter-move of the opponent's last move: after the killers.
const COUNTER: i32 = 1 << 22;
/// Quiet moves that may give check, with
/// [`crate::Options::checks_first`]: after the counter-move, before the
/// other quiet moves (their history is added, so among them history
/// orders).
const QUIET_CHECK: i32 = 1 << 21;
/// History scores stay within this bound (the "gravity" update keeps them
/// there); it fits an `i16`.
const HISTORY_MAX: i32 = 1 << 14;

/// "Piece-to" keys of one side's moves: kind (board move, or drop and
/// exchange), the role that lands, and its square.
const PIECE_TO: usize = 2 * 6 * 64;
/// The same with the side that moves.
const KEYS: usize = 2 * PIECE_TO;
/// Capture-history keys: side, role that moves, square, role taken (the
/// sixth slot, which no capture uses, for promotions without a capture).
const CAPTURE_KEYS: usize = 2 * 6 * 64 * 6;
/// Capture history counts this fraction in a tactical move's score: at
/// most ±2,048, about what one step of victim value weighs (a pawn is
/// 1,600 in [`tactical_score`]).
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// A tactical move's capture-history key.
#[inline]
fn capture_key(color: Color, m: &Move) -> usize {
    let taken = m.capture().map_or(5, |r| r as usize - 1);
    ((color as usize * 6 + m.role() as usize - 1) * 64 + m.to().index() as usize) * 6 + taken
}

/// A move's piece-to key, without the side.
#[inline]
fn piece_to(m: &Move) -> usize {
    let kind = usize::from(m.is_drop());
    (kind * 6 + m.role() as usize - 1) * 64 + m.to().index() as usize
}

/// A move's key with the side that made it.
#[inline]
fn key(color: Color, m: &Move) -> usize {
    color as usize * PIECE_TO + piece_to(m)
}

/// What a node's ordering knows of the moves that led to it: the offsets
/// of its rows in the continuation tables (one ply back, the opponent's
/// move; two plies back, our own) and the key of the opponent's last move
/// (for its counter-move).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Context {
    rows: [Option<usize>; 2],
    last: Option<usize>,
}

impl Context {
    /// The context of a node where `us` moves after `prev1` (the
    /// opponent's move that led here) and `prev2` (our move before it).
    pub(crate) fn new(us: Color, prev1: Option<Move>, prev2: Option<Move>) -> Context {
        let last = prev1.map(|m| key(!us, &m));
        Context {
            rows: [
                last.map(|k| k * PIECE_TO),
                prev2.map(|m| (KEYS + key(us, &m)) * PIECE_TO),
            ],
            last,
        }
    }
}

/// Killer moves per ply, counter-moves, and the history tables.
pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; crate::limits::MAX_DEPTH as usize + 8],
    /// By move key (side, kind, role that lands, square).
    history: Vec<i32>,
    /// The quiet move that last refuted each move key.
    counters: Vec<Option<Move>>,
    /// Continuation histories: by the move one ply back (the opponent's)
    /// or two plies back (our own), then the move's piece-to key; empty
    /// until [`Heuristics::use_continuation`].
    continuation: Vec<i16>,
    /// Capture history: by [`capture_key`]; all zero (and unused) unless
    /// [`crate::Options::capture_history`].
    captures: Vec<i32>,
    /// The static evaluation's corrections (`crate::correction`), kept
    /// per thread like the histories.
    pub(crate) correction: Correction,
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; crate::limits::MAX_DEPTH as usize + 8],
            history: vec![0; KEYS],
            counters: vec![None; KEYS],
            continuation: Vec::new(),
            captures: vec![0; CAPTURE_KEYS],
            correction: Correction::new(),
        }
    }

    /// Allocates the continuation tables (4.7 MB), which only a search
    /// with [`crate::Options::continuation`] uses.
    pub(crate) fn use_continuation(&mut self) {
        if self.continuation.is_empty() {
            self.continuation = vec![0; 2 * KEYS * PIECE_TO];
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers = [[None; 2]; crate::limits::MAX_DEPTH as usize + 8];
        self.history.fill(0);
        self.counters.fill(None);
        self.continuation.fill(0);
        self.captures.fill(0);
        self.correction.clear();
    }

    /// How good history says the quiet move `m` of `color` is: the main
    /// table plus the two continuation tables (each within
    /// ±[`HISTORY_MAX`]).
    pub(crate) fn quiet_score(&self, color: Color, m: &Move, ctx: &Context) -> i32 {
        let pt = piece_to(m);
        let mut score = self.history[key(color, m)];
        for row in ctx.rows.into_iter().flatten() {
            score += i32::from(self.continuation[row + pt]);
        }
        score
    }

    fn reward(&mut self, color: Color, m: &Move, ctx: &Context, bonus: i32) {
        update(&mut self.history[key(color, m)], bonus);
        let pt = piece_to(m);
        for row in ctx.rows.into_iter().flatten() {
            let slot = &mut self.continuation[row + pt];
            let mut v = i32::from(*slot);
            update(&mut v, bonus);
            // `update` keeps |v| ≤ HISTORY_MAX, which fits an i16.
            *slot = v as i16;
        }
    }

    /// A move caused a cut-off at `depth`: reward it in the capture
    /// history if it is tactical, and punish the tactical moves `tried`
    /// before it (whatever kind the best move is, as Stockfish does: they
    /// did not refute).
    pub(crate) fn capture_cutoff(&mut self, color: Color, depth: u32, best: Move, tried: &[Move]) {
        let bonus = ((depth * depth) as i32).min(HISTORY_MAX / 4);
        if is_tactical(&best) {
            update(&mut self.captures[capture_key(color, &best)], bonus);
        }
        for m in tried {
            update(&mut self.captures[capture_key(color, m)], -bonus);
        }
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
        ctx: &Context,
    ) {
        if let Some(killers) = self.killers.get_mut(ply as usize) {
            if killers[0] != Some(best) {
                killers[1] = killers[0];
                killers[0] = Some(best);
            }
        }
        if let Some(last) = ctx.last {
            self.counters[last] = Some(best);
        }
        let bonus = (depth * depth) as i32;
        let bonus = bonus.min(HISTORY_MAX / 4);
        self.reward(color, &best, ctx, bonus);
        for m in tried {
            self.reward(color, m, ctx, -bonus);
        }
    }

    /// Scores `moves` for picking, best first; with `may_check` (the
    /// search's test of whether a move may give check, given with
    /// [`crate::Options::checks_first`]), the quiet moves it passes before
    /// the other quiet moves.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn score(
        &self,
        pos: &Position,
        moves: &[Move],
        scores: &mut [i32],
        tt_move: Option<Move>,
        color: Color,
        ply: u32,
        ctx: &Context,
        may_check: Option<fn(&Position, &Move) -> bool>,
    ) {
        let killers = self.killers.get(ply as usize).copied().unwrap_or([None; 2]);
        let counter = ctx.last.and_then(|k| self.counters[k]);
        for (m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = if Some(*m) == tt_move {
                TT_MOVE
            } else if is_tactical(m) {
                let score = tactical_score(m)
                    + self.captures[capture_key(color, m)] / CAPTURE_HISTORY_DIVISOR;
                if see_ge(pos, m, 0) {
                    TACTICAL + score
                } else {
                    BAD_TACTICAL + score
                }
            } else if Some(*m) == killers[0] {
                KILLER[0]
            } else if Some(*m) == killers[1] {
                KILLER[1]
            } else if Some(*m) == counter {
                COUNTER
            } else if may_check.is_some_and(|may| may(pos, m)) {
                QUIET_CHECK + self.quiet_score(color, m, ctx)
            } else {
                self.quiet_score(color, m, ctx)
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

    fn drop(role: Role, to: Square) -> Move {
        Move::Drop { role, to }
    }

    #[test]
    fn a_refutation_becomes_the_counter_move_and_climbs_the_continuation_tables() {
        let mut h = Heuristics::new();
        h.use_continuation();
        let theirs = drop(Role::Knight, Square::F3);
        let ours = drop(Role::Bishop, Square::E2);
        let ctx = Context::new(Color::Black, Some(theirs), Some(ours));
        let best = drop(Role::Queen, Square::G4);
        let failed = [drop(Role::Pawn, Square::H5), drop(Role::Rook, Square::D8)];
        h.cutoff(Color::Black, 3, 6, best, &failed, &ctx);
        assert!(h.quiet_score(Color::Black, &best, &ctx) > 0);
        for m in &failed {
            assert!(h.quiet_score(Color::Black, m, &ctx) < 0);
        }
        // Main table plus both continuation rows, each rewarded once.
        let alone = h.quiet_score(Color::Black, &best, &Context::default());
        assert_eq!(h.quiet_score(Color::Black, &best, &ctx), 3 * alone);

        // After the same opponent's move, elsewhere in the tree (another
        // ply, so no killer), the refutation is tried right after the
        // killers; after another move it is not.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[q] b - - 0 1").expect("fen");
        let moves = pos.legal_moves();
        let mut scores = vec![0; moves.len()];
        let at = |moves: &[Move], scores: &[i32]| {
            let i = moves.iter().position(|m| *m == best).expect("legal");
            scores[i]
        };
        let later = Context::new(Color::Black, Some(theirs), None);
        h.score(
            &pos,
            &moves,
            &mut scores,
            None,
            Color::Black,
            7,
            &later,
            None,
        );
        assert_eq!(at(&moves, &scores), COUNTER);
        let other = Context::new(Color::Black, Some(drop(Role::Knight, Square::C3)), None);
        h.score(
            &pos,
            &moves,
            &mut scores,
            None,
            Color::Black,
            7,
            &other,
            None,
        );
        assert!(at(&moves, &scores) < COUNTER);
        h.clear();
        assert_eq!(h.quiet_score(Color::Black, &best, &ctx), 0);
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

    #[test]
    fn checks_first_puts_a_checking_drop_before_better_liked_quiet_moves() {
        // Kings on e1 and e8; White drops a knight: on d6 it checks, on a4
        // it does not. History likes N@a4.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[N#] w - - 0 30").expect("fen");
        let check = Move::Drop {
            role: Role::Knight,
            to: Square::D6,
        };
        let quiet = Move::Drop {
            role: Role::Knight,
            to: Square::A4,
        };
        let mut h = Heuristics::new();
        h.cutoff(Color::White, 9, 8, quiet, &[], &Context::default());
        let moves = [check, quiet];
        // The search's test says N@d6 may check (`search/checks.rs` has
        // its own tests); here only the order it leads to is checked.
        let may_check: fn(&Position, &Move) -> bool = |_, m| m.to() == Square::D6;
        let score = |checks_first: bool| {
            let mut scores = [0; 2];
            h.score(
                &pos,
                &moves,
                &mut scores,
                None,
                Color::White,
                3,
                &Context::default(),
                checks_first.then_some(may_check),
            );
            scores
        };
        let [c, q] = score(false);
        assert!(q > c, "history alone prefers N@a4");
        let [c, q] = score(true);
        assert!(c > q, "the check comes first");
    }
}
