//! The login throttle: how many failed attempts an account and an address
//! may have in a window, and how long a refused one waits.
//!
//! Policy (the numbers are [`ThrottleRules::default`], `docs/server.md`,
//! Accounts): at most 5 failed logins per account and 20 per address in
//! any 15 minutes. An attempt past either limit is refused before the
//! password is looked at (`too_many_attempts`, with the seconds until the
//! oldest failure in the window leaves it), so a brute-force run costs the
//! server no hashing and changes nothing stored. Failures are counted
//! against the name tried, whether an account has it or not, so the
//! throttle answers a wrong name and a wrong password alike. A successful
//! login clears its account's failures (not its address's). Sign-ups are
//! counted per address in the same way (10 per hour), since each costs a
//! hash and makes a row.
//!
//! The counts are in memory, per server: a server restarted, or a login
//! tried on several servers sharing one database, starts them afresh (put
//! the balancer's limits in front, as for connections). The tables are
//! bounded: at most [`MAX_KEYS`] names or addresses are tracked; once
//! full, the entries whose window has passed are dropped, and if none has,
//! a new name or address is refused as if it had failed too often.

use std::collections::{HashMap, VecDeque};

/// The most names (and, apart, addresses) whose failures are tracked.
pub const MAX_KEYS: usize = 100_000;

/// How many failures are allowed in how long.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Failures allowed in the window; the next attempt is refused.
    pub failures: usize,
    /// The window, in milliseconds.
    pub window_ms: u64,
}

/// The throttle's numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThrottleRules {
    /// Failed logins per account name.
    pub per_account: Limit,
    /// Failed logins per address.
    pub per_address: Limit,
    /// Sign-ups per address.
    pub signups_per_address: Limit,
}

/// 15 minutes.
const FIFTEEN_MINUTES_MS: u64 = 15 * 60 * 1000;

impl Default for ThrottleRules {
    /// 5 failures per account and 20 per address in 15 minutes; 10
    /// sign-ups per address in an hour.
    fn default() -> ThrottleRules {
        ThrottleRules {
            per_account: Limit {
                failures: 5,
                window_ms: FIFTEEN_MINUTES_MS,
            },
            per_address: Limit {
                failures: 20,
                window_ms: FIFTEEN_MINUTES_MS,
            },
            signups_per_address: Limit {
                failures: 10,
                window_ms: 4 * FIFTEEN_MINUTES_MS,
            },
        }
    }
}

/// Times of events per key, within one limit.
#[derive(Debug, Default)]
struct Window {
    times: HashMap<String, VecDeque<u64>>,
}

impl Window {
    /// `Err(seconds to wait)` if `key` has had `limit.failures` events in
    /// the window ending at `now_ms`.
    fn check(&self, key: &str, limit: Limit, now_ms: u64) -> Result<(), u64> {
        let Some(times) = self.times.get(key) else {
            if self.times.len() >= MAX_KEYS {
                return Err(limit.window_ms.div_ceil(1000));
            }
            return Ok(());
        };
        let recent: Vec<u64> = times
            .iter()
            .copied()
            .filter(|&t| now_ms < t.saturating_add(limit.window_ms))
            .collect();
        if recent.len() < limit.failures {
            return Ok(());
        }
        // The attempt is allowed again once enough failures have left the
        // window that fewer than the limit remain.
        let oldest_to_leave = recent[recent.len() - limit.failures];
        let wait_ms = oldest_to_leave
            .saturating_add(limit.window_ms)
            .saturating_sub(now_ms);
        Err(wait_ms.div_ceil(1000).max(1))
    }

    fn record(&mut self, key: &str, limit: Limit, now_ms: u64) {
        if self.times.len() >= MAX_KEYS && !self.times.contains_key(key) {
            self.times.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|&t| now_ms < t.saturating_add(limit.window_ms))
            });
            if self.times.len() >= MAX_KEYS {
                return;
            }
        }
        let times = self.times.entry(key.to_owned()).or_default();
        while times
            .front()
            .is_some_and(|&t| now_ms >= t.saturating_add(limit.window_ms))
        {
            times.pop_front();
        }
        times.push_back(now_ms);
        // No more than the limit is ever needed to decide.
        while times.len() > limit.failures.max(1) {
            times.pop_front();
        }
    }
}

/// The failed logins and the sign-ups seen lately.
#[derive(Debug, Default)]
pub struct Throttle {
    rules: ThrottleRules,
    accounts: Window,
    addresses: Window,
    signups: Window,
}

impl Throttle {
    /// A throttle with these numbers.
    #[must_use]
    pub fn new(rules: ThrottleRules) -> Throttle {
        Throttle {
            rules,
            ..Throttle::default()
        }
    }

    /// The numbers in force.
    #[must_use]
    pub fn rules(&self) -> ThrottleRules {
        self.rules
    }

    /// Whether a login for the name key `account` from `address` may be
    /// tried now; `Err(seconds to wait)` if not.
    ///
    /// # Errors
    ///
    /// The seconds until the attempt would be allowed (the longer of the
    /// two waits when both limits are reached).
    pub fn check_login(&self, account: &str, address: &str, now_ms: u64) -> Result<(), u64> {
        let by_account = self.accounts.check(account, self.rules.per_account, now_ms);
        let by_address = self
            .addresses
            .check(address, self.rules.per_address, now_ms);
        match (by_account, by_address) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(a), Err(b)) => Err(a.max(b)),
            (Err(s), Ok(())) | (Ok(()), Err(s)) => Err(s),
        }
    }

    /// A login for `account` from `address` failed.
    pub fn login_failed(&mut self, account: &str, address: &str, now_ms: u64) {
        self.accounts
            .record(account, self.rules.per_account, now_ms);
        self.addresses
            .record(address, self.rules.per_address, now_ms);
    }

    /// A login for `account` succeeded: its failures are forgotten.
    pub fn login_succeeded(&mut self, account: &str) {
        self.accounts.times.remove(account);
    }

    /// Whether a sign-up from `address` may be tried now.
    ///
    /// # Errors
    ///
    /// The seconds until it would be allowed.
    pub fn check_signup(&self, address: &str, now_ms: u64) -> Result<(), u64> {
        self.signups
            .check(address, self.rules.signups_per_address, now_ms)
    }

    /// A sign-up was made from `address`.
    pub fn signed_up(&mut self, address: &str, now_ms: u64) {
        self.signups
            .record(address, self.rules.signups_per_address, now_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;

    #[test]
    fn five_failures_per_account_then_a_wait_until_the_oldest_leaves() {
        let mut t = Throttle::default();
        for i in 0..5 {
            assert_eq!(t.check_login("ada", "a1", i * MIN), Ok(()));
            t.login_failed("ada", "a1", i * MIN);
        }
        // The sixth, at minute 5: the first failure (minute 0) leaves the
        // window at minute 15, ten minutes on.
        assert_eq!(t.check_login("ada", "a2", 5 * MIN), Err(600));
        assert_eq!(t.check_login("ADA-other", "a1", 5 * MIN), Ok(()));
        assert_eq!(t.check_login("ada", "a2", 15 * MIN - 1), Err(1));
        assert_eq!(t.check_login("ada", "a2", 15 * MIN), Ok(()));
        t.login_succeeded("ada");
        assert_eq!(t.check_login("ada", "a1", 5 * MIN), Ok(()));
    }

    #[test]
    fn twenty_failures_per_address_whatever_the_names() {
        let mut t = Throttle::default();
        for i in 0..20 {
            let name = format!("user{i}");
            assert_eq!(t.check_login(&name, "10.0.0.1", 1000), Ok(()));
            t.login_failed(&name, "10.0.0.1", 1000);
        }
        assert_eq!(t.check_login("fresh", "10.0.0.1", 1000), Err(900));
        assert_eq!(t.check_login("fresh", "10.0.0.2", 1000), Ok(()));
        // A success clears the account, not the address.
        t.login_succeeded("user0");
        assert_eq!(t.check_login("user0", "10.0.0.1", 2000), Err(899));
    }

    #[test]
    fn ten_signups_per_address_an_hour() {
        let mut t = Throttle::default();
        for i in 0..10 {
            assert_eq!(t.check_signup("a", i), Ok(()));
            t.signed_up("a", i);
        }
        assert_eq!(t.check_signup("a", 10), Err(3600));
        assert_eq!(t.check_signup("b", 10), Ok(()));
        assert_eq!(t.check_signup("a", 3_600_000), Ok(()));
    }
}
