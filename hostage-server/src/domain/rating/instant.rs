//! Glicko-2 with instant updates, lichess's flavour: every rated game is a
//! rating period of its own, rated the moment it ends, and a deviation grows
//! with the time since the player's last rated game.
//!
//! Policy (`docs/server.md`, Ratings):
//! - the parameters are lichess's ([`LICHESS`]): τ = 0.75, a new rating
//!   1500 / 500 / 0.09, the deviation within 45–500, the volatility within
//!   0.01–0.1, the rating within 400–4000, at most 700 points a game, one
//!   rating period = 1 / 0.21436 days (≈ 4.67 days);
//! - time is fractional rating periods, as in liglicko2 (Niklas Fiekas,
//!   MIT or Apache-2.0; the idea read, the code written here from the
//!   paper): a deviation after `t` periods without a game is
//!   √(φ² + t·σ²) (the paper's step 6, solved for a fractional `t`);
//! - one game at time `now`: both players' deviations are first grown to
//!   one period before `now` (so a game exactly one period after the last
//!   one is the paper's rating period, step for step), then the paper's
//!   steps 3–7 with step 6 growing by at most the one remaining period;
//! - every input is clamped into the bounds first and every output after,
//!   so a stored value that is out of range, infinite or NaN never spreads.
//!
//! Time is wall-clock milliseconds given by the caller: no clock is read
//! here.

use hostage_core::{ByColor, Color};

use super::glicko2::{self, Internal, Rating};

/// The parameters of a rating system.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Params {
    /// The system constant τ: how fast volatilities move.
    pub tau: f64,
    /// A new player's rating.
    pub start: Rating,
    /// The lowest and highest rating.
    pub rating_bounds: (f64, f64),
    /// The lowest and highest deviation.
    pub deviation_bounds: (f64, f64),
    /// The lowest and highest volatility.
    pub volatility_bounds: (f64, f64),
    /// The most one game moves a rating, up or down.
    pub max_change: f64,
    /// Rating periods per day of wall-clock time.
    pub periods_per_day: f64,
    /// A rating is provisional while its deviation is at least this.
    pub provisional_deviation: f64,
}

/// lichess's parameters (lila's `Glicko.scala` and scalachess's
/// `glicko` package, read for their values only; liglicko2's defaults for
/// the rating and volatility bounds).
pub const LICHESS: Params = Params {
    tau: 0.75,
    start: Rating {
        rating: 1500.0,
        deviation: 500.0,
        volatility: 0.09,
    },
    rating_bounds: (400.0, 4000.0),
    deviation_bounds: (45.0, 500.0),
    volatility_bounds: (0.01, 0.1),
    max_change: 700.0,
    periods_per_day: 0.21436,
    provisional_deviation: 110.0,
};

/// Milliseconds in a day.
const DAY_MS: f64 = 86_400_000.0;

/// A player's rating in one category, with what the instant update needs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Perf {
    /// The rating as last updated.
    pub glicko: Rating,
    /// The rated games played in this category.
    pub games: u32,
    /// When the last rated game ended (wall-clock milliseconds), if any.
    pub last_rated_ms: Option<u64>,
}

impl Perf {
    /// A new player's rating in a category: no games yet.
    #[must_use]
    pub const fn new(params: &Params) -> Perf {
        Perf {
            glicko: params.start,
            games: 0,
            last_rated_ms: None,
        }
    }

    /// The deviation at `now_ms`: grown with the time since the last rated
    /// game, within the bounds.
    #[must_use]
    pub fn deviation_at(&self, now_ms: u64, params: &Params) -> f64 {
        let me = Internal::from_rating(clamped(self.glicko, params));
        let periods = self.periods_until(now_ms, params);
        let phi = glicko2::grown(me.phi, me.sigma, periods);
        clamp_deviation(phi * glicko2::SCALE, params)
    }

    /// Whether the rating is provisional at `now_ms`: its deviation then is
    /// at least [`Params::provisional_deviation`] (lichess shows it with a
    /// `?`).
    #[must_use]
    pub fn is_provisional_at(&self, now_ms: u64, params: &Params) -> bool {
        self.deviation_at(now_ms, params) >= params.provisional_deviation
    }

    /// Rating periods from the last rated game to `now_ms`; for a player
    /// with no rated game, as if it were long ago (as liglicko2 counts from
    /// its epoch): the deviation is the largest, and step 6 grows by one
    /// whole period, as in the paper.
    fn periods_until(&self, now_ms: u64, params: &Params) -> f64 {
        match self.last_rated_ms {
            Some(last) => now_ms.saturating_sub(last) as f64 / DAY_MS * params.periods_per_day,
            None => f64::INFINITY,
        }
    }
}

/// Both players' ratings after one game between them that ended at
/// `now_ms` with `winner` (`None`: a draw).
///
/// ```
/// use hostage_core::Color;
/// use hostage_server::domain::rating::instant::{update, Perf, LICHESS};
/// use hostage_core::ByColor;
///
/// let new = Perf::new(&LICHESS);
/// let after = update(ByColor::new(new, new), Some(Color::White), 0, &LICHESS);
/// assert!(after.white.glicko.rating > 1500.0 && after.black.glicko.rating < 1500.0);
/// assert_eq!(after.white.games, 1);
/// ```
#[must_use]
pub fn update(
    players: ByColor<Perf>,
    winner: Option<Color>,
    now_ms: u64,
    params: &Params,
) -> ByColor<Perf> {
    // Each side is rated against the other's rating before the game.
    let before = players.map(|p| prepared(&p, now_ms, params));
    ByColor::new_with(|side| {
        let score = match winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let (me, growth) = *before.get(side);
        let (them, _) = *before.get(side.other());
        let after = glicko2::period(me, &[(them, score)], params.tau, growth);
        let player = players.get(side);
        // The change on the internal scale, added to the rating as it was:
        // a rating the game does not move stays bit for bit.
        let change = (after.mu - me.mu) * glicko2::SCALE;
        Perf {
            glicko: moved(
                clamped(player.glicko, params),
                change,
                after.to_rating(),
                params,
            ),
            games: player.games.saturating_add(1),
            last_rated_ms: Some(now_ms.max(player.last_rated_ms.unwrap_or(0))),
        }
    })
}

/// A player on the internal scale as the game at `now_ms` sees it: the
/// deviation grown to one period before `now_ms`, and the growth left for
/// step 6 (at most one period).
fn prepared(perf: &Perf, now_ms: u64, params: &Params) -> (Internal, f64) {
    let me = Internal::from_rating(clamped(perf.glicko, params));
    let periods = perf.periods_until(now_ms, params);
    let early = glicko2::grown(me.phi, me.sigma, periods - 1.0);
    let phi = clamp_deviation(early * glicko2::SCALE, params) / glicko2::SCALE;
    (Internal { phi, ..me }, periods.min(1.0))
}

/// `before` moved by `change` (at most [`Params::max_change`] either
/// way), with the deviation and volatility of `after`, within the bounds.
fn moved(before: Rating, change: f64, after: Rating, params: &Params) -> Rating {
    let change = change.clamp(-params.max_change, params.max_change);
    // A NaN change (impossible after clamping the inputs, kept total all
    // the same) moves nothing.
    let change = if change.is_nan() { 0.0 } else { change };
    clamped(
        Rating {
            rating: before.rating + change,
            ..after
        },
        params,
    )
}

/// `r` within the bounds; a NaN component becomes the start value.
fn clamped(r: Rating, params: &Params) -> Rating {
    let within = |x: f64, (lo, hi): (f64, f64), start: f64| {
        if x.is_nan() {
            start
        } else {
            x.clamp(lo, hi)
        }
    };
    Rating {
        rating: within(r.rating, params.rating_bounds, params.start.rating),
        deviation: clamp_deviation(r.deviation, params),
        volatility: within(
            r.volatility,
            params.volatility_bounds,
            params.start.volatility,
        ),
    }
}

fn clamp_deviation(d: f64, params: &Params) -> f64 {
    if d.is_nan() {
        params.start.deviation
    } else {
        d.clamp(params.deviation_bounds.0, params.deviation_bounds.1)
    }
}
