//! The pieces (knights, bishops, rooks, queens): where they stand, how
//! far they reach (mobility), and whether they bear on the enemy king's
//! zone.
//!
//! The three terms share each piece's attacks, so they are found in one
//! pass over the pieces, each by its own function:
//!
//! - placement: knights, bishops and queens gain toward the centre, rooks
//!   on the seventh rank;
//! - mobility: the squares a piece attacks that no man of its own side
//!   stands on, counted from 4 ([`Params::mobility`], per role);
//! - king attackers: a piece attacking a square next to the enemy king
//!   adds its role's [`Params::attack_danger`] to that king's danger.

use hostage_core::{attacks, Bitboard, Color, Position, Role, Square};

use super::{centrality, role_index, Men, Params};

/// `color`'s pieces: their placement and mobility, the squares they
/// attack, and what they add to the attack on `enemy_zone`.
pub(super) fn pieces(pos: &Position, p: &Params, color: Color, enemy_zone: Bitboard) -> Men {
    let board = pos.board();
    let occupied = board.occupied();
    let ours = board.by_color(color);
    let mut men = Men::default();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.by_role(role) & ours {
            let att = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occupied),
                Role::Rook => attacks::rook_attacks(sq, occupied),
                _ => attacks::queen_attacks(sq, occupied),
            };
            men.placement += placement(p, role, color, sq);
            men.mobility += mobility(p, role, att & !ours);
            men.guarded |= att;
            men.by_role[role_index(role) - 1] |= att;
            if (att & enemy_zone).any() {
                men.king_attackers += p.attack_danger[role_index(role)];
            }
        }
    }
    men
}

/// Where a piece of `role` and `color` on `sq` stands: knights, bishops
/// and queens by centrality (0 at 3 steps from the rim), rooks on the 7th.
fn placement(p: &Params, role: Role, color: Color, sq: Square) -> i32 {
    match role {
        Role::Knight => (centrality(sq) - 3) * p.knight_centre,
        Role::Bishop => (centrality(sq) - 3) * p.bishop_centre,
        Role::Queen => (centrality(sq) - 3) * p.queen_centre,
        Role::Rook if sq.rank().relative_to(color).index() == 6 => p.rook_seventh,
        _ => 0,
    }
}

/// The mobility of a piece of `role` (not a pawn or king) that reaches the
/// squares `reach` (its attacks without its own side's men).
fn mobility(p: &Params, role: Role, reach: Bitboard) -> i32 {
    (reach.count() as i32 - 4) * p.mobility[role_index(role) - 1]
}
