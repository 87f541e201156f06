//! Glicko-2 ratings for players and puzzles.
//!
//! Policy: one puzzle attempt is one game between the player and the
//! puzzle (a win for the player when solved, a loss otherwise), rated as a
//! rating period of one game, the way lichess rates puzzles. The algorithm
//! is Glickman's ("Example of the Glicko-2 system", 2013, steps 1–8, with
//! the Illinois iteration for the volatility); [`rate`] reproduces the
//! paper's worked example.
//!
//! The parameters are lichess's for puzzles (lila, `PuzzleGlicko` and
//! `Glicko.scala`, read for their values only): system constant
//! τ = 0.75, new ratings 1500 / RD 500 / volatility 0.09, RD kept within
//! 45–500, one attempt moves a rating by at most 700. The library keeps no
//! storage: the caller passes both ratings in and stores what comes out.
//!
//! # Example
//!
//! ```
//! use hostage_puzzles::glicko::{update_attempt, Rating};
//!
//! let player = Rating::new_player();
//! let puzzle = Rating { rating: 1200.0, deviation: 80.0, volatility: 0.09 };
//! let (p, z) = update_attempt(player, puzzle, true);
//! assert!(p.rating > 1500.0 && z.rating < 1200.0);
//! assert!(p.deviation < 500.0);
//! ```

/// The Glicko-2 scale factor between the Glicko scale and the internal one.
pub const SCALE: f64 = 173.7178;
/// The system constant τ lichess uses for puzzles.
pub const TAU: f64 = 0.75;
/// The rating a new player or puzzle starts with.
pub const DEFAULT_RATING: f64 = 1500.0;
/// The rating deviation a new player or puzzle starts with (also the cap).
pub const MAX_DEVIATION: f64 = 500.0;
/// The smallest rating deviation kept (lichess's floor).
pub const MIN_DEVIATION: f64 = 45.0;
/// The volatility a new player or puzzle starts with.
pub const DEFAULT_VOLATILITY: f64 = 0.09;
/// The most one attempt may move a rating.
pub const MAX_RATING_CHANGE: f64 = 700.0;
/// A rating is provisional while its deviation is at least this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Convergence tolerance of the volatility iteration (Glickman's ε).
const EPSILON: f64 = 0.000_001;

/// A Glicko-2 rating: rating, rating deviation (RD) and volatility, on the
/// Glicko scale (1500 = average).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation: the uncertainty of the rating.
    pub deviation: f64,
    /// The volatility: how erratic the performances are.
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, RD 500, volatility 0.09.
    ///
    /// ```
    /// let r = hostage_puzzles::glicko::Rating::new_player();
    /// assert_eq!((r.rating, r.deviation, r.volatility), (1500.0, 500.0, 0.09));
    /// ```
    #[must_use]
    pub const fn new_player() -> Rating {
        Rating {
            rating: DEFAULT_RATING,
            deviation: MAX_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
        }
    }

    /// Whether the rating is still provisional (RD ≥ 110, as on lichess).
    ///
    /// ```
    /// assert!(hostage_puzzles::glicko::Rating::new_player().is_provisional());
    /// ```
    #[must_use]
    pub fn is_provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }
}

/// One game of a rating period: the opponent and the score (1 win, 0.5
/// draw, 0 loss).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// The score: 1 win, 0.5 draw, 0 loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (core::f64::consts::PI * core::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The expected score of `player` against `opponent` (Glicko-2's E).
///
/// ```
/// use hostage_puzzles::glicko::{expected_score, Rating};
/// let a = Rating { rating: 1700.0, deviation: 60.0, volatility: 0.06 };
/// let b = Rating { rating: 1500.0, deviation: 60.0, volatility: 0.06 };
/// assert!(expected_score(a, b) > 0.7 && expected_score(b, a) < 0.3);
/// ```
#[must_use]
pub fn expected_score(player: Rating, opponent: Rating) -> f64 {
    let mu = (player.rating - DEFAULT_RATING) / SCALE;
    let mu_j = (opponent.rating - DEFAULT_RATING) / SCALE;
    expected(mu, mu_j, opponent.deviation / SCALE)
}

/// Rates `player` after one rating period of `games` with system constant
/// `tau` (Glickman's steps 2–8). No clamping: this is the paper's
/// algorithm as written. With no games only the deviation grows (step 6).
///
/// # Examples
///
/// Glickman's worked example:
///
/// ```
/// use hostage_puzzles::glicko::{rate, Game, Rating};
///
/// let r = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
/// let games = [
///     Game { opponent: r(1400.0, 30.0), score: 1.0 },
///     Game { opponent: r(1550.0, 100.0), score: 0.0 },
///     Game { opponent: r(1700.0, 300.0), score: 0.0 },
/// ];
/// let new = rate(r(1500.0, 200.0), &games, 0.5);
/// assert!((new.rating - 1464.06).abs() < 0.02); // the paper rounds μ′ first
/// assert!((new.deviation - 151.52).abs() < 0.01);
/// assert!((new.volatility - 0.05999).abs() < 0.00001);
/// ```
#[must_use]
pub fn rate(player: Rating, games: &[Game], tau: f64) -> Rating {
    let mu = (player.rating - DEFAULT_RATING) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    // Step 3: the estimated variance v; step 4: the improvement delta.
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - DEFAULT_RATING) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j) * g(phi_j) * e * (1.0 - e);
        sum += g(phi_j) * (game.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - d) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // The iteration converges in a few dozen steps; the bound only guards
    // against a NaN coming from absurd input.
    for _ in 0..200 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Steps 6–8.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    Rating {
        rating: mu_new * SCALE + DEFAULT_RATING,
        deviation: phi_new * SCALE,
        volatility: sigma_new,
    }
}

/// Rates one puzzle attempt with lichess's puzzle parameters: the player
/// and the puzzle each play one game against the other's rating before
/// the attempt, with τ = 0.75, RD clamped to 45–500 and each rating moved
/// by at most 700. Returns `(player, puzzle)` after the attempt.
///
/// Bad input does not panic: a non-finite or out-of-range rating is
/// replaced by the default before rating.
///
/// # Examples
///
/// ```
/// use hostage_puzzles::glicko::{update_attempt, Rating};
///
/// let player = Rating { rating: 1500.0, deviation: 80.0, volatility: 0.06 };
/// let puzzle = Rating { rating: 1500.0, deviation: 80.0, volatility: 0.06 };
/// let (won, _) = update_attempt(player, puzzle, true);
/// let (lost, _) = update_attempt(player, puzzle, false);
/// assert!(won.rating > 1500.0 && lost.rating < 1500.0);
/// assert!(((won.rating - 1500.0) - (1500.0 - lost.rating)).abs() < 1e-9);
/// ```
#[must_use]
pub fn update_attempt(player: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let player = sanitize(player);
    let puzzle = sanitize(puzzle);
    let score = if solved { 1.0 } else { 0.0 };
    let p = rate(
        player,
        &[Game {
            opponent: puzzle,
            score,
        }],
        TAU,
    );
    let z = rate(
        puzzle,
        &[Game {
            opponent: player,
            score: 1.0 - score,
        }],
        TAU,
    );
    (clamp(player, p), clamp(puzzle, z))
}

fn sanitize(r: Rating) -> Rating {
    let ok = |x: f64, lo: f64, hi: f64| x.is_finite() && (lo..=hi).contains(&x);
    Rating {
        rating: if ok(r.rating, 0.0, 5000.0) {
            r.rating
        } else {
            DEFAULT_RATING
        },
        deviation: if ok(r.deviation, 1.0, 10_000.0) {
            r.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION)
        } else {
            MAX_DEVIATION
        },
        volatility: if ok(r.volatility, 1e-6, 1.0) {
            r.volatility
        } else {
            DEFAULT_VOLATILITY
        },
    }
}

fn clamp(before: Rating, after: Rating) -> Rating {
    Rating {
        rating: after.rating.clamp(
            before.rating - MAX_RATING_CHANGE,
            before.rating + MAX_RATING_CHANGE,
        ),
        deviation: after.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
        volatility: after.volatility,
    }
}

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

    /// Glickman, "Example of the Glicko-2 system" (2013), section "Example
    /// calculation": 1464.06 / 151.52 / 0.05999. The paper rounds μ′ to
    /// −0.2069 before converting (−0.2069·173.7178 + 1500 = 1464.06); the
    /// unrounded value is 1464.0507, hence the 0.02 tolerance on the rating.
    #[test]
    fn glickman_worked_example() {
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let new = rate(r(1500.0, 200.0), &games, 0.5);
        assert!((new.rating - 1464.06).abs() < 0.02, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.005, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.000_01, "{new:?}");
    }

    #[test]
    fn no_games_only_widens_the_deviation() {
        let new = rate(r(1500.0, 200.0), &[], 0.5);
        assert_eq!(new.rating, 1500.0);
        // sqrt(200² + (0.06·173.7178)²) on the Glicko scale.
        assert!((new.deviation - (200.0f64.powi(2) + (0.06 * SCALE).powi(2)).sqrt()).abs() < 1e-9);
    }

    #[test]
    fn attempts_are_clamped_and_sane() {
        let (p, z) = update_attempt(Rating::new_player(), r(800.0, 500.0), false);
        assert!(p.rating >= 800.0 && p.rating < 1500.0, "{p:?}");
        assert!(z.rating > 800.0);
        assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&p.deviation));
        let bad = Rating {
            rating: f64::NAN,
            deviation: -3.0,
            volatility: f64::INFINITY,
        };
        let (p, z) = update_attempt(bad, bad, true);
        assert!(p.rating.is_finite() && z.rating.is_finite());
        assert!(p.rating > DEFAULT_RATING && z.rating < DEFAULT_RATING);
    }
}
