//! Glicko-2 as Glickman wrote it: one rating period of games, steps 1–8
//! of "Example of the Glicko-2 system" (Mark E. Glickman, 2013), with the
//! Illinois iteration of step 5 for the new volatility.
//!
//! This file is the algorithm only: no parameters of a site, no clamping,
//! no time. The lichess flavour (instant updates, deviation growing with the
//! time since the last game, bounds) is `instant.rs`, built on
//! `period`. [`rate`] reproduces the paper's worked example.

use std::f64::consts::PI;

/// The factor between the Glicko scale and Glicko-2's internal one
/// (step 2 of the paper).
pub const SCALE: f64 = 173.7178;
/// The rating the internal scale is centred on (μ = 0).
pub const CENTRE: f64 = 1500.0;
/// The convergence tolerance ε of step 5 (the paper's value).
const EPSILON: f64 = 0.000_001;
/// The most iterations of step 5 (and of the bracket search before it).
/// The iteration converges in a handful of steps on sane input; the bound
/// only ends it on absurd input, which the caller has already clamped.
const MAX_ITERATIONS: u32 = 100;

/// A Glicko-2 rating on the Glicko scale (1500 = the centre).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating r.
    pub rating: f64,
    /// The rating deviation RD: the uncertainty of the rating.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are.
    pub volatility: f64,
}

/// One game of a rating period, as the player's side of it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// The player's score: 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
}

/// A rating on the internal scale: μ, φ, σ.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Internal {
    pub(crate) mu: f64,
    pub(crate) phi: f64,
    pub(crate) sigma: f64,
}

impl Internal {
    /// Step 2: the Glicko scale to the internal one.
    pub(crate) fn from_rating(r: Rating) -> Internal {
        Internal {
            mu: (r.rating - CENTRE) / SCALE,
            phi: r.deviation / SCALE,
            sigma: r.volatility,
        }
    }

    /// Step 8: back to the Glicko scale.
    pub(crate) fn to_rating(self) -> Rating {
        Rating {
            rating: self.mu * SCALE + CENTRE,
            deviation: self.phi * SCALE,
            volatility: self.sigma,
        }
    }
}

/// g(φ) of step 3: how much an opponent's uncertainty flattens the
/// expected score.
pub(crate) fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ) of step 3: the expected score against opponent j.
pub(crate) fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The deviation after `periods` rating periods without a game: φ grown by
/// σ² per period (step 6 for one period; for a fractional number of
/// periods, the same recurrence solved, as lichess does).
pub(crate) fn grown(phi: f64, sigma: f64, periods: f64) -> f64 {
    (phi * phi + periods.max(0.0) * sigma * sigma).sqrt()
}

/// Rates `player` after one rating period of `games` with system constant
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
#[must_use]
pub fn rate(player: Rating, games: &[GameResult], tau: f64) -> Rating {
    let me = Internal::from_rating(player);
    if games.is_empty() {
        return Internal {
            phi: grown(me.phi, me.sigma, 1.0),
            ..me
        }
        .to_rating();
    }
    let opponents: Vec<(Internal, f64)> = games
        .iter()
        .map(|game| (Internal::from_rating(game.opponent), game.score))
        .collect();
    period(me, &opponents, tau, 1.0).to_rating()
}

/// Steps 3–7 on the internal scale: `me` after games against `opponents`
/// (each with the player's score), with the deviation grown by
/// `growth` periods in step 6 (1 in the paper). `games` must not be empty.
pub(crate) fn period(
    me: Internal,
    opponents: &[(Internal, f64)],
    tau: f64,
    growth: f64,
) -> Internal {
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
