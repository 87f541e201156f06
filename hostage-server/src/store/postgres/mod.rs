//! The PostgreSQL [`Store`]: games in a database server that several
//! `hostage serve` instances share.
//!
//! Policy:
//! - writes are **committed in groups** (`group.rs`): every write waiting
//!   is stored in one transaction, committed with `synchronous_commit = on`
//!   before any of their [`Store::write`]s returns, so an acknowledged
//!   change is durable; a write whose condition fails is refused alone and
//!   the others are stored; the conditions of `store/mod.rs` are SQL (`WHERE`
//!   clauses), and `moves` has the primary key `(game, ply)`: two
//!   instances can never both store a move for one ply;
//! - an accepted takeback also bumps the game's mark of takebacks
//!   (`takebacks`), in the transaction that deletes the moves;
//! - each write also bumps the game's `version`; once its group has
//!   committed, and before it is acknowledged, its game is announced with
//!   `NOTIFY hostage_games, '<id> <origin>'` to every instance (each store
//!   ignores its own `origin`: its server already knows); a move's
//!   announcement also carries its record (`postgres/payload.rs`), so that
//!   an instance that knows the game up to the move plays it without
//!   reading the store. The announcement
//!   is a transaction of its own (`group.rs` says why): an instance that
//!   stops between the two, or cannot announce, leaves the others to read
//!   the game when a follower arrives there, when they try to change it or
//!   when it has been quiet for a presence period (`games.rs`);
//! - every write locks its game's row first, and checks the moves counted
//!   by a statement after the lock, which sees every move committed before:
//!   so a move is stored only at the next ply, and a draw offer, its answer
//!   and an ending only if the game is still at the ply and with the offer
//!   its server saw (`store/mod.rs`);
//! - reads and presence use a pool of [`POOL`] connections, the writes
//!   two for each of the [`WRITERS`] (one to write, one to announce);
//! - presence ([`Store::mark_present`]) is a table of its own, upserted in
//!   batches, neither versioned nor announced;
//! - one more connection `LISTEN`s and passes the ids on ([`Store::changes`]).
//!   When that connection drops, notifications may have been missed: it
//!   reconnects and announces [`Changed::All`], and every instance re-reads
//!   its games by ply (the catch-up in `games.rs`).

mod accounts;
mod group;
mod lobby;
mod payload;
mod puzzles;
mod ratings;
mod writes;

pub use accounts::PgAccounts;
pub use group::{MAX_GROUP, WRITERS};
pub use lobby::PgLobby;
use writes::apply;

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc,
};

use futures_util::StreamExt;
use hostage_core::{ByColor, Color};
use tokio::sync::{broadcast, Mutex};
use tokio_postgres::{
    error::SqlState,
    types::{ToSql, Type},
    AsyncMessage, Client, NoTls, Statement,
};

use crate::{
    domain::names::DisplayName,
    domain::TokenHash,
    store::columns::{
        clock_params, clock_spec_params, conflict_unless, int, name_param, read_chat, read_game,
        read_move, token_params, uint, ChatRow, MoveRow, CHAT_COLUMNS, GAME_COLUMNS, MOVE_COLUMNS,
    },
    store::{
        Changed, NewGame, Store, StoreError, StoreFuture, StoredClocks, StoredGame, StoredTail,
        Write,
    },
};

/// Connections kept for reads and presence (the writes have their own,
/// [`WRITERS`]).
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
-- The rematch's id, once asked for (added after the first release).
ALTER TABLE games ADD COLUMN IF NOT EXISTS rematch TEXT;
-- The side whose takeback request stands (added with takeback requests).
ALTER TABLE games ADD COLUMN IF NOT EXISTS takeback TEXT;
-- Each seat's display name, if given (added with chat).
ALTER TABLE games ADD COLUMN IF NOT EXISTS white_name TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS black_name TEXT;
-- The mark of takebacks: how many were accepted in the game (moves are
-- otherwise only added, so a catch-up at the same mark reads only the new).
ALTER TABLE games ADD COLUMN IF NOT EXISTS takebacks BIGINT NOT NULL DEFAULT 0;
-- Correspondence (added with it): days per move, and the standing deadline
-- of the side to move (milliseconds since the Unix epoch); null for other
-- games. Each move keeps the deadline it set (moves.deadline_ms below).
ALTER TABLE games ADD COLUMN IF NOT EXISTS days BIGINT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS deadline_ms BIGINT;
-- Each seat's further tokens, one per device of the account that holds
-- it: SHA-256 digests in hex, oldest first, each followed by a space.
ALTER TABLE games ADD COLUMN IF NOT EXISTS white_devices TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS black_devices TEXT;
-- The unfinished games, oldest first (read when a server starts). The
-- predicate names created_ms, which no write's condition does, so a write
-- can only find its game by id, through the primary key: with the
-- predicate `termination IS NULL` alone, on a table without statistics yet,
-- the planner chose this index for every move's UPDATE and read every
-- unfinished game's row to find one.
DROP INDEX IF EXISTS games_unfinished;
CREATE INDEX IF NOT EXISTS games_open ON games (created_ms)
    WHERE termination IS NULL AND created_ms >= 0;
CREATE TABLE IF NOT EXISTS moves (
    game      TEXT NOT NULL REFERENCES games (id),
    ply       BIGINT NOT NULL,
    uci       TEXT NOT NULL,
    white_ms  BIGINT,
    black_ms  BIGINT,
    at_ms     BIGINT NOT NULL,
    PRIMARY KEY (game, ply)
);
ALTER TABLE moves ADD COLUMN IF NOT EXISTS deadline_ms BIGINT;
-- The players' chat: a line is stored only as its game's next (idx).
CREATE TABLE IF NOT EXISTS chat (
    game      TEXT NOT NULL REFERENCES games (id),
    idx       BIGINT NOT NULL,
    side      TEXT NOT NULL,
    text      TEXT NOT NULL,
    at_ms     BIGINT NOT NULL,
    PRIMARY KEY (game, idx)
);
-- When a connection last followed each seat, on any instance (claims of
-- abandonment compare it); not a change of the game: no version, no NOTIFY.
CREATE TABLE IF NOT EXISTS presence (
    game     TEXT NOT NULL,
    seat     TEXT NOT NULL,
    seen_ms  BIGINT NOT NULL,
    PRIMARY KEY (game, seat)
);
";

/// Games in a PostgreSQL database.
pub struct PostgresStore {
    url: String,
    pool: Vec<Mutex<Option<Reader>>>,
    next: AtomicUsize,
    changes: broadcast::Sender<Changed>,
    /// This store's mark in its notifications: its own are not announced
    /// (the server that wrote already knows).
    origin: String,
    /// The writes' queue and the writers that commit it in groups.
    group: group::Group,
}

fn backend(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// A connection to `url` with `synchronous_commit = on`, its driver task
/// spawned (the lobby's connections are made here too).
pub(crate) async fn connect(url: &str) -> Result<Client, StoreError> {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| backend(&e))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::warn!(error = %e, "PostgreSQL connection ended");
        }
    });
    // Set on each connection, whatever the database's or the role's
    // default: an acknowledged move must survive the database server.
    // Every statement the store prepares looks rows up by key, where a
    // generic plan is the plan: planning each execution again for its
    // parameters showed in the load benchmark's profile of PostgreSQL.
    client
        .batch_execute("SET synchronous_commit = on; SET plan_cache_mode = force_generic_plan")
        .await
        .map_err(|e| backend(&e))?;
    Ok(client)
}

/// A pooled connection, with the read of a game ([`load_sql`]) prepared on it:
/// a catch-up reads a game (its end) on every change another instance makes.
struct Reader {
    client: Client,
    load: Statement,
}

impl Reader {
    async fn connect(url: &str) -> Result<Reader, StoreError> {
        Reader::prepare(connect(url).await?).await
    }

    async fn prepare(client: Client) -> Result<Reader, StoreError> {
        let load = client
            .prepare_typed(&load_sql(), &[Type::TEXT, Type::INT8, Type::INT8])
            .await
            .map_err(|e| backend(&e))?;
        Ok(Reader { client, load })
    }
}

impl std::ops::Deref for Reader {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
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
                "BEGIN; SELECT pg_advisory_xact_lock(7470011); {SCHEMA} {} COMMIT;",
                crate::store::ratings::SCHEMA
            ))
            .await
            .map_err(|e| backend(&e))?;
        let mut pool = vec![Mutex::new(Some(Reader::prepare(first).await?))];
        for _ in 1..POOL {
            pool.push(Mutex::new(Some(Reader::connect(url).await?)));
        }
        let (changes, _) = broadcast::channel(4096);
        let origin = crate::store::ids::token()
            .map_err(|_| StoreError::Backend("no random source".into()))?;
        let group = group::Group::start(url, &origin).await?;
        let store = Arc::new(PostgresStore {
            url: url.to_string(),
            pool,
            next: AtomicUsize::new(0),
            changes,
            origin,
            group,
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
            &'c mut Reader,
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
        if slot.as_ref().is_none_or(|r| r.client.is_closed()) {
            *slot = Some(Reader::connect(&self.url).await?);
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
                    if let Some(changed) = payload::parse(n.payload(), &origin) {
                        let _ = changes.send(changed);
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

/// Inserts a game. A game already stored under the id inserts nothing, so
/// the conflict is a count of 0 rather than an error that would abort the
/// transaction: the statement needs no savepoint, and the group writer
/// pipelines it (`group.rs`).
pub(super) const INSERT_GAME: &str =
    "INSERT INTO games (id, created_ms, start_fen, initial_ms, increment_ms,
    white_token, black_token, white_ms, black_ms, updated_ms, white_name, black_name, days)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $4, $4, $8, $9, $10, $11)
 ON CONFLICT (id) DO NOTHING";

/// The parameters of [`INSERT_GAME`] for one new game.
pub(super) struct GameRow<'a> {
    id: &'a String,
    created_ms: i64,
    start_fen: &'a String,
    clock: (Option<i64>, Option<i64>),
    tokens: (Option<String>, Option<String>),
    now: i64,
    names: (Option<&'a str>, Option<&'a str>),
    days: Option<i64>,
}

impl<'a> GameRow<'a> {
    /// The row of `new`, stored at `now`.
    pub(super) fn of(new: &'a NewGame, now: i64) -> GameRow<'a> {
        let name = name_param(new.name.as_ref());
        GameRow {
            id: &new.id,
            created_ms: int(new.created_ms),
            start_fen: &new.start_fen,
            clock: clock_spec_params(new.clock),
            tokens: token_params(new.seat, &new.token),
            now,
            names: match new.seat {
                Color::White => (name, None),
                Color::Black => (None, name),
            },
            days: new.days.map(|d| i64::from(d.get())),
        }
    }

    /// The statement's parameters, `$1` to `$11`.
    pub(super) fn params(&self) -> [&(dyn ToSql + Sync); 11] {
        [
            self.id,
            &self.created_ms,
            self.start_fen,
            &self.clock.0,
            &self.clock.1,
            &self.tokens.0,
            &self.tokens.1,
            &self.now,
            &self.names.0,
            &self.names.1,
            &self.days,
        ]
    }

    /// The insert's count as the write's result.
    pub(super) fn stored(&self, inserted: u64) -> Result<(), StoreError> {
        if inserted == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict(format!("game {} exists", self.id)))
        }
    }
}

/// Takes a seat: one statement, its conflicts a count of 0, so it needs no
/// savepoint either.
pub(super) const TAKE_SEAT: ByColor<&str> = ByColor::new(
    "UPDATE games SET white_token = $2, white_ms = coalesce($3, white_ms),
     black_ms = coalesce($4, black_ms), updated_ms = $5, version = version + 1,
     white_name = $6, deadline_ms = coalesce($7, deadline_ms)
     WHERE id = $1 AND white_token IS NULL AND termination IS NULL",
    "UPDATE games SET black_token = $2, white_ms = coalesce($3, white_ms),
     black_ms = coalesce($4, black_ms), updated_ms = $5, version = version + 1,
     black_name = $6, deadline_ms = coalesce($7, deadline_ms)
     WHERE id = $1 AND black_token IS NULL AND termination IS NULL",
);

/// The parameters of [`TAKE_SEAT`] for one seat taken.
pub(super) struct SeatRow<'a> {
    pub(super) side: Color,
    game: &'a String,
    token: String,
    clocks: (Option<i64>, Option<i64>),
    now: i64,
    name: Option<&'a str>,
    deadline: Option<i64>,
}

impl<'a> SeatRow<'a> {
    /// The seat `side` of `game` taken at `now`, the clocks then `clocks`.
    pub(super) fn new(
        game: &'a String,
        side: Color,
        token: &TokenHash,
        (clocks, deadline): (StoredClocks, Option<u64>),
        name: Option<&'a DisplayName>,
        now: i64,
    ) -> SeatRow<'a> {
        SeatRow {
            side,
            game,
            token: token.to_hex(),
            clocks: clock_params(clocks),
            now,
            name: name_param(name),
            deadline: deadline.map(int),
        }
    }

    /// The statement's parameters, `$1` to `$7`.
    pub(super) fn params(&self) -> [&(dyn ToSql + Sync); 7] {
        [
            self.game,
            &self.token,
            &self.clocks.0,
            &self.clocks.1,
            &self.now,
            &self.name,
            &self.deadline,
        ]
    }

    /// The update's count as the write's result.
    pub(super) fn taken(updated: u64) -> Result<(), StoreError> {
        conflict_unless(updated, "the seat is taken")
    }
}

/// The stores of the PostgreSQL database at `url`, which several servers
/// may share: its games and its lobby.
///
/// # Errors
///
/// The database cannot be reached or refuses the schema.
pub async fn open_stores(url: &str) -> Result<super::Stores, StoreError> {
    Ok(super::Stores {
        games: PostgresStore::open(url).await?,
        lobby: PgLobby::open(url).await?,
        accounts: Arc::new(PgAccounts::open(url).await?),
    })
}

/// How many moves a game has: its last ply + 1, since its moves are stored
/// only at the next ply and taken back only from a ply on, so they are
/// always plies 0 to n - 1. One step down the `(game, ply)` index, where
/// `count(*)` reads every move of the game, on every move. A macro, so
/// that the statements that count inside a larger one (`group.rs`) are
/// built from the same text.
macro_rules! plies_sql {
    () => {
        "SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game = $1"
    };
}
use plies_sql;

/// [`plies_sql`] as a statement of its own.
const PLIES: &str = plies_sql!();

/// Checks, once the game's row is locked by this transaction, that the game
/// has `ply` moves. The count is a statement of its own: in `READ
/// COMMITTED` each statement reads what was committed when it starts, so
/// this one sees a move another instance committed while this transaction
/// waited for the row lock (a subquery of the `UPDATE` itself would not).
async fn at_ply(
    tx: &tokio_postgres::Transaction<'_>,
    game: &str,
    ply: u64,
) -> Result<(), StoreError> {
    let count: i64 = tx
        .query_one(PLIES, &[&game])
        .await
        .map_err(|e| backend(&e))?
        .get(0);
    if uint(count) == ply {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "the game is at ply {count}, not {ply}"
        )))
    }
}

/// A row of [`crate::store::columns::live_games_sql`].
fn live_game(row: &tokio_postgres::Row) -> Result<crate::store::live::LiveGame, StoreError> {
    let get = |e: tokio_postgres::Error| backend(&e);
    let int = |i: usize| row.try_get::<_, Option<i64>>(i).map_err(get);
    let count: i64 = row.try_get(3).map_err(get)?;
    let at = |i: usize| row.try_get::<_, i64>(i).map_err(get).map(uint);
    Ok(crate::store::live::LiveGame::new(
        row.try_get(0).map_err(get)?,
        ByColor::new(row.try_get(1).map_err(get)?, row.try_get(2).map_err(get)?),
        (uint(count), at(4)?, at(5)?),
        crate::store::columns::timing_of([int(6)?, int(7)?, int(8)?, int(9)?, int(10)?, int(11)?]),
    ))
}

/// The read of a game ([`GAME_COLUMNS`]), its moves from ply `$2` on and
/// its chat lines from index `$3` on (0 and 0 for the whole game), in one
/// statement and so in one snapshot (three statements, each with a
/// snapshot of its own, could pair a move committed between them with the
/// game's row from before it). The moves and the lines come as arrays, one
/// a column, after the game's columns: [`MOVE_COLUMNS`] then
/// [`CHAT_COLUMNS`], each array null when there are none.
fn load_sql() -> String {
    let agg = |columns: &str, order: &str| {
        columns
            .split(", ")
            .map(|c| format!("array_agg({c} ORDER BY {order})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "SELECT {GAME_COLUMNS}, m.*, c.* FROM games,
            (SELECT {} FROM moves WHERE game = $1 AND ply >= $2) AS m,
            (SELECT {} FROM chat WHERE game = $1 AND idx >= $3) AS c
         WHERE id = $1",
        agg(MOVE_COLUMNS, "ply"),
        agg(CHAT_COLUMNS, "idx"),
    )
}

/// How many names a list of columns has (they are separated by commas).
const fn column_count(columns: &str) -> usize {
    let bytes = columns.as_bytes();
    let (mut n, mut i) = (1, 0);
    while i < bytes.len() {
        if bytes[i] == b',' {
            n += 1;
        }
        i += 1;
    }
    n
}

/// Where the arrays of [`load_sql`] start.
const MOVES_AT: usize = column_count(GAME_COLUMNS);
const CHAT_AT: usize = MOVES_AT + column_count(MOVE_COLUMNS);
/// Which of the array columns hold texts ([`MOVE_COLUMNS`], [`CHAT_COLUMNS`]).
const MOVE_TEXTS: [bool; 6] = [false, true, false, false, false, false];
const CHAT_TEXTS: [bool; 4] = [false, true, true, false];

/// Array columns of a row, each decoded once (a missing array as empty).
struct Arrays {
    ints: Vec<Vec<Option<i64>>>,
    texts: Vec<Vec<Option<String>>>,
}

impl Arrays {
    /// The columns of `row` from `first`, a text column where `texts` says.
    fn read(row: &tokio_postgres::Row, first: usize, texts: &[bool]) -> Result<Arrays, StoreError> {
        let mut arrays = Arrays {
            ints: Vec::new(),
            texts: Vec::new(),
        };
        for (c, &text) in texts.iter().enumerate() {
            let (ints, texts) = if text {
                let v: Option<Vec<Option<String>>> =
                    row.try_get(first + c).map_err(|e| backend(&e))?;
                (Vec::new(), v.unwrap_or_default())
            } else {
                let v: Option<Vec<Option<i64>>> =
                    row.try_get(first + c).map_err(|e| backend(&e))?;
                (v.unwrap_or_default(), Vec::new())
            };
            arrays.ints.push(ints);
            arrays.texts.push(texts);
        }
        Ok(arrays)
    }

    /// Each element as a row, read by `read` through the getters
    /// [`read_move`] and [`read_chat`] take; the first column (the ply or
    /// the index) says how many. A missing element reads as null, which
    /// they refuse where it matters.
    fn rows<T>(
        &self,
        read: impl Fn(
            &dyn Fn(usize) -> Result<Option<i64>, StoreError>,
            &dyn Fn(usize) -> Result<Option<String>, StoreError>,
        ) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let n = self.ints.first().map_or(0, Vec::len);
        (0..n)
            .map(|k| {
                let int = |c: usize| Ok(self.ints.get(c).and_then(|v| v.get(k)).copied().flatten());
                let text =
                    |c: usize| Ok(self.texts.get(c).and_then(|v| v.get(k)).cloned().flatten());
                read(&int, &text)
            })
            .collect()
    }
}

async fn load_since(
    reader: &Reader,
    id: &str,
    from_ply: u64,
    from_chat: u64,
) -> Result<Option<StoredTail>, StoreError> {
    let Some(row) = reader
        .client
        .query_opt(&reader.load, &[&id, &int(from_ply), &int(from_chat)])
        .await
        .map_err(|e| backend(&e))?
    else {
        return Ok(None);
    };
    let game = read_game(|i| row.try_get(i), |i| row.try_get(i)).map_err(|e| backend(&e))?;
    let moves = Arrays::read(&row, MOVES_AT, &MOVE_TEXTS)?
        .rows(|int, text| read_move(int, text).and_then(MoveRow::into_move))?;
    let chat = Arrays::read(&row, CHAT_AT, &CHAT_TEXTS)?
        .rows(|int, text| read_chat(int, text).and_then(ChatRow::into_line))?;
    Ok(Some(StoredTail {
        game: game.into_game(moves, chat)?,
        from_ply,
        from_chat,
    }))
}

impl Store for PostgresStore {
    fn ratings(&self) -> Option<&dyn crate::store::ratings::RatingStore> {
        Some(self)
    }

    fn write(&self, write: Write) -> StoreFuture<'_, ()> {
        Box::pin(self.group.write(write))
    }

    fn load<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<StoredGame>> {
        let id = game.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move { Ok(load_since(client, &id, 0, 0).await?.map(|t| t.game)) })
        }))
    }

    fn load_since<'a>(
        &'a self,
        game: &'a str,
        from_ply: u64,
        from_chat: u64,
    ) -> StoreFuture<'a, Option<StoredTail>> {
        let id = game.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move { load_since(client, &id, from_ply, from_chat).await })
        }))
    }

    fn unfinished(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.with_client(|client| {
            Box::pin(async move {
                Ok(client
                    .query(
                        "SELECT id FROM games WHERE termination IS NULL AND created_ms >= 0
                         ORDER BY created_ms",
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

    fn live_games(&self, limit: u32) -> StoreFuture<'_, Vec<crate::store::live::LiveGame>> {
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let rows = client
                    .query(
                        &crate::store::columns::live_games_sql(),
                        &[&i64::from(limit)],
                    )
                    .await
                    .map_err(|e| backend(&e))?;
                rows.iter().map(live_game).collect()
            })
        }))
    }

    fn mark_present(&self, mut seats: Vec<(String, Color)>, at_ms: u64) -> StoreFuture<'_, ()> {
        // One order for every instance's batch, so that two upserts never
        // wait for each other's rows crosswise (a deadlock).
        seats.sort_by(|a, b| (&a.0, a.1.name()).cmp(&(&b.0, b.1.name())));
        seats.dedup();
        let (games, sides): (Vec<String>, Vec<&'static str>) =
            seats.into_iter().map(|(g, s)| (g, s.name())).unzip();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                client
                    .execute(
                        "INSERT INTO presence (game, seat, seen_ms)
                         SELECT g, s, $3 FROM unnest($1::text[], $2::text[]) AS t(g, s) ORDER BY g, s
                         ON CONFLICT (game, seat)
                         DO UPDATE SET seen_ms = greatest(presence.seen_ms, excluded.seen_ms)",
                        &[&games, &sides, &int(at_ms)],
                    )
                    .await
                    .map_err(|e| backend(&e))?;
                Ok(())
            })
        }))
    }

    fn last_present<'a>(&'a self, game: &'a str) -> StoreFuture<'a, ByColor<Option<u64>>> {
        let id = game.to_string();
        Box::pin(self.with_client(move |client| {
            Box::pin(async move {
                let mut seen = ByColor::<Option<u64>>::default();
                for row in client
                    .query("SELECT seat, seen_ms FROM presence WHERE game = $1", &[&id])
                    .await
                    .map_err(|e| backend(&e))?
                {
                    let seat: String = row.try_get(0).map_err(|e| backend(&e))?;
                    let ms: i64 = row.try_get(1).map_err(|e| backend(&e))?;
                    let seat = crate::domain::color_named(&seat)
                        .ok_or_else(|| StoreError::Corrupt(format!("presence seat {seat:?}")))?;
                    *seen.get_mut(seat) = Some(uint(ms));
                }
                Ok(seen)
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh database named `name` on `HOSTAGE_TEST_PG_URL`, made with
    /// `settings` (`ALTER DATABASE ... SET` clauses), and its URL; `None`
    /// (said loudly, and failing in CI) without that variable.
    async fn fresh_database(name: &str, settings: &[&str]) -> Option<String> {
        let Ok(admin) = std::env::var("HOSTAGE_TEST_PG_URL") else {
            let say = "HOSTAGE_TEST_PG_URL is not set: the PostgreSQL unit test did NOT run";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{say}");
            eprintln!("\n!!!! {say} !!!!\n");
            return None;
        };
        let db = format!("{name}_{}", std::process::id());
        let (client, connection) = tokio_postgres::connect(&admin, NoTls).await.unwrap();
        tokio::spawn(connection);
        let mut sql = vec![
            format!("DROP DATABASE IF EXISTS {db}"),
            format!("CREATE DATABASE {db}"),
        ];
        sql.extend(
            settings
                .iter()
                .map(|s| format!("ALTER DATABASE {db} SET {s}")),
        );
        for sql in sql {
            client.batch_execute(&sql).await.unwrap();
        }
        let (base, _) = admin.rsplit_once('/').unwrap();
        Some(format!("{base}/{db}"))
    }

    /// Every pooled connection commits synchronously, even on a database
    /// whose default is not to (runs on `HOSTAGE_TEST_PG_URL`, as the
    /// tests in `tests/postgres.rs`).
    #[tokio::test]
    async fn every_pooled_connection_commits_synchronously() {
        let Some(url) = fresh_database("hostage_sync", &["synchronous_commit = off"]).await else {
            return;
        };
        let store = PostgresStore::open(&url).await.unwrap();
        let mut clients = 0;
        for slot in &store.pool {
            let slot = slot.lock().await;
            let row = slot
                .as_ref()
                .unwrap()
                .query_one("SHOW synchronous_commit", &[])
                .await
                .unwrap();
            assert_eq!(row.get::<_, String>(0), "on");
            clients += 1;
        }
        for slot in store.group.writers.iter() {
            let slot = slot.lock().await;
            let row = slot
                .as_ref()
                .unwrap()
                .client
                .query_one("SHOW synchronous_commit", &[])
                .await
                .unwrap();
            assert_eq!(row.get::<_, String>(0), "on");
            clients += 1;
        }
        assert_eq!(clients, POOL + WRITERS);
    }

    /// The read of a game finds its arrays where [`load_since`] looks: after the
    /// game's columns, the moves' then the chat's, texts where they are.
    #[test]
    fn the_arrays_of_a_read_are_where_they_are_decoded() {
        let names = |columns: &'static str| columns.split(", ").collect::<Vec<_>>();
        assert_eq!(names(GAME_COLUMNS).len(), MOVES_AT);
        assert_eq!(MOVES_AT + names(MOVE_COLUMNS).len(), CHAT_AT);
        let texts = |columns, flags: &[bool]| {
            names(columns)
                .into_iter()
                .zip(flags)
                .filter(|(_, &text)| text)
                .map(|(name, _)| name)
                .collect::<Vec<_>>()
        };
        assert_eq!(names(MOVE_COLUMNS).len(), MOVE_TEXTS.len());
        assert_eq!(names(CHAT_COLUMNS).len(), CHAT_TEXTS.len());
        assert_eq!(texts(MOVE_COLUMNS, &MOVE_TEXTS), ["uci"]);
        assert_eq!(texts(CHAT_COLUMNS, &CHAT_TEXTS), ["side", "text"]);
        assert!(load_sql().contains("array_agg(ply ORDER BY ply)"));
    }

    /// A move's write finds its game through the primary key, on a fresh
    /// table without statistics too, where the planner once preferred an
    /// index of the unfinished games (whose predicate the write's
    /// condition implied) and read every unfinished game for each move.
    #[tokio::test]
    async fn a_move_finds_its_game_by_its_id_on_a_fresh_table() {
        let Some(url) = fresh_database("hostage_plan", &[]).await else {
            return;
        };
        let store = PostgresStore::open(&url).await.unwrap();
        let slot = store.pool[0].lock().await;
        let client = &slot.as_ref().unwrap().client;
        client
            .batch_execute(
                "INSERT INTO games (id, created_ms, start_fen, white_token, black_token, updated_ms)
                 SELECT 'g' || n, n, 'startpos', 'w', 'b', n FROM generate_series(1, 300) AS n",
            )
            .await
            .unwrap();
        client
            .batch_execute(&format!(
                "PREPARE play ({}) AS {}",
                group::PLAY_TYPES.map(|t| t.name().to_string()).join(", "),
                group::PLAY
            ))
            .await
            .unwrap();
        let plan: Vec<String> = client
            .query(
                "EXPLAIN EXECUTE play ('g7', 1, 1, NULL, NULL, 1, 0, 'e2e4', NULL)",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        let plan = plan.join("\n");
        assert!(plan.contains("games_pkey on games"), "{plan}");
        assert!(!plan.contains("games_open"), "{plan}");
    }
}
