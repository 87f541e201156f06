//! Rating categories: one rating per category, chosen by a game's time
//! control as lichess chooses its "speeds" (scalachess, `Speed.scala`,
//! read for its bounds only).
//!
//! A Fischer clock's estimated duration is `initial + 40 × increment` (the
//! time of a 40-move game for each side). With it in seconds:
//!
//! | category | estimated duration |
//! | --- | --- |
//! | ultrabullet | under 30 s |
//! | bullet | 30 s to under 3 min (180 s) |
//! | blitz | 3 min to under 8 min (480 s) |
//! | rapid | 8 min to under 25 min (1,500 s) |
//! | classical | 25 min (1,500 s) and more |
//! | correspondence | days per move, whatever the estimate |
//!
//! lichess also calls a real-time clock of six hours' estimate or more
//! (21,600 s) correspondence; its own clocks never reach it (180 min + 180 s
//! is 18,000 s), while this server's may (3 h + 40 × 10 min). Here such a
//! clock is classical: correspondence is a kind of time control (days per
//! move), never a long clock. The bounds are compared in milliseconds, so
//! a clock of fractional seconds is placed by its exact estimate.

use crate::domain::correspondence::Control;
use crate::domain::ClockSpec;

/// A game's time control, as far as ratings are concerned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pace {
    /// No clock: never rated.
    Untimed,
    /// Fischer clocks.
    Clock(ClockSpec),
    /// Correspondence: this many days per move.
    Days(u8),
}

impl Pace {
    /// The pace of a game's time control (days win over a clock, which a
    /// valid control never has together with days).
    #[must_use]
    pub fn of_control(control: Control) -> Pace {
        match control {
            (_, Some(days)) => Pace::Days(days.get()),
            (Some(spec), None) => Pace::Clock(spec),
            (None, None) => Pace::Untimed,
        }
    }
}

/// A rating category.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Estimated under 30 s.
    UltraBullet,
    /// Estimated 30 s to under 3 min.
    Bullet,
    /// Estimated 3 to under 8 min.
    Blitz,
    /// Estimated 8 to under 25 min.
    Rapid,
    /// Estimated 25 min and more.
    Classical,
    /// Days per move.
    Correspondence,
}

/// The estimate's upper bounds (exclusive), in milliseconds, fastest
/// first; past the last is classical.
const BOUNDS_MS: [(u64, Category); 4] = [
    (30_000, Category::UltraBullet),
    (180_000, Category::Bullet),
    (480_000, Category::Blitz),
    (1_500_000, Category::Rapid),
];

impl Category {
    /// Every category, fastest first.
    pub const ALL: [Category; 6] = [
        Category::UltraBullet,
        Category::Bullet,
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
    ];

    /// The name as the protocol and the stores write it: `ultrabullet`,
    /// `bullet`, `blitz`, `rapid`, `classical`, `correspondence`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Category::UltraBullet => "ultrabullet",
            Category::Bullet => "bullet",
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
        }
    }

    /// The category named `name` (the inverse of [`Category::name`]).
    #[must_use]
    pub fn named(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The category of a Fischer clock, by its estimated duration.
    ///
    /// ```
    /// use hostage_server::domain::{rating::category::Category, ClockSpec};
    /// // 3 + 2: 180 + 40 × 2 = 260 s, blitz.
    /// let spec = ClockSpec { initial_ms: 180_000, increment_ms: 2_000 };
    /// assert_eq!(Category::of_clock(spec), Category::Blitz);
    /// ```
    #[must_use]
    pub fn of_clock(spec: ClockSpec) -> Category {
        let estimate = estimated_ms(spec);
        BOUNDS_MS
            .into_iter()
            .find(|(bound, _)| estimate < *bound)
            .map_or(Category::Classical, |(_, category)| category)
    }

    /// The category of a time control (`None`: untimed, never rated).
    #[must_use]
    pub fn of(pace: Pace) -> Option<Category> {
        match pace {
            Pace::Untimed => None,
            Pace::Clock(spec) => Some(Category::of_clock(spec)),
            Pace::Days(_) => Some(Category::Correspondence),
        }
    }
}

/// A clock's estimated duration, `initial + 40 × increment`, in
/// milliseconds (saturating: never wraps).
#[must_use]
pub const fn estimated_ms(spec: ClockSpec) -> u64 {
    spec.initial_ms
        .saturating_add(spec.increment_ms.saturating_mul(40))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(initial_s: u64, increment_s: u64) -> Category {
        Category::of_clock(ClockSpec {
            initial_ms: initial_s * 1000,
            increment_ms: increment_s * 1000,
        })
    }

    /// lichess's own examples of each speed, and both sides of each bound
    /// (the estimates worked out by hand).
    #[test]
    fn bounds_as_lichess_draws_them() {
        assert_eq!(clock(15, 0), Category::UltraBullet);
        assert_eq!(clock(29, 0), Category::UltraBullet);
        assert_eq!(clock(30, 0), Category::Bullet);
        assert_eq!(clock(60, 0), Category::Bullet); // 1+0
        assert_eq!(clock(120, 1), Category::Bullet); // 2+1: 160 s
        assert_eq!(clock(179, 0), Category::Bullet);
        assert_eq!(clock(180, 0), Category::Blitz); // 3+0
        assert_eq!(clock(60, 3), Category::Blitz); // 1+3: 180 s
        assert_eq!(clock(300, 3), Category::Blitz); // 5+3: 420 s
        assert_eq!(clock(479, 0), Category::Blitz);
        assert_eq!(clock(480, 0), Category::Rapid);
        assert_eq!(clock(600, 0), Category::Rapid); // 10+0
        assert_eq!(clock(900, 10), Category::Rapid); // 15+10: 1300 s
        assert_eq!(clock(1499, 0), Category::Rapid);
        assert_eq!(clock(1500, 0), Category::Classical);
        assert_eq!(clock(1800, 0), Category::Classical); // 30+0
        assert_eq!(clock(10_800, 600), Category::Classical); // the longest clock here
    }

    #[test]
    fn fractional_seconds_by_the_exact_estimate() {
        let just_under = ClockSpec {
            initial_ms: 179_999,
            increment_ms: 0,
        };
        assert_eq!(Category::of_clock(just_under), Category::Bullet);
        let at = ClockSpec {
            initial_ms: 100_000,
            increment_ms: 2_000,
        };
        assert_eq!(Category::of_clock(at), Category::Blitz);
    }

    #[test]
    fn paces() {
        assert_eq!(Category::of(Pace::Untimed), None);
        assert_eq!(Category::of(Pace::Days(3)), Some(Category::Correspondence));
        let huge = ClockSpec {
            initial_ms: u64::MAX,
            increment_ms: u64::MAX,
        };
        assert_eq!(Category::of(Pace::Clock(huge)), Some(Category::Classical));
    }

    #[test]
    fn names_round_trip() {
        for c in Category::ALL {
            assert_eq!(Category::named(c.name()), Some(c));
        }
        assert_eq!(Category::named("Blitz"), None);
    }
}
