//! Glicko-2 ratings for players and puzzles: the workspace's one
//! implementation of the algorithm. hostage-server rates its games with
//! [`period`] (lichess's instant flavour, time counted in fractions of a
//! rating period, its own bounds) and its accounts' puzzle attempts with
//! [`update_game`].
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

/// A rating on Glicko-2's internal scale (step 2 of the paper): μ, φ, σ.
///
/// ```
/// use hostage_puzzles::glicko::{Internal, Rating};
/// let r = Rating { rating: 1673.7178, deviation: 173.7178, volatility: 0.06 };
/// let i = Internal::from_rating(r);
/// assert!((i.mu - 1.0).abs() < 1e-12 && (i.phi - 1.0).abs() < 1e-12);
/// assert!((i.to_rating().rating - r.rating).abs() < 1e-9);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Internal {
    /// μ: the rating, centred on 0.
    pub mu: f64,
    /// φ: the deviation.
    pub phi: f64,
    /// σ: the volatility.
    pub sigma: f64,
}

impl Internal {
    /// Step 2: the Glicko scale to the internal one.
    #[must_use]
    pub fn from_rating(r: Rating) -> Internal {
        Internal {
            mu: (r.rating - DEFAULT_RATING) / SCALE,
            phi: r.deviation / SCALE,
            sigma: r.volatility,
        }
    }

    /// Step 8: back to the Glicko scale.
    #[must_use]
    pub fn to_rating(self) -> Rating {
        Rating {
            rating: self.mu * SCALE + DEFAULT_RATING,
            deviation: self.phi * SCALE,
            volatility: self.sigma,
        }
    }
}

/// g(φ) of step 3: how much an opponent's uncertainty flattens the
/// expected score.
#[must_use]
pub fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (core::f64::consts::PI * core::f64::consts::PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) of step 3: the expected score against opponent j, on the
/// internal scale.
#[must_use]
pub fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The deviation φ after `periods` rating periods without a game: grown by
/// σ² per period (step 6 for one period; for a fractional number of
/// periods, the same recurrence solved, as liglicko2 does). A negative
/// count grows nothing.
///
/// ```
/// use hostage_puzzles::glicko::grown;
/// assert!((grown(3.0, 4.0, 1.0) - 5.0).abs() < 1e-12);
/// assert_eq!(grown(3.0, 4.0, -2.0), 3.0);
/// ```
#[must_use]
pub fn grown(phi: f64, sigma: f64, periods: f64) -> f64 {
    (phi * phi + periods.max(0.0) * sigma * sigma).sqrt()
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
    let me = Internal::from_rating(player);
    let them = Internal::from_rating(opponent);
    expected(me.mu, them.mu, them.phi)
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
    let me = Internal::from_rating(player);
    if games.is_empty() {
        return Rating {
            deviation: grown(me.phi, me.sigma, 1.0) * SCALE,
            ..player
        };
    }
    let opponents: Vec<(Internal, f64)> = games
        .iter()
        .map(|game| (Internal::from_rating(game.opponent), game.score))
        .collect();
    period(me, &opponents, tau, 1.0).to_rating()
}

/// Steps 3–7 on the internal scale: `me` after games against `opponents`
/// (each with the player's score), with the deviation grown by `growth`
/// periods in step 6 (1 in the paper; a fraction when time is counted in
/// parts of a period, as lichess rates games). With no opponents, `me`
/// with its deviation grown.
///
/// ```
/// use hostage_puzzles::glicko::{period, Internal, Rating};
/// let me = Internal::from_rating(Rating::new_player());
/// let them = me;
/// let won = period(me, &[(them, 1.0)], 0.75, 1.0);
/// let lost = period(me, &[(them, 0.0)], 0.75, 1.0);
/// assert!(won.mu > 0.0 && (won.mu + lost.mu).abs() < 1e-12);
/// ```
#[must_use]
pub fn period(me: Internal, opponents: &[(Internal, f64)], tau: f64, growth: f64) -> Internal {
    if opponents.is_empty() {
        return Internal {
            phi: grown(me.phi, me.sigma, growth),
            ..me
        };
    }
    // Step 3: the estimated variance v; step 4: the sum behind Δ.
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (them, score) in opponents {
        let g_j = g(them.phi);
        let e = expected(me.mu, them.mu, them.phi);
        v_inv += g_j * g_j * e * (1.0 - e);
        sum += g_j * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    // Step 5.
    let sigma = new_volatility(me.phi, me.sigma, v, delta, tau);
    // Steps 6 and 7.
    let phi_star = grown(me.phi, sigma, growth);
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    Internal {
        mu: me.mu + phi * phi * sum,
        phi,
        sigma,
    }
}

/// The most iterations of step 5 (and of the bracket search before it).
/// The iteration converges in a handful of steps on sane input; the bound
/// only ends it on absurd input.
const MAX_ITERATIONS: u32 = 100;

/// Step 5: the new volatility σ′, the root of f by the Illinois algorithm
/// (regula falsi with the retained end's value halved).
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    // Step 5.2: the bracket [A, B].
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < f64::from(MAX_ITERATIONS) {
            k += 1.0;
        }
        a - k * tau
    };
    // Steps 5.3 and 5.4.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    for _ in 0..MAX_ITERATIONS {
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
    // Step 5.5; a NaN from degenerate input keeps the old volatility.
    let new = (big_a / 2.0).exp();
    if new.is_finite() && new > 0.0 {
        new
    } else {
        sigma
    }
}

/// Rates one game of `player` against `opponent` with lichess's puzzle
/// parameters: a rating period of one game with τ = 0.75, the deviation
/// kept within 45–500 and the rating moved by at most 700. `score` is the
/// player's: 1 a win, 0.5 a draw, 0 a loss (clamped into 0–1; a NaN is a
/// draw). The opponent's rating is the one before the game.
///
/// Bad input does not panic: a non-finite or out-of-range rating is
/// replaced by the default before rating.
///
/// ```
/// use hostage_puzzles::glicko::{update_game, Rating};
///
/// let a = Rating { rating: 1500.0, deviation: 80.0, volatility: 0.06 };
/// assert_eq!(update_game(a, a, 0.5).rating, 1500.0);
/// assert!(update_game(a, a, 1.0).rating > 1500.0);
/// ```
#[must_use]
pub fn update_game(player: Rating, opponent: Rating, score: f64) -> Rating {
    let player = sanitize(player);
    let opponent = sanitize(opponent);
    let score = if score.is_nan() {
        0.5
    } else {
        score.clamp(0.0, 1.0)
    };
    let after = rate(player, &[Game { opponent, score }], TAU);
    clamp(player, after)
}

/// Rates one puzzle attempt with lichess's puzzle parameters
/// ([`update_game`]): the player and the puzzle each play one game
/// against the other's rating before the attempt. Returns
/// `(player, puzzle)` after the attempt.
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
    let score = if solved { 1.0 } else { 0.0 };
    (
        update_game(player, puzzle, score),
        update_game(puzzle, player, 1.0 - score),
    )
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
