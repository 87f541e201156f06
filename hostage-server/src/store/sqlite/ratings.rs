//! Ratings in the SQLite file (`store/ratings.rs`): the tables, the mark
//! of a rated game, the update run inside the write that stores a game's
//! result (the writer thread's transaction, `writes.rs`), and the reads.

use hostage_core::{ByColor, Color};
use rusqlite::{params, Connection, OptionalExtension};

use super::{backend, SqliteStore};
use crate::{
    domain::rating::category::Category,
    domain::rating::instant::{Perf, LICHESS},
    domain::End,
    store::columns::{conflict_unless, int, uint},
    store::ratings::{
        after_end, category_of, changes_of, perf_of, player_game_of, HistoryPoint, PlayerGame,
        RatedGame, RatingChange, RatingStore, INSERT_HISTORY, INSERT_RATED, SELECT_CHANGES,
        SELECT_HISTORY, SELECT_LEADERS, SELECT_PERF, SELECT_PERFS, SELECT_PLAYER_GAMES,
        SELECT_RATED, UPSERT_PERF,
    },
    store::{StoreError, StoreFuture},
};

/// Creates the rating tables if missing.
pub(super) fn create_tables(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch(crate::store::ratings::SCHEMA)
        .map_err(backend)
}

/// [`crate::store::Write::RateGame`].
pub(super) fn rate_game(conn: &Connection, rated: &RatedGame) -> Result<(), StoreError> {
    let n = conn
        .execute(
            INSERT_RATED,
            params![
                rated.game,
                rated.category.name(),
                rated.accounts.white,
                rated.accounts.black
            ],
        )
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ConstraintViolation) => {
                StoreError::Conflict("the game is rated already".into())
            }
            _ => backend(e),
        })?;
    conflict_unless(n as u64, "no such game waiting for a player")
}

fn rated(conn: &Connection, game: &str) -> Result<Option<RatedGame>, StoreError> {
    let row: Option<(String, String, String)> = conn
        .query_row(SELECT_RATED, params![game], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .optional()
        .map_err(backend)?;
    row.map(|(category, white, black)| {
        Ok(RatedGame {
            game: game.to_string(),
            category: category_of(&category)?,
            accounts: ByColor::new(white, black),
        })
    })
    .transpose()
}

fn perf(conn: &Connection, account: &str, category: Category) -> Result<Perf, StoreError> {
    let row = conn
        .query_row(SELECT_PERF, params![account, category.name()], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .optional()
        .map_err(backend)?;
    Ok(row.map_or_else(|| Perf::new(&LICHESS), perf_of))
}

/// The rating update of a game whose result this write has just stored
/// (its condition held): nothing if the game is unrated or aborted.
pub(super) fn on_end(
    conn: &Connection,
    game: &str,
    end: &End,
    now_ms: u64,
) -> Result<(), StoreError> {
    let Some(rated) = rated(conn, game)? else {
        return Ok(());
    };
    let before = ByColor::new(
        perf(conn, &rated.accounts.white, rated.category)?,
        perf(conn, &rated.accounts.black, rated.category)?,
    );
    let Some(moved) = after_end(before, end, now_ms) else {
        return Ok(());
    };
    for side in Color::ALL {
        let account = rated.accounts.get(side);
        let (was, now) = moved.get(side);
        let g = now.glicko;
        conn.execute(
            UPSERT_PERF,
            params![
                account,
                rated.category.name(),
                g.rating,
                g.deviation,
                g.volatility,
                i64::from(now.games),
                now.last_rated_ms.map(int)
            ],
        )
        .map_err(backend)?;
        conn.execute(
            INSERT_HISTORY,
            params![
                account,
                rated.category.name(),
                game,
                side.name(),
                was.glicko.rating,
                g.rating,
                g.deviation,
                int(now_ms)
            ],
        )
        .map_err(backend)?;
    }
    Ok(())
}

impl RatingStore for SqliteStore {
    fn player_games<'a>(
        &'a self,
        account: &'a str,
        before_ms: u64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<PlayerGame>> {
        let account = account.to_string();
        Box::pin(self.read(move |conn| {
            let mut stmt = conn.prepare(SELECT_PLAYER_GAMES).map_err(backend)?;
            let rows = stmt
                .query_map(params![account, int(before_ms), i64::from(limit)], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        (r.get(5)?, r.get(6)?),
                        r.get(7)?,
                        r.get(8)?,
                    ))
                })
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            rows.into_iter().map(player_game_of).collect()
        }))
    }

    fn leaders(
        &self,
        category: Category,
        min_games: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<(String, Perf)>> {
        Box::pin(self.read(move |conn| {
            let mut stmt = conn.prepare(SELECT_LEADERS).map_err(backend)?;
            let rows = stmt
                .query_map(
                    params![category.name(), i64::from(min_games), i64::from(limit)],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?),
                        ))
                    },
                )
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            Ok(rows
                .into_iter()
                .map(|(name, row)| (name, perf_of(row)))
                .collect())
        }))
    }

    fn rated<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<RatedGame>> {
        let game = game.to_string();
        Box::pin(self.read(move |conn| rated(conn, &game)))
    }

    fn perfs<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<(Category, Perf)>> {
        let account = account.to_string();
        Box::pin(self.read(move |conn| {
            let mut stmt = conn.prepare(SELECT_PERFS).map_err(backend)?;
            let rows = stmt
                .query_map(params![account], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?),
                    ))
                })
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            rows.into_iter()
                .map(|(c, row)| Ok((category_of(&c)?, perf_of(row))))
                .collect()
        }))
    }

    fn changes<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<ByColor<RatingChange>>> {
        let game = game.to_string();
        Box::pin(self.read(move |conn| {
            let mut stmt = conn.prepare(SELECT_CHANGES).map_err(backend)?;
            let rows = stmt
                .query_map(params![game], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            changes_of(rows)
        }))
    }

    fn history<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<HistoryPoint>> {
        let account = account.to_string();
        Box::pin(self.read(move |conn| {
            let mut stmt = conn.prepare(SELECT_HISTORY).map_err(backend)?;
            let rows = stmt
                .query_map(params![account], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get(2)?))
                })
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            rows.into_iter()
                .map(|(c, at, rating)| {
                    Ok(HistoryPoint {
                        category: category_of(&c)?,
                        at_ms: uint(at),
                        rating,
                    })
                })
                .collect()
        }))
    }
}
