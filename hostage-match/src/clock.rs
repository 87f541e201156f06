//! Chess clocks for matches: a Fischer time control (`--uci-clock 1+0.1`)
//! and the two sides' remaining time as the referee books it.
//!
//! Policy (as cutechess-cli does it): each side's clock starts at the
//! initial time; the referee measures the wall time a player takes for its
//! move, takes it off that player's clock, and adds the increment after the
//! move. A side whose clock falls below minus the margin (0 ms by default)
//! loses on time. An external engine is told the clocks with `go wtime
//! btime winc binc`; the built-in players search on node budgets and
//! ignore them.

use core::{fmt, str::FromStr};
use std::time::Duration;

use hostage_core::Color;

/// A Fischer time control: an initial time and an increment a move.
///
/// Read from `INITIAL+INCREMENT` in seconds (`"1+0.1"`, `"60"`, `"0.5+0"`),
/// as cutechess-cli's `tc=` option.
///
/// ```
/// use hostage_match::clock::MatchClock;
///
/// let tc: MatchClock = "1+0.1".parse()?;
/// assert_eq!((tc.initial_ms, tc.increment_ms), (1000, 100));
/// assert_eq!(tc.to_string(), "1+0.1");
/// assert!("fast".parse::<MatchClock>().is_err());
/// # Ok::<_, hostage_match::clock::ParseClockError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MatchClock {
    /// Each side's time at the start, in milliseconds (at least 1).
    pub initial_ms: u64,
    /// Added after each move, in milliseconds.
    pub increment_ms: u64,
}

impl MatchClock {
    /// A time control of `initial_ms` plus `increment_ms` a move.
    #[must_use]
    pub const fn new(initial_ms: u64, increment_ms: u64) -> MatchClock {
        MatchClock {
            initial_ms,
            increment_ms,
        }
    }
}

impl fmt::Display for MatchClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.initial_ms as f64 / 1000.0,
            self.increment_ms as f64 / 1000.0
        )
    }
}

/// A time control that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseClockError {
    given: String,
}

impl ParseClockError {
    /// `"invalid_clock"`, a stable code.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "invalid_clock"
    }
}

impl fmt::Display for ParseClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid time control {:?} (expected INITIAL+INCREMENT in seconds, e.g. 1+0.1, with an initial time of at least 1 ms)",
            self.given
        )
    }
}

impl std::error::Error for ParseClockError {}

/// Seconds (up to a day, at millisecond precision) as milliseconds.
fn millis(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    if !(0.0..=86_400.0).contains(&seconds) {
        return None;
    }
    Some((seconds * 1000.0).round() as u64)
}

impl FromStr for MatchClock {
    type Err = ParseClockError;

    fn from_str(s: &str) -> Result<MatchClock, ParseClockError> {
        let bad = || ParseClockError {
            given: hostage_core::Excerpt::new(s.as_bytes()).as_str().to_owned(),
        };
        let (initial, increment) = s.split_once('+').unwrap_or((s, "0"));
        let initial_ms = millis(initial).filter(|&ms| ms >= 1).ok_or_else(bad)?;
        let increment_ms = millis(increment).ok_or_else(bad)?;
        Ok(MatchClock::new(initial_ms, increment_ms))
    }
}

/// Both sides' remaining time during a game, in milliseconds (negative once
/// a side has overstepped).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Clocks {
    /// White's time left.
    pub white_ms: i64,
    /// Black's time left.
    pub black_ms: i64,
    /// The increment a move.
    pub increment_ms: u64,
}

impl Clocks {
    /// Both clocks at the start of a game under `tc`.
    #[must_use]
    pub fn start(tc: MatchClock) -> Clocks {
        let initial = i64::try_from(tc.initial_ms).unwrap_or(i64::MAX);
        Clocks {
            white_ms: initial,
            black_ms: initial,
            increment_ms: tc.increment_ms,
        }
    }

    /// `side`'s time left.
    #[must_use]
    pub fn left(&self, side: Color) -> i64 {
        match side {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }

    /// Books a move of `side` that took `spent`: takes it off and, unless
    /// the clock fell below `-margin`, adds the increment. Gives `false`
    /// when `side` lost on time.
    pub fn book(&mut self, side: Color, spent: Duration, margin: Duration) -> bool {
        let spent = i64::try_from(spent.as_millis()).unwrap_or(i64::MAX);
        let margin = i64::try_from(margin.as_millis()).unwrap_or(i64::MAX);
        let increment = i64::try_from(self.increment_ms).unwrap_or(i64::MAX);
        let clock = match side {
            Color::White => &mut self.white_ms,
            Color::Black => &mut self.black_ms,
        };
        *clock = clock.saturating_sub(spent);
        if *clock < -margin {
            return false;
        }
        *clock = clock.saturating_add(increment);
        true
    }

    /// The UCI `go` command for these clocks.
    #[must_use]
    pub fn go(&self) -> String {
        format!(
            "go wtime {} btime {} winc {} binc {}",
            self.white_ms.max(0),
            self.black_ms.max(0),
            self.increment_ms,
            self.increment_ms
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_in_seconds() {
        for (text, initial, increment) in [
            ("1+0.1", 1000, 100),
            ("60", 60_000, 0),
            ("0.5+0", 500, 0),
            ("180+2", 180_000, 2000),
            (" 3 + 0.05 ", 3000, 50),
        ] {
            assert_eq!(
                text.parse(),
                Ok(MatchClock::new(initial, increment)),
                "{text}"
            );
        }
        for bad in ["", "+1", "0+1", "-1+0", "1+-0.1", "x", "1+y", "1e9", "NaN"] {
            let err = bad.parse::<MatchClock>().expect_err(bad);
            assert_eq!(err.code(), "invalid_clock");
        }
    }

    #[test]
    fn a_move_takes_its_time_and_earns_the_increment_unless_the_flag_fell() {
        let mut clocks = Clocks::start(MatchClock::new(1000, 100));
        assert!(clocks.book(Color::White, Duration::from_millis(300), Duration::ZERO));
        assert_eq!((clocks.white_ms, clocks.black_ms), (800, 1000));
        assert_eq!(clocks.go(), "go wtime 800 btime 1000 winc 100 binc 100");
        // 1000 ms used of 1000 left: exactly zero is still in time.
        assert!(clocks.book(Color::Black, Duration::from_millis(1000), Duration::ZERO));
        assert_eq!(clocks.black_ms, 100);
        // 101 ms used of 100: lost, unless the margin covers it.
        let mut late = clocks;
        assert!(!late.book(Color::Black, Duration::from_millis(101), Duration::ZERO));
        assert_eq!(late.black_ms, -1);
        assert!(clocks.book(
            Color::Black,
            Duration::from_millis(101),
            Duration::from_millis(5)
        ));
        assert_eq!(clocks.black_ms, 99);
        assert_eq!(clocks.left(Color::Black), 99);
    }
}
