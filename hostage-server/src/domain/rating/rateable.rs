//! Whether a game is rated: asked when a challenge or a seek is made
//! ([`may_be_rated`]) and again when the game ends ([`counts`]).
//!
//! Policy (`docs/server.md`, Ratings), as lichess does:
//! - a rated game needs both players logged in, to two different accounts;
//! - and a clock or days per move: an untimed game is never rated;
//! - an aborted game (called off before both sides moved) counts for
//!   nobody; every other ending, on the board or off it (resignation,
//!   agreement, time, abandonment), is rated.
//!
//! Accounts are whatever the caller identifies them by (`A`): only their
//! equality is asked.

use hostage_core::{ByColor, Color};

use super::category::{Category, Pace};
use crate::domain::{End, EndReason};

/// Why a game is not rated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// The players did not ask for a rated game.
    NotRequested,
    /// This side's player is not logged in.
    Guest(Color),
    /// Both seats are the same account.
    SameAccount,
    /// The game has no clock and no days per move.
    Untimed,
    /// The game was aborted.
    Aborted,
}

impl Unrated {
    /// A stable code: `not_requested`, `guest`, `same_account`, `untimed`,
    /// `aborted`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Unrated::NotRequested => "not_requested",
            Unrated::Guest(_) => "guest",
            Unrated::SameAccount => "same_account",
            Unrated::Untimed => "untimed",
            Unrated::Aborted => "aborted",
        }
    }
}

/// Whether a game between `accounts` (`None`: a guest) at `pace` may be
/// rated, and in which category; asked when `rated` is requested.
///
/// ```
/// use hostage_core::{ByColor, Color};
/// use hostage_server::domain::rating::{category::{Category, Pace}, rateable::{may_be_rated, Unrated}};
///
/// assert_eq!(may_be_rated(true, ByColor::new(Some(&1), Some(&2)), Pace::Days(3)), Ok(Category::Correspondence));
/// assert_eq!(may_be_rated(true, ByColor::new(Some(&1), None::<&i32>), Pace::Days(3)), Err(Unrated::Guest(Color::Black)));
/// ```
///
/// # Errors
///
/// [`Unrated`]: why not, the first reason in the order of the variants.
pub fn may_be_rated<A: PartialEq>(
    rated: bool,
    accounts: ByColor<Option<&A>>,
    pace: Pace,
) -> Result<Category, Unrated> {
    if !rated {
        return Err(Unrated::NotRequested);
    }
    let (Some(white), Some(black)) = (accounts.white, accounts.black) else {
        let guest = if accounts.white.is_none() {
            Color::White
        } else {
            Color::Black
        };
        return Err(Unrated::Guest(guest));
    };
    if white == black {
        return Err(Unrated::SameAccount);
    }
    Category::of(pace).ok_or(Unrated::Untimed)
}

/// Whether a game that was made rated counts now that it ended with `end`:
/// every ending but an abort.
///
/// # Errors
///
/// [`Unrated::Aborted`] for an aborted game.
pub fn counts(end: &End) -> Result<(), Unrated> {
    if matches!(end.reason, EndReason::Aborted) {
        Err(Unrated::Aborted)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use hostage_core::Termination;

    use super::*;
    use crate::domain::ClockSpec;

    const BLITZ: Pace = Pace::Clock(ClockSpec {
        initial_ms: 300_000,
        increment_ms: 3_000,
    });

    #[test]
    fn rated_between_two_accounts_with_a_clock_or_days() {
        let both = ByColor::new(Some(&"ann"), Some(&"bob"));
        assert_eq!(may_be_rated(true, both, BLITZ), Ok(Category::Blitz));
        assert_eq!(
            may_be_rated(true, both, Pace::Days(1)),
            Ok(Category::Correspondence)
        );
    }

    #[test]
    fn each_reason_not_to_rate() {
        let both = ByColor::new(Some(&"ann"), Some(&"bob"));
        assert_eq!(may_be_rated(false, both, BLITZ), Err(Unrated::NotRequested));
        assert_eq!(
            may_be_rated(true, both, Pace::Untimed),
            Err(Unrated::Untimed)
        );
        let white_guest = ByColor::new(None, Some(&"bob"));
        assert_eq!(
            may_be_rated(true, white_guest, BLITZ),
            Err(Unrated::Guest(Color::White))
        );
        let guests: ByColor<Option<&&str>> = ByColor::new(None, None);
        assert_eq!(
            may_be_rated(true, guests, BLITZ),
            Err(Unrated::Guest(Color::White))
        );
        let same = ByColor::new(Some(&"ann"), Some(&"ann"));
        assert_eq!(may_be_rated(true, same, BLITZ), Err(Unrated::SameAccount));
    }

    #[test]
    fn only_an_abort_is_unrated_at_the_end() {
        let end = |reason, winner| End { reason, winner };
        assert_eq!(
            counts(&end(EndReason::Aborted, None)),
            Err(Unrated::Aborted)
        );
        for (reason, winner) in [
            (EndReason::Rules(Termination::Checkmate), Some(Color::White)),
            (EndReason::Rules(Termination::Stalemate), None),
            (EndReason::Resignation, Some(Color::Black)),
            (EndReason::Agreement, None),
            (EndReason::Timeout, Some(Color::White)),
            (EndReason::Abandonment, Some(Color::Black)),
        ] {
            assert_eq!(counts(&end(reason, winner)), Ok(()), "{reason:?}");
        }
    }
}
