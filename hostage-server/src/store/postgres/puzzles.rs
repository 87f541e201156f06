//! Accounts' puzzle ratings and attempts in PostgreSQL ([`PuzzleStore`]),
//! on the accounts' connection: an attempt stored by one instance is read
//! by every other.

use tokio_postgres::{error::SqlState, Row};

use crate::{
    domain::puzzles::Rating,
    store::columns::{int, uint},
    store::puzzles::{
        attempt_raced, history_sql, AttemptRecord, NewAttempt, PuzzleRatingRow, PuzzleStore,
        INSERT_ATTEMPT, RATING_ROW, SEEN, TRIES, UPSERT_RATING,
    },
    store::{StoreError, StoreFuture},
};

use super::{
    accounts::{client, corrupt, PgAccounts},
    backend,
};

fn rating_row(row: &Row) -> Result<PuzzleRatingRow, StoreError> {
    let get = |e: tokio_postgres::Error| corrupt(&e);
    Ok(PuzzleRatingRow {
        rating: Rating {
            rating: row.try_get(0).map_err(get)?,
            deviation: row.try_get(1).map_err(get)?,
            volatility: row.try_get(2).map_err(get)?,
        },
        seq: uint(row.try_get(3).map_err(get)?),
    })
}

fn attempt_row(row: &Row) -> Result<AttemptRecord, StoreError> {
    let get = |e: tokio_postgres::Error| corrupt(&e);
    Ok(AttemptRecord {
        puzzle: row.try_get(0).map_err(get)?,
        solved: row.try_get(1).map_err(get)?,
        rated: row.try_get(2).map_err(get)?,
        at_ms: uint(row.try_get(3).map_err(get)?),
        rating_after: row.try_get(4).map_err(get)?,
    })
}

impl PuzzleStore for PgAccounts {
    fn puzzle_rating<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Option<PuzzleRatingRow>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let row = client(&mut slot)?
                .query_opt(RATING_ROW, &[&account])
                .await
                .map_err(|e| backend(&e))?;
            row.as_ref().map(rating_row).transpose()
        })
    }

    fn puzzle_tries<'a>(&'a self, account: &'a str, puzzle: &'a str) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let row = client(&mut slot)?
                .query_one(TRIES, &[&account, &puzzle])
                .await
                .map_err(|e| backend(&e))?;
            Ok(uint(row.try_get(0).map_err(|e| corrupt(&e))?))
        })
    }

    fn puzzles_seen<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let rows = client(&mut slot)?
                .query(SEEN, &[&account])
                .await
                .map_err(|e| backend(&e))?;
            rows.iter()
                .map(|row| row.try_get(0).map_err(|e| corrupt(&e)))
                .collect()
        })
    }

    fn puzzle_history<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<AttemptRecord>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let rows = client(&mut slot)?
                .query(&history_sql(), &[&account])
                .await
                .map_err(|e| backend(&e))?;
            let mut list = rows
                .iter()
                .map(attempt_row)
                .collect::<Result<Vec<_>, _>>()?;
            list.reverse();
            Ok(list)
        })
    }

    fn add_attempt(&self, new: NewAttempt) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = client(&mut slot)?
                .transaction()
                .await
                .map_err(|e| backend(&e))?;
            let a = &new.attempt;
            let inserted = tx
                .execute(
                    INSERT_ATTEMPT,
                    &[
                        &new.account,
                        &int(new.seq),
                        &a.puzzle,
                        &a.solved,
                        &a.rated,
                        &int(a.at_ms),
                        &a.rating_after,
                    ],
                )
                .await;
            match inserted {
                Ok(_) => {}
                Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                    return Err(attempt_raced())
                }
                Err(e) => return Err(backend(&e)),
            }
            tx.execute(
                UPSERT_RATING,
                &[
                    &new.account,
                    &new.after.rating,
                    &new.after.deviation,
                    &new.after.volatility,
                    &int(new.seq),
                    &int(a.at_ms),
                ],
            )
            .await
            .map_err(|e| backend(&e))?;
            tx.commit().await.map_err(|e| backend(&e))
        })
    }
}
