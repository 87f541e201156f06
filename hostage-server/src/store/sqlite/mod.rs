//! The SQLite [`Store`]: one file, no setup (SQLite is compiled in).
//!
//! Policy:
//! - WAL journal with `synchronous = FULL`: a commit returns after the WAL is
//!   fsync'd, so an acknowledged write survives a killed process and a lost
//!   machine alike;
//! - one writer thread owns the writing connection and **commits in groups**:
//!   it takes every write waiting in its queue (up to [`MAX_GROUP`]), applies
//!   each inside its own savepoint (a write whose condition fails is rolled
//!   back alone), commits once, and only then answers each caller. Under load
//!   many moves share one fsync; alone, a move gets its own;
//! - reads use a second connection (WAL lets them run beside the writer);
//! - every conditional write of `store/mod.rs` is enforced in SQL (`WHERE`
//!   clauses, the `(game, ply)` primary key), not only by the caller.

use std::{
    path::Path,
    sync::{mpsc, Arc, Mutex},
    thread,
};

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::oneshot;

use crate::{
    domain::TokenHash,
    store::columns::{
        int, read_chat, read_game, read_move, ChatRow, MoveRow, CHAT_COLUMNS, GAME_COLUMNS,
        MOVE_COLUMNS,
    },
    store::{Store, StoreError, StoreFuture, StoredGame, StoredTail, Write},
};

mod accounts;
mod lobby;
mod puzzles;
mod ratings;
mod writes;

pub use accounts::SqliteAccounts;
pub use lobby::MemoryLobby;
use writes::apply;

/// The stores of the SQLite database at `path` (created if missing): its
/// games, and the lobby of this server alone, in memory.
///
/// # Errors
///
/// The database cannot be opened or migrated.
pub fn open_stores(path: &Path) -> Result<super::Stores, StoreError> {
    Ok(super::Stores {
        games: Arc::new(SqliteStore::open(path)?),
        lobby: MemoryLobby::new(),
        accounts: Arc::new(SqliteAccounts::open(path)?),
    })
}

/// The most writes committed in one transaction.
pub const MAX_GROUP: usize = 256;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id           TEXT PRIMARY KEY,
    created_ms   INTEGER NOT NULL,
    start_fen    TEXT NOT NULL,
    initial_ms   INTEGER,
    increment_ms INTEGER,
    white_token  TEXT, -- the SHA-256 of the seat's token, in hex
    black_token  TEXT,
    white_ms     INTEGER,
    black_ms     INTEGER,
    draw_offer   TEXT,
    termination  TEXT,
    winner       TEXT,
    updated_ms   INTEGER NOT NULL,
    rematch      TEXT -- the rematch's id, once asked for
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (termination) WHERE termination IS NULL;
CREATE TABLE IF NOT EXISTS moves (
    game      TEXT NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL,
    uci       TEXT NOT NULL,
    white_ms  INTEGER,
    black_ms  INTEGER,
    at_ms     INTEGER NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    game      TEXT NOT NULL REFERENCES games (id),
    idx       INTEGER NOT NULL, -- the line's place in the game's chat, from 0
    side      TEXT NOT NULL,
    text      TEXT NOT NULL,
    at_ms     INTEGER NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
";

/// The schema's version: 2 keeps token digests where 1 kept tokens.
const SCHEMA_VERSION: i64 = 2;

/// Replaces the clear tokens of a version 1 database by their digests
/// (in one transaction), then marks the database version 2, leaving no
/// clear token behind in the files: `secure_delete` zeroes the space the
/// old values held, `VACUUM` rewrites every page, and a truncating
/// checkpoint moves the result into the database file and empties the WAL
/// (which may still hold old page images with the tokens).
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(backend)?;
    if version >= SCHEMA_VERSION {
        return Ok(());
    }
    conn.execute_batch("PRAGMA secure_delete = ON")
        .map_err(backend)?;
    let tx = conn.transaction().map_err(backend)?;
    let rows: Vec<(String, Option<String>, Option<String>)> = {
        let mut stmt = tx
            .prepare("SELECT id, white_token, black_token FROM games")
            .map_err(backend)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        rows
    };
    // A digest is 64 hex digits, a token 32 letters and digits: a digest
    // left by an interrupted migration is kept as it is.
    let is_digest = |t: &str| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit());
    let digest = |t: Option<String>| {
        t.map(|t| {
            if is_digest(&t) {
                t
            } else {
                TokenHash::of(&t).to_hex()
            }
        })
    };
    for (id, white, black) in rows {
        tx.execute(
            "UPDATE games SET white_token = ?2, black_token = ?3 WHERE id = ?1",
            params![id, digest(white), digest(black)],
        )
        .map_err(backend)?;
    }
    tx.commit().map_err(backend)?;
    conn.execute_batch("VACUUM").map_err(backend)?;
    // Only this connection is open yet, so the checkpoint cannot be kept
    // from finishing by a reader; if it were, the tokens could stay in the
    // WAL, so that is an error rather than a silent success.
    let busy: i64 = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
        .map_err(backend)?;
    if busy != 0 {
        return Err(StoreError::Backend(
            "the checkpoint after hashing the tokens could not finish".into(),
        ));
    }
    // Marked done only now: a migration killed before this point runs
    // again (hashing only what is still clear) and cleans the files again.
    conn.execute_batch(&format!(
        "PRAGMA user_version = {SCHEMA_VERSION}; PRAGMA secure_delete = OFF"
    ))
    .map_err(backend)
}

/// Adds the `rematch` column to a database made before it existed
/// (SQLite has no `ADD COLUMN IF NOT EXISTS`).
fn add_rematch_column(conn: &Connection) -> Result<(), StoreError> {
    add_column(conn, "rematch")
}

/// Adds the text column `column` to `games` in a database made before it
/// existed.
fn add_column(conn: &Connection, column: &str) -> Result<(), StoreError> {
    add_column_as(conn, column, "TEXT")
}

/// Adds the column `column`, of type and default `declared`, to `games` in
/// a database made before it existed.
fn add_column_as(conn: &Connection, column: &str, declared: &str) -> Result<(), StoreError> {
    add_table_column(conn, "games", column, declared)
}

/// Adds the column `column`, of type and default `declared`, to `table` in
/// a database made before it existed.
fn add_table_column(
    conn: &Connection,
    table: &str,
    column: &str,
    declared: &str,
) -> Result<(), StoreError> {
    let has: bool = conn
        .query_row(
            "SELECT count(*) > 0 FROM pragma_table_info(?2) WHERE name = ?1",
            [column, table],
            |r| r.get(0),
        )
        .map_err(backend)?;
    if has {
        return Ok(());
    }
    conn.execute_batch(&format!(
        "ALTER TABLE {table} ADD COLUMN {column} {declared}"
    ))
    .map_err(backend)
}

/// Adds correspondence to a database made before it: the days per move
/// and the standing deadline of a game (`games.days`, `games.deadline_ms`)
/// and the deadline each move set (`moves.deadline_ms`), all null for the
/// games already stored (none of them is a correspondence game).
fn add_correspondence_columns(conn: &Connection) -> Result<(), StoreError> {
    add_column_as(conn, "days", "INTEGER")?;
    add_column_as(conn, "deadline_ms", "INTEGER")?;
    add_table_column(conn, "moves", "deadline_ms", "INTEGER")
}

/// Adds each seat's further tokens (`white_devices`, `black_devices`: the
/// digests of an account's devices, `columns.rs`) to a database made
/// before them.
fn add_device_columns(conn: &Connection) -> Result<(), StoreError> {
    add_column(conn, "white_devices")?;
    add_column(conn, "black_devices")
}

/// Adds the `takeback` column (the side whose takeback request stands) to
/// a database made before it.
fn add_takeback_column(conn: &Connection) -> Result<(), StoreError> {
    add_column(conn, "takeback")
}

/// Adds the seats' name columns (`white_name`, `black_name`) to a database
/// made before them.
fn add_name_columns(conn: &Connection) -> Result<(), StoreError> {
    add_column(conn, "white_name")?;
    add_column(conn, "black_name")
}

/// Adds the mark of takebacks (`takebacks`: how many were accepted in the
/// game) to a database made before it; its games start at 0, read by no
/// room before (the column is added when the file is opened).
fn add_takebacks_column(conn: &Connection) -> Result<(), StoreError> {
    add_column_as(conn, "takebacks", "INTEGER NOT NULL DEFAULT 0")
}

type Job = (Write, oneshot::Sender<Result<(), StoreError>>);

/// Games in a SQLite file.
pub struct SqliteStore {
    writer: Mutex<mpsc::Sender<Job>>,
    reader: Arc<Mutex<Connection>>,
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(backend)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(backend)?;
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
    )
    .map_err(backend)?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` and starts its
    /// writer thread.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or is not a database of this schema.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let mut writer = open(path)?;
        // A new file gets the current schema at once; an old one is migrated.
        let fresh: bool = writer
            .query_row(
                "SELECT count(*) = 0 FROM sqlite_master WHERE name = 'games'",
                [],
                |r| r.get(0),
            )
            .map_err(backend)?;
        writer.execute_batch(SCHEMA).map_err(backend)?;
        if fresh {
            writer
                .execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))
                .map_err(backend)?;
        }
        migrate(&mut writer)?;
        add_rematch_column(&writer)?;
        add_takeback_column(&writer)?;
        add_name_columns(&writer)?;
        add_takebacks_column(&writer)?;
        add_correspondence_columns(&writer)?;
        add_device_columns(&writer)?;
        ratings::create_tables(&writer)?;
        let reader = open(path)?;
        let (tx, rx) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("hostage-sqlite-writer".into())
            .spawn(move || write_loop(writer, &rx))
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(SqliteStore {
            writer: Mutex::new(tx),
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let reader = Arc::clone(&self.reader);
        tokio::task::spawn_blocking(move || {
            let conn = reader
                .lock()
                .map_err(|_| StoreError::Backend("reader lock poisoned".into()))?;
            f(&conn)
        })
        .await
        .map_err(|e| StoreError::Backend(e.to_string()))?
    }
}

impl Store for SqliteStore {
    fn ratings(&self) -> Option<&dyn crate::store::ratings::RatingStore> {
        Some(self)
    }

    fn write(&self, write: Write) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            {
                let writer = self
                    .writer
                    .lock()
                    .map_err(|_| StoreError::Backend("writer lock poisoned".into()))?;
                writer
                    .send((write, tx))
                    .map_err(|_| StoreError::Backend("the writer thread has stopped".into()))?;
            }
            rx.await
                .map_err(|_| StoreError::Backend("the writer thread has stopped".into()))?
        })
    }

    fn load<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<StoredGame>> {
        let id = game.to_string();
        Box::pin(self.read(move |conn| Ok(load_since(conn, &id, 0, 0)?.map(|tail| tail.game))))
    }

    fn load_since<'a>(
        &'a self,
        game: &'a str,
        from_ply: u64,
        from_chat: u64,
    ) -> StoreFuture<'a, Option<StoredTail>> {
        let id = game.to_string();
        Box::pin(self.read(move |conn| load_since(conn, &id, from_ply, from_chat)))
    }

    fn unfinished(&self) -> StoreFuture<'_, Vec<String>> {
        Box::pin(self.read(|conn| {
            let mut stmt = conn
                .prepare("SELECT id FROM games WHERE termination IS NULL ORDER BY created_ms")
                .map_err(backend)?;
            let ids = stmt
                .query_map([], |row| row.get::<_, String>(0))
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            Ok(ids)
        }))
    }

    fn live_games(&self, limit: u32) -> StoreFuture<'_, Vec<crate::store::live::LiveGame>> {
        Box::pin(self.read(move |conn| {
            let mut stmt = conn
                .prepare(&crate::store::columns::live_games_sql())
                .map_err(backend)?;
            let rows = stmt
                .query_map([i64::from(limit)], |row| {
                    let int = |i: usize| row.get::<_, Option<i64>>(i);
                    Ok(crate::store::live::LiveGame::new(
                        row.get(0)?,
                        hostage_core::ByColor::new(row.get(1)?, row.get(2)?),
                        (
                            crate::store::columns::uint(row.get(3)?),
                            crate::store::columns::uint(row.get(4)?),
                            crate::store::columns::uint(row.get(5)?),
                        ),
                        crate::store::columns::timing_of([
                            int(6)?,
                            int(7)?,
                            int(8)?,
                            int(9)?,
                            int(10)?,
                            int(11)?,
                        ]),
                    ))
                })
                .map_err(backend)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(backend)?;
            Ok(rows)
        }))
    }
}

/// The writer thread: group commits until every sender is gone.
fn write_loop(mut conn: Connection, rx: &mpsc::Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut jobs = vec![first];
        while jobs.len() < MAX_GROUP {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let results = commit_group(&mut conn, &jobs);
        for ((_, reply), result) in jobs.into_iter().zip(results) {
            // The caller may have gone (connection closed): nothing to tell.
            let _ = reply.send(result);
        }
    }
}

fn commit_group(conn: &mut Connection, jobs: &[Job]) -> Vec<Result<(), StoreError>> {
    let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return jobs.iter().map(|_| Err(backend_ref(&e))).collect(),
    };
    let mut results = Vec::with_capacity(jobs.len());
    for (write, _) in jobs {
        let result = tx
            .execute_batch("SAVEPOINT w")
            .map_err(backend)
            .and_then(|()| apply(&tx, write));
        let end = if result.is_ok() {
            "RELEASE w"
        } else {
            "ROLLBACK TO w; RELEASE w"
        };
        match tx.execute_batch(end) {
            Ok(()) => results.push(result),
            Err(e) => results.push(Err(backend(e))),
        }
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => jobs.iter().map(|_| Err(backend_ref(&e))).collect(),
    }
}

fn backend_ref(e: &rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// The game's row, its moves from ply `from_ply` on and its chat lines from
/// index `from_chat` on, in one read transaction: one snapshot, so a move
/// committed between two of the statements is not read with the row from
/// before it.
fn load_since(
    conn: &Connection,
    id: &str,
    from_ply: u64,
    from_chat: u64,
) -> Result<Option<StoredTail>, StoreError> {
    let tx = conn.unchecked_transaction().map_err(backend)?;
    let game = tx
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id],
            |r| read_game(|i| r.get(i), |i| r.get(i)),
        )
        .optional()
        .map_err(backend)?;
    let Some(game) = game else {
        return Ok(None);
    };
    let mut stmt = tx
        .prepare_cached(&format!(
            "SELECT {MOVE_COLUMNS} FROM moves WHERE game = ?1 AND ply >= ?2 ORDER BY ply"
        ))
        .map_err(backend)?;
    let moves = stmt
        .query_map(params![id, int(from_ply)], |r| {
            read_move(|i| r.get(i), |i| r.get(i))
        })
        .map_err(backend)?
        .map(|row| row.map_err(backend).and_then(MoveRow::into_move))
        .collect::<Result<_, _>>()?;
    drop(stmt);
    let mut stmt = tx
        .prepare_cached(&format!(
            "SELECT {CHAT_COLUMNS} FROM chat WHERE game = ?1 AND idx >= ?2 ORDER BY idx"
        ))
        .map_err(backend)?;
    let chat = stmt
        .query_map(params![id, int(from_chat)], |r| {
            read_chat(|i| r.get(i), |i| r.get(i))
        })
        .map_err(backend)?
        .map(|row| row.map_err(backend).and_then(ChatRow::into_line))
        .collect::<Result<_, _>>()?;
    drop(stmt);
    // A read-only transaction: ending it changes nothing.
    tx.finish().map_err(backend)?;
    Ok(Some(StoredTail {
        game: game.into_game(moves, chat)?,
        from_ply,
        from_chat,
    }))
}

#[cfg(test)]
mod tests {
    use hostage_core::{ByColor, Color};

    use super::*;
    use crate::{domain::ClockSpec, store::NewGame};

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hostage-store-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("games.db")
    }

    fn new_game(id: &str) -> Write {
        Write::CreateGame(NewGame {
            id: id.into(),
            created_ms: 1,
            start_fen: hostage_core::Position::new().fen(),
            days: None,
            clock: Some(ClockSpec {
                initial_ms: 60_000,
                increment_ms: 0,
            }),
            seat: Color::White,
            token: TokenHash::of("w"),
            name: None,
        })
    }

    fn mv(ply: u64, uci: &str) -> Write {
        Write::Move {
            game: "g".into(),
            ply,
            uci: uci.into(),
            clocks: Some(ByColor::new(59_000, 60_000)),
            at_ms: 5,
            deadline_ms: None,
            end: None,
        }
    }

    #[tokio::test]
    async fn writes_are_conditional_and_read_back() {
        let path = temp_db("conditional");
        let store = SqliteStore::open(&path).unwrap();
        store.write(new_game("g")).await.unwrap();
        assert!(matches!(
            store.write(new_game("g")).await,
            Err(StoreError::Conflict(_))
        ));
        // No move before both seats are taken.
        assert!(matches!(
            store.write(mv(0, "e2e4")).await,
            Err(StoreError::Conflict(_))
        ));
        let seat = Write::TakeSeat {
            game: "g".into(),
            side: Color::Black,
            token: TokenHash::of("b"),
            clocks: Some(ByColor::new(60_000, 60_000)),
            deadline_ms: None,
            name: None,
        };
        store.write(seat.clone()).await.unwrap();
        assert!(matches!(
            store.write(seat).await,
            Err(StoreError::Conflict(_))
        ));
        store.write(mv(0, "e2e4")).await.unwrap();
        // The same ply twice, or a gap, is refused by the database itself.
        assert!(matches!(
            store.write(mv(0, "d2d4")).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.write(mv(2, "d2d4")).await,
            Err(StoreError::Conflict(_))
        ));
        store.write(mv(1, "e7e5")).await.unwrap();
        let g = store.load("g").await.unwrap().unwrap();
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.moves[1].uci, "e7e5");
        assert_eq!(
            g.tokens,
            ByColor::new(Some(TokenHash::of("w")), Some(TokenHash::of("b")))
        );
        assert_eq!(g.clocks, Some(ByColor::new(59_000, 60_000)));
        assert_eq!(store.unfinished().await.unwrap(), ["g"]);
        assert_eq!(store.load("nope").await.unwrap(), None);
        drop(store);
        // Reopened, the same.
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.load("g").await.unwrap().unwrap(), g);
    }

    /// A rematch is linked only to a finished game without one, together
    /// with its new game; a database made before the column gets it.
    #[tokio::test]
    async fn a_rematch_is_linked_once_to_a_finished_game() {
        use crate::domain::{End, EndReason};
        let path = temp_db("rematch");
        {
            // The schema before the `rematch` column.
            let old = Connection::open(&path).unwrap();
            old.execute_batch(&SCHEMA.replace(
                ",\n    rematch      TEXT -- the rematch's id, once asked for",
                "",
            ))
            .unwrap();
            old.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))
                .unwrap();
            assert!(old.prepare("SELECT rematch FROM games").is_err());
        }
        let store = SqliteStore::open(&path).unwrap();
        store.write(new_game("g")).await.unwrap();
        let rematch = |id: &str| Write::Rematch {
            game: "g".into(),
            new: match new_game(id) {
                Write::CreateGame(new) => new,
                _ => unreachable!(),
            },
        };
        let conflict = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Conflict(_)));
        // The game goes on: refused, and no new game.
        assert!(conflict(store.write(rematch("r1")).await));
        assert_eq!(store.load("r1").await.unwrap(), None);
        store
            .write(Write::Finish {
                game: "g".into(),
                end: End {
                    reason: EndReason::Resignation,
                    winner: Some(Color::Black),
                },
                clocks: None,
                seen: crate::store::Seen {
                    ply: 0,
                    draw_offer: None,
                },
            })
            .await
            .unwrap();
        store.write(rematch("r1")).await.unwrap();
        assert_eq!(
            store.load("g").await.unwrap().unwrap().rematch.as_deref(),
            Some("r1")
        );
        assert!(store.load("r1").await.unwrap().is_some());
        // A second rematch: refused, the first stays.
        assert!(conflict(store.write(rematch("r2")).await));
        assert_eq!(store.load("r2").await.unwrap(), None);
        assert_eq!(
            store.load("g").await.unwrap().unwrap().rematch.as_deref(),
            Some("r1")
        );
    }

    /// A database made before names and chat opens: the name columns and
    /// the chat table are added, and both are kept and read back.
    #[tokio::test]
    async fn an_old_database_gets_names_and_chat() {
        let path = temp_db("names-chat");
        {
            let old = Connection::open(&path).unwrap();
            let before_chat = SCHEMA
                .split("CREATE TABLE IF NOT EXISTS chat")
                .next()
                .unwrap();
            old.execute_batch(before_chat).unwrap();
            old.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))
                .unwrap();
            assert!(old.prepare("SELECT white_name FROM games").is_err());
            assert!(old.prepare("SELECT idx FROM chat").is_err());
        }
        let store = SqliteStore::open(&path).unwrap();
        let ada = crate::domain::names::DisplayName::parse("Ada").ok();
        let bo = crate::domain::names::DisplayName::parse("Bo").ok();
        let Write::CreateGame(mut new) = new_game("g") else {
            unreachable!()
        };
        new.name = ada.clone();
        store.write(Write::CreateGame(new)).await.unwrap();
        store
            .write(Write::TakeSeat {
                game: "g".into(),
                side: Color::Black,
                token: TokenHash::of("b"),
                clocks: None,
                deadline_ms: None,
                name: bo.clone(),
            })
            .await
            .unwrap();
        let seated = store.load("g").await.unwrap().unwrap().updated_ms;
        let line = |index: u64| Write::Chat {
            game: "g".into(),
            line: crate::domain::chat::ChatLine {
                index,
                by: Color::Black,
                text: format!("<b>{index}</b>"),
                at_ms: 9,
            },
        };
        store.write(line(0)).await.unwrap();
        // Only the next index is stored; no line for a game that is not.
        assert!(matches!(
            store.write(line(0)).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.write(line(2)).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(store
            .write(Write::Chat {
                game: "nope".into(),
                line: crate::domain::chat::ChatLine {
                    index: 0,
                    by: Color::White,
                    text: "x".into(),
                    at_ms: 0
                }
            })
            .await
            .is_err());
        store.write(line(1)).await.unwrap();
        drop(store);
        let store = SqliteStore::open(&path).unwrap();
        let g = store.load("g").await.unwrap().unwrap();
        assert_eq!(g.names, ByColor::new(ada, bo));
        let texts: Vec<&str> = g.chat.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["<b>0</b>", "<b>1</b>"]);
        // A chat line does not move the time the clocks count from.
        assert_eq!(g.updated_ms, seated);
    }
}
