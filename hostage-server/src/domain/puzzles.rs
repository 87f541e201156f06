//! An account's puzzle rating: what one attempt does to it, and the
//! refusals of the puzzle requests (`docs/protocol.md`, Puzzles of an
//! account).
//!
//! Policy (the app's for a guest, kept for an account):
//! - an attempt is a game between the player and the puzzle: a win when
//!   solved, a loss otherwise, rated with the workspace's one Glicko-2
//!   (`hostage_puzzles::glicko::update_game`: lichess's puzzle parameters,
//!   τ = 0.75, deviation within 45–500, at most 700 points an attempt);
//! - the puzzle's rating is the one the committed set gives it (its
//!   `rating` and `rd`, volatility 0.09): the server keeps no rating of
//!   its own for a puzzle, so every account meets the same puzzle alike;
//! - only an account's first attempt at a puzzle is rated; a later one is
//!   recorded (solved or not, when) and moves nothing;
//! - a new account's puzzle rating is 1500 / 500 / 0.09, provisional while
//!   the deviation is 110 or more.
//!
//! Pure: the caller passes the rating in and stores what comes out.

use std::fmt;

use hostage_puzzles::{glicko, Puzzle};

pub use hostage_puzzles::glicko::Rating;

/// The most attempts of one puzzle an account keeps (the first rated, the
/// others recorded): a further one is refused with `attempt_limit`, so a
/// client posting the same puzzle in a loop cannot grow the database.
pub const MAX_ATTEMPTS_PER_PUZZLE: u64 = 20;

/// The most attempts the account's puzzle history shows, the latest.
pub const HISTORY_LEN: usize = 200;

/// The longest puzzle id taken, in bytes (the set's ids are 8 characters).
pub const MAX_PUZZLE_ID_BYTES: usize = 64;

/// A new account's puzzle rating: 1500, deviation 500, volatility 0.09.
#[must_use]
pub const fn new_rating() -> Rating {
    Rating::new_player()
}

/// The rating a puzzle of the set plays with: its `rating` and `rd` from
/// the set, the default volatility.
#[must_use]
pub fn rating_of(puzzle: &Puzzle) -> Rating {
    Rating {
        rating: f64::from(puzzle.rating),
        deviation: f64::from(puzzle.deviation),
        volatility: glicko::DEFAULT_VOLATILITY,
    }
}

/// What one attempt does to the account's rating.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AttemptOutcome {
    /// Whether it was rated (the account's first attempt at the puzzle).
    pub rated: bool,
    /// The rating before.
    pub before: Rating,
    /// The rating after (the same as before when not rated).
    pub after: Rating,
}

/// The outcome of an attempt at `puzzle` by a player rated `player`,
/// `solved` or not, `tried_before` (the account attempted it already) or
/// not.
///
/// ```
/// use hostage_server::domain::puzzles::{attempt, new_rating};
/// let puzzle = &hostage_puzzles::puzzles()[0];
/// let first = attempt(new_rating(), puzzle, true, false);
/// assert!(first.rated && first.after.rating > 1500.0);
/// let again = attempt(first.after, puzzle, false, true);
/// assert!(!again.rated && again.after == first.after);
/// ```
#[must_use]
pub fn attempt(
    player: Rating,
    puzzle: &Puzzle,
    solved: bool,
    tried_before: bool,
) -> AttemptOutcome {
    if tried_before {
        return AttemptOutcome {
            rated: false,
            before: player,
            after: player,
        };
    }
    let score = if solved { 1.0 } else { 0.0 };
    AttemptOutcome {
        rated: true,
        before: player,
        after: glicko::update_game(player, rating_of(puzzle), score),
    }
}

/// Whether a puzzle rating is provisional (deviation 110 or more, as
/// lichess shows it with a `?`).
#[must_use]
pub fn is_provisional(r: Rating) -> bool {
    r.is_provisional()
}

/// The puzzle of the committed set with this id.
///
/// # Errors
///
/// `unknown_puzzle`: no puzzle of the set has it.
pub fn find(id: &str) -> Result<&'static Puzzle, PuzzleError> {
    if id.len() > MAX_PUZZLE_ID_BYTES {
        return Err(PuzzleError::new(
            PuzzleRefusal::UnknownPuzzle,
            format!("a puzzle id has at most {MAX_PUZZLE_ID_BYTES} bytes"),
        ));
    }
    hostage_puzzles::find(id).ok_or_else(|| {
        PuzzleError::new(
            PuzzleRefusal::UnknownPuzzle,
            "no puzzle of the set has this id",
        )
    })
}

/// Why a puzzle request was refused: the stable codes. (A request without
/// a session, from another origin, with a bad body or a failing database
/// gets the account endpoints' codes.)
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PuzzleRefusal {
    /// No puzzle of the set has the id.
    UnknownPuzzle,
    /// The account has [`MAX_ATTEMPTS_PER_PUZZLE`] attempts of this puzzle.
    AttemptLimit,
}

impl PuzzleRefusal {
    /// The code as sent.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            PuzzleRefusal::UnknownPuzzle => "unknown_puzzle",
            PuzzleRefusal::AttemptLimit => "attempt_limit",
        }
    }
}

/// A refused puzzle request: its code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    /// Why.
    pub refusal: PuzzleRefusal,
    /// What is wrong, for people.
    pub message: String,
}

impl PuzzleError {
    /// An error with a code and a message.
    #[must_use]
    pub fn new(refusal: PuzzleRefusal, message: impl Into<String>) -> PuzzleError {
        PuzzleError {
            refusal,
            message: message.into(),
        }
    }

    /// The stable code.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.refusal.code()
    }
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for PuzzleError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_attempt_moves_the_rating() {
        let puzzle = &hostage_puzzles::puzzles()[0];
        let first = attempt(new_rating(), puzzle, false, false);
        assert!(first.rated && first.after.rating < 1500.0);
        assert!(first.after.deviation < 500.0);
        let again = attempt(first.after, puzzle, true, true);
        assert_eq!((again.rated, again.after), (false, first.after));
    }

    #[test]
    fn ids_are_looked_up_in_the_set() {
        let puzzle = &hostage_puzzles::puzzles()[0];
        assert_eq!(find(&puzzle.id).unwrap().id, puzzle.id);
        assert_eq!(find("nope").unwrap_err().code(), "unknown_puzzle");
        assert_eq!(find(&"x".repeat(65)).unwrap_err().code(), "unknown_puzzle");
        assert_eq!(find("").unwrap_err().code(), "unknown_puzzle");
    }
}
