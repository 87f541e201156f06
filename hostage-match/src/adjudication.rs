//! Adjudicating a forfeited game from the engines' own scores.
//!
//! An external engine that crashes twice in one game or plays a move our
//! rules refuse forfeits it (see [`crate::referee`]). Leaving such games out
//! of the score would flatter whoever was losing when the other broke down,
//! and counting them as losses would punish a crash more than a lost
//! position. So a forfeited game is adjudicated when both engines' last
//! reported scores agree who is winning: one says so by at least
//! [`STRONG_CP`] centipawns or a mate, the other by at least [`WEAK_CP`]
//! (or a mate). Such a game counts as won by that side, whoever forfeited;
//! any other forfeited game is reported apart and left out of the score.

use hostage_core::Color;
use hostage_engine::Score;

/// The score (centipawns, or a mate) one engine must give the winner.
pub const STRONG_CP: i32 = 600;
/// The score (centipawns, or a mate) the other engine must give the winner.
pub const WEAK_CP: i32 = 150;

/// How much `score` (from its engine's side `side`) gives to White, in
/// centipawns, a mate as `±MATE_CP`.
fn for_white(side: Color, score: Score) -> i32 {
    const MATE_CP: i32 = 100_000;
    let own = match score {
        Score::Cp(cp) => cp,
        // `Mate(0)`: the side to move is mated now.
        Score::Mate(n) if n > 0 => MATE_CP,
        Score::Mate(_) => -MATE_CP,
    };
    if side.is_white() {
        own
    } else {
        -own
    }
}

/// The side both engines say is winning, if they agree by the margins
/// above: `white` is White's engine's last score (from White's side),
/// `black` Black's (from Black's side), `None` when an engine reported
/// none.
///
/// ```
/// use hostage_core::Color;
/// use hostage_engine::Score;
/// use hostage_match::adjudication::winner;
///
/// // White's engine says +7, Black's says -2 for itself: White wins.
/// assert_eq!(winner(Some(Score::Cp(700)), Some(Score::Cp(-200))), Some(Color::White));
/// // Black's engine sees a mate for itself, White's is down 1.6.
/// assert_eq!(winner(Some(Score::Cp(-160)), Some(Score::Mate(4))), Some(Color::Black));
/// // They disagree, or one is not sure enough: no adjudication.
/// assert_eq!(winner(Some(Score::Cp(700)), Some(Score::Cp(100))), None);
/// assert_eq!(winner(Some(Score::Cp(700)), None), None);
/// ```
#[must_use]
pub fn winner(white: Option<Score>, black: Option<Score>) -> Option<Color> {
    let a = for_white(Color::White, white?);
    let b = for_white(Color::Black, black?);
    let (strong, weak) = (a.abs().max(b.abs()), a.abs().min(b.abs()));
    if a.signum() != b.signum() || a == 0 || strong < STRONG_CP || weak < WEAK_CP {
        return None;
    }
    Some(if a > 0 { Color::White } else { Color::Black })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_engines_must_agree_one_strongly_the_other_clearly() {
        use Score::{Cp, Mate};
        let cases = [
            // (white's own, black's own, winner)
            (Cp(600), Cp(-150), Some(Color::White)),
            (Cp(150), Cp(-600), Some(Color::White)),
            (Cp(599), Cp(-150), None),
            (Cp(600), Cp(-149), None),
            (Cp(-600), Cp(150), Some(Color::Black)),
            (Cp(-150), Mate(2), Some(Color::Black)),
            (Mate(-3), Cp(150), Some(Color::Black)),
            (Mate(0), Cp(150), Some(Color::Black)),
            (Mate(5), Mate(-5), Some(Color::White)),
            // Each engine thinks it is winning: no agreement.
            (Cp(900), Cp(900), None),
            (Mate(3), Mate(3), None),
            (Cp(0), Cp(0), None),
        ];
        for (white, black, expected) in cases {
            assert_eq!(
                winner(Some(white), Some(black)),
                expected,
                "{white:?} {black:?}"
            );
        }
        assert_eq!(winner(None, Some(Cp(-900))), None);
    }
}
