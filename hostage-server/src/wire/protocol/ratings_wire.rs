//! Ratings on the wire (`docs/protocol.md`, Ratings): each seat's rating
//! in `state`, and each seat's change in `game_over` and `state` once a
//! rated game is over. Ratings are shown rounded to whole points.

use hostage_core::ByColor;
use serde::Serialize;

pub use crate::wire::protocol::lobby_wire::ShownRating;
use crate::{domain::rating::instant::Perf, store::ratings::RatingChange};

/// One value per seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PerSeat<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T: Copy> From<ByColor<T>> for PerSeat<T> {
    fn from(b: ByColor<T>) -> PerSeat<T> {
        PerSeat {
            white: b.white,
            black: b.black,
        }
    }
}

/// One player's rating change by a rated game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChangeView {
    /// The rating before the game, rounded.
    pub before: i64,
    /// The rating after it, rounded.
    pub after: i64,
    /// `after - before` (of the rounded figures).
    pub diff: i64,
}

impl From<RatingChange> for ChangeView {
    fn from(c: RatingChange) -> ChangeView {
        let (before, after) = (rounded(c.before), rounded(c.after));
        ChangeView {
            before,
            after,
            diff: after - before,
        }
    }
}

/// A rating rounded to whole points (ratings stay within 400..=4000).
#[must_use]
pub fn rounded(rating: f64) -> i64 {
    if rating.is_finite() {
        rating.round() as i64
    } else {
        0
    }
}

/// A rating as shown at `now_ms`: provisional while its deviation, grown
/// by the time since its last game, is 110 or more.
#[must_use]
pub fn shown(perf: &Perf, now_ms: u64) -> ShownRating {
    let params = &crate::domain::rating::instant::LICHESS;
    ShownRating {
        rating: u32::try_from(rounded(perf.glicko.rating).max(0)).unwrap_or(0),
        provisional: perf.is_provisional_at(now_ms, params),
    }
}
