//! Group commit in the PostgreSQL store (`postgres/group.rs`), on a real
//! PostgreSQL (`HOSTAGE_TEST_PG_URL`, set by `scripts/test-postgres`):
//! writes waiting together are committed together and announced only
//! after; a write refused by its condition in a group leaves the others
//! stored; a connection killed in the middle of a group loses nothing that
//! was acknowledged and stores nothing twice.
//!
//! Each test holds one game's row locked from a connection of its own, so
//! that the group containing that game's write stops there, in the middle
//! of its transaction, for as long as the test needs to look.

#[path = "support/server.rs"]
mod server;
#[path = "support/store.rs"]
mod store_fixtures;

use std::{
    collections::BTreeSet,
    sync::Arc,
    time::{Duration, Instant},
};

use hostage_core::{ByColor, Color};
use hostage_server::{
    domain::{End, EndReason},
    store::postgres::PostgresStore,
    store::{Changed, Seen, Store, StoreError, Write},
};
use server::fresh_database;
use store_fixtures::{create, runtime, seat, seated_game};
use tokio::sync::mpsc;
use tokio_postgres::{Client, NoTls};

async fn session(url: &str) -> Client {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .expect("connect to the test PostgreSQL");
    tokio::spawn(connection);
    client
}

fn first_move(id: &str, ply: u64) -> Write {
    Write::Move {
        game: id.into(),
        ply,
        uci: "e2e4".into(),
        clocks: Some(ByColor::new(59_000, 60_000)),
        at_ms: 5,
        deadline_ms: None,
        end: None,
    }
}

/// Games `g0`..`g{n-1}`, both seats taken, no move.
async fn seated_games(store: &dyn Store, n: usize) -> Vec<String> {
    let ids: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
    for id in &ids {
        seated_game(store, id).await;
    }
    ids
}

/// Locks `game`'s row in a transaction of `client` (until it commits).
async fn hold(client: &Client, game: &str) {
    client.batch_execute("BEGIN").await.expect("begin");
    client
        .execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&game])
        .await
        .expect("lock");
}

/// The backends of this database waiting for a lock.
async fn waiting(client: &Client) -> Vec<i32> {
    client
        .query(
            "SELECT pid FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
            &[],
        )
        .await
        .expect("pg_stat_activity")
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// Waits until a backend of the store waits for the lock `hold` took.
async fn until_blocked(client: &Client) -> i32 {
    let t0 = Instant::now();
    loop {
        if let Some(&pid) = waiting(client).await.first() {
            return pid;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "no write waits");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The moves stored for `game`, `(ply, uci)`, as any other connection sees
/// them (committed ones only).
async fn moves_of(client: &Client, game: &str) -> Vec<(i64, String)> {
    client
        .query(
            "SELECT ply, uci FROM moves WHERE game = $1 ORDER BY ply",
            &[&game],
        )
        .await
        .expect("moves")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

async fn count_moves(client: &Client) -> i64 {
    client
        .query_one("SELECT count(*) FROM moves", &[])
        .await
        .expect("count")
        .get(0)
}

/// Hands every write to `store` at once (so they make one group) on a task
/// of its own; each answer comes on the channel, with its write's index,
/// as soon as it is given.
fn write_all(
    store: &Arc<PostgresStore>,
    writes: Vec<Write>,
) -> mpsc::UnboundedReceiver<(usize, Result<(), StoreError>)> {
    let (tx, rx) = mpsc::unbounded_channel();
    let store = Arc::clone(store);
    tokio::spawn(async move {
        let store = &store;
        let pending = writes.into_iter().enumerate().map(|(i, w)| {
            let tx = tx.clone();
            async move {
                let _ = tx.send((i, store.write(w).await));
            }
        });
        futures_util::future::join_all(pending).await;
    });
    rx
}

/// The next `n` answers, by index (fails after 10 s).
async fn answers(
    rx: &mut mpsc::UnboundedReceiver<(usize, Result<(), StoreError>)>,
    n: usize,
) -> Vec<(usize, Result<(), StoreError>)> {
    let mut got = Vec::new();
    while got.len() < n {
        let next = tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .expect("an answer within 10 s")
            .expect("answers still coming");
        got.push(next);
    }
    got.sort_by_key(|(i, _)| *i);
    got
}

/// Nothing more within `ms`.
async fn silent<T: std::fmt::Debug>(rx: &mut mpsc::UnboundedReceiver<T>, ms: u64) {
    if let Ok(Some(x)) = tokio::time::timeout(Duration::from_millis(ms), rx.recv()).await {
        panic!("expected nothing yet, got {x:?}");
    }
}

#[test]
fn writes_waiting_together_are_committed_together_and_announced_after() {
    let Some(url) = fresh_database("group_together") else {
        return;
    };
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        // Another instance on the database, to hear the notifications.
        let other = PostgresStore::open(&url).await.expect("open the other");
        let mut heard = other.changes().expect("a shared store");
        let ids = seated_games(&*store, 10).await;
        // Let the other instance hear of the games made; then start afresh.
        tokio::time::sleep(Duration::from_millis(300)).await;
        while heard.try_recv().is_ok() {}

        let blocker = session(&url).await;
        let outside = session(&url).await;
        hold(&blocker, "g9").await;
        let mut rx = write_all(&store, ids.iter().map(|g| first_move(g, 0)).collect());
        until_blocked(&outside).await;
        // g0..g8 were applied before g9 (the group goes in id order) but
        // nothing is acknowledged, committed or announced while one write
        // of the group waits.
        silent(&mut rx, 300).await;
        assert_eq!(count_moves(&outside).await, 0, "nothing committed yet");
        assert!(heard.try_recv().is_err(), "nothing announced yet");

        blocker.batch_execute("COMMIT").await.expect("release");
        for (i, result) in answers(&mut rx, 10).await {
            assert_eq!(result, Ok(()), "write {i}");
        }
        for id in &ids {
            assert_eq!(moves_of(&outside, id).await, [(0, "e2e4".to_string())]);
        }
        // Each move announced to the other instance, with its record,
        // after the commit.
        let mut told = BTreeSet::new();
        while told.len() < ids.len() {
            match tokio::time::timeout(Duration::from_secs(5), heard.recv()).await {
                Ok(Ok(Changed::Move(g, m))) => {
                    assert_eq!((m.ply, m.uci.as_str(), m.takebacks), (0, "e2e4", 0), "{g}");
                    assert_eq!(m.end, None, "{g}");
                    told.insert(g);
                }
                other => panic!("expected the games announced, got {other:?}"),
            }
        }
        assert_eq!(told, ids.iter().cloned().collect());
    });
}

#[test]
fn a_write_refused_in_a_group_leaves_the_others_stored() {
    let Some(url) = fresh_database("group_refused") else {
        return;
    };
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        seated_games(&*store, 9).await;
        // g9 waits for its second player.
        store.write(create("g9")).await.expect("create g9");
        let before = |id: &'static str| {
            let store = Arc::clone(&store);
            async move { store.load(id).await.expect("load").expect("game") }
        };
        let (g2, g3, g4) = (before("g2").await, before("g3").await, before("g4").await);

        let blocker = session(&url).await;
        let outside = session(&url).await;
        // The last game of the group in id order: every other write of it
        // has been applied (or refused) when it stops there.
        hold(&blocker, "g9").await;
        let finish_seen_at_ply_1 = Write::Finish {
            game: "g4".into(),
            end: End {
                reason: EndReason::Timeout,
                winner: Some(Color::Black),
            },
            clocks: Some(ByColor::new(0, 60_000)),
            seen: Seen {
                ply: 1,
                draw_offer: None,
            },
        };
        let writes = vec![
            first_move("g0", 0),  // stored
            first_move("g1", 1),  // refused: the game is at ply 0
            create("g2"),         // refused: the game exists (the insert stores nothing)
            seat("g3"),           // refused: the seat is taken
            finish_seen_at_ply_1, // refused after its UPDATE: decided at ply 1
            Write::DrawOffer {
                game: "g5".into(),
                by: Some(Color::White),
                clocks: Some(ByColor::new(58_000, 60_000)),
                seen: Seen {
                    ply: 0,
                    draw_offer: None,
                },
            }, // stored
            first_move("g6", 0),  // stored
            create("g7-new"),     // stored
            first_move("g8", 0),  // stored
            first_move("g9", 0),  // refused (after the lock): waits for a player
        ];
        let mut rx = write_all(&store, writes);
        until_blocked(&outside).await;
        silent(&mut rx, 200).await;
        blocker.batch_execute("COMMIT").await.expect("release");
        let results: Vec<_> = answers(&mut rx, 10)
            .await
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let conflict = |r: &Result<(), StoreError>| matches!(r, Err(StoreError::Conflict(_)));
        for i in [0, 5, 6, 7, 8] {
            assert_eq!(results[i], Ok(()), "write {i}");
        }
        for i in [1, 2, 3, 4, 9] {
            assert!(conflict(&results[i]), "write {i}: {:?}", results[i]);
        }

        // The stored ones are there, once.
        for id in ["g0", "g6", "g8"] {
            assert_eq!(moves_of(&outside, id).await, [(0, "e2e4".to_string())]);
        }
        assert_eq!(before("g5").await.draw_offer, Some(Color::White));
        assert_eq!(
            before("g5").await.clocks,
            Some(ByColor::new(58_000, 60_000))
        );
        assert!(store.load("g7-new").await.expect("load").is_some());
        // The refused ones changed nothing, not even the part done before
        // their condition failed (g4's ending, and its clocks).
        assert_eq!(moves_of(&outside, "g1").await, []);
        assert_eq!(moves_of(&outside, "g9").await, []);
        assert_eq!(before("g2").await, g2);
        assert_eq!(before("g3").await, g3);
        assert_eq!(before("g4").await, g4);
        assert_eq!(count_moves(&outside).await, 3);
    });
}

#[test]
fn a_connection_killed_in_a_group_loses_nothing_acknowledged() {
    let Some(url) = fresh_database("group_killed") else {
        return;
    };
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        let ids = seated_games(&*store, 10).await;
        let blocker = session(&url).await;
        let outside = session(&url).await;
        hold(&blocker, "g9").await;
        let mut rx = write_all(&store, ids.iter().map(|g| first_move(g, 0)).collect());
        let pid = until_blocked(&outside).await;
        silent(&mut rx, 200).await;

        // The group's connection dies with g0..g8 applied, uncommitted.
        outside
            .execute("SELECT pg_terminate_backend($1)", &[&pid])
            .await
            .expect("terminate");
        // Its writes are stored again one by one on a new connection:
        // g0..g8 at once, g9 when its row is free.
        let stored = answers(&mut rx, 9).await;
        for (i, result) in &stored {
            assert!(*i < 9, "g9 cannot be stored yet");
            assert_eq!(*result, Ok(()), "write {i}");
        }
        // Every write acknowledged is in the database, once.
        for id in &ids[..9] {
            assert_eq!(moves_of(&outside, id).await, [(0, "e2e4".to_string())]);
        }

        // g9, stored alone now, loses its connection too: refused, and
        // nothing of it stored.
        let t0 = Instant::now();
        let second = loop {
            match waiting(&outside).await.first() {
                Some(&p) if p != pid => break p,
                _ => {}
            }
            assert!(t0.elapsed() < Duration::from_secs(10), "g9 not retried");
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        outside
            .execute("SELECT pg_terminate_backend($1)", &[&second])
            .await
            .expect("terminate");
        let last = answers(&mut rx, 1).await;
        assert_eq!(last[0].0, 9);
        assert!(
            matches!(last[0].1, Err(StoreError::Backend(_))),
            "{:?}",
            last[0].1
        );
        blocker.batch_execute("COMMIT").await.expect("release");
        assert_eq!(moves_of(&outside, "g9").await, []);
        assert_eq!(count_moves(&outside).await, 9);

        // The store goes on: g9's move resent is stored; g0's is refused.
        store.write(first_move("g9", 0)).await.expect("g9 again");
        assert!(matches!(
            store.write(first_move("g0", 0)).await,
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(count_moves(&outside).await, 10);
        for id in &ids {
            assert_eq!(moves_of(&outside, id).await.len(), 1, "{id}");
        }
    });
}
