//! The `Store` contract for takebacks (`store.rs`), on SQLite and on
//! PostgreSQL (`HOSTAGE_TEST_PG_URL`, set by `scripts/test-postgres`): a
//! request and its answer are stored only on the game as seen and over the
//! request standing; an accepted takeback deletes the moves with the
//! request in one write, only while the game has the moves seen and the
//! request stands, and refused changes nothing; a move and an ending clear
//! a request.

#[path = "support/server.rs"]
mod server;

use hostage_core::{ByColor, Color};
use hostage_server::{
    domain::{ClockSpec, End, EndReason, TokenHash},
    postgres::PostgresStore,
    sqlite::SqliteStore,
    store::{NewGame, Seen, Store, StoreError, Write},
};
use server::fresh_database;

async fn seated_game(store: &dyn Store) {
    store
        .write(Write::CreateGame(NewGame {
            id: "g".into(),
            created_ms: 1,
            start_fen: hostage_core::Position::new().fen(),
            clock: Some(ClockSpec {
                initial_ms: 60_000,
                increment_ms: 0,
            }),
            seat: Color::White,
            token: TokenHash::of("w"),
            name: None,
        }))
        .await
        .expect("create");
    store
        .write(Write::TakeSeat {
            game: "g".into(),
            side: Color::Black,
            token: TokenHash::of("b"),
            clocks: Some(ByColor::new(60_000, 60_000)),
            name: None,
        })
        .await
        .expect("seat");
}

fn mv(ply: u64, uci: &str) -> Write {
    Write::Move {
        game: "g".into(),
        ply,
        uci: uci.into(),
        clocks: Some(ByColor::new(60_000, 60_000)),
        at_ms: 5,
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
        seen: seen(from),
    }
}

async fn takebacks_are_stored_only_on_the_game_as_seen(store: &dyn Store) {
    seated_game(store).await;
    let conflict = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Conflict(_)));
    let load = || async { store.load("g").await.expect("load").expect("game") };
    for (ply, m) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
        store.write(mv(ply as u64, m)).await.expect("move");
    }
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
    // Once: the same acceptance again is refused.
    assert!(conflict(store.write(take_back(Color::Black, 1, 3)).await));
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
    assert_eq!(load().await.moves.len(), 2);
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
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
