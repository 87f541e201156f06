//! Whether a move may give check, from the position before it: the move
//! loop judges the pruning of a move that cannot give check without
//! playing it, so that the many quiet drops a node with men in hand skips
//! cost no copy of the position.
//!
//! The answer is a superset: `false` only when the move certainly gives
//! no check; promotions, castling and en passant, which move or change two
//! men, are always `true`, and so is a pawn's check that pseudo-check
//! (R8a) may keep from counting. The search then plays the move and asks
//! the position.

use hostage_core::{attacks, Move, Position, Role};

/// `false` only when `mv`, legal in `pos`, gives no check: its man does
/// not attack the enemy king from where it lands, and no slider of ours
/// sees the king through the square it left (a drop or an exchange only
/// fills a square, so it uncovers nothing).
pub(super) fn may_give_check(pos: &Position, mv: &Move) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let Some(king) = board.king_of(!us) else {
        return true;
    };
    let (role, from, to) = match *mv {
        Move::Normal {
            role,
            from,
            to,
            promotion: None,
            ..
        } => (role, Some(from), to),
        Move::Drop { role, to }
        | Move::Exchange {
            rescued: role, to, ..
        } => (role, None, to),
        _ => return true,
    };
    let mut after = board.occupied().with(to);
    if let Some(from) = from {
        after = after.without(from);
    }
    if role != Role::King && attacks::attacks(role, us, to, after).contains(king) {
        return true;
    }
    let Some(from) = from else {
        return false;
    };
    let ours = board.by_color(us).without(from);
    let queens = board.by_role(Role::Queen);
    let diagonal = (board.by_role(Role::Bishop) | queens) & ours;
    let straight = (board.by_role(Role::Rook) | queens) & ours;
    (attacks::bishop_attacks(king, after) & diagonal).any()
        || (attacks::rook_attacks(king, after) & straight).any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn may(fen: &str, san: &str) -> bool {
        let pos = Position::from_fen(fen).expect("fen");
        let mv = pos.parse_move(san).expect("move");
        may_give_check(&pos, &mv)
    }

    #[test]
    fn direct_discovered_and_dropped_checks_are_seen() {
        // A knight leaves the bishop's diagonal to the king; a rook's file.
        assert!(may("7k/8/8/8/8/2N5/1B6/K7[] w - - 0 1", "Ne4"));
        assert!(may("k7/8/8/N7/R7/8/8/1K6[] w - - 0 1", "Nc4"));
        assert!(may("k7/8/8/N7/R7/8/8/1K6[] w - - 0 1", "Nc6"));
        // A king uncovers its own rook.
        assert!(may("k7/8/8/8/8/8/K7/R7[] w - - 0 1", "Kb2"));
        // Dropped and rescued men giving check.
        assert!(may("k7/8/8/8/8/8/8/K7[N] w - - 0 1", "N@b6"));
        assert!(may("k7/8/8/8/8/8/8/K7[#Nr] w - - 0 1", "(R-N)N*b6"));
        // None of these give check.
        assert!(!may("k7/8/8/8/8/8/8/K7[N] w - - 0 1", "N@c4"));
        assert!(!may("7k/8/8/8/8/2N5/1B6/K7[] w - - 0 1", "Bc1"));
        assert!(!may("k7/8/8/8/1R6/2N5/8/K7[] w - - 0 1", "Ne4"));
    }

    #[test]
    fn every_check_is_seen_and_most_quiet_moves_are_cleared() {
        // Along seeded random games from hostage-rich starts: a move that
        // gives check (the position after it says so) is never cleared.
        let starts = [
            "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
            "r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
            "3k4/8/8/3q4/8/8/3R4/3K4[QRNrnb] w - - 0 30",
        ];
        let mut rng = crate::rng::Rng::new(5);
        let (mut checks, mut cleared, mut quiet) = (0, 0, 0);
        for fen in starts {
            let mut pos = Position::from_fen(fen).expect("fen");
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for mv in &moves {
                    let mut after = pos.clone();
                    after.play_unchecked(*mv);
                    if after.is_check() {
                        checks += 1;
                        assert!(may_give_check(&pos, mv), "{} {mv}", pos.fen());
                    } else {
                        quiet += 1;
                        cleared += usize::from(!may_give_check(&pos, mv));
                    }
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(checks > 200, "{checks}");
        // A superset, but a useful one: all but a few moves that give no
        // check are cleared before being played.
        assert!(cleared * 100 > quiet * 95, "{cleared} of {quiet}");
    }
}
