//! Flood control for one connection: a token bucket.
//!
//! Policy (`docs/protocol.md`, Limits): a connection may send [`BURST`]
//! messages at once, then [`PER_SECOND`] a second. Every frame counts, the
//! malformed ones too (garbage is the cheapest flood). A message over the
//! rate is dropped unread and answered `rate_limited`; after
//! [`CLOSE_AFTER`] such refusals in a row the connection is closed. One
//! message let through resets the count.

use std::time::Instant;

/// Messages allowed in a burst.
pub const BURST: u32 = 20;
/// Messages per second, sustained.
pub const PER_SECOND: u32 = 10;
/// Refusals in a row after which the connection is closed.
pub const CLOSE_AFTER: u32 = 100;

/// What to do with a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Handle it.
    Allow,
    /// Drop it and answer `rate_limited`.
    Refuse,
    /// Close the connection.
    Close,
}

/// A token bucket.
#[derive(Clone, Debug)]
pub struct RateLimiter {
    burst: f64,
    per_second: f64,
    tokens: f64,
    last: Instant,
    refused_in_a_row: u32,
}

impl RateLimiter {
    /// The protocol's bucket ([`BURST`], [`PER_SECOND`]), full at `now`.
    #[must_use]
    pub fn new(now: Instant) -> RateLimiter {
        RateLimiter::with(BURST, PER_SECOND, now)
    }

    /// A bucket of `burst` tokens refilled at `per_second`, full at `now`.
    #[must_use]
    pub fn with(burst: u32, per_second: u32, now: Instant) -> RateLimiter {
        RateLimiter {
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            tokens: f64::from(burst),
            last: now,
            refused_in_a_row: 0,
        }
    }

    /// Takes a token for a message arriving at `now`.
    pub fn check(&mut self, now: Instant) -> Verdict {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = self.last.max(now);
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.refused_in_a_row = 0;
            Verdict::Allow
        } else {
            self.refused_in_a_row += 1;
            if self.refused_in_a_row >= CLOSE_AFTER {
                Verdict::Close
            } else {
                Verdict::Refuse
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_burst_then_the_rate_then_a_close() {
        let t0 = Instant::now();
        let mut r = RateLimiter::new(t0);
        for _ in 0..BURST {
            assert_eq!(r.check(t0), Verdict::Allow);
        }
        assert_eq!(r.check(t0), Verdict::Refuse);
        // A tenth of a second refills one token at 10/s.
        let t1 = t0 + Duration::from_millis(100);
        assert_eq!(r.check(t1), Verdict::Allow);
        assert_eq!(r.check(t1), Verdict::Refuse);
        for _ in 2..CLOSE_AFTER {
            assert_eq!(r.check(t1), Verdict::Refuse);
        }
        assert_eq!(r.check(t1), Verdict::Close);
        // Time heals: a full bucket again.
        let t2 = t1 + Duration::from_secs(10);
        assert_eq!(r.check(t2), Verdict::Allow);
    }
}
