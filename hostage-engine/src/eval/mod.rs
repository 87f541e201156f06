//! The static evaluation: what a quiet position is worth to the side to
//! move, in centipawns.
//!
//! Hostage Chess never loses material (R2: a captured man goes into the
//! captor's prison; R5/R6: it comes back by exchange and airfield drop), so
//! the evaluation counts every man wherever it is, at a weight that says
//! how useful it is there. Each term, its weight and where the weight came
//! from is listed in `docs/engine.md`; every weight is a named field of
//! [`Params`] (`params.rs`), set by self-play matches
//! (`hostage-match/examples/tune.rs`) or fitted to game results
//! (`hostage-match/examples/texel.rs`).
//!
//! The terms, for each side, added up from White's point of view and
//! returned for the side to move:
//!
//! - men on the board, at their piece values, plus placement (centre for
//!   knights and bishops, advance for pawns, the back rank for the king
//!   while the board is full, the centre once it empties);
//! - prisoners (enemy men in our prison): exchange currency (R5);
//! - our men in the enemy prison: worth something only when we hold a
//!   prisoner that can buy them back (R5: released value ≥ rescued value);
//! - our airfield: men we can drop for free on any empty square (R6), worth
//!   more than on the board, like a piece in hand in crazyhouse;
//! - pawns on the 7th: a pawn that can promote (R7) is a threat, a frozen
//!   one (R8) is worth less, and keeps the enemy from taking our pieces
//!   while it stands next to their king (R8a);
//! - pseudo-check (R8a) restricts the side it is against;
//! - mobility of knights, bishops, rooks and queens;
//! - king safety against drops and exchanges: what the enemy could drop
//!   (airfield) or bring back (exchange) next to our king, times the empty
//!   squares around it that no man of ours but the king guards and those
//!   the enemy defends (a man dropped there stays), plus enemy men
//!   attacking them;
//! - a bonus for the side to move.

// Without the `tuning` feature only the search calls in here; the rest is
// the tuners' and tests' API.
#![cfg_attr(not(feature = "tuning"), allow(dead_code, unused_imports))]

mod params;

use hostage_core::{attacks, Bitboard, Color, Position, Role, Square};

pub use params::{Params, UnknownWeight};

/// Piece values on the board, centipawns (pawn, knight, bishop, rook,
/// queen), the classical values of Kaufman ("The Evaluation of Material
/// Imbalances", 1999) rounded: the game is chess on the board. These are
/// the rule-side values (exchanges, R5) and the ones move ordering and
/// static exchange use; the evaluation's own are [`Params::piece_mg`] and
/// [`Params::piece_eg`].
pub const PIECE_VALUES: [i32; 5] = [100, 320, 330, 500, 950];

/// The board value of a role (the king has none).
#[inline]
#[must_use]
pub const fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => PIECE_VALUES[0],
        Role::Knight => PIECE_VALUES[1],
        Role::Bishop => PIECE_VALUES[2],
        Role::Rook => PIECE_VALUES[3],
        Role::Queen => PIECE_VALUES[4],
        Role::King => 0,
    }
}

/// Board phase weights of the roles (24 with every piece on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

#[inline]
fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// How central a square is: 0 on the rim corner to 6 in the centre.
#[inline]
fn centrality(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    f.min(7 - f) + r.min(7 - r)
}

/// The evaluation from the side to move's point of view, with the default
/// weights.
///
/// # Examples
///
/// ```
/// use hostage_core::Position;
/// use hostage_engine::eval::{evaluate, Params};
///
/// // The start is level but for the move.
/// assert_eq!(evaluate(&Position::new()), Params::DEFAULT.tempo);
/// ```
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Params::DEFAULT)
}

/// The evaluation with the given weights.
#[must_use]
pub fn evaluate_with(pos: &Position, p: &Params) -> i32 {
    let board = pos.board();
    let occupied = board.occupied();
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE[role_index(role)] * board.by_role(role).count() as i32;
    }
    let phase = phase.min(24);

    // What each side attacks (for the enemy's king danger), and what it
    // guards with men other than its king (a square only the king guards
    // is open to a drop: the dropped man is taken only by the king).
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut guarded = [Bitboard::EMPTY; 2];
    let mut mobility = [0i32; 2];
    let mut placement = [0i32; 2];
    let mut material_mg = [0i32; 2];
    let mut material_eg = [0i32; 2];
    let mut king_attack_units = [0i32; 2];
    let kings = [pos.king_of(Color::White), pos.king_of(Color::Black)];
    let zones = [
        attacks::king_attacks(kings[0]),
        attacks::king_attacks(kings[1]),
    ];

    for color in Color::ALL {
        let c = color as usize;
        let ours = board.by_color(color);
        let live = pos.can_promote(color);
        let enemy_zone = zones[1 - c];
        for (role, sq) in Role::ALL.into_iter().flat_map(|role| {
            (board.by_role(role) & ours)
                .into_iter()
                .map(move |sq| (role, sq))
        }) {
            let rel_rank = sq.rank().relative_to(color).index() as i32;
            let att = match role {
                Role::Pawn => {
                    material_mg[c] += p.piece_mg[0];
                    material_eg[c] += p.piece_eg[0];
                    let a = attacks::pawn_attacks(color, sq);
                    if rel_rank == 6 {
                        placement[c] += if live {
                            p.live_seventh
                        } else {
                            p.frozen_seventh
                        };
                        if live {
                            a
                        } else {
                            // R8: a frozen pawn attacks nothing on the last rank.
                            Bitboard::EMPTY
                        }
                    } else {
                        if (2..=5).contains(&rel_rank) {
                            placement[c] += p.pawn_advance[rel_rank as usize - 2];
                        }
                        a
                    }
                }
                Role::Knight => {
                    material_mg[c] += p.piece_mg[1];
                    material_eg[c] += p.piece_eg[1];
                    placement[c] += (centrality(sq) - 3) * p.knight_centre;
                    attacks::knight_attacks(sq)
                }
                Role::Bishop => {
                    material_mg[c] += p.piece_mg[2];
                    material_eg[c] += p.piece_eg[2];
                    placement[c] += (centrality(sq) - 3) * p.bishop_centre;
                    attacks::bishop_attacks(sq, occupied)
                }
                Role::Rook => {
                    material_mg[c] += p.piece_mg[3];
                    material_eg[c] += p.piece_eg[3];
                    if rel_rank == 6 {
                        placement[c] += p.rook_seventh;
                    }
                    attacks::rook_attacks(sq, occupied)
                }
                Role::Queen => {
                    material_mg[c] += p.piece_mg[4];
                    material_eg[c] += p.piece_eg[4];
                    placement[c] += (centrality(sq) - 3) * p.queen_centre;
                    attacks::queen_attacks(sq, occupied)
                }
                Role::King => {
                    // Sheltered on the back rank while pieces are many,
                    // central once they are few.
                    let centre = centrality(sq);
                    let mg = -(rel_rank * p.king_mg_rank) - centre * p.king_mg_centre;
                    let eg = (centre - 3) * p.king_eg_centre;
                    placement[c] += (mg * phase + eg * (24 - phase)) / 24;
                    attacked[c] |= attacks::king_attacks(sq);
                    continue;
                }
            };
            attacked[c] |= att;
            guarded[c] |= att;
            if role != Role::Pawn {
                let reach = (att & !ours).count() as i32;
                mobility[c] += (reach - 4) * p.mobility[role_index(role) - 1];
            }
            if (att & enemy_zone).any() {
                king_attack_units[c] += p.attack_danger[role_index(role)];
            }
        }
    }

    let mut total = [0i32; 2];
    for color in Color::ALL {
        let c = color as usize;
        let them = !color;
        let our_prison = pos.prison(color);
        let their_prison = pos.prison(them);
        let airfield = pos.airfield(color);

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
        for (role, n) in airfield.iter() {
            reserves += i32::from(n) * p.airfield[role_index(role)];
        }

        // King danger: what the enemy can put next to our king.
        let zone = zones[c];
        let empty_zone = zone & !occupied;
        let open = (empty_zone & !guarded[c]).count() as i32;
        let mut hand = 0;
        for (role, n) in pos.airfield(them).iter() {
            hand += i32::from(n) * p.hand_danger[role_index(role)];
        }
        // The enemy's best exchange: their strongest man in our prison that
        // one of our men in their prison lets them rescue.
        let their_best_prisoner = their_prison
            .iter()
            .map(|(r, _)| value(r))
            .max()
            .unwrap_or(0);
        if let Some(rescuable) = our_prison
            .iter()
            .map(|(r, _)| r)
            .filter(|&r| value(r) <= their_best_prisoner)
            .max_by_key(|&r| value(r))
        {
            hand += p.hand_danger[role_index(rescuable)];
        }
        let supported = (empty_zone & attacked[1 - c]).count() as i32;
        let units = hand * (100 + open * p.open_pct + supported * p.supported_drop_pct) / 100
            + king_attack_units[1 - c] * p.attackers_weight;
        // Units below 0 (weights fitted negative) are no danger, not a
        // squared one.
        let units = units.max(0);
        let danger = (units * units / 128).min(p.king_danger_cap) * p.king_danger_pct / 100;

        let material = (material_mg[c] * phase + material_eg[c] * (24 - phase)) / 24;
        total[c] = material + placement[c] + mobility[c] + reserves - danger;
    }

    let mut score = total[0] - total[1];
    // R8a: pseudo-check hampers the side it is against.
    if pos.is_pseudo_check() {
        score += match pos.turn() {
            Color::White => -p.pseudo_check,
            Color::Black => p.pseudo_check,
        };
    }
    let stm = match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    stm + p.tempo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).expect("fen"))
    }

    #[test]
    fn squares_by_the_king_that_the_enemy_defends_add_to_its_danger() {
        // White to move, Black holds a queen in its airfield; the black
        // bishop on b7 sees g2 and h1 down the long diagonal: empty squares
        // next to the white king where a dropped queen would be defended.
        let pos = Position::from_fen("4k3/1b6/8/8/8/8/5P1P/6K1[q] w - - 0 1").expect("fen");
        let without = Params {
            supported_drop_pct: 0,
            ..Params::DEFAULT
        };
        assert!(evaluate_with(&pos, &Params::DEFAULT) < evaluate_with(&pos, &without));
        // With the bishop gone nothing is defended: the weight changes nothing.
        let pos = Position::from_fen("4k3/8/8/8/8/8/5P1P/6K1[qb] w - - 0 1").expect("fen");
        assert_eq!(
            evaluate_with(&pos, &Params::DEFAULT),
            evaluate_with(&pos, &without)
        );
    }

    #[test]
    fn empty_squares_by_the_king_that_only_the_king_guards_are_open() {
        // White to move, Black holds a queen in its airfield. The white
        // king on g1 guards f1 and h1, but no other white man does: a queen
        // dropped there is taken only by the king, so they are open and
        // weigh on White's king danger.
        let pos = Position::from_fen("4k3/8/8/8/8/8/5PPP/6K1[q] w - - 0 1").expect("fen");
        let closed = Params {
            open_pct: 0,
            ..Params::DEFAULT
        };
        assert!(evaluate_with(&pos, &Params::DEFAULT) < evaluate_with(&pos, &closed));
        // A knight on g3 guards f1 and h1: nothing is open any more.
        let pos = Position::from_fen("4k3/8/8/8/8/6N1/5PPP/6K1[q] w - - 0 1").expect("fen");
        assert_eq!(
            evaluate_with(&pos, &Params::DEFAULT),
            evaluate_with(&pos, &closed)
        );
        // Nothing in the enemy's hand: open squares are no danger.
        let pos = Position::from_fen("4k3/8/8/8/8/8/5PPP/6K1[] w - - 0 1").expect("fen");
        assert_eq!(
            evaluate_with(&pos, &Params::DEFAULT),
            evaluate_with(&pos, &closed)
        );
    }

    #[test]
    fn every_weight_has_a_distinct_name_that_sets_it() {
        let names: Vec<String> = Params::DEFAULT
            .weights()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        let distinct: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        for name in &names {
            let mut p = Params::DEFAULT;
            let old = p.get(name).expect("named");
            p.set(name, old + 1).expect("settable");
            assert_ne!(p, Params::DEFAULT, "{name}");
            assert_eq!(p.get(name), Some(old + 1));
        }
    }

    #[test]
    fn symmetric_positions_differ_only_by_the_tempo() {
        let white = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
        let black = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] b KQkq - 0 1");
        assert_eq!(white, Params::DEFAULT.tempo);
        assert_eq!(black, Params::DEFAULT.tempo);
    }

    #[test]
    fn mirrored_reserves_are_symmetric() {
        // Same men, colours swapped and board flipped: the side to move
        // must see the same value.
        let a = eval_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12");
        let b = eval_fen("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] b KQkq - 0 12");
        assert_eq!(a, b);
    }

    #[test]
    fn the_colour_mirror_scores_the_same_for_the_side_to_move() {
        // Along seeded random games from hostage-rich starts: every term
        // must treat the colours alike (prisons and airfields swap too).
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
        ];
        let mut rng = crate::rng::Rng::new(11);
        let mut checked = 0;
        for fen in starts {
            let mut pos = Position::from_fen(fen).expect("fen");
            for _ in 0..60 {
                assert_eq!(evaluate(&pos), evaluate(&pos.mirror()), "{}", pos.fen());
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn an_airfield_man_is_worth_more_than_a_prisoner() {
        // White holds a black knight prisoner in one position and a white
        // knight in its airfield in the other; the rest is the same.
        let prisoner = eval_fen("4k3/8/8/8/8/8/8/4K3[#n] w - - 0 1");
        let airfield = eval_fen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        assert!(prisoner > 0);
        assert!(airfield > prisoner);
    }

    #[test]
    fn a_live_seventh_rank_pawn_beats_a_frozen_one() {
        // White's pawn on b7 can promote only while Black holds a white
        // piece (R7/R8).
        let live = eval_fen("4k3/1P6/8/8/8/8/8/4K3[#N] w - - 0 1");
        let frozen = eval_fen("4k3/1P6/8/8/8/8/8/4K3[#P] w - - 0 1");
        assert!(live > frozen);
    }
}
