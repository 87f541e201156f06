//! The server's domain: what a game, a seat, a clock, a name, a chat and
//! a challenge are, and every decision about them, in one layer that does
//! no i/o of its own (no socket, no database, no JSON, no tokio), below the
//! store, the service and the wire (`docs/architecture.md`).
//!
//! | file | concern |
//! | --- | --- |
//! | `mod.rs` | time controls, clock readings, a game's status, endings and seat secrets |
//! | `account.rs`, `account/` | accounts: usernames, the password rule, the refusals; Argon2id hashing; the login throttle |
//! | `room.rs`, `room/` | one game's rules, seats, clocks, draws, takebacks, aborts and endings |
//! | `event.rs` | what a room decided: the domain events |
//! | `lobby.rs` | an open challenge; the lobby's caps, pace and quick pairing |
//! | `record.rs` | the record of a game, as it is kept and put back |
//! | `refusal.rs` | a refused request: its stable code and error |
//! | `clock.rs` | Fischer clocks against a monotonic instant |
//! | `correspondence.rs` | days per move: the allowed days, the deadline of a move |
//! | `names.rs` | display names: the rule and its check |
//! | `puzzles.rs` | an account's puzzle rating: what an attempt does to it, the puzzle refusals |
//! | `rating.rs`, `rating/` | Glicko-2 ratings as lichess runs them: the update, the categories, whether a game is rated |
//! | `chat.rs` | chat between a game's players: the rule of a line, the pace, the cap |
//! | `time.rs` | wall-clock milliseconds, PGN dates and times |
//! | `timing.rs` | a game's time as a list of games shows it: the time control, the time left |
//!
//! Names are the core's: a colour is [`Color::name`], a rules ending is
//! [`Termination::name`]; reading a stored name back is written once here
//! ([`color_named`], [`End::from_names`]).
//!
//! A seat's secret is kept only as its SHA-256 digest ([`TokenHash`]), and
//! so are the further tokens an account's seat gets, one per device
//! ([`SeatDevices`]):
//! tokens are 128 random bits, so a fast hash is enough (no dictionary to
//! guess from), and a database leak gives no seat away. Digests are
//! compared in constant time.

pub mod account;
pub mod chat;
pub mod clock;
pub mod correspondence;
pub mod event;
pub mod lobby;
pub mod names;
pub mod puzzles;
pub mod rating;
pub mod record;
pub mod refusal;
pub mod room;
pub mod time;
pub mod timing;

use hostage_core::{ByColor, Color, Termination};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The seat asked for in `create` and in a lobby challenge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn by the server.
    Random,
}

/// Clock bounds: the initial time, in milliseconds.
pub const CLOCK_INITIAL_MS: (u64, u64) = (1_000, 10_800_000);
/// Clock bounds: the increment, in milliseconds.
pub const CLOCK_INCREMENT_MS: (u64, u64) = (0, 600_000);

/// A time control: Fischer clocks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: u64,
    /// Added to the mover's clock after each of its moves, in milliseconds.
    pub increment_ms: u64,
}

impl ClockSpec {
    /// Whether both values are within [`CLOCK_INITIAL_MS`] and
    /// [`CLOCK_INCREMENT_MS`].
    #[must_use]
    pub fn in_bounds(&self) -> bool {
        (CLOCK_INITIAL_MS.0..=CLOCK_INITIAL_MS.1).contains(&self.initial_ms)
            && (CLOCK_INCREMENT_MS.0..=CLOCK_INCREMENT_MS.1).contains(&self.increment_ms)
    }
}

/// Both sides' remaining times at one instant, and the running side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// Remaining time of each side, in milliseconds.
    pub remaining: ByColor<u64>,
    /// The side whose clock runs, if any.
    pub running: Option<Color>,
}

/// Whether a game waits for a player, goes on, or has ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Status {
    /// A seat is free.
    Waiting,
    /// Both seats are taken and the game goes on.
    Active,
    /// The game has ended.
    Finished,
}

/// The colour named `"white"` or `"black"` ([`Color::name`]).
#[must_use]
pub fn color_named(name: &str) -> Option<Color> {
    Color::ALL.into_iter().find(|c| c.name() == name)
}

/// Every rules ending of the core, to read a stored name back.
const RULES_ENDINGS: [Termination; 5] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::FiftyMoves,
    Termination::ThreefoldRepetition,
    Termination::PerpetualCheck,
];

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EndReason {
    /// By the rules, as the core decides (mate, stalemate, fifty moves,
    /// repetition, perpetual check).
    Rules(Termination),
    /// A player resigned.
    Resignation,
    /// A draw was offered and accepted.
    Agreement,
    /// A flag fell.
    Timeout,
    /// The opponent was gone too long, and the player present claimed the
    /// win or a draw.
    Abandonment,
    /// Called off before both sides had made their first move: a player
    /// sent `abort`, or a first move was not made in time. No result.
    Aborted,
}

impl EndReason {
    /// The endings the server adds to the core's.
    const SERVER: [EndReason; 5] = [
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Timeout,
        EndReason::Abandonment,
        EndReason::Aborted,
    ];

    /// The name as the protocol and the stores write it: the core's
    /// [`Termination::name`], or `resignation`, `agreement`, `timeout`,
    /// `abandonment`, `aborted`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Rules(t) => t.name(),
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Timeout => "timeout",
            EndReason::Abandonment => "abandonment",
            EndReason::Aborted => "aborted",
        }
    }

    /// The reason named `name` (the inverse of [`EndReason::name`]).
    #[must_use]
    pub fn named(name: &str) -> Option<EndReason> {
        RULES_ENDINGS
            .into_iter()
            .map(EndReason::Rules)
            .chain(EndReason::SERVER)
            .find(|r| r.name() == name)
    }
}

/// How a game ended, and who won.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// Why.
    pub reason: EndReason,
    /// The winner (`None`: a draw).
    pub winner: Option<Color>,
}

impl End {
    /// The termination's name ([`EndReason::name`]).
    #[must_use]
    pub const fn termination(&self) -> &'static str {
        self.reason.name()
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` for an aborted game.
    #[must_use]
    pub const fn result(&self) -> &'static str {
        self.pgn_result().as_str()
    }

    /// The PGN result (`*` for an aborted game: it has none).
    #[must_use]
    pub const fn pgn_result(&self) -> hostage_core::pgn::PgnResult {
        use hostage_core::pgn::PgnResult;
        if matches!(self.reason, EndReason::Aborted) {
            return PgnResult::Unknown;
        }
        match self.winner {
            Some(Color::White) => PgnResult::WhiteWins,
            Some(Color::Black) => PgnResult::BlackWins,
            None => PgnResult::Draw,
        }
    }

    /// Reads back a stored termination and winner names.
    #[must_use]
    pub fn from_names(termination: &str, winner: Option<&str>) -> Option<End> {
        let reason = EndReason::named(termination)?;
        let winner = match winner {
            None => None,
            Some(name) => Some(color_named(name)?),
        };
        Some(End { reason, winner })
    }
}

/// The SHA-256 digest of a seat's token: what is kept instead of the token.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct TokenHash([u8; 32]);

impl std::fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not secret, but long; the first bytes identify it in a log.
        write!(f, "TokenHash({}…)", &self.to_hex()[..8])
    }
}

impl TokenHash {
    /// The digest of `token`.
    #[must_use]
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether `token` is the token of this digest, in time independent of
    /// where the digests differ.
    #[must_use]
    pub fn matches(&self, token: &str) -> bool {
        let other = TokenHash::of(token);
        bool::from(self.0.ct_eq(&other.0))
    }

    /// The token of a player's seat in the rematch `game`, derived from
    /// the token of the player's seat in the finished game: so a resent or
    /// raced `rematch` finds the same seat again, though the store keeps no
    /// token. As secret as the old token (a SHA-256 of it); 32 hex
    /// characters, like every token.
    #[must_use]
    pub fn rematch_token(old_token: &str, game: &str) -> String {
        let digest = Sha256::digest(format!("hostage rematch\0{game}\0{old_token}").as_bytes());
        digest[..16].iter().map(|b| format!("{b:02x}")).collect()
    }

    /// 64 lowercase hex characters, as the stores keep it.
    #[must_use]
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads [`TokenHash::to_hex`] back.
    #[must_use]
    pub fn from_hex(hex: &str) -> Option<TokenHash> {
        if hex.len() != 64 || !hex.is_ascii() {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(TokenHash(out))
    }
}

/// Each seat's token digest, if the seat is taken.
pub type SeatHashes = ByColor<Option<TokenHash>>;

/// The most further tokens a seat holds ([`SeatDevices`]): a seat's
/// account resumed on a ninth device drops the oldest of them.
pub const MAX_SEAT_DEVICES: usize = 8;

/// Each seat's further token digests, oldest first: one for each device
/// of the account that holds the seat, drawn when the device joined the
/// game (`docs/server.md`, Accounts). Empty for a guest's seat.
pub type SeatDevices = ByColor<Vec<TokenHash>>;

/// The seat whose token is `token`, checking both seats and every further
/// token of each (all of them, so the time taken does not tell which
/// matched). The one token check of the server.
#[must_use]
pub fn seat_of(seats: &SeatHashes, devices: &SeatDevices, token: &str) -> Option<Color> {
    let mut found = None;
    for (color, hash) in seats.iter() {
        if hash.is_some_and(|h| h.matches(token)) {
            found = Some(color);
        }
        for device in devices.get(color) {
            if device.matches(token) {
                found = Some(color);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_name_reads_back() {
        for reason in RULES_ENDINGS
            .into_iter()
            .map(EndReason::Rules)
            .chain(EndReason::SERVER)
        {
            assert_eq!(EndReason::named(reason.name()), Some(reason));
        }
        assert_eq!(
            EndReason::named("checkmate"),
            Some(EndReason::Rules(Termination::Checkmate))
        );
        assert_eq!(EndReason::named("mate"), None);
        assert_eq!(
            End::from_names("timeout", Some("black")),
            Some(End {
                reason: EndReason::Timeout,
                winner: Some(Color::Black)
            })
        );
        assert_eq!(End::from_names("timeout", Some("green")), None);
        let aborted = End::from_names("aborted", None).unwrap();
        assert_eq!((aborted.result(), aborted.winner), ("*", None));
        assert_eq!(color_named("white"), Some(Color::White));
        assert_eq!(color_named("White"), None);
    }

    #[test]
    fn tokens_are_kept_as_digests() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1.
        assert_eq!(
            TokenHash::of("abc").to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let h = TokenHash::of("secret");
        assert!(h.matches("secret"));
        assert!(!h.matches("secreT"));
        assert!(!h.matches(""));
        assert_eq!(TokenHash::from_hex(&h.to_hex()), Some(h));
        assert_eq!(TokenHash::from_hex("zz"), None);
        let seats = ByColor::new(Some(TokenHash::of("w")), None);
        let none = SeatDevices::default();
        assert_eq!(seat_of(&seats, &none, "w"), Some(Color::White));
        assert_eq!(seat_of(&seats, &none, "b"), None);
        let seats = ByColor::new(Some(TokenHash::of("w")), Some(TokenHash::of("b")));
        let devices = ByColor::new(vec![TokenHash::of("w2")], vec![TokenHash::of("b2")]);
        assert_eq!(seat_of(&seats, &devices, "w2"), Some(Color::White));
        assert_eq!(seat_of(&seats, &devices, "b2"), Some(Color::Black));
        assert_eq!(seat_of(&seats, &devices, "b"), Some(Color::Black));
        assert_eq!(seat_of(&seats, &devices, "x2"), None);
    }
}
