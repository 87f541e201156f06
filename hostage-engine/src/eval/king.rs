//! The king: its placement, its safety against drops and exchanges, and
//! pseudo-check.
//!
//! - Placement: sheltered on the back rank while pieces are many, central
//!   once they are few (tapered by the board phase).
//! - Safety: what the enemy could drop (airfield) or bring back (exchange)
//!   next to our king, times the empty squares around it that no man of
//!   ours but the king guards and those the enemy defends (a man dropped
//!   there stays), plus enemy men attacking them, plus the safe checks
//!   the enemy has by a drop or a move (Stockfish's safe checks, drops
//!   counted as Fairy-Stockfish counts them); squared, capped and scaled,
//!   so that one threat is little and several are much.
//! - Flank attacks: the squares of our king's flank (its file and the
//!   files beside it, four files as Stockfish's `KingFlank` takes them)
//!   in our camp (the five ranks on our side) that the enemy attacks, so
//!   much a square ([`Params::flank_attack`]): a drop lands where the
//!   enemy already attacks.
//! - Pseudo-check (R8a) restricts the side it is against.

use hostage_core::{attacks, Bitboard, Board, Color, Position, Role};

use super::{centrality, material::taper, role_index, value, Params};

/// The placement of `color`'s king (of each, should a position have more
/// than one): back rank and shelter in the middlegame, centre in the
/// endgame, tapered by `phase`. Each king is tapered and rounded on its
/// own.
pub(super) fn placement(board: &Board, p: &Params, color: Color, phase: i32) -> i32 {
    let mut total = 0;
    for sq in board.by_role(Role::King) & board.by_color(color) {
        let rel_rank = sq.rank().relative_to(color).index() as i32;
        let centre = centrality(sq);
        let mg = -(rel_rank * p.king_mg_rank) - centre * p.king_mg_centre;
        let eg = (centre - 3) * p.king_eg_centre;
        total += taper(mg, eg, phase);
    }
    total
}

/// The squares `color`'s king attacks.
pub(super) fn attacks(board: &Board, color: Color) -> Bitboard {
    let mut att = Bitboard::EMPTY;
    for sq in board.by_role(Role::King) & board.by_color(color) {
        att |= attacks::king_attacks(sq);
    }
    att
}

/// What threatens `color`'s king, seen from the squares of its `zone`.
pub(super) struct Threats {
    /// The squares `color`'s men other than its king guard.
    pub guarded: Bitboard,
    /// The squares the enemy attacks (its king included).
    pub enemy_attacks: Bitboard,
    /// The enemy men attacking the zone, in [`Params::attack_danger`]
    /// units.
    pub attackers: i32,
    /// The squares the enemy's knights, bishops, rooks and queens attack,
    /// role by role.
    pub enemy_by_role: [Bitboard; 4],
}

/// The danger to `color`'s king, whose `zone` is the squares next to it:
/// the enemy's hand (its airfield and its best exchange) weighted by the
/// open and enemy-defended empty squares of the zone, plus the enemy men
/// attacking it, plus its safe checks; squared, capped and scaled.
pub(super) fn danger(
    pos: &Position,
    p: &Params,
    color: Color,
    zone: Bitboard,
    threats: &Threats,
) -> i32 {
    let empty_zone = zone & !pos.board().occupied();
    let open = (empty_zone & !threats.guarded).count() as i32;
    let (hand, roles) = enemy_hand(pos, p, color);
    let supported = (empty_zone & threats.enemy_attacks).count() as i32;
    let units = hand * (100 + open * p.open_pct + supported * p.supported_drop_pct) / 100
        + threats.attackers * p.attackers_weight
        + safe_checks(pos, p, color, zone, threats, roles);
    // Units below 0 (weights fitted negative) are no danger, not a
    // squared one.
    let units = units.max(0);
    (units * units / 128).min(p.king_danger_cap) * p.king_danger_pct / 100
}

/// The safe checks against `color`'s king, in [`Params::check_danger`]
/// units: for each of knight, bishop, rook and queen, whether the enemy
/// can give check with one, by dropping a man of that role it holds
/// (`roles`, by [`role_index`]) on an empty square or by moving one there
/// (or capturing there), from a square no man of ours guards and, next to
/// the king, that the king cannot take back. More than one such square
/// counts half as much again.
fn safe_checks(
    pos: &Position,
    p: &Params,
    color: Color,
    zone: Bitboard,
    threats: &Threats,
    roles: [bool; 5],
) -> i32 {
    let board = pos.board();
    let occupied = board.occupied();
    let king = pos.king_of(color);
    let safe = !threats.guarded & !(zone & !threats.enemy_attacks) & !board.by_color(!color);
    let bishop = attacks::bishop_attacks(king, occupied);
    let rook = attacks::rook_attacks(king, occupied);
    let lines = [attacks::knight_attacks(king), bishop, rook, bishop | rook];
    let mut units = 0;
    for (i, &line) in lines.iter().enumerate() {
        let mut reach = threats.enemy_by_role[i];
        if roles[i + 1] {
            reach |= !occupied;
        }
        let checks = line & reach & safe;
        if checks.more_than_one() {
            units += p.check_danger[i] * 3 / 2;
        } else if checks.any() {
            units += p.check_danger[i];
        }
    }
    units
}

/// What the enemy of `color` can put next to `color`'s king, in
/// [`Params::hand_danger`] units: its airfield, and the best man an
/// exchange would bring back to it; and which roles those are (by
/// [`role_index`]).
fn enemy_hand(pos: &Position, p: &Params, color: Color) -> (i32, [bool; 5]) {
    let them = !color;
    let mut hand = 0;
    let mut roles = [false; 5];
    for (role, n) in pos.airfield(them).iter() {
        hand += i32::from(n) * p.hand_danger[role_index(role)];
        roles[role_index(role)] = true;
    }
    // The enemy's best exchange: their strongest man in our prison that
    // one of our men in their prison lets them rescue.
    let their_best_prisoner = pos
        .prison(them)
        .iter()
        .map(|(r, _)| value(r))
        .max()
        .unwrap_or(0);
    if let Some(rescuable) = pos
        .prison(color)
        .iter()
        .map(|(r, _)| r)
        .filter(|&r| value(r) <= their_best_prisoner)
        .max_by_key(|&r| value(r))
    {
        hand += p.hand_danger[role_index(rescuable)];
        roles[role_index(rescuable)] = true;
    }
    (hand, roles)
}

/// The files of the king's flank by the king's file: a to d for a king on
/// files a to c, c to f on d and e, e to h on f to h (Stockfish's
/// `KingFlank`).
const FLANKS: [u64; 8] = {
    const QUEEN_SIDE: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const CENTRE: u64 = 0x3c3c_3c3c_3c3c_3c3c;
    const KING_SIDE: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    [
        QUEEN_SIDE, QUEEN_SIDE, QUEEN_SIDE, CENTRE, CENTRE, KING_SIDE, KING_SIDE, KING_SIDE,
    ]
};

/// Each side's camp: White's ranks 1 to 5, Black's 4 to 8.
const CAMPS: [u64; 2] = [0x0000_00ff_ffff_ffff, 0xffff_ffff_ff00_0000];

/// The squares of `color`'s king flank in its camp that `enemy_attacks`
/// holds, times [`Params::flank_attack`].
pub(super) fn flank_attacks(
    board: &Board,
    p: &Params,
    color: Color,
    enemy_attacks: Bitboard,
) -> i32 {
    if p.flank_attack == 0 {
        return 0;
    }
    let mut total = 0;
    for king in board.by_role(Role::King) & board.by_color(color) {
        let flank = Bitboard(FLANKS[king.file().index() as usize] & CAMPS[color as usize]);
        total += (flank & enemy_attacks).count() as i32 * p.flank_attack;
    }
    total
}

/// R8a: pseudo-check hampers the side it is against (the side to move),
/// from White's point of view.
pub(super) fn pseudo_check(pos: &Position, p: &Params) -> i32 {
    if !pos.is_pseudo_check() {
        return 0;
    }
    match pos.turn() {
        Color::White => -p.pseudo_check,
        Color::Black => p.pseudo_check,
    }
}
