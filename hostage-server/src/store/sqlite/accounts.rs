//! Accounts, sessions and account seats in the SQLite file
//! ([`AccountStore`]), on a connection of their own: account requests are
//! few and not on the moves' path, so they do not queue behind the games'
//! writer (WAL lets both connections write the file, one at a time, with
//! the busy timeout of every connection of this store).

use std::{
    path::Path,
    sync::{Arc, Mutex},
};

use hostage_core::Color;
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::{
    domain::{color_named, TokenHash},
    store::accounts::{
        account_by_key_sql, account_by_session_sql, name_taken, AccountGame, AccountRecord,
        AccountStore, NewAccount, ACCOUNTS_SCHEMA, CLOSE_ACCOUNT, DELETE_ALL_SESSIONS,
        DELETE_OTHER_SESSIONS, DELETE_SESSION, INSERT_ACCOUNT, INSERT_SEAT, INSERT_SESSION,
        ONGOING_GAMES, SEAT_OF_ACCOUNT, SET_PASSWORD,
    },
    store::columns::{conflict_unless, int, uint},
    store::puzzles::PUZZLES_SCHEMA,
    store::{StoreError, StoreFuture},
};

use super::{backend, open};

/// The accounts of a SQLite file.
pub struct SqliteAccounts {
    conn: Arc<Mutex<Connection>>,
}

impl SqliteAccounts {
    /// Opens the accounts' tables in the file at `path` (made if missing).
    ///
    /// # Errors
    ///
    /// The file cannot be opened or refuses the schema.
    pub fn open(path: &Path) -> Result<SqliteAccounts, StoreError> {
        let conn = open(path)?;
        conn.execute_batch(ACCOUNTS_SCHEMA).map_err(backend)?;
        conn.execute_batch(PUZZLES_SCHEMA).map_err(backend)?;
        drop_seat_keys(&conn)?;
        Ok(SqliteAccounts {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` on the connection, off the async threads.
    pub(super) fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let conn = Arc::clone(&self.conn);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut conn = conn
                    .lock()
                    .map_err(|_| StoreError::Backend("accounts lock poisoned".into()))?;
                f(&mut conn)
            })
            .await
            .map_err(|e| StoreError::Backend(e.to_string()))?
        })
    }
}

/// Drops the `seat_key` column of a database made when account seats'
/// tokens were derived from it (a secret kept in clear): `secure_delete`
/// zeroes the space the old values held, and a truncating checkpoint moves
/// the pages into the database file and empties the WAL.
fn drop_seat_keys(conn: &Connection) -> Result<(), StoreError> {
    let has: bool = conn
        .query_row(
            "SELECT count(*) > 0 FROM pragma_table_info('accounts') WHERE name = 'seat_key'",
            [],
            |r| r.get(0),
        )
        .map_err(backend)?;
    if !has {
        return Ok(());
    }
    conn.execute_batch(
        "PRAGMA secure_delete = ON; ALTER TABLE accounts DROP COLUMN seat_key;
         PRAGMA secure_delete = OFF;",
    )
    .map_err(backend)?;
    let busy: i64 = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
        .map_err(backend)?;
    if busy != 0 {
        tracing::warn!("the checkpoint after dropping the seat keys could not finish yet");
    }
    Ok(())
}

/// A row of `ACCOUNT_COLUMNS`.
fn account_of(row: &Row<'_>) -> rusqlite::Result<AccountRecord> {
    Ok(AccountRecord {
        id: row.get(0)?,
        username: row.get(1)?,
        password: row.get(2)?,
        created_ms: uint(row.get(3)?),
        closed_ms: row.get::<_, Option<i64>>(4)?.map(uint),
    })
}

fn game_of(row: &Row<'_>) -> rusqlite::Result<GameColumns> {
    Ok((
        (
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
            row.get(5)?,
        ),
        [
            row.get(6)?,
            row.get(7)?,
            row.get(8)?,
            row.get(9)?,
            row.get(10)?,
            row.get(11)?,
        ],
    ))
}

/// A row of `ONGOING_GAMES`: the game's columns, then its time columns.
type GameColumns = (
    (String, String, i64, bool, Option<String>, i64),
    [Option<i64>; 6],
);

impl AccountStore for SqliteAccounts {
    fn create_account(&self, new: NewAccount) -> StoreFuture<'_, ()> {
        self.run(move |conn| {
            let a = &new.account;
            let inserted = conn.execute(
                INSERT_ACCOUNT,
                params![a.id, a.username, new.key, a.password, int(a.created_ms)],
            );
            match inserted {
                Ok(_) => Ok(()),
                Err(rusqlite::Error::SqliteFailure(e, _))
                    if e.code == rusqlite::ErrorCode::ConstraintViolation =>
                {
                    Err(name_taken())
                }
                Err(e) => Err(backend(e)),
            }
        })
    }

    fn account_by_key<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<AccountRecord>> {
        let key = key.to_owned();
        self.run(move |conn| {
            conn.query_row(&account_by_key_sql(), [key], account_of)
                .optional()
                .map_err(backend)
        })
    }

    fn account_by_session(
        &self,
        session: TokenHash,
        now_ms: u64,
    ) -> StoreFuture<'_, Option<AccountRecord>> {
        self.run(move |conn| {
            conn.query_row(
                &account_by_session_sql(),
                params![session.to_hex(), int(now_ms)],
                account_of,
            )
            .optional()
            .map_err(backend)
        })
    }

    fn create_session<'a>(
        &'a self,
        session: TokenHash,
        account: &'a str,
        created_ms: u64,
        expires_ms: u64,
    ) -> StoreFuture<'a, ()> {
        let account = account.to_owned();
        self.run(move |conn| {
            conn.execute(
                INSERT_SESSION,
                params![session.to_hex(), account, int(created_ms), int(expires_ms)],
            )
            .map(drop)
            .map_err(backend)
        })
    }

    fn end_session(&self, session: TokenHash) -> StoreFuture<'_, ()> {
        self.run(move |conn| {
            conn.execute(DELETE_SESSION, [session.to_hex()])
                .map(drop)
                .map_err(backend)
        })
    }

    fn end_sessions<'a>(
        &'a self,
        account: &'a str,
        keep: Option<TokenHash>,
    ) -> StoreFuture<'a, u64> {
        let account = account.to_owned();
        self.run(move |conn| {
            let n = conn
                .execute(
                    DELETE_OTHER_SESSIONS,
                    params![account, keep.map(|k| k.to_hex())],
                )
                .map_err(backend)?;
            Ok(n as u64)
        })
    }

    fn set_password<'a>(
        &'a self,
        account: &'a str,
        phc: &'a str,
        keep: TokenHash,
    ) -> StoreFuture<'a, ()> {
        let (account, phc) = (account.to_owned(), phc.to_owned());
        self.run(move |conn| {
            let tx = conn.transaction().map_err(backend)?;
            let changed = tx
                .execute(SET_PASSWORD, params![phc, account])
                .map_err(backend)?;
            conflict_unless(changed as u64, "the account is closed")?;
            tx.execute(DELETE_OTHER_SESSIONS, params![account, keep.to_hex()])
                .map_err(backend)?;
            tx.commit().map_err(backend)
        })
    }

    fn close_account<'a>(&'a self, account: &'a str, at_ms: u64) -> StoreFuture<'a, ()> {
        let account = account.to_owned();
        self.run(move |conn| {
            let tx = conn.transaction().map_err(backend)?;
            let changed = tx
                .execute(CLOSE_ACCOUNT, params![int(at_ms), account])
                .map_err(backend)?;
            conflict_unless(changed as u64, "the account is closed already")?;
            tx.execute(DELETE_ALL_SESSIONS, [&account])
                .map_err(backend)?;
            tx.commit().map_err(backend)
        })
    }

    fn add_seat<'a>(
        &'a self,
        account: &'a str,
        game: &'a str,
        side: Color,
        at_ms: u64,
    ) -> StoreFuture<'a, ()> {
        let (account, game) = (account.to_owned(), game.to_owned());
        self.run(move |conn| {
            conn.execute(INSERT_SEAT, params![account, game, side.name(), int(at_ms)])
                .map(drop)
                .map_err(backend)
        })
    }

    fn seat_of_account<'a>(
        &'a self,
        account: &'a str,
        game: &'a str,
    ) -> StoreFuture<'a, Option<Color>> {
        let (account, game) = (account.to_owned(), game.to_owned());
        self.run(move |conn| {
            let side: Option<String> = conn
                .query_row(SEAT_OF_ACCOUNT, params![account, game], |r| r.get(0))
                .optional()
                .map_err(backend)?;
            side.map(|s| color_named(&s).ok_or_else(|| StoreError::Corrupt(format!("side {s:?}"))))
                .transpose()
        })
    }

    fn ongoing_games<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<AccountGame>> {
        let account = account.to_owned();
        self.run(move |conn| {
            let mut stmt = conn.prepare(ONGOING_GAMES).map_err(backend)?;
            let rows = stmt
                .query_map([account], game_of)
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            rows.into_iter()
                .map(|((game, side, plies, started, opponent, updated), time)| {
                    Ok(AccountGame {
                        game,
                        side: color_named(&side)
                            .ok_or_else(|| StoreError::Corrupt(format!("side {side:?}")))?,
                        plies: uint(plies),
                        started,
                        opponent,
                        updated_ms: uint(updated),
                        timing: crate::store::columns::timing_of(time),
                    })
                })
                .collect()
        })
    }
}
