//! The limits a public server needs that an operator (or a test) may set:
//! timeouts, connection caps, the outgoing queue's size in bytes, and how
//! long games stay in memory and players may be gone.
//!
//! Policy: every limit has a documented default (`docs/protocol.md`,
//! Limits) chosen for a server on the internet; `hostage serve` options
//! change them (tests shorten the timeouts). A zero timeout, cap or queue
//! size is refused at startup ([`ServerLimits::check`]) rather than read as
//! "off": each would make the server unusable (every connection closed at
//! once, or none admitted). The fixed limits of the
//! protocol itself (message size, rate, games per connection) stay in
//! `wire/protocol.rs` and `ratelimit.rs`.

use std::time::Duration;

/// Limits in force on one server.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerLimits {
    /// A connection must send its request's headers within this time from
    /// connecting (or from the end of its previous request); else it is
    /// closed.
    pub header_read_timeout: Duration,
    /// A WebSocket that follows no game and sends nothing for this long is
    /// closed (close code 1000). Pongs do not count as sending.
    pub idle_timeout: Duration,
    /// Open WebSocket connections allowed from one client address.
    pub max_connections_per_address: usize,
    /// Open WebSocket connections allowed in total.
    pub max_connections: usize,
    /// Bytes of messages queued for a client that does not read, past which
    /// it is dropped.
    pub max_queued_bytes: usize,
    /// A game nobody follows is dropped from memory after this long without
    /// a change (finished games at once; timed games that go on stay,
    /// their flag must fall). It loads again on demand.
    pub evict_after: Duration,
    /// A player whose opponent has had no connection following the game
    /// for this long may claim the win or a draw (`claim_win`,
    /// `claim_draw`).
    pub abandon_after: Duration,
    /// Open lobby challenges one connection may have (`lobby.rs`).
    pub max_challenges_per_connection: usize,
    /// Open lobby challenges the connections of one client address may
    /// have, on one server.
    pub max_challenges_per_address: usize,
    /// Open lobby challenges in all; also the most `lobby_watch` lists.
    pub max_challenges: usize,
    /// Challenges a connection may make at once, before
    /// `challenge_refill` paces it.
    pub challenge_burst: u32,
    /// One more challenge may be made after each such time.
    pub challenge_refill: Duration,
    /// With a shared store: a challenge whose server has not marked it
    /// alive for this long is removed (the server stopped).
    pub challenge_stale_after: Duration,
    /// In a timed game, each side has this long for its first move (White
    /// from the moment the second seat is taken, Black from White's first
    /// move); past it the game is aborted (no result).
    pub first_move: Duration,
    /// The length of a day in a correspondence game (days per move):
    /// 86,400 s; tests shorten it (`hostage serve --correspondence-day-ms`).
    pub correspondence_day: Duration,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            header_read_timeout: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(60),
            max_connections_per_address: 32,
            max_connections: 10_000,
            max_queued_bytes: 1 << 20,
            evict_after: Duration::from_secs(600),
            abandon_after: Duration::from_secs(120),
            max_challenges_per_connection: 3,
            max_challenges_per_address: 10,
            max_challenges: 500,
            challenge_burst: 5,
            challenge_refill: Duration::from_secs(4),
            challenge_stale_after: Duration::from_secs(30),
            first_move: Duration::from_secs(30),
            correspondence_day: crate::domain::correspondence::DAY,
        }
    }
}

/// `with_<field>` builders, one per field, for limits built from the
/// defaults (`ServerLimits::default().with_idle_timeout(..)`).
macro_rules! builders {
    ($($name:ident: $field:ident: $ty:ty),* $(,)?) => {$(
        #[doc = concat!("The same limits with `", stringify!($field), "` set.")]
        #[must_use]
        pub const fn $name(mut self, value: $ty) -> ServerLimits {
            self.$field = value;
            self
        }
    )*};
}

impl ServerLimits {
    builders! {
        with_header_read_timeout: header_read_timeout: Duration,
        with_idle_timeout: idle_timeout: Duration,
        with_max_connections_per_address: max_connections_per_address: usize,
        with_max_connections: max_connections: usize,
        with_max_queued_bytes: max_queued_bytes: usize,
        with_evict_after: evict_after: Duration,
        with_abandon_after: abandon_after: Duration,
        with_max_challenges_per_connection: max_challenges_per_connection: usize,
        with_max_challenges_per_address: max_challenges_per_address: usize,
        with_max_challenges: max_challenges: usize,
        with_challenge_burst: challenge_burst: u32,
        with_challenge_refill: challenge_refill: Duration,
        with_challenge_stale_after: challenge_stale_after: Duration,
        with_first_move: first_move: Duration,
        with_correspondence_day: correspondence_day: Duration,
    }

    /// Refuses limits that would make the server unusable: a header or
    /// idle timeout of 0, a connection cap of 0, a queue of 0 bytes, or no
    /// time at all for a first move (every timed game aborted at once)
    /// (eviction and abandonment may be 0: at once). The error names the
    /// limit and its `hostage serve` option.
    ///
    /// # Errors
    ///
    /// A sentence for the operator.
    pub fn check(&self) -> Result<(), String> {
        let zero = [
            (
                self.header_read_timeout.is_zero(),
                "the header timeout",
                "--header-timeout-ms",
            ),
            (
                self.idle_timeout.is_zero(),
                "the idle timeout",
                "--idle-timeout-ms",
            ),
            (
                self.max_connections_per_address == 0,
                "the connections per address",
                "--max-connections-per-address",
            ),
            (
                self.max_connections == 0,
                "the connections in total",
                "--max-connections",
            ),
            (
                self.max_queued_bytes == 0,
                "the queued bytes",
                "--max-queued-bytes",
            ),
            (
                self.max_challenges_per_connection == 0
                    || self.max_challenges_per_address == 0
                    || self.max_challenges == 0
                    || self.challenge_burst == 0,
                "the lobby's challenge caps",
                "ServerLimits::max_challenges*, challenge_burst",
            ),
            (
                self.challenge_stale_after.is_zero(),
                "the challenges' stale time",
                "ServerLimits::challenge_stale_after",
            ),
            (
                self.first_move.is_zero(),
                "the time for a first move",
                "--first-move-ms",
            ),
            (
                self.correspondence_day.is_zero(),
                "the length of a correspondence day",
                "--correspondence-day-ms",
            ),
        ];
        match zero.iter().find(|(is_zero, _, _)| *is_zero) {
            Some((_, what, option)) => Err(format!(
                "{what} ({option}) must be at least 1: 0 would close or refuse every connection or challenge"
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_limits_are_refused_by_name() {
        assert_eq!(ServerLimits::default().check(), Ok(()));
        let idle = ServerLimits {
            idle_timeout: Duration::ZERO,
            ..ServerLimits::default()
        };
        assert!(idle.check().unwrap_err().contains("--idle-timeout-ms"));
        let caps = ServerLimits {
            max_connections: 0,
            ..ServerLimits::default()
        };
        assert!(caps.check().unwrap_err().contains("--max-connections)"));
        let first = ServerLimits::default().with_first_move(Duration::ZERO);
        assert!(first.check().unwrap_err().contains("--first-move-ms"));
        let day = ServerLimits::default().with_correspondence_day(Duration::ZERO);
        assert!(day.check().unwrap_err().contains("--correspondence-day-ms"));
        let instant = ServerLimits {
            evict_after: Duration::ZERO,
            abandon_after: Duration::ZERO,
            ..ServerLimits::default()
        };
        assert_eq!(instant.check(), Ok(()));
    }
}
