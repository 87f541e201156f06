//! The `Store` contract for takebacks (`store.rs`), on SQLite and on
//! PostgreSQL (`HOSTAGE_TEST_PG_URL`, set by `scripts/test-postgres`): a
//! request and its answer are stored only on the game as seen and over the
//! request standing; an accepted takeback deletes the moves with the
//! request in one write, only while the game has the moves seen and the
//! request stands, and refused changes nothing; a move and an ending clear
//! a request.

#[path = "support/server.rs"]
mod server;
#[path = "support/store.rs"]
mod store_fixtures;

use hostage_core::{ByColor, Color};
use hostage_server::{
    domain::{End, EndReason},
    store::postgres::PostgresStore,
    store::sqlite::SqliteStore,
    store::{Seen, Store, StoreError, StoredGame, Write},
};
use server::fresh_database;
use store_fixtures::{runtime, seated_game};

fn mv(ply: u64, uci: &str) -> Write {
    Write::Move {
        game: "g".into(),
        ply,
        uci: uci.into(),
        clocks: Some(ByColor::new(60_000, 60_000)),
        at_ms: 5,
        deadline_ms: None,
        end: None,
    }
}

fn seen(ply: u64) -> Seen {
    Seen {
        ply,
        draw_offer: None,
    }
}

fn ask(by: Option<Color>, standing: Option<Color>, ply: u64) -> Write {
    Write::TakebackOffer {
        game: "g".into(),
        by,
        standing,
        clocks: Some(ByColor::new(58_000, 60_000)),
        seen: seen(ply),
    }
}

fn take_back(by: Color, to: u64, from: u64) -> Write {
    Write::TakeBack {
        game: "g".into(),
        by,
        ply: to,
        clocks: Some(ByColor::new(57_000, 59_000)),
        deadline_ms: None,
        seen: seen(from),
    }
}

async fn takebacks_are_stored_only_on_the_game_as_seen(store: &dyn Store) {
    seated_game(store, "g").await;
    let conflict = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Conflict(_)));
    let load = || async { store.load("g").await.expect("load").expect("game") };
    for (ply, m) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
        store.write(mv(ply as u64, m)).await.expect("move");
    }
    assert_eq!(load().await.takebacks, 0);
    // A request decided before the third move was read: refused.
    assert!(conflict(
        store.write(ask(Some(Color::Black), None, 2)).await
    ));
    store
        .write(ask(Some(Color::Black), None, 3))
        .await
        .expect("ask");
    let g = load().await;
    assert_eq!(g.takeback, Some(Color::Black));
    assert_eq!(g.clocks, Some(ByColor::new(58_000, 60_000)));
    // A second request over it, not having seen it: refused.
    assert!(conflict(
        store.write(ask(Some(Color::White), None, 3)).await
    ));
    // Taking back White's request (none stands), or at another ply: refused.
    assert!(conflict(store.write(take_back(Color::White, 1, 3)).await));
    assert!(conflict(store.write(take_back(Color::Black, 2, 4)).await));
    let g = load().await;
    assert_eq!((g.moves.len(), g.takeback), (3, Some(Color::Black)));
    assert_eq!(g.takebacks, 0, "a refused takeback is not counted");
    // Declined, then asked again and accepted: the two moves go with it.
    store
        .write(ask(None, Some(Color::Black), 3))
        .await
        .expect("decline");
    assert_eq!(load().await.takeback, None);
    assert!(conflict(store.write(take_back(Color::Black, 1, 3)).await));
    store
        .write(ask(Some(Color::Black), None, 3))
        .await
        .expect("ask");
    store
        .write(take_back(Color::Black, 1, 3))
        .await
        .expect("take back");
    let g = load().await;
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.moves[0].uci, "e2e4");
    assert_eq!(g.takeback, None);
    assert_eq!(g.clocks, Some(ByColor::new(57_000, 59_000)));
    assert_eq!(g.takebacks, 1, "counted with the moves it deleted");
    // Once: the same acceptance again is refused.
    assert!(conflict(store.write(take_back(Color::Black, 1, 3)).await));
    assert_eq!(load().await.takebacks, 1);
    // The game goes on at ply 1; a move clears a request.
    store
        .write(ask(Some(Color::White), None, 1))
        .await
        .expect("ask");
    store.write(mv(1, "c7c5")).await.expect("move at ply 1");
    assert_eq!(load().await.takeback, None);
    // An ending clears it too, and nothing is taken back after it.
    store
        .write(ask(Some(Color::Black), None, 2))
        .await
        .expect("ask");
    store
        .write(Write::Finish {
            game: "g".into(),
            end: End {
                reason: EndReason::Resignation,
                winner: Some(Color::White),
            },
            clocks: None,
            seen: seen(2),
        })
        .await
        .expect("resign");
    let g = load().await;
    assert_eq!((g.takeback, g.moves.len()), (None, 2));
    assert!(conflict(
        store.write(ask(Some(Color::Black), None, 2)).await
    ));
    assert!(conflict(store.write(take_back(Color::Black, 1, 2)).await));
    let g = load().await;
    assert_eq!((g.moves.len(), g.takebacks), (2, 1));
}

fn chat(index: u64) -> Write {
    Write::Chat {
        game: "g".into(),
        line: hostage_server::domain::chat::ChatLine {
            index,
            by: Color::from_white(index % 2 == 0),
            text: format!("line {index}"),
            at_ms: 10 + index,
        },
    }
}

/// The whole game as stored, with only its moves from `ply` and its chat
/// from `line` on: what the end of the game read from there must be.
async fn whole_cut(store: &dyn Store, ply: u64, line: u64) -> StoredGame {
    let mut g = store.load("g").await.expect("load").expect("game");
    g.moves.retain(|m| m.ply >= ply);
    g.chat.retain(|l| l.index >= line);
    g
}

/// The end of a game is its row with the moves and lines from a point on,
/// read with the mark of takebacks, which each accepted takeback (and
/// only that) bumps.
async fn the_end_of_a_game_is_read_with_its_mark(store: &dyn Store) {
    seated_game(store, "g").await;
    for (ply, m) in ["e2e4", "e7e5", "g1f3", "b8c6"].into_iter().enumerate() {
        store.write(mv(ply as u64, m)).await.expect("move");
    }
    for index in 0..3 {
        store.write(chat(index)).await.expect("chat");
    }
    let end = |ply: u64, line: u64| async move {
        store
            .load_since("g", ply, line)
            .await
            .expect("read")
            .expect("game")
    };
    let tail = end(2, 1).await;
    assert_eq!((tail.from_ply, tail.from_chat), (2, 1));
    let ucis: Vec<&str> = tail.game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["g1f3", "b8c6"]);
    let lines: Vec<&str> = tail.game.chat.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(lines, ["line 1", "line 2"]);
    assert_eq!(tail.game, whole_cut(store, 2, 1).await);
    // From the start: the whole game; past the end: the row alone.
    assert_eq!(end(0, 0).await.game, whole_cut(store, 0, 0).await);
    let past = end(9, 9).await;
    assert!(past.game.moves.is_empty() && past.game.chat.is_empty());
    assert_eq!(past.game, whole_cut(store, 9, 9).await);
    assert_eq!(store.load_since("nope", 0, 0).await.expect("read"), None);
    // Neither moves, nor chat, nor requests and their answers count.
    store
        .write(ask(Some(Color::Black), None, 4))
        .await
        .expect("ask");
    store
        .write(ask(None, Some(Color::Black), 4))
        .await
        .expect("decline");
    assert_eq!(end(0, 0).await.game.takebacks, 0);
    // Two takebacks, each counted once, with a move played again between.
    store
        .write(ask(Some(Color::Black), None, 4))
        .await
        .expect("ask");
    store
        .write(take_back(Color::Black, 3, 4))
        .await
        .expect("take back");
    let tail = end(2, 3).await;
    assert_eq!(tail.game.takebacks, 1);
    assert_eq!(tail.game.moves.len(), 1);
    assert_eq!(tail.game, whole_cut(store, 2, 3).await);
    store.write(mv(3, "g8f6")).await.expect("move");
    store
        .write(ask(Some(Color::White), None, 4))
        .await
        .expect("ask");
    store
        .write(take_back(Color::White, 2, 4))
        .await
        .expect("take back");
    let tail = end(1, 0).await;
    assert_eq!(tail.game.takebacks, 2);
    let ucis: Vec<&str> = tail.game.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["e7e5"]);
    assert_eq!(tail.game.chat.len(), 3, "a takeback leaves the chat");
}

#[test]
fn sqlite_stores_takebacks_only_on_the_game_as_seen() {
    let dir = std::env::temp_dir().join(format!("hostage-takeback-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.db");
    {
        // A database made before the `takeback` column: given it on opening.
        let old = rusqlite::Connection::open(&path).expect("old db");
        old.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL,
                start_fen TEXT NOT NULL, initial_ms INTEGER, increment_ms INTEGER,
                white_token TEXT, black_token TEXT, white_ms INTEGER, black_ms INTEGER,
                draw_offer TEXT, termination TEXT, winner TEXT, updated_ms INTEGER NOT NULL,
                rematch TEXT);
             PRAGMA user_version = 2;",
        )
        .expect("old schema");
    }
    let store = SqliteStore::open(&path).expect("open");
    runtime().block_on(takebacks_are_stored_only_on_the_game_as_seen(&store));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgresql_stores_takebacks_only_on_the_game_as_seen() {
    let Some(url) = fresh_database("takeback_seen") else {
        return;
    };
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        takebacks_are_stored_only_on_the_game_as_seen(&*store).await;
    });
}

#[test]
fn sqlite_reads_the_end_of_a_game_with_its_mark() {
    let dir = std::env::temp_dir().join(format!("hostage-takeback-end-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = SqliteStore::open(&dir.join("games.db")).expect("open");
    runtime().block_on(the_end_of_a_game_is_read_with_its_mark(&store));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgresql_reads_the_end_of_a_game_with_its_mark() {
    let Some(url) = fresh_database("takeback_end") else {
        return;
    };
    // A database made before the mark: given it on opening.
    server::admin_sql(
        &url,
        &[
            "CREATE TABLE games (id TEXT PRIMARY KEY, created_ms BIGINT NOT NULL,
            start_fen TEXT NOT NULL, initial_ms BIGINT, increment_ms BIGINT,
            white_token TEXT, black_token TEXT, white_ms BIGINT, black_ms BIGINT,
            draw_offer TEXT, termination TEXT, winner TEXT, updated_ms BIGINT NOT NULL,
            version BIGINT NOT NULL DEFAULT 0, rematch TEXT, takeback TEXT,
            white_name TEXT, black_name TEXT)",
        ],
    );
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        the_end_of_a_game_is_read_with_its_mark(&*store).await;
    });
}
