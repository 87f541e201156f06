//! What an open challenge is, and the lobby's decisions about it: who may
//! open one more, how fast, and which challenges a quick pairing tries
//! (`docs/protocol.md`, Lobby).
//!
//! Policy:
//! - a connection may hold at most a number of open challenges, and so may
//!   a client address ([`check_caps`]): the connection's cap is checked
//!   first, so a refusal names the narrower limit;
//! - making challenges is paced by a token bucket per connection
//!   ([`Pace`]): a burst, then one every refill period;
//! - quick pairing (`lobby_seek`) tries the oldest open challenges of
//!   other owners with exactly the same time control, a few of them, since
//!   each may be taken by someone else first ([`seek_candidates`]).
//!
//! Nothing here reads a clock or touches the store: the service passes the
//! instant and the list.

use std::time::{Duration, Instant};

use crate::domain::correspondence::{Control, Days};
use crate::domain::names::DisplayName;
use crate::domain::{ClockSpec, ColorChoice, TokenHash};

/// How many open challenges `lobby_seek` tries to claim before it opens
/// one of its own (each may be taken by someone else first).
pub const SEEK_TRIES: usize = 5;

/// Who made a challenge: a server (its random mark) and a connection on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    /// The server's mark (the lobby store's `instance`).
    pub instance: String,
    /// The connection's id on that server.
    pub conn: u64,
}

/// An open challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its id (as a game id: 10 characters `[a-z0-9]`).
    pub id: String,
    /// The creator's display name, if given.
    pub name: Option<DisplayName>,
    /// The creator's seat.
    pub color: ColorChoice,
    /// The time control (`None`: untimed).
    pub clock: Option<ClockSpec>,
    /// Or days per move (correspondence).
    pub days: Option<Days>,
    /// When it was made, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Who made it.
    pub owner: Owner,
    /// The digest of the creator's seat token, drawn when the challenge was
    /// made: the game is created with it, and only the owner's server
    /// knows the token itself.
    pub token: TokenHash,
    /// Whether it is rated, its creator's rating, the range it accepts.
    pub terms: Terms,
}

/// A challenge's rating terms (`docs/protocol.md`, Ratings).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// A rated challenge: both players logged in, a timed or correspondence
    /// game.
    pub rated: bool,
    /// The creator's account and rating in the challenge's category
    /// (`None`: a guest, or an untimed challenge).
    pub creator: Option<Player>,
    /// The opponents' ratings the challenge accepts (`None`: any, guests
    /// included).
    pub range: Option<RatingRange>,
}

/// A logged-in player as the lobby pairs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The account's id (never shown).
    pub account: String,
    /// The rating, rounded.
    pub rating: u32,
    /// Whether the rating is provisional.
    pub provisional: bool,
}

/// An inclusive range of ratings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RatingRange {
    /// The lowest rating accepted.
    pub min: u32,
    /// The highest rating accepted.
    pub max: u32,
}

impl RatingRange {
    /// Whether `player` is a rated player within the range (a guest is not).
    #[must_use]
    pub fn admits(self, player: Option<&Player>) -> bool {
        player.is_some_and(|p| (self.min..=self.max).contains(&p.rating))
    }
}

/// Why a player may not take a challenge (or pair with it in a seek).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// A rated challenge and a guest, or the creator's own account.
    NeedsAnotherAccount,
    /// The player's rating is outside the challenge's range.
    OutOfRange,
}

/// Whether `player` (with `range`, for a seek: the range it accepts) may
/// take `challenge`: a rated challenge needs another account, and each
/// side's range must admit the other.
///
/// # Errors
///
/// The [`Mismatch`].
pub fn may_take(
    challenge: &Challenge,
    player: Option<&Player>,
    range: Option<RatingRange>,
) -> Result<(), Mismatch> {
    let terms = &challenge.terms;
    if terms.rated {
        let other = player.zip(terms.creator.as_ref());
        if other.is_none_or(|(p, c)| p.account == c.account) {
            return Err(Mismatch::NeedsAnotherAccount);
        }
    }
    let theirs = terms.range.is_none_or(|r| r.admits(player));
    let mine = range.is_none_or(|r| r.admits(terms.creator.as_ref()));
    if theirs && mine {
        Ok(())
    } else {
        Err(Mismatch::OutOfRange)
    }
}

/// Which cap a new challenge would cross.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CapExceeded {
    /// The connection holds this many already (its cap).
    PerConnection(usize),
    /// The client address holds this many already (its cap).
    PerAddress(usize),
}

/// Whether a connection holding `mine` open challenges, from an address
/// holding `here`, may open one more under the caps `per_connection` and
/// `per_address`.
///
/// # Errors
///
/// The cap crossed, the connection's first.
pub fn check_caps(
    mine: usize,
    here: usize,
    per_connection: usize,
    per_address: usize,
) -> Result<(), CapExceeded> {
    if mine >= per_connection {
        Err(CapExceeded::PerConnection(per_connection))
    } else if here >= per_address {
        Err(CapExceeded::PerAddress(per_address))
    } else {
        Ok(())
    }
}

/// A token bucket pacing one connection's new challenges: `burst` at once,
/// then one more every `refill`.
#[derive(Copy, Clone, Debug)]
pub struct Pace {
    tokens: f64,
    last: Instant,
}

impl Pace {
    /// A full bucket of `burst` tokens at `now`.
    #[must_use]
    pub fn full(burst: u32, now: Instant) -> Pace {
        Pace {
            tokens: f64::from(burst),
            last: now,
        }
    }

    /// Takes one token at `now` if there is one (after refilling at one
    /// token a `refill`, up to `burst`); whether it did.
    pub fn take(&mut self, now: Instant, burst: u32, refill: Duration) -> bool {
        let period = refill.as_secs_f64().max(f64::EPSILON);
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens = (self.tokens + elapsed / period).min(f64::from(burst));
        self.last = self.last.max(now);
        if self.tokens < 1.0 {
            return false;
        }
        self.tokens -= 1.0;
        true
    }

    /// Gives back a token taken for a challenge that was not opened.
    pub fn give_back(&mut self, burst: u32) {
        self.tokens = (self.tokens + 1.0).min(f64::from(burst));
    }
}

/// What a quick pairing looks for: its time control, whether rated, who
/// seeks, and the range of opponents' ratings it accepts.
#[derive(Clone, Debug)]
pub struct Seeking<'a> {
    /// The time control: a clock, or days per move (both `None`: untimed).
    pub control: Control,
    /// Rated or casual: a seek pairs only with its own kind.
    pub rated: bool,
    /// The seeker, if logged in.
    pub player: Option<&'a Player>,
    /// The opponents' ratings accepted.
    pub range: Option<RatingRange>,
}

/// The ids of the challenges a quick pairing by `me` tries, in order: at
/// most [`SEEK_TRIES`] of `open` (oldest first, as the store lists them)
/// with exactly the seek's time control, another owner, the seek's kind
/// (rated or casual), and terms both sides accept ([`may_take`]).
#[must_use]
pub fn seek_candidates(open: &[Challenge], seeking: &Seeking<'_>, me: &Owner) -> Vec<String> {
    open.iter()
        .filter(|c| (c.clock, c.days) == seeking.control && c.owner != *me)
        .filter(|c| c.terms.rated == seeking.rated)
        .filter(|c| may_take(c, seeking.player, seeking.range).is_ok())
        .take(SEEK_TRIES)
        .map(|c| c.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(conn: u64) -> Owner {
        Owner {
            instance: "a".into(),
            conn,
        }
    }

    fn challenge(id: &str, conn: u64, clock: Option<ClockSpec>) -> Challenge {
        Challenge {
            id: id.into(),
            name: None,
            color: ColorChoice::Random,
            clock,
            days: None,
            created_ms: 0,
            owner: owner(conn),
            token: TokenHash::of("t"),
            terms: Terms::default(),
        }
    }

    #[test]
    fn the_connection_cap_is_named_before_the_address_cap() {
        assert_eq!(check_caps(2, 9, 3, 10), Ok(()));
        assert_eq!(check_caps(3, 10, 3, 10), Err(CapExceeded::PerConnection(3)));
        assert_eq!(check_caps(0, 10, 3, 10), Err(CapExceeded::PerAddress(10)));
    }

    #[test]
    fn the_pace_allows_a_burst_then_one_a_period() {
        let t0 = Instant::now();
        let period = Duration::from_secs(4);
        let mut pace = Pace::full(2, t0);
        assert!(pace.take(t0, 2, period));
        assert!(pace.take(t0, 2, period));
        assert!(!pace.take(t0, 2, period));
        assert!(!pace.take(t0 + Duration::from_secs(3), 2, period));
        assert!(pace.take(t0 + Duration::from_secs(4), 2, period));
        // A long wait fills the bucket to the burst, no more.
        let later = t0 + Duration::from_secs(400);
        assert!(pace.take(later, 2, period));
        assert!(pace.take(later, 2, period));
        assert!(!pace.take(later, 2, period));
        pace.give_back(2);
        assert!(pace.take(later, 2, period));
    }

    #[test]
    fn seeking_tries_the_oldest_others_with_the_same_clock() {
        let blitz = Some(ClockSpec {
            initial_ms: 180_000,
            increment_ms: 2_000,
        });
        let mut open = vec![
            challenge("mine", 1, blitz),
            challenge("untimed", 2, None),
            challenge("first", 2, blitz),
        ];
        for i in 0..6 {
            open.push(challenge(&format!("more{i}"), 3, blitz));
        }
        let tried = seek_candidates(&open, &casual(blitz), &owner(1));
        assert_eq!(tried, ["first", "more0", "more1", "more2", "more3"]);
        assert_eq!(
            seek_candidates(&open, &casual(None), &owner(1)),
            ["untimed"]
        );
        assert!(seek_candidates(&open, &casual(None), &owner(2)).is_empty());
        // Days per move match only the same days.
        let mut days = challenge("days", 3, None);
        days.days = Days::new(3);
        let open = [days];
        let by_days = |d| Seeking {
            control: (None, d),
            ..casual(None)
        };
        assert!(seek_candidates(&open, &casual(None), &owner(1)).is_empty());
        assert!(seek_candidates(&open, &by_days(Days::new(5)), &owner(1)).is_empty());
        assert_eq!(
            seek_candidates(&open, &by_days(Days::new(3)), &owner(1)),
            ["days"]
        );
    }

    fn casual(clock: Option<ClockSpec>) -> Seeking<'static> {
        Seeking {
            control: (clock, None),
            rated: false,
            player: None,
            range: None,
        }
    }

    fn player(account: &str, rating: u32) -> Player {
        Player {
            account: account.into(),
            rating,
            provisional: false,
        }
    }

    #[test]
    fn rated_seeks_pair_with_rated_challenges_of_other_accounts_in_range() {
        let blitz = Some(ClockSpec {
            initial_ms: 180_000,
            increment_ms: 0,
        });
        let rated = |id: &str, conn: u64, who: &str, rating: u32, range: Option<RatingRange>| {
            let mut c = challenge(id, conn, blitz);
            c.terms = Terms {
                rated: true,
                creator: Some(player(who, rating)),
                range,
            };
            c
        };
        let narrow = Some(RatingRange {
            min: 1400,
            max: 1600,
        });
        let open = vec![
            challenge("casual", 2, blitz),
            rated("own", 3, "ann", 1500, None),
            rated("strong", 4, "cy", 1900, None),
            rated("picky", 5, "di", 1500, narrow),
            rated("fine", 6, "ed", 1550, None),
        ];
        let ann = player("ann", 1700);
        let seek = |rated, player, range| Seeking {
            control: (blitz, None),
            rated,
            player,
            range,
        };
        // Rated: not the casual one, not ann's own, not di's (1700 is out
        // of di's range); cy's and ed's.
        let tried = seek_candidates(&open, &seek(true, Some(&ann), None), &owner(1));
        assert_eq!(tried, ["strong", "fine"]);
        // With ann's own range 1400-1600: only ed (1550).
        let tried = seek_candidates(&open, &seek(true, Some(&ann), narrow), &owner(1));
        assert_eq!(tried, ["fine"]);
        // A casual seek pairs only with the casual challenge.
        assert_eq!(
            seek_candidates(&open, &seek(false, Some(&ann), None), &owner(1)),
            ["casual"]
        );
        // A guest may not take a rated challenge, nor a ranged one.
        assert_eq!(
            may_take(&open[2], None, None),
            Err(Mismatch::NeedsAnotherAccount)
        );
        let mut ranged = challenge("r", 7, blitz);
        ranged.terms.range = narrow;
        assert_eq!(may_take(&ranged, None, None), Err(Mismatch::OutOfRange));
        assert_eq!(may_take(&ranged, Some(&player("x", 1400)), None), Ok(()));
        assert_eq!(
            may_take(&ranged, Some(&player("x", 1601)), None),
            Err(Mismatch::OutOfRange)
        );
    }
}
