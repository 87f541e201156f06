//! An account's puzzle rating (`docs/server.md`, Puzzles of an account):
//! its standing (rating, the puzzles seen, the history) and an attempt,
//! decided by the domain (`domain/puzzles.rs`) and stored in one
//! transaction before the answer.
//!
//! Policy: the attempt is decided on what the store holds (the rating, the
//! number of the last attempt, the earlier attempts of the puzzle) and
//! stored as the next number; when another attempt of the account was
//! stored in between (two tabs, two instances), the store refuses it and
//! the attempt is decided again on a fresh read, at most [`MAX_RACES`]
//! times. So an account's first attempt at a puzzle is rated once, whatever
//! races it.

use crate::{
    domain::account::AccountError,
    domain::puzzles::{
        self, new_rating, AttemptOutcome, PuzzleError, PuzzleRefusal, Rating,
        MAX_ATTEMPTS_PER_PUZZLE,
    },
    domain::time::now_ms,
    store::accounts::AccountRecord,
    store::puzzles::{AttemptRecord, NewAttempt},
    store::StoreError,
};

use super::accounts::{storage, Accounts};

/// How many times an attempt is decided again after losing a race.
pub const MAX_RACES: u32 = 5;

/// An account's puzzle standing.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleStanding {
    /// The rating (a new account's when it made no attempt).
    pub rating: Rating,
    /// The ids of the puzzles attempted, the first attempted first.
    pub seen: Vec<String>,
    /// The latest attempts, the oldest first.
    pub history: Vec<AttemptRecord>,
}

/// An attempt stored.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AttemptStored {
    /// What it did to the rating.
    pub outcome: AttemptOutcome,
    /// The puzzle's rating it was rated against.
    pub puzzle: Rating,
    /// The attempt's number among the account's attempts.
    pub seq: u64,
}

/// Why an attempt was refused: an account's refusal (`storage_failed`) or
/// a puzzle's (`unknown_puzzle`, `attempt_limit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptError {
    /// The account service's refusal.
    Account(AccountError),
    /// The puzzle's.
    Puzzle(PuzzleError),
}

impl From<AccountError> for AttemptError {
    fn from(e: AccountError) -> AttemptError {
        AttemptError::Account(e)
    }
}

impl From<PuzzleError> for AttemptError {
    fn from(e: PuzzleError) -> AttemptError {
        AttemptError::Puzzle(e)
    }
}

impl Accounts {
    /// The account's puzzle standing.
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn puzzle_standing(
        &self,
        account: &AccountRecord,
    ) -> Result<PuzzleStanding, AccountError> {
        let store = &self.store;
        let fail = |e: StoreError| storage(&e);
        let row = store.puzzle_rating(&account.id).await.map_err(fail)?;
        Ok(PuzzleStanding {
            rating: row.map_or(new_rating(), |r| r.rating),
            seen: store.puzzles_seen(&account.id).await.map_err(fail)?,
            history: store.puzzle_history(&account.id).await.map_err(fail)?,
        })
    }

    /// Rates and stores an attempt of the account at the puzzle `id`.
    ///
    /// # Errors
    ///
    /// `unknown_puzzle`, `attempt_limit`, `storage_failed` (nothing stored).
    pub async fn record_attempt(
        &self,
        account: &AccountRecord,
        id: &str,
        solved: bool,
    ) -> Result<AttemptStored, AttemptError> {
        let puzzle = puzzles::find(id)?;
        let fail = |e: StoreError| AttemptError::Account(storage(&e));
        let mut races = 0;
        loop {
            let row = self.store.puzzle_rating(&account.id).await.map_err(fail)?;
            let tries = self
                .store
                .puzzle_tries(&account.id, id)
                .await
                .map_err(fail)?;
            if tries >= MAX_ATTEMPTS_PER_PUZZLE {
                return Err(PuzzleError::new(
                    PuzzleRefusal::AttemptLimit,
                    format!(
                        "an account keeps at most {MAX_ATTEMPTS_PER_PUZZLE} attempts of a puzzle"
                    ),
                )
                .into());
            }
            let (player, last) = row.map_or((new_rating(), 0), |r| (r.rating, r.seq));
            let outcome = puzzles::attempt(player, puzzle, solved, tries > 0);
            let seq = last.saturating_add(1);
            let new = NewAttempt {
                account: account.id.clone(),
                seq,
                attempt: AttemptRecord {
                    puzzle: puzzle.id.clone(),
                    solved,
                    rated: outcome.rated,
                    at_ms: now_ms(),
                    rating_after: outcome.after.rating,
                },
                after: outcome.after,
            };
            match self.store.add_attempt(new).await {
                Ok(()) => {
                    return Ok(AttemptStored {
                        outcome,
                        puzzle: puzzles::rating_of(puzzle),
                        seq,
                    })
                }
                Err(StoreError::Conflict(_)) if races < MAX_RACES => races += 1,
                Err(e) => return Err(fail(e)),
            }
        }
    }
}
