//! Threats: enemy men that our men attack, counted as Stockfish's
//! classical evaluation counts them (its `threats` term). The weights are
//! 0 by default, which skips the term; the ones measured were Stockfish
//! 11's middlegame weights (`docs/engine.md`).
//!
//! In Hostage Chess a man taken goes to the captor's prison (R2), so a
//! threat wins material as in chess and adds a prisoner besides:
//!
//! - by a minor piece: any enemy piece, and an enemy pawn that no enemy
//!   pawn guards, that our knights or bishops attack, by the victim's role
//!   ([`Params::threat_minor`]);
//! - by a rook: an enemy man no enemy pawn guards that our rooks attack
//!   ([`Params::threat_rook`]);
//! - hanging: an enemy man no enemy pawn guards, that we attack and no
//!   enemy man guards ([`Params::hanging`]);
//! - by a safe pawn: an enemy piece that a pawn of ours attacks from a
//!   square the enemy does not attack or we guard too
//!   ([`Params::threat_safe_pawn`]).

use hostage_core::{attacks, Bitboard, Board, Color, Role};

use super::{role_index, Men, Params};

/// What `color`'s men threaten: `men` are our men's and the enemy's
/// attacks (`Men`), `king` our king's and the enemy king's.
pub(super) fn threats(
    board: &Board,
    p: &Params,
    color: Color,
    men: [&Men; 2],
    king: [Bitboard; 2],
) -> i32 {
    let (us, them) = (men[0], men[1]);
    let ours = us.guarded | king[0];
    let theirs = them.guarded | king[1];
    let enemies = board.by_color(!color) & !board.by_role(Role::King);
    let pieces = enemies & !board.by_role(Role::Pawn);
    let strongly = them.pawn_attacks;
    let weak = enemies & !strongly & ours;
    let mut score = 0;
    let by_minor = ((pieces & strongly) | weak) & (us.by_role[0] | us.by_role[1]);
    for sq in by_minor {
        score += board
            .role_at(sq)
            .map_or(0, |r| p.threat_minor[role_index(r)]);
    }
    for sq in weak & us.by_role[2] {
        score += board
            .role_at(sq)
            .map_or(0, |r| p.threat_rook[role_index(r)]);
    }
    score += p.hanging * (weak & !theirs).count() as i32;
    let safe = !theirs | ours;
    let mut by_pawns = Bitboard::EMPTY;
    for sq in board.by_role(Role::Pawn) & board.by_color(color) & safe {
        by_pawns |= attacks::pawn_attacks(color, sq);
    }
    score + p.threat_safe_pawn * (by_pawns & pieces).count() as i32
}
