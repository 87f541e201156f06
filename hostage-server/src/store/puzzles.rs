//! The [`PuzzleStore`] trait: an account's puzzle rating and its attempts,
//! and the SQL both stores share for them.
//!
//! Policy: an account's attempts are numbered 1, 2, ... (`seq`); the
//! rating row keeps the number of the last one. An attempt is stored with
//! the number after the one the service read, and the rating it led to
//! in the same transaction: two attempts of one account decided at once
//! (two tabs, two instances) cannot both take a number, so the second
//! fails with [`StoreError::Conflict`](super::StoreError::Conflict), stores nothing, and the service
//! reads again and decides once more. A unique index also keeps at most
//! one rated attempt per account and puzzle in the database itself.
//!
//! The statements are written once, with `$1`, `$2`, ... first used in
//! their order (as `accounts.rs` explains); the tables are one text for
//! both databases (`DOUBLE PRECISION` has SQLite's real affinity, `BOOLEAN`
//! its numeric one, which holds rusqlite's 0 and 1).

use crate::{
    domain::puzzles::{Rating, HISTORY_LEN},
    store::StoreFuture,
};

/// One stored attempt, as the history shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRecord {
    /// The puzzle's id.
    pub puzzle: String,
    /// Whether it was solved.
    pub solved: bool,
    /// Whether it moved the rating (the account's first attempt at it).
    pub rated: bool,
    /// When, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The account's puzzle rating after it.
    pub rating_after: f64,
}

/// An account's puzzle rating as stored: the rating (if any attempt was
/// made) and the number of the last attempt (0: none).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PuzzleRatingRow {
    /// The rating, deviation and volatility.
    pub rating: Rating,
    /// The number of the account's last attempt.
    pub seq: u64,
}

/// An attempt to store, with the rating it leads to.
#[derive(Clone, Debug, PartialEq)]
pub struct NewAttempt {
    /// The account's id.
    pub account: String,
    /// Its number: one more than the last stored (1 for the first).
    pub seq: u64,
    /// The attempt.
    pub attempt: AttemptRecord,
    /// The rating after it, all three numbers.
    pub after: Rating,
}

/// Where accounts' puzzle ratings and attempts are kept.
pub trait PuzzleStore: Send + Sync + 'static {
    /// The account's rating row, if it made any attempt.
    fn puzzle_rating<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Option<PuzzleRatingRow>>;

    /// How many attempts of `puzzle` the account made.
    fn puzzle_tries<'a>(&'a self, account: &'a str, puzzle: &'a str) -> StoreFuture<'a, u64>;

    /// The ids of the puzzles the account attempted, the first attempted
    /// first.
    fn puzzles_seen<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<String>>;

    /// The account's last [`HISTORY_LEN`] attempts, the oldest first.
    fn puzzle_history<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<AttemptRecord>>;

    /// Stores the attempt and the rating after it, in one transaction;
    /// [`crate::store::StoreError::Conflict`] (nothing stored) if the
    /// account has an attempt numbered `seq` already, or a rated attempt
    /// of the puzzle when this one is rated.
    fn add_attempt(&self, new: NewAttempt) -> StoreFuture<'_, ()>;
}

/// The puzzle tables, one text for both databases.
pub(crate) const PUZZLES_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    account    TEXT PRIMARY KEY REFERENCES accounts (id),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    seq        BIGINT NOT NULL, -- the number of the last attempt
    updated_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    account      TEXT NOT NULL REFERENCES accounts (id),
    seq          BIGINT NOT NULL,
    puzzle       TEXT NOT NULL,
    solved       BOOLEAN NOT NULL,
    rated        BOOLEAN NOT NULL,
    at_ms        BIGINT NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, seq)
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_puzzle ON puzzle_attempts (account, puzzle);
CREATE UNIQUE INDEX IF NOT EXISTS puzzle_attempts_rated
    ON puzzle_attempts (account, puzzle) WHERE rated;
";

/// The rating row of an account: rating, deviation, volatility, seq.
pub(crate) const RATING_ROW: &str =
    "SELECT rating, deviation, volatility, seq FROM puzzle_ratings WHERE account = $1";

/// The attempts of one puzzle by an account.
pub(crate) const TRIES: &str =
    "SELECT count(*) FROM puzzle_attempts WHERE account = $1 AND puzzle = $2";

/// The puzzles an account attempted, the first attempted first.
pub(crate) const SEEN: &str = "SELECT puzzle FROM puzzle_attempts WHERE account = $1
    GROUP BY puzzle ORDER BY min(seq)";

/// The account's latest attempts, the latest first: puzzle, solved, rated,
/// time, rating after.
pub(crate) fn history_sql() -> String {
    format!(
        "SELECT puzzle, solved, rated, at_ms, rating_after FROM puzzle_attempts
         WHERE account = $1 ORDER BY seq DESC LIMIT {HISTORY_LEN}"
    )
}

/// Inserts an attempt: account, seq, puzzle, solved, rated, time, rating
/// after.
pub(crate) const INSERT_ATTEMPT: &str = "INSERT INTO puzzle_attempts
    (account, seq, puzzle, solved, rated, at_ms, rating_after)
    VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Sets the account's rating row: account, rating, deviation, volatility,
/// seq, time.
pub(crate) const UPSERT_RATING: &str = "INSERT INTO puzzle_ratings
    (account, rating, deviation, volatility, seq, updated_ms)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (account) DO UPDATE SET rating = excluded.rating,
        deviation = excluded.deviation, volatility = excluded.volatility,
        seq = excluded.seq, updated_ms = excluded.updated_ms";

/// The conflict of an attempt decided on a stale read.
pub(crate) fn attempt_raced() -> crate::store::StoreError {
    crate::store::StoreError::Conflict("another attempt of the account was stored first".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_first_used_in_their_order() {
        for sql in [
            RATING_ROW,
            TRIES,
            SEEN,
            &history_sql(),
            INSERT_ATTEMPT,
            UPSERT_RATING,
        ] {
            let mut next = 1;
            let mut rest = sql;
            while let Some(at) = rest.find('$') {
                rest = &rest[at + 1..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let n: u32 = digits.parse().unwrap();
                assert!(n <= next, "{sql}");
                if n == next {
                    next += 1;
                }
            }
        }
    }
}
