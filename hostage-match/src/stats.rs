//! Match statistics: score, Elo difference with a 95% interval, and the
//! sequential probability ratio test (SPRT) that engine testers use to stop
//! a match as soon as its verdict is clear.
//!
//! Formulas (written from the published math, not from any program):
//!
//! - the expected score of an Elo difference `d` is `1 / (1 + 10^(-d/400))`
//!   (Elo's logistic model), and its inverse gives the difference of a
//!   score;
//! - the interval: the per-game score variance of the trinomial
//!   win/draw/loss sample, the normal approximation of the mean's
//!   distribution (±1.96 standard errors), mapped through the inverse;
//! - the SPRT of H0 "Elo = elo0" against H1 "Elo = elo1" uses the
//!   log-likelihood ratio of the generalised SPRT with a normal
//!   approximation, `LLR = n·(s1 − s0)·(2·s̄ − s0 − s1) / (2·σ²)` (Van den
//!   Bergh, "A practical introduction to the GSPRT", 2016), with Wald's
//!   bounds `ln(β/(1−α))` and `ln((1−β)/α)`.

use core::fmt;

/// Wins, draws and losses of the first player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction (win 1, draw ½), `0.5` before any game.
    #[must_use]
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// The per-game variance of the score.
    fn variance(&self) -> f64 {
        variance(
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        )
    }

    /// The Elo difference with its 95% interval.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_match::stats::Wdl;
    ///
    /// // 60 wins, 20 draws, 20 losses: a score of 70%.
    /// let e = Wdl { wins: 60, draws: 20, losses: 20 }.elo();
    /// assert!((e.diff - 147.2).abs() < 0.1);
    /// assert!(e.low < e.diff && e.diff < e.high);
    /// ```
    #[must_use]
    pub fn elo(&self) -> Elo {
        let n = f64::from(self.games());
        let s = self.score();
        let se = if n > 0.0 {
            (self.variance() / n).sqrt()
        } else {
            0.0
        };
        Elo {
            diff: elo_of_score(s),
            low: elo_of_score(s - 1.96 * se),
            high: elo_of_score(s + 1.96 * se),
        }
    }

    /// The SPRT's log-likelihood ratio for H0 `elo0` against H1 `elo1`.
    ///
    /// The variance is estimated with half a game added to each outcome, so
    /// that a sample with a single outcome (all wins, say), whose variance
    /// is zero, still gives a finite ratio that grows with every game.
    #[must_use]
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = f64::from(self.games());
        let var = variance(
            f64::from(self.wins) + 0.5,
            f64::from(self.draws) + 0.5,
            f64::from(self.losses) + 0.5,
        );
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// The variance of one game's score for these (possibly fractional)
/// counts of wins, draws and losses.
fn variance(wins: f64, draws: f64, losses: f64) -> f64 {
    let n = wins + draws + losses;
    if n == 0.0 {
        return 0.0;
    }
    let s = (wins + 0.5 * draws) / n;
    (wins * (1.0 - s).powi(2) + draws * (0.5 - s).powi(2) + losses * s.powi(2)) / n
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// An Elo difference with its 95% interval (±∞ at a score of 0 or 1).
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Elo {
    /// The estimate.
    pub diff: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.1} [{:+.1}, {:+.1}]", self.diff, self.low, self.high)
    }
}

/// The expected score of an Elo difference.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score (±∞ at 0 and 1).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An SPRT: H0 `elo0` against H1 `elo1` with error rates `alpha` and
/// `beta`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl Default for Sprt {
    /// SPRT(0, 100) at 5%/5%, for ladders whose steps are a hundred Elo or
    /// more.
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// What an SPRT says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the first player is stronger by about `elo1`.
    H1,
    /// H0 accepted: it is not.
    H0,
    /// Not yet decided.
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "continue",
        })
    }
}

impl Sprt {
    /// Wald's lower and upper bounds on the LLR.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for a sample.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_match::stats::{Sprt, Verdict, Wdl};
    ///
    /// let sprt = Sprt::default();
    /// assert_eq!(sprt.verdict(&Wdl { wins: 3, draws: 1, losses: 2 }), Verdict::Continue);
    /// assert_eq!(sprt.verdict(&Wdl { wins: 80, draws: 10, losses: 10 }), Verdict::H1);
    /// assert_eq!(sprt.verdict(&Wdl { wins: 40, draws: 20, losses: 40 }), Verdict::H0);
    /// ```
    #[must_use]
    pub fn verdict(&self, wdl: &Wdl) -> Verdict {
        let llr = wdl.llr(self.elo0, self.elo1);
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::H1
        } else if llr <= low {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -100.0, 0.0, 35.0, 200.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        // The textbook points: +400 Elo expects 10/11 of the points.
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn interval_narrows_with_games() {
        let small = Wdl {
            wins: 12,
            draws: 4,
            losses: 4,
        }
        .elo();
        let large = Wdl {
            wins: 120,
            draws: 40,
            losses: 40,
        }
        .elo();
        assert!((small.diff - large.diff).abs() < 1e-9);
        assert!(large.high - large.low < small.high - small.low);
        // 120/40/40 is a 70% score: +147 Elo. The per-game variance is
        // 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.16, the standard error
        // sqrt(0.16/200) = 0.028284.
        assert!((large.low - elo_of_score(0.7 - 1.96 * 0.028284)).abs() < 0.01);
        assert!((large.high - elo_of_score(0.7 + 1.96 * 0.028284)).abs() < 0.01);
    }

    #[test]
    fn wald_bounds_at_five_percent() {
        let (low, high) = Sprt::default().bounds();
        assert!((low - (-2.944)).abs() < 1e-3);
        assert!((high - 2.944).abs() < 1e-3);
    }

    #[test]
    fn a_perfect_score_decides_after_a_few_games() {
        let sprt = Sprt::default();
        // Four straight wins happen one time in sixteen between equals
        // with no draws: not yet enough at 5%.
        assert_eq!(
            sprt.verdict(&Wdl {
                wins: 4,
                draws: 0,
                losses: 0
            }),
            Verdict::Continue
        );
        assert_eq!(
            sprt.verdict(&Wdl {
                wins: 12,
                draws: 0,
                losses: 0
            }),
            Verdict::H1
        );
        assert_eq!(
            sprt.verdict(&Wdl {
                wins: 0,
                draws: 0,
                losses: 12
            }),
            Verdict::H0
        );
    }

    #[test]
    fn all_wins_has_an_infinite_upper_end() {
        let e = Wdl {
            wins: 10,
            draws: 0,
            losses: 0,
        }
        .elo();
        assert!(e.diff.is_infinite() && e.diff > 0.0);
    }
}
