//! Glicko-2 as Glickman wrote it: one rating period of games, steps 1–8
//! of "Example of the Glicko-2 system" (Mark E. Glickman, 2013), with the
//! Illinois iteration of step 5 for the new volatility.
//!
//! The algorithm is the workspace's one implementation,
//! `hostage_puzzles::glicko` (which rates puzzle attempts too); this file
//! gives it the names the server's domain uses. No parameters of a site,
//! no clamping, no time here: the lichess flavour (instant updates,
//! deviation growing with the time since the last game, bounds) is
//! `instant.rs`, built on `period`. [`rate`] reproduces the paper's worked
//! example.

#[cfg(test)]
use hostage_puzzles::glicko::{expected, g};
pub(crate) use hostage_puzzles::glicko::{grown, period, Internal};

/// A Glicko-2 rating on the Glicko scale (1500 = the centre): rating r,
/// deviation RD, volatility σ.
pub use hostage_puzzles::glicko::Rating;

/// Rates `player` after one rating period of games with system constant
/// `tau` (steps 2–8). With no games, only the deviation grows (step 6
/// applied alone, as the paper says of a player who did not compete).
///
/// ```
/// use hostage_server::domain::rating::glicko2::{rate, GameResult, Rating};
///
/// let r = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
/// let games = [
///     GameResult { opponent: r(1400.0, 30.0), score: 1.0 },
///     GameResult { opponent: r(1550.0, 100.0), score: 0.0 },
///     GameResult { opponent: r(1700.0, 300.0), score: 0.0 },
/// ];
/// let new = rate(r(1500.0, 200.0), &games, 0.5);
/// assert!((new.deviation - 151.52).abs() < 0.01);
/// ```
pub use hostage_puzzles::glicko::rate;

/// The factor between the Glicko scale and Glicko-2's internal one
/// (step 2 of the paper).
pub use hostage_puzzles::glicko::SCALE;

/// One game of a rating period, as the player's side of it: the
/// opponent's rating before the period and the player's score (1 a win,
/// 0.5 a draw, 0 a loss).
pub type GameResult = hostage_puzzles::glicko::Game;

/// The rating the internal scale is centred on (μ = 0).
pub const CENTRE: f64 = hostage_puzzles::glicko::DEFAULT_RATING;

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman, "Example of the Glicko-2 system" (2013), "Example
    /// calculation": a 1500 / 200 / 0.06 player, τ = 0.5, beats 1400 / 30
    /// and loses to 1550 / 100 and 1700 / 300, and ends at r′ = 1464.06,
    /// RD′ = 151.52, σ′ = 0.05999. The paper rounds μ′ to −0.2069 before
    /// converting back (−0.2069 × 173.7178 + 1500 = 1464.06); unrounded,
    /// μ′ gives 1464.05, hence the tolerance of 0.02 on the rating. σ′ is
    /// 0.059996 unrounded, which the paper prints cut to 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let games = [
            GameResult {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            GameResult {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            GameResult {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let new = rate(r(1500.0, 200.0), &games, 0.5);
        assert!((new.rating - 1464.06).abs() < 0.02, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.005, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.000_01, "{new:?}");
    }

    /// The paper's intermediate values of the same example (steps 3–4):
    /// v = 1.7785, Δ = −0.4834. The paper works with values rounded to four
    /// places (μⱼ, g, E), which moves v and Δ in the fourth place (unrounded:
    /// 1.7790 and −0.4839), hence the tolerance of 0.001.
    #[test]
    fn glickmans_intermediate_values() {
        let me = Internal::from_rating(r(1500.0, 200.0));
        let games = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ];
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for (rating, dev, score) in games {
            let them = Internal::from_rating(r(rating, dev));
            let e = expected(me.mu, them.mu, them.phi);
            v_inv += g(them.phi).powi(2) * e * (1.0 - e);
            sum += g(them.phi) * (score - e);
        }
        assert!((1.0 / v_inv - 1.7785).abs() < 0.001);
        assert!((sum / v_inv - -0.4834).abs() < 0.001);
        // The paper's table: g(φⱼ) = 0.9955, 0.9531, 0.7242.
        assert!((g(30.0 / SCALE) - 0.9955).abs() < 0.0001);
        assert!((g(100.0 / SCALE) - 0.9531).abs() < 0.0001);
        assert!((g(300.0 / SCALE) - 0.7242).abs() < 0.0001);
    }

    #[test]
    fn a_period_without_games_only_grows_the_deviation() {
        let new = rate(r(1500.0, 200.0), &[], 0.5);
        assert_eq!(new.rating, 1500.0);
        assert_eq!(new.volatility, 0.06);
        // √(200² + (0.06 × 173.7178)²) = √(40000 + 108.6400) = 200.2714.
        assert!((new.deviation - 200.2714).abs() < 0.0001, "{new:?}");
    }
}
