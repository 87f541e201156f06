//! The `Store` contract that both stores keep (`store.rs`): a draw offer,
//! its answer and an ending decided on the game as it was before another
//! server's move (or offer) are refused with `Conflict` and change nothing,
//! and an offer stores its clocks. One check, run on SQLite and on
//! PostgreSQL (`HOSTAGE_TEST_PG_URL`, set by `scripts/test-postgres`).

#[path = "support/server.rs"]
mod server;
#[path = "support/store.rs"]
mod store_fixtures;

use hostage_core::{ByColor, Color};
use hostage_server::{
    domain::{End, EndReason},
    store::postgres::PostgresStore,
    store::sqlite::SqliteStore,
    store::{Seen, Store, StoreError, Write},
};
use server::fresh_database;
use store_fixtures::{runtime, seated_game};

async fn offers_and_endings_are_stored_only_on_the_game_as_seen(store: &dyn Store) {
    seated_game(store, "g").await;
    let offer = |by, ply, draw_offer| Write::DrawOffer {
        game: "g".into(),
        by,
        clocks: Some(ByColor::new(59_000, 60_000)),
        seen: Seen { ply, draw_offer },
    };
    let timeout = |ply, draw_offer| Write::Finish {
        game: "g".into(),
        end: End {
            reason: EndReason::Timeout,
            winner: Some(Color::Black),
        },
        clocks: Some(ByColor::new(0, 60_000)),
        seen: Seen { ply, draw_offer },
    };
    let conflict = |r: Result<(), StoreError>| matches!(r, Err(StoreError::Conflict(_)));
    let load = || async { store.load("g").await.expect("load").expect("game") };

    store
        .write(offer(Some(Color::White), 0, None))
        .await
        .expect("offer");
    // The offer's clocks are stored with it (another server counts from them).
    assert_eq!(load().await.clocks, Some(ByColor::new(59_000, 60_000)));
    // Black offering too, not having seen White's offer: refused.
    assert!(conflict(
        store.write(offer(Some(Color::Black), 0, None)).await
    ));
    assert_eq!(load().await.draw_offer, Some(Color::White));
    store
        .write(Write::Move {
            game: "g".into(),
            ply: 0,
            uci: "e2e4".into(),
            clocks: Some(ByColor::new(59_000, 60_000)),
            at_ms: 5,
            deadline_ms: None,
            end: None,
        })
        .await
        .expect("move");
    // Accepting the offer the move withdrew, a flag decided before the move
    // was read, or declining that offer: refused, the game goes on.
    assert!(conflict(store.write(timeout(0, Some(Color::White))).await));
    assert!(conflict(store.write(timeout(0, None)).await));
    assert!(conflict(
        store.write(offer(None, 0, Some(Color::White))).await
    ));
    assert_eq!(load().await.end, None);
    // Decided on the game as it is: stored, once.
    store.write(timeout(1, None)).await.expect("timeout");
    assert!(load().await.end.is_some());
    assert!(conflict(store.write(timeout(1, None)).await));
}

#[test]
fn sqlite_stores_offers_and_endings_only_on_the_game_as_seen() {
    let dir = std::env::temp_dir().join(format!("hostage-store-contract-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = SqliteStore::open(&dir.join("games.db")).expect("open");
    runtime().block_on(offers_and_endings_are_stored_only_on_the_game_as_seen(
        &store,
    ));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgresql_stores_offers_and_endings_only_on_the_game_as_seen() {
    let Some(url) = fresh_database("seen") else {
        return;
    };
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        offers_and_endings_are_stored_only_on_the_game_as_seen(&*store).await;
    });
}
