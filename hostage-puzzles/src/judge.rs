//! How the generator and the verifier judge a move: win chances, the
//! "only winning move" test, and the search budgets.
//!
//! Policy: a centipawn score is turned into a win chance on \[−1, 1\] with
//! lichess's logistic curve, `2 / (1 + exp(−0.00368208·cp)) − 1`
//! (lichess-puzzler, `util.py`, `win_chances`; the multiplier is lichess's,
//! fitted to human games, kept here unchanged: see `docs/puzzles.md`). A
//! mate for the side to move is +1, being mated −1. A move is the *only
//! winning move* when it scores at least +200 cp and beats the second-best
//! move by more than 0.7 in win chance (lichess-puzzler's thresholds for
//! its generator).
//!
//! # Example
//!
//! ```
//! use hostage_engine::Score;
//! use hostage_puzzles::judge::{is_only_winning_move, win_chance};
//!
//! assert_eq!(win_chance(Score::Mate(3)), 1.0);
//! assert!((win_chance(Score::Cp(0))).abs() < 1e-12);
//! assert!(is_only_winning_move(Score::Cp(600), Some(Score::Cp(-50))));
//! assert!(!is_only_winning_move(Score::Cp(600), Some(Score::Cp(300))));
//! ```

use hostage_engine::Score;

/// lichess's win-chance multiplier per centipawn.
pub const WIN_CHANCE_MULTIPLIER: f64 = 0.003_682_08;
/// The win-chance margin by which the solution must beat the second move.
pub const ONLY_MOVE_MARGIN: f64 = 0.7;
/// The least score (centipawns) a non-mate solution move must keep.
pub const MIN_WINNING_CP: i32 = 200;
/// The node budget of each search of the generator.
pub const GENERATION_NODES: u64 = 150_000;
/// The verifier searches non-mate solutions at this multiple of
/// [`GENERATION_NODES`].
pub const VERIFY_FACTOR: u64 = 4;
/// The longest mate a puzzle may have, in moves.
pub const MAX_MATE: u32 = 3;
/// The node cap of one mate proof (the verifier fails a puzzle whose proof
/// hits it).
pub const PROVER_CAP: u64 = 40_000_000;

/// The win chance of `score` for the side it belongs to, in \[−1, 1\].
#[must_use]
pub fn win_chance(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => 2.0 / (1.0 + (-WIN_CHANCE_MULTIPLIER * f64::from(cp)).exp()) - 1.0,
        Score::Mate(n) if n > 0 => 1.0,
        Score::Mate(_) => -1.0,
    }
}

/// Whether a best move scoring `best` is the only winning move when the
/// second-best scores `second` (`None`: there is no other move, which is
/// no choice, so not a puzzle move).
#[must_use]
pub fn is_only_winning_move(best: Score, second: Option<Score>) -> bool {
    let Some(second) = second else {
        return false;
    };
    let winning = match best {
        Score::Cp(cp) => cp >= MIN_WINNING_CP,
        Score::Mate(n) => n > 0,
    };
    winning && win_chance(best) - win_chance(second) > ONLY_MOVE_MARGIN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_curve_values() {
        // 2/(1+e^-x)-1 = tanh(x/2): at 300 cp, tanh(0.55231) ≈ 0.50236.
        assert!((win_chance(Score::Cp(300)) - (0.552_312_f64).tanh()).abs() < 1e-6);
        assert!((win_chance(Score::Cp(-300)) + win_chance(Score::Cp(300))).abs() < 1e-12);
        assert_eq!(win_chance(Score::Mate(-2)), -1.0);
        assert_eq!(win_chance(Score::Mate(0)), -1.0);
    }

    #[test]
    fn only_move_needs_both_a_win_and_a_margin() {
        assert!(!is_only_winning_move(Score::Cp(150), Some(Score::Cp(-900))));
        assert!(is_only_winning_move(Score::Mate(2), Some(Score::Cp(0))));
        assert!(!is_only_winning_move(Score::Mate(2), Some(Score::Mate(4))));
        assert!(!is_only_winning_move(Score::Cp(900), None));
    }
}
