//! The hand-written static evaluation: what a quiet position is worth to
//! the side to move, in centipawns. The full-strength native search
//! evaluates with the network instead (`crate::nnue`, trained on positions
//! this evaluation's searches labelled); this one serves the levels, the
//! WebAssembly build and the search with `Use NNUE` off.
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
//! returned for the side to move, each in its own function:
//!
//! - material (`material.rs`): men on the board at their piece values,
//!   tapered by the board phase, and the hostages: prisoners (enemy men in
//!   our prison) as exchange currency (R5); our men in the enemy prison,
//!   worth something only when we hold a prisoner that can buy them back
//!   (R5: released value ≥ rescued value); our airfield, men we can drop
//!   for free on any empty square (R6), worth more than on the board, like
//!   a piece in hand in crazyhouse;
//! - pawns (`pawns.rs`): advance, and the 7th rank: a pawn that can promote
//!   (R7) is a threat, a frozen one (R8) is worth less, and keeps the enemy
//!   from taking our pieces while it stands next to their king (R8a);
//! - pieces (`pieces.rs`): placement (centre for knights, bishops and
//!   queens, the 7th for rooks) and mobility of knights, bishops, rooks
//!   and queens;
//! - the king (`king.rs`): placement (the back rank while the board is
//!   full, the centre once it empties); safety against drops and
//!   exchanges: what the enemy could drop (airfield) or bring back
//!   (exchange) next to our king, times the empty squares around it that
//!   no man of ours but the king guards and those the enemy defends (a man
//!   dropped there stays), plus enemy men attacking them, plus the checks
//!   the enemy could give by a drop or a move from a square we do not
//!   guard; pseudo-check (R8a) restricts the side it is against;
//! - threats (`threats.rs`, Stockfish's classical term): enemy men our
//!   minors, rooks and safe pawns attack, and those hanging; its weights
//!   are 0 by default, which skips it (`docs/engine.md` says why);
//! - a bonus for the side to move.

// Without the `tuning` feature only the search calls in here; the rest is
// the tuners' and tests' API.
#![cfg_attr(not(feature = "tuning"), allow(dead_code, unused_imports))]

mod king;
mod material;
mod params;
mod pawns;
mod pieces;
mod threats;

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
/// # #[cfg(feature = "tuning")] {
/// use hostage_core::Position;
/// use hostage_engine::eval::{evaluate, Params};
///
/// // The start is level but for the move.
/// assert_eq!(evaluate(&Position::new()), Params::DEFAULT.tempo);
/// # }
/// ```
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Params::DEFAULT)
}

/// The evaluation with the given weights: the terms of each side (see the
/// modules), White's minus Black's, plus pseudo-check, for the side to
/// move, plus the tempo.
#[must_use]
pub fn evaluate_with(pos: &Position, p: &Params) -> i32 {
    let board = pos.board();
    let phase = material::phase(board);
    let zones = Color::ALL.map(|color| attacks::king_attacks(pos.king_of(color)));
    // One pass over each side's men gives the terms that need their
    // attacks, and the attacks themselves for the enemy's king safety.
    let men = Color::ALL.map(|color| {
        let enemy_zone = zones[!color as usize];
        pawns::pawns(pos, p, color, enemy_zone).and(pieces::pieces(pos, p, color, enemy_zone))
    });

    let kings = Color::ALL.map(|color| king::attacks(board, color));
    let mut total = [0i32; 2];
    for color in Color::ALL {
        let c = color as usize;
        let them = 1 - c;
        let threats = if p.threats_on() {
            threats::threats(
                board,
                p,
                color,
                [&men[c], &men[them]],
                [kings[c], kings[them]],
            )
        } else {
            0
        };
        let danger = king::Threats {
            guarded: men[c].guarded,
            enemy_attacks: men[them].guarded | kings[them],
            attackers: men[them].king_attackers,
            enemy_by_role: men[them].by_role,
        };
        total[c] = material::on_board(board, p, color, phase)
            + material::hostages(pos, p, color)
            + men[c].placement
            + men[c].mobility
            + king::placement(board, p, color, phase)
            - king::danger(pos, p, color, zones[c], &danger)
            - king::flank_attacks(board, p, color, danger.enemy_attacks)
            + threats;
    }

    let score = total[0] - total[1] + king::pseudo_check(pos, p);
    let stm = match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    stm + p.tempo
}

/// What one side's pawns or pieces add up to in one pass over them.
#[derive(Copy, Clone, Default)]
struct Men {
    /// Placement (advance, centre, seventh rank).
    placement: i32,
    /// Mobility (pieces only).
    mobility: i32,
    /// The squares they attack: guarded against drops by a man other than
    /// the king (a man dropped on a square only the king guards is taken
    /// only by the king).
    guarded: Bitboard,
    /// Their attack on the enemy king's zone, in
    /// [`Params::attack_danger`] units.
    king_attackers: i32,
    /// The squares attacked by their knights, bishops, rooks and queens,
    /// role by role (pieces only).
    by_role: [Bitboard; 4],
    /// The squares their pawns attack (pawns only).
    pawn_attacks: Bitboard,
}

impl Men {
    /// Both sets of men together.
    fn and(self, other: Men) -> Men {
        Men {
            placement: self.placement + other.placement,
            mobility: self.mobility + other.mobility,
            guarded: self.guarded | other.guarded,
            king_attackers: self.king_attackers + other.king_attackers,
            by_role: [0, 1, 2, 3].map(|i| self.by_role[i] | other.by_role[i]),
            pawn_attacks: self.pawn_attacks | other.pawn_attacks,
        }
    }
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
    fn a_safe_checking_drop_adds_to_the_danger() {
        // White to move, Black holds a knight in its airfield. f3 and h3
        // (knight checks on g1) are guarded by the g2 pawn, e2 by nothing:
        // a knight dropped on e2 gives a safe check.
        let no_checks = Params {
            check_danger: [0; 4],
            ..Params::DEFAULT
        };
        let open = Position::from_fen("4k3/8/8/8/8/8/5PPP/6K1[n] w - - 0 1").expect("fen");
        assert!(evaluate_with(&open, &Params::DEFAULT) < evaluate_with(&open, &no_checks));
        // A white knight on c1 guards e2: no knight check is safe.
        let guarded = Position::from_fen("4k3/8/8/8/8/8/5PPP/2N3K1[n] w - - 0 1").expect("fen");
        assert_eq!(
            evaluate_with(&guarded, &Params::DEFAULT),
            evaluate_with(&guarded, &no_checks)
        );
        // A man on the board counts as a dropped one: the black rook on a8
        // can go to a1 and check along the first rank, where no white man
        // guards a1 ...
        let rook = Position::from_fen("r3k3/8/8/8/8/8/5PPP/6K1[] w - - 0 1").expect("fen");
        assert!(evaluate_with(&rook, &Params::DEFAULT) < evaluate_with(&rook, &no_checks));
        // ... until a knight on b3 guards it.
        let rook = Position::from_fen("r3k3/8/8/8/8/1N6/5PPP/6K1[] w - - 0 1").expect("fen");
        assert_eq!(
            evaluate_with(&rook, &Params::DEFAULT),
            evaluate_with(&rook, &no_checks)
        );
    }

    #[test]
    fn threats_count_as_documented() {
        let off = Params::DEFAULT;
        let with = |f: fn(&mut Params)| {
            let mut p = Params::DEFAULT;
            f(&mut p);
            p
        };
        let diff = |fen: &str, p: &Params| {
            let pos = Position::from_fen(fen).expect("fen");
            evaluate_with(&pos, p) - evaluate_with(&pos, &off)
        };
        assert!(!off.threats_on(), "off by default");
        let minor_and_hanging = with(|p| {
            p.threat_minor[1] = 10;
            p.hanging = 7;
        });
        // The e3 bishop attacks the c5 knight, which nothing guards: a
        // minor's threat on a knight and a hanging man, for White.
        let loose = "4k3/8/8/2n5/8/4B3/8/4K3[] w - - 0 1";
        assert_eq!(diff(loose, &minor_and_hanging), 17);
        assert_eq!(diff(&loose.replace(" w ", " b "), &minor_and_hanging), -17);
        // A b6 pawn guards the knight: still a minor's threat (on a
        // piece), no longer hanging.
        let guarded = "4k3/8/1p6/2n5/8/4B3/8/4K3[] w - - 0 1";
        assert_eq!(diff(guarded, &minor_and_hanging), 10);
        // A rook's threat counts only on a man no pawn guards.
        let rook = with(|p| p.threat_rook[1] = 9);
        assert_eq!(diff("4k3/8/8/2n5/8/8/8/2R1K3[] w - - 0 1", &rook), 9);
        assert_eq!(diff("4k3/8/1p6/2n5/8/8/8/2R1K3[] w - - 0 1", &rook), 0);
        // A pawn on d4 that nothing attacks threatens the c5 knight.
        let pawn = with(|p| p.threat_safe_pawn = 5);
        assert_eq!(diff("4k3/8/8/2n5/3P4/8/8/4K3[] w - - 0 1", &pawn), 5);
        // Not the f5 knight from e4, where the c5 knight attacks the pawn
        // and nothing guards it.
        assert_eq!(diff("4k3/8/8/2n2n2/4P3/8/8/4K3[] w - - 0 1", &pawn), 0);
    }

    #[test]
    fn flank_attacks_count_the_attacked_squares_of_the_kings_flank_in_its_camp() {
        let on = Params {
            flank_attack: 10,
            ..Params::DEFAULT
        };
        let off = Params {
            flank_attack: 0,
            ..Params::DEFAULT
        };
        let diff = |fen: &str| {
            let pos = Position::from_fen(fen).expect("fen");
            evaluate_with(&pos, &on) - evaluate_with(&pos, &off)
        };
        // The h8 rook sees down the open h-file: h5 to h1 are on the white
        // king's flank (files e to h) in White's camp (ranks 1 to 5); h7
        // and h6 are not in the camp, the eighth rank not either.
        assert_eq!(diff("k6r/8/8/8/8/8/8/6K1[] w - - 0 1"), -50);
        assert_eq!(diff("k6r/8/8/8/8/8/8/6K1[] b - - 0 1"), 50);
        // With the king on b1 the flank is files a to d: none of them.
        assert_eq!(diff("k6r/8/8/8/8/8/8/1K6[] w - - 0 1"), 0);
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
