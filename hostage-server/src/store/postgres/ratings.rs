//! Ratings in PostgreSQL (`store/ratings.rs`): the mark of a rated game,
//! the update run inside the transaction of the write that stores a
//! game's result (`writes.rs`), and the reads. Two instances that see one
//! ending both try to store it; the game's row, locked by the write's
//! first statement, orders them, and only the one whose condition holds
//! reaches the update. Two games of one player ending at once on two
//! instances are ordered by the players' rating rows, locked in the order
//! of their account ids (no deadlock).

use hostage_core::{ByColor, Color};
use tokio_postgres::{error::SqlState, GenericClient, Row, Transaction};

use super::{backend, PostgresStore};
use crate::{
    domain::rating::category::Category,
    domain::rating::instant::{Perf, LICHESS},
    domain::End,
    store::columns::{conflict_unless, int, uint},
    store::ratings::{
        after_end, category_of, changes_of, perf_of, player_game_of, HistoryPoint, PlayerGame,
        RatedGame, RatingChange, RatingStore, INSERT_HISTORY, INSERT_RATED, SELECT_CHANGES,
        SELECT_HISTORY, SELECT_LEADERS, SELECT_PERFS, SELECT_PLAYER_GAMES, SELECT_RATED,
        UPSERT_PERF,
    },
    store::{StoreError, StoreFuture},
};

fn corrupt(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

/// [`crate::store::Write::RateGame`].
pub(super) async fn rate_game(tx: &Transaction<'_>, rated: &RatedGame) -> Result<(), StoreError> {
    let n = tx
        .execute(
            INSERT_RATED,
            &[
                &rated.game,
                &rated.category.name(),
                &rated.accounts.white,
                &rated.accounts.black,
            ],
        )
        .await
        .map_err(|e| {
            if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
                StoreError::Conflict("the game is rated already".into())
            } else {
                backend(&e)
            }
        })?;
    conflict_unless(n, "no such game waiting for a player")
}

async fn rated(client: &impl GenericClient, game: &str) -> Result<Option<RatedGame>, StoreError> {
    let Some(row) = client
        .query_opt(SELECT_RATED, &[&game])
        .await
        .map_err(|e| backend(&e))?
    else {
        return Ok(None);
    };
    let get = |e: tokio_postgres::Error| corrupt(&e);
    let category: String = row.try_get(0).map_err(get)?;
    Ok(Some(RatedGame {
        game: game.to_string(),
        category: category_of(&category)?,
        accounts: ByColor::new(row.try_get(1).map_err(get)?, row.try_get(2).map_err(get)?),
    }))
}

fn perf_row(row: &Row, from: usize) -> Result<Perf, StoreError> {
    let get = |e: tokio_postgres::Error| corrupt(&e);
    Ok(perf_of((
        row.try_get(from).map_err(get)?,
        row.try_get(from + 1).map_err(get)?,
        row.try_get(from + 2).map_err(get)?,
        row.try_get(from + 3).map_err(get)?,
        row.try_get(from + 4).map_err(get)?,
    )))
}

/// The account's rating in `category`, its row made if missing and
/// locked until the transaction ends.
async fn locked_perf(
    tx: &Transaction<'_>,
    account: &str,
    category: Category,
) -> Result<Perf, StoreError> {
    let start = Perf::new(&LICHESS).glicko;
    tx.execute(
        "INSERT INTO ratings (account, category, rating, deviation, volatility, games, last_ms)
         VALUES ($1, $2, $3, $4, $5, 0, NULL) ON CONFLICT (account, category) DO NOTHING",
        &[
            &account,
            &category.name(),
            &start.rating,
            &start.deviation,
            &start.volatility,
        ],
    )
    .await
    .map_err(|e| backend(&e))?;
    let row = tx
        .query_one(
            "SELECT rating, deviation, volatility, games, last_ms FROM ratings
             WHERE account = $1 AND category = $2 FOR UPDATE",
            &[&account, &category.name()],
        )
        .await
        .map_err(|e| backend(&e))?;
    perf_row(&row, 0)
}

/// The rating update of a game whose result this write has just stored
/// (its condition held): nothing if the game is unrated or aborted.
pub(super) async fn on_end(
    tx: &Transaction<'_>,
    game: &str,
    end: &End,
    now_ms: u64,
) -> Result<(), StoreError> {
    let Some(rated) = rated(tx, game).await? else {
        return Ok(());
    };
    let mut order = [Color::White, Color::Black];
    order.sort_by(|a, b| rated.accounts.get(*a).cmp(rated.accounts.get(*b)));
    let mut before = ByColor::new(Perf::new(&LICHESS), Perf::new(&LICHESS));
    for side in order {
        *before.get_mut(side) = locked_perf(tx, rated.accounts.get(side), rated.category).await?;
    }
    let Some(moved) = after_end(before, end, now_ms) else {
        return Ok(());
    };
    for side in Color::ALL {
        let account = rated.accounts.get(side);
        let (was, now) = moved.get(side);
        let g = now.glicko;
        tx.execute(
            UPSERT_PERF,
            &[
                account,
                &rated.category.name(),
                &g.rating,
                &g.deviation,
                &g.volatility,
                &i64::from(now.games),
                &now.last_rated_ms.map(int),
            ],
        )
        .await
        .map_err(|e| backend(&e))?;
        tx.execute(
            INSERT_HISTORY,
            &[
                account,
                &rated.category.name(),
                &game,
                &side.name(),
                &was.glicko.rating,
                &g.rating,
                &g.deviation,
                &int(now_ms),
            ],
        )
        .await
        .map_err(|e| backend(&e))?;
    }
    Ok(())
}

impl RatingStore for PostgresStore {
    fn player_games<'a>(
        &'a self,
        account: &'a str,
        before_ms: u64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<PlayerGame>> {
        let account = account.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let rows = client
                    .query(
                        SELECT_PLAYER_GAMES,
                        &[&account, &int(before_ms), &i64::from(limit)],
                    )
                    .await
                    .map_err(|e| backend(&e))?;
                let get = |e: tokio_postgres::Error| corrupt(&e);
                rows.iter()
                    .map(|r| {
                        player_game_of((
                            r.try_get(0).map_err(get)?,
                            r.try_get(1).map_err(get)?,
                            r.try_get(2).map_err(get)?,
                            r.try_get(3).map_err(get)?,
                            r.try_get(4).map_err(get)?,
                            (r.try_get(5).map_err(get)?, r.try_get(6).map_err(get)?),
                            r.try_get(7).map_err(get)?,
                            i64::from(r.try_get::<_, i32>(8).map_err(get)?),
                        ))
                    })
                    .collect()
            })
        }))
    }

    fn leaders(
        &self,
        category: Category,
        min_games: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<(String, Perf)>> {
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let rows = client
                    .query(
                        SELECT_LEADERS,
                        &[&category.name(), &i64::from(min_games), &i64::from(limit)],
                    )
                    .await
                    .map_err(|e| backend(&e))?;
                rows.iter()
                    .map(|r| {
                        let name: String = r.try_get(0).map_err(|e| corrupt(&e))?;
                        Ok((name, perf_row(r, 1)?))
                    })
                    .collect()
            })
        }))
    }

    fn rated<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<RatedGame>> {
        let game = game.to_string();
        Box::pin(
            self.with_client(move |client| {
                Box::pin(async move { rated(&client.client, &game).await })
            }),
        )
    }

    fn perfs<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<(Category, Perf)>> {
        let account = account.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let rows = client
                    .query(SELECT_PERFS, &[&account])
                    .await
                    .map_err(|e| backend(&e))?;
                rows.iter()
                    .map(|row| {
                        let c: String = row.try_get(0).map_err(|e| corrupt(&e))?;
                        Ok((category_of(&c)?, perf_row(row, 1)?))
                    })
                    .collect()
            })
        }))
    }

    fn changes<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<ByColor<RatingChange>>> {
        let game = game.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let rows = client
                    .query(SELECT_CHANGES, &[&game])
                    .await
                    .map_err(|e| backend(&e))?;
                let get = |e: tokio_postgres::Error| corrupt(&e);
                let rows = rows
                    .iter()
                    .map(|r| {
                        Ok((
                            r.try_get(0).map_err(get)?,
                            r.try_get(1).map_err(get)?,
                            r.try_get(2).map_err(get)?,
                            r.try_get(3).map_err(get)?,
                        ))
                    })
                    .collect::<Result<Vec<_>, StoreError>>()?;
                changes_of(rows)
            })
        }))
    }

    fn history<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<HistoryPoint>> {
        let account = account.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let rows = client
                    .query(SELECT_HISTORY, &[&account])
                    .await
                    .map_err(|e| backend(&e))?;
                let get = |e: tokio_postgres::Error| corrupt(&e);
                rows.iter()
                    .map(|r| {
                        let c: String = r.try_get(0).map_err(get)?;
                        Ok(HistoryPoint {
                            category: category_of(&c)?,
                            at_ms: uint(r.try_get(1).map_err(get)?),
                            rating: r.try_get(2).map_err(get)?,
                        })
                    })
                    .collect()
            })
        }))
    }
}
