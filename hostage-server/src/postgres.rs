//! The PostgreSQL [`Store`]: games in a database server that several
//! `hostage serve` instances share.
//!
//! Policy:
//! - every write is one transaction on a pooled connection, committed with
//!   `synchronous_commit = on` before [`Store::write`] returns, so an
//!   acknowledged change is durable; the conditions of `store.rs` are SQL
//!   (`WHERE` clauses), and `moves` has the primary key `(game, ply)`: two
//!   instances can never both store a move for one ply (the second insert
//!   fails with a unique violation and becomes [`StoreError::Conflict`]);
//! - each write also bumps the game's `version` and sends `NOTIFY
//!   hostage_games, '<id> <origin>'` inside its transaction, so the
//!   notification is delivered exactly when the change is committed, to
//!   every instance (each store ignores its own `origin`: its server
//!   already knows);
//! - one more connection `LISTEN`s and passes the ids on ([`Store::changes`]).
//!   When that connection drops, notifications may have been missed: it
//!   reconnects and announces [`Changed::All`], and every instance re-reads
//!   its games by ply (the catch-up in `games.rs`).

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc,
};

use futures_util::StreamExt;
use hostage_core::Color;
use tokio::sync::{broadcast, Mutex};
use tokio_postgres::{error::SqlState, AsyncMessage, Client, NoTls};

use crate::{
    columns::{
        clock_params, clock_spec_params, conflict_unless, end_params, int, read_game, read_move,
        token_params, uint, MoveRow, GAME_COLUMNS, MOVE_COLUMNS,
    },
    store::{Changed, NewGame, Store, StoreError, StoreFuture, StoredGame, Write},
};

/// Connections kept for reads and writes: each carries one transaction
/// at a time, and PostgreSQL commits concurrent transactions in groups.
pub const POOL: usize = 16;

/// The channel of change notifications.
const CHANNEL: &str = "hostage_games";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id           TEXT PRIMARY KEY,
    created_ms   BIGINT NOT NULL,
    start_fen    TEXT NOT NULL,
    initial_ms   BIGINT,
    increment_ms BIGINT,
    white_token  TEXT, -- the SHA-256 of the seat's token, in hex
    black_token  TEXT,
    white_ms     BIGINT,
    black_ms     BIGINT,
    draw_offer   TEXT,
    termination  TEXT,
    winner       TEXT,
    updated_ms   BIGINT NOT NULL,
    version      BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (created_ms) WHERE termination IS NULL;
CREATE TABLE IF NOT EXISTS moves (
    game      TEXT NOT NULL REFERENCES games (id),
    ply       BIGINT NOT NULL,
    uci       TEXT NOT NULL,
    white_ms  BIGINT,
    black_ms  BIGINT,
    at_ms     BIGINT NOT NULL,
    PRIMARY KEY (game, ply)
);
";

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    url: String,
    pool: Vec<Mutex<Option<Client>>>,
    next: AtomicUsize,
    changes: broadcast::Sender<Changed>,
    /// This store's mark in its notifications: its own are not announced
    /// (the server that wrote already knows).
    origin: String,
}

fn backend(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

async fn connect(url: &str) -> Result<Client, StoreError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| backend(&e))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "PostgreSQL connection ended");
        }
    });
    Ok(client)
}

impl PostgresStore {
    /// Connects to `url` (`postgres://USER@HOST:PORT/DB`), creates the
    /// tables if missing, and starts listening for other instances' changes.
    ///
    /// # Errors
    ///
    /// The database cannot be reached or refuses the schema.
    pub async fn open(url: &str) -> Result<Arc<PostgresStore>, StoreError> {
        let first = connect(url).await?;
        // Two instances starting at once: the schema is created under a lock.
        first
            .batch_execute(&format!(
                "BEGIN; SELECT pg_advisory_xact_lock(7470011); {SCHEMA} COMMIT;"
            ))
            .await
            .map_err(|e| backend(&e))?;
        let mut pool = vec![Mutex::new(Some(first))];
        for _ in 1..POOL {
            pool.push(Mutex::new(Some(connect(url).await?)));
        }
        let (changes, _) = broadcast::channel(4096);
        let origin =
            crate::ids::token().map_err(|_| StoreError::Backend("no random source".into()))?;
        let store = Arc::new(PostgresStore {
            url: url.to_string(),
            pool,
            next: AtomicUsize::new(0),
            changes,
            origin,
        });
        let listening = listen(url, store.changes.clone(), store.origin.clone()).await?;
        tokio::spawn(keep_listening(
            url.to_string(),
            store.changes.clone(),
            store.origin.clone(),
            listening,
        ));
        Ok(store)
    }

    /// Runs `f` on a pooled connection (reconnecting one that dropped).
    async fn with_client<T>(
        &self,
        f: impl for<'c> FnOnce(
            &'c mut Client,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<T, StoreError>> + Send + 'c>,
        >,
    ) -> Result<T, StoreError> {
        // A free connection if there is one, else the next in turn.
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let n = self.pool.len();
        let free = (0..n).find_map(|k| self.pool[(start + k) % n].try_lock().ok());
        let mut slot = match free {
            Some(slot) => slot,
            None => self.pool[start % n].lock().await,
        };
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(connect(&self.url).await?);
        }
        let client = slot
            .as_mut()
            .ok_or_else(|| StoreError::Backend("no connection".into()))?;
        f(client).await
    }
}

/// A `LISTEN`ing connection: its notifications go to `changes` until it
/// drops, when the returned task ends. The client must be kept meanwhile.
async fn listen(
    url: &str,
    changes: broadcast::Sender<Changed>,
    origin: String,
) -> Result<(Client, tokio::task::JoinHandle<()>), StoreError> {
    let (client, mut connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| backend(&e))?;
    let task = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    // The payload is "<game> <origin>".
                    let (game, from) = n.payload().split_once(' ').unwrap_or((n.payload(), ""));
                    if from != origin {
                        let _ = changes.send(Changed::Game(game.to_string()));
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "PostgreSQL listener failed");
                    break;
                }
            }
        }
    });
    if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
        task.abort();
        return Err(backend(&e));
    }
    Ok((client, task))
}

/// Keeps a listener running: when it ends, reconnects (once a second until
/// it can) and announces [`Changed::All`], since notifications may have been
/// missed meanwhile.
async fn keep_listening(
    url: String,
    changes: broadcast::Sender<Changed>,
    origin: String,
    mut current: (Client, tokio::task::JoinHandle<()>),
) {
    loop {
        let _ = (&mut current.1).await;
        tracing::warn!("PostgreSQL listener lost; reconnecting");
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            if let Ok(next) = listen(&url, changes.clone(), origin.clone()).await {
                current = next;
                break;
            }
        }
        let _ = changes.send(Changed::All);
    }
}

fn write_error(e: &tokio_postgres::Error, what: &str) -> StoreError {
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(what.to_string())
    } else {
        backend(e)
    }
}

/// Applies one write inside `tx`.
async fn apply(tx: &tokio_postgres::Transaction<'_>, write: &Write) -> Result<(), StoreError> {
    let now = int(crate::now_ms());
    match write {
        Write::CreateGame(NewGame {
            id,
            created_ms,
            start_fen,
            clock,
            seat,
            token,
        }) => {
            let (white, black) = token_params(*seat, token);
            let (initial, increment) = clock_spec_params(*clock);
            tx.execute(
                "INSERT INTO games (id, created_ms, start_fen, initial_ms, increment_ms,
                    white_token, black_token, white_ms, black_ms, updated_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $4, $4, $8)",
                &[
                    id,
                    &int(*created_ms),
                    start_fen,
                    &initial,
                    &increment,
                    &white,
                    &black,
                    &now,
                ],
            )
            .await
            .map_err(|e| write_error(&e, &format!("game {id} exists")))?;
            Ok(())
        }
        Write::TakeSeat {
            game,
            side,
            token,
            clocks,
        } => {
            let (w, b) = clock_params(*clocks);
            let sql = match side {
                Color::White => {
                    "UPDATE games SET white_token = $2, white_ms = coalesce($3, white_ms),
                     black_ms = coalesce($4, black_ms), updated_ms = $5, version = version + 1
                     WHERE id = $1 AND white_token IS NULL AND termination IS NULL"
                }
                Color::Black => {
                    "UPDATE games SET black_token = $2, white_ms = coalesce($3, white_ms),
                     black_ms = coalesce($4, black_ms), updated_ms = $5, version = version + 1
                     WHERE id = $1 AND black_token IS NULL AND termination IS NULL"
                }
            };
            let n = tx
                .execute(sql, &[game, &token.to_hex(), &w, &b, &now])
                .await
                .map_err(|e| backend(&e))?;
            conflict_unless(n, "the seat is taken")
        }
        Write::Move {
            game,
            ply,
            uci,
            clocks,
            at_ms,
            end,
        } => {
            let (w, b) = clock_params(*clocks);
            let (termination, winner) = end_params(*end);
            // The row lock taken here orders two instances' moves of one
            // game; the primary key refuses the second at the same ply.
            let n = tx
                .execute(
                    "UPDATE games SET white_ms = coalesce($2, white_ms), black_ms = coalesce($3, black_ms),
                        draw_offer = NULL, termination = $4, winner = $5, updated_ms = $6,
                        version = version + 1
                     WHERE id = $1 AND termination IS NULL
                       AND white_token IS NOT NULL AND black_token IS NOT NULL",
                    &[game, &w, &b, &termination, &winner, &int(*at_ms)],
                )
                .await
                .map_err(|e| backend(&e))?;
            conflict_unless(n, "the game has ended or waits for a player")?;
            let count: i64 = tx
                .query_one("SELECT count(*) FROM moves WHERE game = $1", &[game])
                .await
                .map_err(|e| backend(&e))?
                .get(0);
            if uint(count) != *ply {
                return Err(StoreError::Conflict(format!(
                    "the game is at ply {count}, not {ply}"
                )));
            }
            tx.execute(
                "INSERT INTO moves (game, ply, uci, white_ms, black_ms, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[game, &int(*ply), uci, &w, &b, &int(*at_ms)],
            )
            .await
            .map_err(|e| write_error(&e, &format!("ply {ply} is stored")))?;
            Ok(())
        }
        Write::DrawOffer { game, by } => {
            let n = tx
                .execute(
                    "UPDATE games SET draw_offer = $2, updated_ms = $3, version = version + 1
                     WHERE id = $1 AND termination IS NULL",
                    &[game, &by.map(Color::name), &now],
                )
                .await
                .map_err(|e| backend(&e))?;
            conflict_unless(n, "the game has ended")
        }
        Write::Finish { game, end, clocks } => {
            let (w, b) = clock_params(*clocks);
            let (termination, winner) = end_params(Some(*end));
            let n = tx
                .execute(
                    "UPDATE games SET white_ms = coalesce($2, white_ms), black_ms = coalesce($3, black_ms),
                        draw_offer = NULL, termination = $4, winner = $5, updated_ms = $6,
                        version = version + 1
                     WHERE id = $1 AND termination IS NULL",
                    &[game, &w, &b, &termination, &winner, &now],
                )
                .await
                .map_err(|e| backend(&e))?;
            conflict_unless(n, "the game has ended")
        }
    }
}

async fn load(client: &Client, id: &str) -> Result<Option<StoredGame>, StoreError> {
    let Some(row) = client
        .query_opt(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
            &[&id],
        )
        .await
        .map_err(|e| backend(&e))?
    else {
        return Ok(None);
    };
    let game = read_game(|i| row.try_get(i), |i| row.try_get(i)).map_err(|e| backend(&e))?;
    let moves = client
        .query(
            &format!("SELECT {MOVE_COLUMNS} FROM moves WHERE game = $1 ORDER BY ply"),
            &[&id],
        )
        .await
        .map_err(|e| backend(&e))?
        .iter()
        .map(|r| {
            read_move(|i| r.try_get(i), |i| r.try_get(i))
                .map_err(|e| backend(&e))
                .and_then(MoveRow::into_move)
        })
        .collect::<Result<_, _>>()?;
    game.into_game(moves).map(Some)
}

impl Store for PostgresStore {
    fn write(&self, write: Write) -> StoreFuture<'_, ()> {
        let payload = format!("{} {}", write.game(), self.origin);
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let tx = client.transaction().await.map_err(|e| backend(&e))?;
                apply(&tx, &write).await?;
                tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
                    .await
                    .map_err(|e| backend(&e))?;
                tx.commit().await.map_err(|e| backend(&e))
            })
        }))
    }

    fn load<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<StoredGame>> {
        let id = game.to_string();
        Box::pin(self.with_client(move |client| Box::pin(async move { load(client, &id).await })))
    }

    fn unfinished(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.with_client(|client| {
            Box::pin(async move {
                Ok(client
                    .query(
                        "SELECT id FROM games WHERE termination IS NULL ORDER BY created_ms",
                        &[],
                    )
                    .await
                    .map_err(|e| backend(&e))?
                    .into_iter()
                    .map(|r| r.get(0))
                    .collect())
            })
        }))
    }

    fn changes(&self) -> Option<broadcast::Receiver<Changed>> {
        Some(self.changes.subscribe())
    }
}
