//! Pawns: their advance and the seventh rank.
//!
//! A pawn on its 2nd to 5th rank is worth more the further it has come
//! ([`Params::pawn_advance`]). A pawn on the 7th is a threat while it can
//! promote (R7: its owner's men are in the enemy prison to swap it for) and
//! worth less while it is frozen (R8), when it also attacks nothing on the
//! last rank; while it stands next to the enemy king it keeps the enemy
//! from taking our pieces (R8a, the pseudo-check term of `king.rs`).

use hostage_core::{attacks, Bitboard, Color, Position, Role};

use super::{Men, Params};

/// `color`'s pawns: their placement, the squares they attack, and what
/// they add to the attack on the enemy king's zone `enemy_zone`.
pub(super) fn pawns(pos: &Position, p: &Params, color: Color, enemy_zone: Bitboard) -> Men {
    let board = pos.board();
    let live = pos.can_promote(color);
    let mut men = Men::default();
    for sq in board.by_role(Role::Pawn) & board.by_color(color) {
        let rel_rank = sq.rank().relative_to(color).index() as i32;
        let att = if rel_rank == 6 {
            men.placement += if live {
                p.live_seventh
            } else {
                p.frozen_seventh
            };
            if live {
                attacks::pawn_attacks(color, sq)
            } else {
                // R8: a frozen pawn attacks nothing on the last rank.
                Bitboard::EMPTY
            }
        } else {
            if (2..=5).contains(&rel_rank) {
                men.placement += p.pawn_advance[rel_rank as usize - 2];
            }
            attacks::pawn_attacks(color, sq)
        };
        men.guarded |= att;
        men.pawn_attacks |= att;
        if (att & enemy_zone).any() {
            men.king_attackers += p.attack_danger[0];
        }
    }
    men
}
