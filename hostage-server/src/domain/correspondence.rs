//! Correspondence: a time control of days per move.
//!
//! Policy (`docs/protocol.md`, Correspondence), as lichess runs its
//! correspondence games:
//! - the days per move are one of [`DAYS`] (1, 2, 3, 5, 7, 14);
//! - once both seats are taken, White must move within that many days;
//!   every move then gives the opponent that many days from the move
//!   (the deadline is not banked: time left over is not carried to the
//!   next move);
//! - the deadline is a wall-clock instant (milliseconds since the Unix
//!   epoch), stored with the move that set it, so it holds across
//!   restarts and on every server of a shared store; a server that reads a
//!   game whose deadline has passed ends it at once;
//! - a deadline passed before both sides have made their first move
//!   aborts the game (no result), as a first move not made in time aborts
//!   a timed game; after, the side to move loses on time (`timeout`);
//! - a correspondence game has no abandonment claim (the opponent is
//!   expected to be away between moves: the deadline is the only limit)
//!   and no separate first-move timer (the deadline is it);
//! - the length of a day is the server's (86,400 s; shortened for tests,
//!   `ServerLimits::with_correspondence_day`).

use std::time::{Duration, Instant};

/// A game's time control: Fischer clocks, days per move, or neither
/// (untimed); never both.
pub type Control = (Option<crate::domain::ClockSpec>, Option<Days>);

/// The days per move a game may have.
pub const DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// The length of a day.
pub const DAY: Duration = Duration::from_secs(86_400);

/// A number of days per move, one of [`DAYS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Days(u8);

impl Days {
    /// `n` days per move, if `n` is one of [`DAYS`].
    #[must_use]
    pub fn new(n: u64) -> Option<Days> {
        DAYS.into_iter().find(|&d| u64::from(d) == n).map(Days)
    }

    /// The number of days.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The time a side has for a move, with days of length `day`.
    #[must_use]
    pub fn window(self, day: Duration) -> Duration {
        day.saturating_mul(u32::from(self.0))
    }
}

/// When the side to move must have moved: the wall-clock instant that is
/// stored and told, and the same instant on the monotonic clock the room's
/// timers use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Due {
    /// Milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The same instant, monotonic.
    pub by: Instant,
}

impl Due {
    /// The deadline `window` after `now` (read on both clocks at once).
    #[must_use]
    pub fn after(window: Duration, now: Instant, now_ms: u64) -> Due {
        let window_ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX);
        Due {
            at_ms: now_ms.saturating_add(window_ms),
            by: now.checked_add(window).unwrap_or(now),
        }
    }

    /// A stored deadline `at_ms` on the monotonic clock, given both clocks
    /// read at once (`now`, `now_ms`): a deadline already passed is `now`
    /// or earlier.
    #[must_use]
    pub fn stored(at_ms: u64, now: Instant, now_ms: u64) -> Due {
        let by = if at_ms >= now_ms {
            now.checked_add(Duration::from_millis(at_ms - now_ms))
                .unwrap_or(now)
        } else {
            now.checked_sub(Duration::from_millis(now_ms - at_ms))
                .unwrap_or(now)
        };
        Due { at_ms, by }
    }

    /// The milliseconds left at `now` (0 once passed).
    #[must_use]
    pub fn left_at(&self, now: Instant) -> u64 {
        u64::try_from(self.by.saturating_duration_since(now).as_millis()).unwrap_or(u64::MAX)
    }
}

/// A correspondence game's time: its days per move, the length of a day,
/// and the standing deadline (none before both seats are taken, nor after
/// the end).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Correspondence {
    /// Days per move.
    pub days: Days,
    /// The length of a day ([`DAY`], unless the server shortens it).
    pub day: Duration,
    /// When the side to move must have moved.
    pub due: Option<Due>,
}

impl Correspondence {
    /// A game of `days` per move, no deadline yet.
    #[must_use]
    pub fn new(days: Days) -> Correspondence {
        Correspondence {
            days,
            day: DAY,
            due: None,
        }
    }

    /// Sets the deadline of the side to move: a move's window from `now`.
    pub fn restart(&mut self, now: Instant, now_ms: u64) {
        self.due = Some(Due::after(self.days.window(self.day), now, now_ms));
    }

    /// Whether the deadline has passed at `now`.
    #[must_use]
    pub fn passed(&self, now: Instant) -> bool {
        self.due.is_some_and(|d| now >= d.by)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_days_are_days() {
        let listed: Vec<u8> = (0..=20).filter_map(Days::new).map(Days::get).collect();
        assert_eq!(listed, vec![1, 2, 3, 5, 7, 14]);
        assert_eq!(Days::new(u64::MAX), None);
        assert_eq!(
            Days::new(3).unwrap().window(DAY),
            Duration::from_secs(259_200)
        );
    }

    #[test]
    fn a_deadline_on_both_clocks() {
        let t0 = Instant::now();
        let mut c = Correspondence::new(Days::new(2).unwrap());
        c.day = Duration::from_secs(10);
        assert!(!c.passed(t0));
        c.restart(t0, 1_000);
        let due = c.due.unwrap();
        assert_eq!(due.at_ms, 21_000);
        assert_eq!(due.by, t0 + Duration::from_secs(20));
        assert_eq!(due.left_at(t0 + Duration::from_secs(5)), 15_000);
        assert!(!c.passed(t0 + Duration::from_millis(19_999)));
        assert!(c.passed(t0 + Duration::from_secs(20)));
        // Read back: a future deadline and a passed one.
        let t1 = t0 + Duration::from_secs(100);
        assert_eq!(
            Due::stored(21_000, t1, 16_000).by,
            t1 + Duration::from_secs(5)
        );
        assert!(Due::stored(21_000, t1, 30_000).by <= t1);
    }
}
