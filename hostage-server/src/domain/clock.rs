//! Server-side Fischer clocks.
//!
//! Policy (`docs/protocol.md`, Clocks):
//! - a clock is a pair of remaining times and at most one running side,
//!   measured against a monotonic [`Instant`] given by the caller (so tests
//!   need no sleeping);
//! - pressing the clock charges the mover the time since its clock started,
//!   then adds the increment, then starts the opponent's; a mover whose time
//!   ran out before the press has lost on time and gets no increment;
//! - what is stored is the remaining times at the last event
//!   ([`Clock::remaining_at`]); a clock rebuilt from them after a restart
//!   ([`Clock::restore`]) starts the side to move afresh, so downtime and the
//!   unstored thinking time before a crash are charged to no one.

use std::time::{Duration, Instant};

use hostage_core::{ByColor, Color};

use crate::domain::{ClockReading, ClockSpec};

/// A pair of clocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    spec: ClockSpec,
    /// Remaining time of each side when its clock last stopped (or started).
    remaining: ByColor<u64>,
    /// The running side and when it started.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// New clocks, both at the initial time, none running.
    #[must_use]
    pub fn new(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            remaining: ByColor::new(spec.initial_ms, spec.initial_ms),
            running: None,
        }
    }

    /// Clocks rebuilt from stored remaining times, none running.
    #[must_use]
    pub fn restore(spec: ClockSpec, remaining: ByColor<u64>) -> Clock {
        Clock {
            spec,
            remaining,
            running: None,
        }
    }

    /// The time control.
    #[must_use]
    pub const fn spec(&self) -> ClockSpec {
        self.spec
    }

    /// Starts `side`'s clock at `now` (stopping none: call when none runs).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.running = Some((side, now));
    }

    /// The running side, if any.
    #[must_use]
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// `side`'s remaining time at `now`, in milliseconds (0 once flagged).
    #[must_use]
    pub fn remaining_at(&self, side: Color, now: Instant) -> u64 {
        let base = *self.remaining.get(side);
        match self.running {
            Some((running, since)) if running == side => {
                base.saturating_sub(millis(now.saturating_duration_since(since)))
            }
            _ => base,
        }
    }

    /// Both sides' remaining times at `now`.
    #[must_use]
    pub fn at(&self, now: Instant) -> ClockReading {
        ClockReading {
            remaining: self.remaining_now(now),
            running: self.running(),
        }
    }

    /// Both sides' remaining times at `now` (what is stored).
    #[must_use]
    pub fn remaining_now(&self, now: Instant) -> ByColor<u64> {
        ByColor::new_with(|side| self.remaining_at(side, now))
    }

    /// The side whose flag has fallen at `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let (side, _) = self.running?;
        (self.remaining_at(side, now) == 0).then_some(side)
    }

    /// When the running side's flag falls, if a clock runs.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        let (side, since) = self.running?;
        since.checked_add(Duration::from_millis(*self.remaining.get(side)))
    }

    /// The running side has moved at `now`: charge it, add the increment,
    /// start the other side.
    ///
    /// # Errors
    ///
    /// The side whose flag fell before the press; the clock is unchanged.
    pub fn press(&mut self, now: Instant) -> Result<(), Color> {
        let Some((side, _)) = self.running else {
            return Ok(());
        };
        if self.flagged(now).is_some() {
            return Err(side);
        }
        let left = self.remaining_at(side, now);
        *self.remaining.get_mut(side) = left.saturating_add(self.spec.increment_ms);
        self.running = Some((side.other(), now));
        Ok(())
    }

    /// Stops the clocks at `now` (the game ended), charging the running side.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            *self.remaining.get_mut(side) = self.remaining_at(side, now);
            self.running = None;
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: ClockSpec = ClockSpec {
        initial_ms: 10_000,
        increment_ms: 1_000,
    };

    #[test]
    fn press_charges_the_mover_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = Clock::new(SPEC);
        assert_eq!(c.deadline(), None);
        c.start(Color::White, t0);
        assert_eq!(c.press(t0 + Duration::from_millis(2_500)), Ok(()));
        let now = t0 + Duration::from_millis(4_000);
        let clocks = c.at(now);
        assert_eq!(clocks.remaining, ByColor::new(8_500, 8_500));
        assert_eq!(clocks.running, Some(Color::Black));
        assert_eq!(
            c.deadline(),
            Some(t0 + Duration::from_millis(2_500 + 10_000))
        );
    }

    #[test]
    fn a_flag_falls_without_a_move_and_a_late_press_is_refused() {
        let t0 = Instant::now();
        let mut c = Clock::new(SPEC);
        c.start(Color::White, t0);
        assert_eq!(c.flagged(t0 + Duration::from_millis(9_999)), None);
        let late = t0 + Duration::from_millis(10_000);
        assert_eq!(c.flagged(late), Some(Color::White));
        let before = c;
        assert_eq!(c.press(late), Err(Color::White));
        assert_eq!(c, before);
    }

    #[test]
    fn stop_charges_the_running_side_and_restore_resumes_from_stored_times() {
        let t0 = Instant::now();
        let mut c = Clock::new(SPEC);
        c.start(Color::White, t0);
        c.stop(t0 + Duration::from_millis(3_000));
        assert_eq!(c.running(), None);
        assert_eq!(c.at(t0 + Duration::from_secs(100)).remaining.white, 7_000);
        let mut r = Clock::restore(SPEC, ByColor::new(7_000, 4_000));
        let t1 = t0 + Duration::from_secs(1000);
        r.start(Color::Black, t1);
        assert_eq!(r.remaining_at(Color::Black, t1), 4_000);
        assert_eq!(r.remaining_at(Color::White, t1), 7_000);
    }
}
