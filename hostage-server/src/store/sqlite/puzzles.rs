//! Accounts' puzzle ratings and attempts in the SQLite file
//! ([`PuzzleStore`]), on the accounts' connection.

use rusqlite::{params, OptionalExtension, Row};

use crate::{
    domain::puzzles::Rating,
    store::columns::{int, uint},
    store::puzzles::{
        attempt_raced, history_sql, AttemptRecord, NewAttempt, PuzzleRatingRow, PuzzleStore,
        INSERT_ATTEMPT, RATING_ROW, SEEN, TRIES, UPSERT_RATING,
    },
    store::{StoreError, StoreFuture},
};

use super::{accounts::SqliteAccounts, backend};

fn rating_row(row: &Row<'_>) -> rusqlite::Result<PuzzleRatingRow> {
    Ok(PuzzleRatingRow {
        rating: Rating {
            rating: row.get(0)?,
            deviation: row.get(1)?,
            volatility: row.get(2)?,
        },
        seq: uint(row.get(3)?),
    })
}

fn attempt_row(row: &Row<'_>) -> rusqlite::Result<AttemptRecord> {
    Ok(AttemptRecord {
        puzzle: row.get(0)?,
        solved: row.get(1)?,
        rated: row.get(2)?,
        at_ms: uint(row.get(3)?),
        rating_after: row.get(4)?,
    })
}

fn conflict_or_backend(e: rusqlite::Error) -> StoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            attempt_raced()
        }
        e => backend(e),
    }
}

impl PuzzleStore for SqliteAccounts {
    fn puzzle_rating<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Option<PuzzleRatingRow>> {
        let account = account.to_owned();
        self.run(move |conn| {
            conn.query_row(RATING_ROW, [account], rating_row)
                .optional()
                .map_err(backend)
        })
    }

    fn puzzle_tries<'a>(&'a self, account: &'a str, puzzle: &'a str) -> StoreFuture<'a, u64> {
        let (account, puzzle) = (account.to_owned(), puzzle.to_owned());
        self.run(move |conn| {
            conn.query_row(TRIES, params![account, puzzle], |row| row.get::<_, i64>(0))
                .map(uint)
                .map_err(backend)
        })
    }

    fn puzzles_seen<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<String>> {
        let account = account.to_owned();
        self.run(move |conn| {
            let mut stmt = conn.prepare(SEEN).map_err(backend)?;
            let rows = stmt
                .query_map([account], |row| row.get(0))
                .map_err(backend)?;
            rows.collect::<Result<Vec<String>, _>>().map_err(backend)
        })
    }

    fn puzzle_history<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<AttemptRecord>> {
        let account = account.to_owned();
        self.run(move |conn| {
            let mut stmt = conn.prepare(&history_sql()).map_err(backend)?;
            let rows = stmt.query_map([account], attempt_row).map_err(backend)?;
            let mut list = rows.collect::<Result<Vec<_>, _>>().map_err(backend)?;
            list.reverse();
            Ok(list)
        })
    }

    fn add_attempt(&self, new: NewAttempt) -> StoreFuture<'_, ()> {
        self.run(move |conn| {
            let tx = conn.transaction().map_err(backend)?;
            let a = &new.attempt;
            tx.execute(
                INSERT_ATTEMPT,
                params![
                    new.account,
                    int(new.seq),
                    a.puzzle,
                    a.solved,
                    a.rated,
                    int(a.at_ms),
                    a.rating_after
                ],
            )
            .map_err(conflict_or_backend)?;
            tx.execute(
                UPSERT_RATING,
                params![
                    new.account,
                    new.after.rating,
                    new.after.deviation,
                    new.after.volatility,
                    int(new.seq),
                    int(a.at_ms)
                ],
            )
            .map_err(backend)?;
            tx.commit().map_err(backend)
        })
    }
}
