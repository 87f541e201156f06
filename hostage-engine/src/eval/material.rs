//! Material: the men on the board at their piece values, tapered from the
//! middlegame's weights to the endgame's by the board phase, and the
//! hostages, men in prisons and airfields.
//!
//! Hostage Chess never loses material (R2: a captured man goes into the
//! captor's prison), so every man counts wherever it is, at a weight that
//! says how useful it is there:
//!
//! - prisoners (enemy men in our prison) are exchange currency (R5);
//! - our men in the enemy prison are worth something only when we hold a
//!   prisoner that can buy them back (R5: released value ≥ rescued value);
//! - our airfield holds men we can drop for free on any empty square (R6),
//!   worth more than on the board, like a piece in hand in crazyhouse.

use hostage_core::{Board, Color, Position, Role};

use super::{role_index, value, Params};

/// Board phase weights of the roles (24 with every piece on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// The board phase: 24 with every piece on the board (or more, capped),
/// down to 0 with pawns and kings only. Men off the board do not count.
pub(super) fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE[role_index(role)] * board.by_role(role).count() as i32;
    }
    phase.min(24)
}

/// `mg` and `eg` mixed by `phase` (24: all `mg`, 0: all `eg`), rounded
/// toward zero.
#[inline]
pub(super) fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (24 - phase)) / 24
}

/// `color`'s men on the board at [`Params::piece_mg`] and
/// [`Params::piece_eg`], tapered by `phase` (the sums are tapered, not each
/// man, so the rounding is that of one division).
pub(super) fn on_board(board: &Board, p: &Params, color: Color, phase: i32) -> i32 {
    let ours = board.by_color(color);
    let mut mg = 0;
    let mut eg = 0;
    for role in [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        let n = (board.by_role(role) & ours).count() as i32;
        mg += n * p.piece_mg[role_index(role)];
        eg += n * p.piece_eg[role_index(role)];
    }
    taper(mg, eg, phase)
}

/// `color`'s hostages: its prisoners, its men held by the enemy (valued by
/// whether it can buy them back) and its airfield.
pub(super) fn hostages(pos: &Position, p: &Params, color: Color) -> i32 {
    let our_prison = pos.prison(color);
    let their_prison = pos.prison(!color);

    // Prisoners: enemy men in our prison.
    let mut reserves = 0;
    let mut best_prisoner = 0;
    for (role, n) in our_prison.iter() {
        reserves += i32::from(n) * p.prisoner[role_index(role)];
        best_prisoner = best_prisoner.max(value(role));
    }
    // Our men held by the enemy: worth something if we can buy them
    // back (R5: the released prisoner must be worth at least as much).
    for (role, n) in their_prison.iter() {
        let pct = if best_prisoner >= value(role) && best_prisoner > 0 {
            p.rescuable_pct
        } else {
            p.captive_pct
        };
        reserves += i32::from(n) * value(role) * pct / 100;
    }
    // Our airfield: free drops.
    for (role, n) in pos.airfield(color).iter() {
        reserves += i32::from(n) * p.airfield[role_index(role)];
    }
    reserves
}
