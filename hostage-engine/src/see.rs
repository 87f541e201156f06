//! Static exchange evaluation (SEE): what a move wins or loses on its
//! target square if both sides then capture there, least valuable man
//! first, and either may stop when going on would lose.
//!
//! The swap algorithm is the classical one (the "swap list", as in
//! Stockfish's `see_ge`): it answers "does this move win at least
//! `threshold`?" without making any move. What is Hostage-specific:
//!
//! - **A captured man becomes a prisoner** (R2). In the evaluation a
//!   capture is worth more than the man's board value: the captor gains a
//!   prisoner (exchange currency, R5) and the loser keeps only a small
//!   claim on it. So each capture in the sequence counts the man's
//!   [`see_value`], 6/5 of its board value (the board value plus the
//!   default prisoner weight of 30% less a typical 10% the loser keeps for
//!   a man that may be bought back), which puts SEE on the evaluation's
//!   scale for the pruning margins that compare the two.
//! - **Drops and exchanges** (R5, R6) put a man on an empty square: their
//!   SEE is what that man risks there (0 when the square is safe, minus
//!   the man when it simply hangs). Recaptures are board captures only: a
//!   drop never captures.
//! - **Frozen pawns** (R8) attack nothing on their last rank: they are left
//!   out of the attackers of a last-rank square while their side has no
//!   piece in the enemy prison.
//!
//! Pins, and the prisons changing during the sequence (a captured piece can
//! unfreeze a pawn), are ignored, as most engines ignore pins: SEE orders
//! and prunes, it does not decide.

// Without the `tuning` feature only the search calls in here; the rest is
// the tuners' and tests' API.
#![cfg_attr(not(feature = "tuning"), allow(dead_code, unused_imports))]

use hostage_core::{attacks, Bitboard, Color, Move, Position, Rank, Role, Square};

use crate::eval::value;

/// What capturing a man of `role` is worth in an exchange sequence: its
/// board value times 6/5 (see the module docs); the king is never taken,
/// so it counts as more than everything.
#[inline]
#[must_use]
pub const fn see_value(role: Role) -> i32 {
    match role {
        Role::King => 20_000,
        _ => value(role) * 6 / 5,
    }
}

/// The attackers of both colours to `sq` given `occupied`, with frozen
/// pawns (R8) left out.
#[inline]
fn attackers(pos: &Position, sq: Square, occupied: Bitboard) -> Bitboard {
    let board = pos.board();
    let mut all = Bitboard::EMPTY;
    for color in Color::ALL {
        let mut a = board.attackers_to(sq, color, occupied);
        // R8: a frozen pawn attacks nothing on its last rank.
        if sq.rank() == Rank::EIGHTH.relative_to(color) && !pos.can_promote(color) {
            a &= !board.pawns();
        }
        all |= a;
    }
    all & occupied
}

/// Whether `mv` wins at least `threshold` (in [`see_value`] units) by
/// static exchange on its target square. Castling is worth 0.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "tuning")] {
/// use hostage_core::Position;
/// use hostage_engine::see::see_ge;
///
/// // A knight dropped where a pawn takes it loses the knight.
/// let pos = Position::from_fen("4k3/8/3p4/8/8/8/8/4K3[N] w - - 0 1").unwrap();
/// let safe = pos.parse_move("N@h3").unwrap();
/// let hangs = pos.parse_move("N@e5").unwrap();
/// assert!(see_ge(&pos, &safe, 0));
/// assert!(!see_ge(&pos, &hangs, 0));
/// # }
/// ```
#[must_use]
pub fn see_ge(pos: &Position, mv: &Move, threshold: i32) -> bool {
    let (to, from, victim, on_square, extra) = match *mv {
        Move::Castle { .. } => return threshold <= 0,
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            // R7: a promotion swaps the pawn for a man from the prison.
            let (lands, promo_gain) = match promotion {
                Some(p) => (p, see_value(p) - see_value(Role::Pawn)),
                None => (role, 0),
            };
            (
                to,
                Some(from),
                capture.map_or(0, see_value) + promo_gain,
                lands,
                Bitboard::EMPTY,
            )
        }
        Move::EnPassant { from, to } => {
            // The captured pawn stands beside `from`, on `to`'s file.
            let taken = Square::from_coords(to.file(), from.rank());
            (
                to,
                Some(from),
                see_value(Role::Pawn),
                Role::Pawn,
                Bitboard::from_square(taken),
            )
        }
        Move::Drop { role, to }
        | Move::Exchange {
            rescued: role, to, ..
        } => (to, None, 0, role, Bitboard::EMPTY),
    };
    let board = pos.board();
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(on_square) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() & !extra;
    if let Some(from) = from {
        occupied = occupied.without(from);
    }
    occupied = occupied.without(to);
    let mut stm = pos.turn();
    let mut attackers = attackers(pos, to, occupied);
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & board.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        // The least valuable attacker takes.
        let mut taker = None;
        for role in Role::ALL {
            if let Some(sq) = (ours & board.by_role(role)).first() {
                taker = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = taker else { break };
        if role == Role::King {
            // The king may take only if nothing of the other side still
            // attacks the square.
            return if (attackers & !board.by_color(stm)).any() {
                !res
            } else {
                res
            };
        }
        swap = see_value(role) - swap;
        // `res` now says whether the side that just took comes out ahead
        // if the sequence stops; it stops when taking cannot help.
        if swap < i32::from(res) {
            break;
        }
        occupied = occupied.without(sq);
        // X-rays behind the man that took.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
    }
    res
}

/// The static exchange value of `mv`, by bisection over [`see_ge`] to
/// within a pawn's tenth; for tests and tools, not the search.
#[must_use]
pub fn see(pos: &Position, mv: &Move) -> i32 {
    let (mut lo, mut hi) = (-25_000, 25_000);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if see_ge(pos, mv, mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("fen")
    }

    fn mv(p: &Position, text: &str) -> Move {
        p.parse_move(text).expect("move")
    }

    #[test]
    fn a_free_man_is_won_whole() {
        let p = pos("4k3/8/8/3r4/8/8/8/3RK3[] w - - 0 1");
        assert_eq!(see(&p, &mv(&p, "Rxd5")), see_value(Role::Rook));
    }

    #[test]
    fn a_defended_man_taken_by_a_bigger_one_loses_the_difference() {
        // Queen takes a pawn defended by a pawn: +P −Q.
        let p = pos("4k3/8/2p5/3p4/8/8/8/3QK3[] w - - 0 1");
        assert_eq!(
            see(&p, &mv(&p, "Qxd5")),
            see_value(Role::Pawn) - see_value(Role::Queen)
        );
        // A pawn takes a defended knight: +N −P.
        let p = pos("4k3/8/2p5/3n4/4P3/8/8/4K3[] w - - 0 1");
        assert_eq!(
            see(&p, &mv(&p, "exd5")),
            see_value(Role::Knight) - see_value(Role::Pawn)
        );
    }

    #[test]
    fn x_rays_count() {
        // Rooks doubled on the d-file against one defender: R takes the
        // pawn, the rook recaptures, the second rook takes back.
        let p = pos("3rk3/8/8/3p4/8/8/3R4/3RK3[] w - - 0 1");
        assert_eq!(see(&p, &mv(&p, "Rxd5")), see_value(Role::Pawn));
    }

    #[test]
    fn drops_risk_the_dropped_man() {
        let p = pos("4k3/8/3p4/8/8/8/8/4K3[QN] w - - 0 1");
        assert_eq!(see(&p, &mv(&p, "N@h3")), 0);
        assert_eq!(see(&p, &mv(&p, "N@e5")), -see_value(Role::Knight));
        assert_eq!(see(&p, &mv(&p, "Q@c5")), -see_value(Role::Queen));
    }

    #[test]
    fn exchanges_risk_the_rescued_man() {
        // White releases a black knight and rescues its pawn (R5: the
        // released man is worth at least the rescued one) onto a square a
        // black pawn guards, or onto a safe one.
        let p = pos("4k3/8/3p4/8/8/8/8/4K3[#Pn] w - - 0 1");
        assert_eq!(see(&p, &mv(&p, "P#N@e5")), -see_value(Role::Pawn));
        assert_eq!(see(&p, &mv(&p, "P#N@a3")), 0);
    }

    #[test]
    fn a_frozen_pawn_does_not_defend_the_last_rank() {
        // The black pawn on b2 guards a1 only while Black can promote,
        // that is while White's prison holds a black piece (R7, R8).
        let p = pos("4k3/8/8/8/8/4K3/1p6/r2R4[] w - - 0 1");
        assert!(!p.can_promote(Color::Black));
        assert_eq!(see(&p, &mv(&p, "Rxa1")), see_value(Role::Rook));
        let p = pos("4k3/8/8/8/8/4K3/1p6/r2R4[#n] w - - 0 1");
        assert!(p.can_promote(Color::Black));
        assert_eq!(see(&p, &mv(&p, "Rxa1")), 0);
    }
}
