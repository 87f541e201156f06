//! A rated game's result and its rating update are one write
//! (`store/ratings.rs`), on SQLite and on PostgreSQL (`HOSTAGE_TEST_PG_URL`,
//! set by `scripts/test-postgres`):
//!
//! - a crash between the two: the write of the result fails after the
//!   result's row is changed and before the history is written (a trigger
//!   refuses the history row, as a killed process would never write it);
//!   nothing is stored, neither the result nor a rating. The store is then
//!   dropped and opened again (the restart) and the same ending stored:
//!   rated once;
//! - the same ending stored again (another instance that decided it too):
//!   `Conflict`, rated nothing more;
//! - the mark of a rated game is refused once both seats are taken.
//!
//! The ratings expected are those of two new players after one decisive
//! game, computed apart from the server's code (Glickman's steps with
//! τ = 0.75: 1741.62 and 1258.38, the figures of `tests/rating.rs`).

#[path = "support/server.rs"]
mod server;
#[path = "support/store.rs"]
mod store_fixtures;

use hostage_core::{ByColor, Color};
use hostage_server::{
    domain::rating::category::Category,
    domain::{End, EndReason},
    store::postgres::PostgresStore,
    store::ratings::RatedGame,
    store::sqlite::SqliteStore,
    store::{Seen, Store, StoreError, Write},
};
use server::fresh_database;
use store_fixtures::{create, runtime, seat};

fn rate(id: &str) -> Write {
    Write::RateGame(RatedGame {
        game: id.into(),
        category: Category::Bullet,
        accounts: ByColor::new("acc-ann".into(), "acc-bob".into()),
    })
}

fn resign_black(ply: u64) -> Write {
    Write::Finish {
        game: "g".into(),
        end: End {
            reason: EndReason::Resignation,
            winner: Some(Color::White),
        },
        clocks: Some(ByColor::new(50_000, 50_000)),
        seen: Seen {
            ply,
            draw_offer: None,
        },
    }
}

fn mv(ply: u64, uci: &str) -> Write {
    Write::Move {
        game: "g".into(),
        ply,
        uci: uci.into(),
        clocks: Some(ByColor::new(60_000, 60_000)),
        at_ms: 10 + ply,
        deadline_ms: None,
        end: None,
    }
}

/// The game, rated, both first moves played.
async fn rated_game(store: &dyn Store) {
    store.write(create("g")).await.expect("create");
    store.write(rate("g")).await.expect("rate");
    store.write(seat("g")).await.expect("seat");
    // Too late now: the mark precedes the second seat.
    assert!(matches!(
        store.write(rate("g")).await,
        Err(StoreError::Conflict(_))
    ));
    store.write(mv(0, "e2e4")).await.expect("move");
    store.write(mv(1, "e7e5")).await.expect("move");
}

/// Each side's rating after, to two decimals, if stored.
async fn after(store: &dyn Store) -> Option<(String, String)> {
    let changes = store.ratings().expect("ratings").changes("g").await;
    changes.expect("read").map(|c| {
        (
            format!("{:.2}", c.white.after),
            format!("{:.2}", c.black.after),
        )
    })
}

async fn games_rated(store: &dyn Store, account: &str) -> u32 {
    let perfs = store.ratings().expect("ratings").perfs(account).await;
    perfs.expect("read").iter().map(|(_, p)| p.games).sum()
}

/// After the failed write: nothing stored.
async fn nothing_stored(store: &dyn Store) {
    let game = store.load("g").await.expect("load").expect("game");
    assert_eq!(game.end, None, "the result was stored without its ratings");
    assert_eq!(after(store).await, None);
    assert_eq!(games_rated(store, "acc-ann").await, 0);
}

/// After the restart: the ending stored and rated, once.
async fn rated_once(store: &dyn Store) {
    let game = store.load("g").await.expect("load").expect("game");
    assert_eq!(game.end, None, "the game goes on after the restart");
    store.write(resign_black(2)).await.expect("resign");
    let want = Some(("1741.62".to_string(), "1258.38".to_string()));
    assert_eq!(after(store).await, want);
    // The same ending again, as a second instance would store it.
    assert!(matches!(
        store.write(resign_black(2)).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(after(store).await, want);
    assert_eq!(games_rated(store, "acc-ann").await, 1);
    assert_eq!(games_rated(store, "acc-bob").await, 1);
    let history = store
        .ratings()
        .expect("ratings")
        .history("acc-bob")
        .await
        .expect("history");
    assert_eq!(history.len(), 1);
}

#[test]
fn sqlite_stores_a_result_and_its_ratings_together_or_neither() {
    let dir = std::env::temp_dir().join(format!("hostage-rated-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.db");
    let rt = runtime();
    {
        let store = SqliteStore::open(&path).expect("open");
        rt.block_on(rated_game(&store));
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch(
            "CREATE TRIGGER crash BEFORE INSERT ON rating_history
             BEGIN SELECT RAISE(ABORT, 'killed'); END;",
        )
        .expect("trigger");
        assert!(rt.block_on(store.write(resign_black(2))).is_err());
        rt.block_on(nothing_stored(&store));
        conn.execute_batch("DROP TRIGGER crash").expect("drop");
    }
    let store = SqliteStore::open(&path).expect("open again");
    rt.block_on(rated_once(&store));
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgresql_stores_a_result_and_its_ratings_together_or_neither() {
    let Some(url) = fresh_database("rated_store") else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        rated_game(&*store).await;
    });
    server::admin_sql(
        &url,
        &[
            "CREATE FUNCTION crash() RETURNS trigger AS $$
             BEGIN RAISE EXCEPTION 'killed'; END; $$ LANGUAGE plpgsql",
            "CREATE TRIGGER crash BEFORE INSERT ON rating_history
             FOR EACH ROW EXECUTE FUNCTION crash()",
        ],
    );
    rt.block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        assert!(store.write(resign_black(2)).await.is_err());
        nothing_stored(&*store).await;
    });
    server::admin_sql(&url, &["DROP TRIGGER crash ON rating_history"]);
    rt.block_on(async {
        let store = PostgresStore::open(&url).await.expect("open again");
        rated_once(&*store).await;
    });
}
