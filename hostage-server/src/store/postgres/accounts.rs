//! Accounts, sessions and account seats in PostgreSQL ([`AccountStore`]),
//! on a connection of their own, shared by every instance on the database:
//! a session made on one instance is found by every other.

use hostage_core::Color;
use tokio::sync::Mutex;
use tokio_postgres::{error::SqlState, Client, Row};

use crate::{
    domain::{color_named, TokenHash},
    store::accounts::{
        account_by_key_sql, account_by_session_sql, name_taken, AccountGame, AccountRecord,
        AccountStore, NewAccount, ACCOUNTS_SCHEMA, CLOSE_ACCOUNT, DELETE_ALL_SESSIONS,
        DELETE_OTHER_SESSIONS, DELETE_SESSION, INSERT_ACCOUNT, INSERT_SEAT, INSERT_SESSION,
        ONGOING_GAMES, SEAT_OF_ACCOUNT, SET_PASSWORD,
    },
    store::columns::{conflict_unless, int, uint},
    store::postgres::connect,
    store::puzzles::PUZZLES_SCHEMA,
    store::{StoreError, StoreFuture},
};

use super::backend;

/// Serializes the schema's creation between instances starting at once.
const SCHEMA_LOCK: i64 = 7_470_014;

/// The accounts of a PostgreSQL database.
pub struct PgAccounts {
    url: String,
    client: Mutex<Option<Client>>,
}

impl PgAccounts {
    /// Connects to `url` and creates the tables if missing.
    ///
    /// # Errors
    ///
    /// The database cannot be reached or refuses the schema.
    pub async fn open(url: &str) -> Result<PgAccounts, StoreError> {
        let client = connect(url).await?;
        client
            .batch_execute(&format!(
                "BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {ACCOUNTS_SCHEMA} {PUZZLES_SCHEMA} {DROP_SEAT_KEYS} COMMIT;"
            ))
            .await
            .map_err(|e| backend(&e))?;
        Ok(PgAccounts {
            url: url.to_owned(),
            client: Mutex::new(Some(client)),
        })
    }

    /// The connection, locked (reconnected if it dropped).
    pub(super) async fn connection(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, Option<Client>>, StoreError> {
        let mut slot = self.client.lock().await;
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(connect(&self.url).await?);
        }
        Ok(slot)
    }
}

pub(super) fn client(slot: &mut Option<Client>) -> Result<&mut Client, StoreError> {
    slot.as_mut()
        .ok_or_else(|| StoreError::Backend("no connection".into()))
}

pub(super) fn corrupt(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

/// Drops the `seat_key` column of a database made when account seats'
/// tokens were derived from it (a secret kept in clear). PostgreSQL frees
/// the old values' space at the table's next rewrite (`VACUUM FULL
/// accounts`, `docs/server.md`).
const DROP_SEAT_KEYS: &str = "ALTER TABLE accounts DROP COLUMN IF EXISTS seat_key;";

/// A row of `ACCOUNT_COLUMNS`.
fn account_of(row: &Row) -> Result<AccountRecord, StoreError> {
    let get = |e: tokio_postgres::Error| corrupt(&e);
    Ok(AccountRecord {
        id: row.try_get(0).map_err(get)?,
        username: row.try_get(1).map_err(get)?,
        password: row.try_get(2).map_err(get)?,
        created_ms: uint(row.try_get(3).map_err(get)?),
        closed_ms: row.try_get::<_, Option<i64>>(4).map_err(get)?.map(uint),
    })
}

fn game_of(row: &Row) -> Result<AccountGame, StoreError> {
    let get = |e: tokio_postgres::Error| corrupt(&e);
    let side: String = row.try_get(1).map_err(get)?;
    Ok(AccountGame {
        game: row.try_get(0).map_err(get)?,
        side: color_named(&side).ok_or_else(|| StoreError::Corrupt(format!("side {side:?}")))?,
        plies: uint(row.try_get(2).map_err(get)?),
        started: row.try_get(3).map_err(get)?,
        opponent: row.try_get(4).map_err(get)?,
        updated_ms: uint(row.try_get(5).map_err(get)?),
        timing: crate::store::columns::timing_of([
            row.try_get(6).map_err(get)?,
            row.try_get(7).map_err(get)?,
            row.try_get(8).map_err(get)?,
            row.try_get(9).map_err(get)?,
            row.try_get(10).map_err(get)?,
            row.try_get(11).map_err(get)?,
        ]),
    })
}

impl AccountStore for PgAccounts {
    fn create_account(&self, new: NewAccount) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let a = &new.account;
            let inserted = client(&mut slot)?
                .execute(
                    INSERT_ACCOUNT,
                    &[
                        &a.id,
                        &a.username,
                        &new.key,
                        &a.password,
                        &int(a.created_ms),
                    ],
                )
                .await;
            match inserted {
                Ok(_) => Ok(()),
                Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(name_taken()),
                Err(e) => Err(backend(&e)),
            }
        })
    }

    fn account_by_key<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<AccountRecord>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let row = client(&mut slot)?
                .query_opt(&account_by_key_sql(), &[&key])
                .await
                .map_err(|e| backend(&e))?;
            row.as_ref().map(account_of).transpose()
        })
    }

    fn account_by_session(
        &self,
        session: TokenHash,
        now_ms: u64,
    ) -> StoreFuture<'_, Option<AccountRecord>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let row = client(&mut slot)?
                .query_opt(
                    &account_by_session_sql(),
                    &[&session.to_hex(), &int(now_ms)],
                )
                .await
                .map_err(|e| backend(&e))?;
            row.as_ref().map(account_of).transpose()
        })
    }

    fn create_session<'a>(
        &'a self,
        session: TokenHash,
        account: &'a str,
        created_ms: u64,
        expires_ms: u64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            client(&mut slot)?
                .execute(
                    INSERT_SESSION,
                    &[
                        &session.to_hex(),
                        &account,
                        &int(created_ms),
                        &int(expires_ms),
                    ],
                )
                .await
                .map(drop)
                .map_err(|e| backend(&e))
        })
    }

    fn end_session(&self, session: TokenHash) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            client(&mut slot)?
                .execute(DELETE_SESSION, &[&session.to_hex()])
                .await
                .map(drop)
                .map_err(|e| backend(&e))
        })
    }

    fn end_sessions<'a>(
        &'a self,
        account: &'a str,
        keep: Option<TokenHash>,
    ) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            client(&mut slot)?
                .execute(
                    DELETE_OTHER_SESSIONS,
                    &[&account, &keep.map(|k| k.to_hex())],
                )
                .await
                .map_err(|e| backend(&e))
        })
    }

    fn set_password<'a>(
        &'a self,
        account: &'a str,
        phc: &'a str,
        keep: TokenHash,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = client(&mut slot)?
                .transaction()
                .await
                .map_err(|e| backend(&e))?;
            let changed = tx
                .execute(SET_PASSWORD, &[&phc, &account])
                .await
                .map_err(|e| backend(&e))?;
            conflict_unless(changed, "the account is closed")?;
            tx.execute(DELETE_OTHER_SESSIONS, &[&account, &Some(keep.to_hex())])
                .await
                .map_err(|e| backend(&e))?;
            tx.commit().await.map_err(|e| backend(&e))
        })
    }

    fn close_account<'a>(&'a self, account: &'a str, at_ms: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = client(&mut slot)?
                .transaction()
                .await
                .map_err(|e| backend(&e))?;
            let changed = tx
                .execute(CLOSE_ACCOUNT, &[&int(at_ms), &account])
                .await
                .map_err(|e| backend(&e))?;
            conflict_unless(changed, "the account is closed already")?;
            tx.execute(DELETE_ALL_SESSIONS, &[&account])
                .await
                .map_err(|e| backend(&e))?;
            tx.commit().await.map_err(|e| backend(&e))
        })
    }

    fn add_seat<'a>(
        &'a self,
        account: &'a str,
        game: &'a str,
        side: Color,
        at_ms: u64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            client(&mut slot)?
                .execute(INSERT_SEAT, &[&account, &game, &side.name(), &int(at_ms)])
                .await
                .map(drop)
                .map_err(|e| backend(&e))
        })
    }

    fn seat_of_account<'a>(
        &'a self,
        account: &'a str,
        game: &'a str,
    ) -> StoreFuture<'a, Option<Color>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let row = client(&mut slot)?
                .query_opt(SEAT_OF_ACCOUNT, &[&account, &game])
                .await
                .map_err(|e| backend(&e))?;
            let Some(row) = row else { return Ok(None) };
            let side: String = row.try_get(0).map_err(|e| corrupt(&e))?;
            color_named(&side)
                .map(Some)
                .ok_or_else(|| StoreError::Corrupt(format!("side {side:?}")))
        })
    }

    fn ongoing_games<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<AccountGame>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let rows = client(&mut slot)?
                .query(ONGOING_GAMES, &[&account])
                .await
                .map_err(|e| backend(&e))?;
            rows.iter().map(game_of).collect()
        })
    }
}
