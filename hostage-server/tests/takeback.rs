//! Takeback requests over a real socket (`docs/protocol.md`, Takebacks):
//! proposed, declined and accepted (the position, the ply and the clocks
//! after), withdrawn by a move, refused once the game is over, hostile
//! requests refused without changing anything, and a standing request and a
//! taken-back position read back from the store after a restart. Each runs
//! on SQLite and, when `HOSTAGE_TEST_PG_URL` names a PostgreSQL
//! (`scripts/test-postgres` sets it), on PostgreSQL too; the last tests run
//! two instances on one PostgreSQL database (offers, declines and
//! takebacks heard on the other instance; a move racing an acceptance).

#[path = "support/server.rs"]
mod server;
mod support;

use std::{
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant},
};

use hostage_server::{store::sqlite::SqliteStore, Config, Server, StoreUrl};
use serde_json::{json, Value};
use server::{fresh_database, pg_session};
use support::{move_msg, new_game, new_game_across, public_state, Client, Seats};

struct TestServer {
    addr: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostage-takeback-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("games.db")
}

fn sqlite_at(db: &Path) -> TestServer {
    let store = Arc::new(SqliteStore::open(db).expect("db"));
    let (addr, runtime) = server::serve(Server::bind_with_store(&Config::new("unused.db"), store));
    TestServer {
        addr,
        runtime: Some(runtime),
    }
}

fn postgres_at(url: &str) -> TestServer {
    let mut config = Config::new("unused.db");
    config.db = StoreUrl::Postgres(url.to_string());
    let (addr, runtime) = server::serve(Server::bind(&config));
    TestServer {
        addr,
        runtime: Some(runtime),
    }
}

/// A server on SQLite, and one on PostgreSQL when one is given; each with
/// a way to start it again on the same store (a restart).
fn stores(name: &str) -> Vec<(TestServer, Box<dyn Fn() -> TestServer>)> {
    let db = temp_db(name);
    let mut all: Vec<(TestServer, Box<dyn Fn() -> TestServer>)> =
        vec![(sqlite_at(&db), Box::new(move || sqlite_at(&db)))];
    if let Some(url) = server::database_if_given(&format!("takeback_{name}")) {
        all.push((postgres_at(&url), Box::new(move || postgres_at(&url))));
    }
    all
}

const TIMED: fn() -> Value = || json!({"initial_ms": 600_000, "increment_ms": 0});

/// Plays `moves` from the game's current ply, alternating from the side to
/// move, each heard by both players: the mover's `moved` messages.
fn play(s: &mut Seats, from: u64, moves: &[&str]) -> Vec<Value> {
    let mut heard = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let ply = from + i as u64;
        let (me, other, token) = if ply % 2 == 0 {
            (&mut s.white, &mut s.black, &s.white_token)
        } else {
            (&mut s.black, &mut s.white, &s.black_token)
        };
        me.send(move_msg(&s.game, token, mv, ply));
        let m = me.expect("moved");
        assert_eq!(m["move"], *mv);
        assert_eq!(other.expect("moved")["move"], *mv);
        heard.push(m);
    }
    heard
}

fn watch(addr: &str, game: &str) -> Client {
    let mut c = Client::connect(addr);
    c.send(json!({"v":1,"type":"watch","game":game}));
    c.expect("watching");
    c.expect("state");
    c
}

fn resume(addr: &str, game: &str, token: &str) -> (Client, Value) {
    let mut c = Client::connect(addr);
    c.send(json!({"v":1,"type":"resume","game":game,"token":token}));
    c.expect("resumed");
    let state = c.expect("state");
    (c, state)
}

fn after_moves(moves: &[&str]) -> String {
    let mut g = hostage_core::game::Game::new();
    for m in moves {
        g.push_uci(m).expect("legal");
    }
    g.position().fen()
}

#[test]
fn a_takeback_declined_then_one_accepted_with_the_clocks_booked() {
    for (server, _) in stores("flow") {
        let addr = &server.addr;
        let mut s = new_game(addr, TIMED());
        let mut watcher = watch(addr, &s.game);
        let heard = play(&mut s, 0, &["e2e4", "e7e5", "g1f3", "b8c6"]);
        for _ in 0..4 {
            watcher.expect("moved");
        }
        let black_after_nc6 = heard[3]["clocks"]["black_ms"].as_u64().expect("ms");
        // Black asks on White's turn: one ply, Black's own last move.
        s.black.send(s.seat_msg("propose_takeback", &s.black_token));
        for c in [&mut s.black, &mut s.white, &mut watcher] {
            let m = c.expect("takeback_offered");
            assert_eq!(
                (m["by"].as_str(), m["plies"].as_u64()),
                (Some("black"), Some(1)),
                "{m}"
            );
        }
        assert_eq!(public_state(addr, &s.game)["takeback"], "black");
        s.white.send(s.seat_msg("decline_takeback", &s.white_token));
        for c in [&mut s.white, &mut s.black, &mut watcher] {
            assert_eq!(c.expect("takeback_declined")["by"], "white");
        }
        assert_eq!(public_state(addr, &s.game)["takeback"], Value::Null);
        assert_eq!(public_state(addr, &s.game)["ply"], 4);
        // White asks on White's turn: two plies, Black's reply and White's move.
        std::thread::sleep(Duration::from_millis(300));
        s.white.send(s.seat_msg("propose_takeback", &s.white_token));
        for c in [&mut s.white, &mut s.black, &mut watcher] {
            assert_eq!(c.expect("takeback_offered")["plies"], 2);
        }
        s.black.send(s.seat_msg("accept_takeback", &s.black_token));
        let fen = after_moves(&["e2e4", "e7e5"]);
        for c in [&mut s.black, &mut s.white, &mut watcher] {
            let m = c.expect("taken_back");
            assert_eq!(
                (m["by"].as_str(), m["plies"].as_u64(), m["ply"].as_u64()),
                (Some("white"), Some(2), Some(2)),
                "{m}"
            );
            assert_eq!(m["fen"], fen.as_str());
            // White paid for its thinking time; Black got none back; White's clock runs.
            assert_eq!(m["clocks"]["running"], "white", "{m}");
            assert_eq!(m["clocks"]["black_ms"], black_after_nc6, "{m}");
            assert!(m["clocks"]["white_ms"].as_u64().expect("ms") <= 600_000 - 300);
        }
        let state = public_state(addr, &s.game);
        assert_eq!(
            (
                state["ply"].as_u64(),
                state["turn"].as_str(),
                state["fen"].as_str()
            ),
            (Some(2), Some("white"), Some(fen.as_str()))
        );
        assert_eq!(state["moves"].as_array().map(Vec::len), Some(2));
        // The game goes on from there, at ply 2.
        play(&mut s, 2, &["d2d4"]);
        watcher.expect("moved");
        for c in [&mut s.white, &mut s.black, &mut watcher] {
            c.quiet();
        }
    }
}

#[test]
fn a_move_withdraws_a_request_and_a_finished_game_refuses_them() {
    for (server, _) in stores("withdraw") {
        let addr = &server.addr;
        let mut s = new_game(addr, Value::Null);
        play(&mut s, 0, &["e2e4", "e7e5"]);
        s.black.send(s.seat_msg("propose_takeback", &s.black_token));
        s.black.expect("takeback_offered");
        s.white.expect("takeback_offered");
        s.white.send(move_msg(&s.game, &s.white_token, "g1f3", 2));
        for c in [&mut s.white, &mut s.black] {
            let m = c.expect("moved");
            assert_eq!(m["takeback_withdrawn"], "black", "{m}");
        }
        s.white.send(s.seat_msg("accept_takeback", &s.white_token));
        s.white.expect_error("no_takeback_offer");
        assert_eq!(public_state(addr, &s.game)["ply"], 3);
        // The next move withdraws nothing and says nothing of it.
        play(&mut s, 3, &["b8c6"])
            .iter()
            .for_each(|m| assert!(m.get("takeback_withdrawn").is_none(), "{m}"));
        // A request standing when the game ends goes with it.
        s.white.send(s.seat_msg("propose_takeback", &s.white_token));
        s.white.expect("takeback_offered");
        s.black.expect("takeback_offered");
        s.black.send(s.seat_msg("resign", &s.black_token));
        s.black.expect("game_over");
        s.white.expect("game_over");
        assert_eq!(public_state(addr, &s.game)["takeback"], Value::Null);
        for kind in ["propose_takeback", "accept_takeback", "decline_takeback"] {
            for (c, t) in [
                (&mut s.white, &s.white_token),
                (&mut s.black, &s.black_token),
            ] {
                c.send(json!({"v":1,"type":kind,"game":s.game,"token":t}));
                c.expect_error("game_over");
            }
        }
        assert_eq!(public_state(addr, &s.game)["ply"], 4);
        s.white.quiet();
        s.black.quiet();
    }
}

#[test]
fn hostile_takeback_requests_are_refused_and_change_nothing() {
    for (server, _) in stores("hostile") {
        let addr = &server.addr;
        let mut s = new_game(addr, Value::Null);
        let (g, wt, bt) = (s.game.clone(), s.white_token.clone(), s.black_token.clone());
        // Nobody has moved: nothing to take back.
        s.white.send(s.seat_msg("propose_takeback", &wt));
        s.white.expect_error("no_takeback");
        play(&mut s, 0, &["e2e4"]);
        let mut spectator = watch(addr, &g);
        let before = public_state(addr, &g);
        let cases: Vec<(Value, &str)> = vec![
            (
                json!({"v":1,"type":"propose_takeback","game":g,"token":5}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"propose_takeback","game":[],"token":wt}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"propose_takeback","token":wt}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"accept_takeback","game":g,"token":bt,"plies":2}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"decline_takeback","game":g,"token":null,"x":1}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"propose_takeback","game":g,"token":"x".repeat(300)}),
                "invalid_token",
            ),
            (
                json!({"v":1,"type":"propose_takeback","game":g}),
                "not_a_player",
            ),
            (
                json!({"v":1,"type":"accept_takeback","game":g}),
                "not_a_player",
            ),
            (
                json!({"v":1,"type":"propose_takeback","game":"NoSuchGame1","token":wt}),
                "game_not_found",
            ),
            // Black has not moved: nothing of Black's to take back.
            (
                json!({"v":1,"type":"propose_takeback","game":g,"token":bt}),
                "no_takeback",
            ),
            // No request stands.
            (
                json!({"v":1,"type":"accept_takeback","game":g,"token":bt}),
                "no_takeback_offer",
            ),
            (
                json!({"v":1,"type":"decline_takeback","game":g,"token":wt}),
                "no_takeback_offer",
            ),
        ];
        for (request, code) in &cases {
            spectator.send(request.clone());
            let e = spectator.expect_error(code);
            assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()));
        }
        assert_eq!(public_state(addr, &g), before);
        s.white.send(s.seat_msg("propose_takeback", &wt));
        s.white.expect("takeback_offered");
        s.black.expect("takeback_offered");
        spectator.expect("takeback_offered");
        let standing = public_state(addr, &g);
        for (request, code) in [
            // Accepting or declining one's own request; asking twice; the
            // opponent asking while one stands.
            (s.seat_msg("accept_takeback", &wt), "no_takeback_offer"),
            (s.seat_msg("decline_takeback", &wt), "no_takeback_offer"),
            (
                s.seat_msg("propose_takeback", &wt),
                "takeback_already_offered",
            ),
            (
                json!({"v":1,"type":"accept_takeback","game":g}),
                "not_a_player",
            ),
        ] {
            s.white.send(request);
            s.white.expect_error(code);
        }
        assert_eq!(public_state(addr, &g), standing);
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            c.quiet();
        }
    }
}

#[test]
fn a_restart_shows_the_standing_request_and_the_taken_back_position() {
    for (server, restart) in stores("restart") {
        let mut s = new_game(&server.addr, TIMED());
        let game = s.game.clone();
        play(&mut s, 0, &["e2e4", "e7e5", "g1f3"]);
        // Black's request on Black's turn: e7e5 and g1f3.
        s.black.send(s.seat_msg("propose_takeback", &s.black_token));
        s.black.expect("takeback_offered");
        s.white.expect("takeback_offered");
        let (wt, bt) = (s.white_token.clone(), s.black_token.clone());
        drop(s);
        drop(server);
        let server = restart();
        let (mut white, state) = resume(&server.addr, &game, &wt);
        assert_eq!(state["takeback"], "black", "{state}");
        assert_eq!(state["ply"], 3);
        let (mut black, _) = resume(&server.addr, &game, &bt);
        white.send(json!({"v":1,"type":"accept_takeback","game":game,"token":wt}));
        let past = ["opponent_gone", "opponent_back"];
        assert_eq!(white.expect_past("taken_back", &past)["ply"], 1);
        assert_eq!(black.expect_past("taken_back", &past)["ply"], 1);
        drop((white, black));
        drop(server);
        let server = restart();
        let (_, state) = resume(&server.addr, &game, &bt);
        assert_eq!(
            (state["ply"].as_u64(), state["turn"].as_str()),
            (Some(1), Some("black")),
            "{state}"
        );
        assert_eq!(state["fen"], after_moves(&["e2e4"]).as_str());
        assert_eq!(state["takeback"], Value::Null);
        assert_eq!(
            state["moves"],
            json!([{"ply":0,"move":"e2e4","san":"e4","by":"white"}])
        );
        // The moves taken back are gone from the store: the next move is ply 1.
        let (mut black, _) = resume(&server.addr, &game, &bt);
        black.send(move_msg(&game, &bt, "c7c5", 1));
        assert_eq!(black.expect_past("moved", &["opponent_gone"])["ply"], 1);
    }
}

/// Ends the `LISTEN` connections of the `instances` instances on `url`'s
/// database and waits until they are gone (as `tests/postgres.rs` does):
/// a change committed meanwhile is announced to no instance.
fn drop_listeners(url: &str, instances: i64) {
    let (runtime, client) = pg_session(url);
    runtime.block_on(async {
        let listeners = "FROM pg_stat_activity WHERE datname = current_database()
             AND query = 'LISTEN hostage_games' AND pid <> pg_backend_pid()";
        let count = format!("SELECT count(*) {listeners}");
        let t0 = Instant::now();
        while client
            .query_one(&count, &[])
            .await
            .expect("count")
            .get::<_, i64>(0)
            < instances
        {
            assert!(t0.elapsed() < Duration::from_secs(5), "listeners not back");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        client
            .query_one(
                &format!("SELECT count(pg_terminate_backend(pid)) {listeners}"),
                &[],
            )
            .await
            .expect("terminate");
        let t0 = Instant::now();
        loop {
            let left: i64 = client.query_one(&count, &[]).await.expect("count").get(0);
            if left == 0 {
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_millis(900),
                "listeners linger"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
}

#[test]
fn takebacks_are_heard_across_instances() {
    let Some(url) = fresh_database("takeback_across") else {
        return;
    };
    let (a, b) = (postgres_at(&url), postgres_at(&url));
    let mut s = new_game_across(&a.addr, &b.addr, TIMED());
    let mut watcher = watch(&b.addr, &s.game);
    play(&mut s, 0, &["e2e4", "e7e5", "g1f3", "b8c6"]);
    for _ in 0..4 {
        watcher.expect("moved");
    }
    // Asked on A, heard on B; declined on B, heard on A.
    s.white.send(s.seat_msg("propose_takeback", &s.white_token));
    s.white.expect("takeback_offered");
    for c in [&mut s.black, &mut watcher] {
        let m = c.expect("takeback_offered");
        assert_eq!(
            (m["by"].as_str(), m["plies"].as_u64()),
            (Some("white"), Some(2))
        );
    }
    assert_eq!(public_state(&b.addr, &s.game)["takeback"], "white");
    s.black.send(s.seat_msg("decline_takeback", &s.black_token));
    s.black.expect("takeback_declined");
    assert_eq!(s.white.expect("takeback_declined")["by"], "black");
    assert_eq!(watcher.expect("takeback_declined")["by"], "black");
    // Asked on B, accepted on A: B's followers hear the position taken back.
    s.black.send(s.seat_msg("propose_takeback", &s.black_token));
    for c in [&mut s.black, &mut s.white, &mut watcher] {
        assert_eq!(c.expect("takeback_offered")["plies"], 1);
    }
    s.white.send(s.seat_msg("accept_takeback", &s.white_token));
    let fen = after_moves(&["e2e4", "e7e5", "g1f3"]);
    for c in [&mut s.white, &mut s.black, &mut watcher] {
        let m = c.expect("taken_back");
        assert_eq!(
            (m["ply"].as_u64(), m["fen"].as_str()),
            (Some(3), Some(fen.as_str())),
            "{m}"
        );
    }
    let (on_a, on_b) = (
        public_state(&a.addr, &s.game),
        public_state(&b.addr, &s.game),
    );
    assert_eq!(on_a, on_b);
    assert_eq!(
        (on_a["ply"].as_u64(), on_a["turn"].as_str()),
        (Some(3), Some("black"))
    );
    // The game goes on at ply 3 on both.
    play(&mut s, 3, &["g8f6"]);
    assert_eq!(watcher.expect("moved")["ply"], 3);
    for c in [&mut s.white, &mut s.black, &mut watcher] {
        c.quiet();
    }
}

#[test]
fn an_acceptance_of_a_request_a_move_withdrew_elsewhere_is_refused() {
    let Some(url) = fresh_database("takeback_withdrawn") else {
        return;
    };
    let (a, b) = (postgres_at(&url), postgres_at(&url));
    let mut s = new_game_across(&a.addr, &b.addr, Value::Null);
    play(&mut s, 0, &["e2e4", "e7e5"]);
    s.white.send(s.seat_msg("propose_takeback", &s.white_token));
    s.white.expect("takeback_offered");
    s.black.expect("takeback_offered");
    // B does not hear White's move, which withdraws the request.
    drop_listeners(&url, 2);
    s.white.send(move_msg(&s.game, &s.white_token, "g1f3", 2));
    assert_eq!(s.white.expect("moved")["takeback_withdrawn"], "white");
    let mut ask = s.seat_msg("accept_takeback", &s.black_token);
    ask["id"] = json!("x");
    s.black.send(ask);
    // B's write finds the game changed, reads it, tells Black of the move,
    // and refuses on the fresh game.
    let moved = s.black.expect("moved");
    assert_eq!(
        (moved["ply"].as_u64(), moved["takeback_withdrawn"].as_str()),
        (Some(2), Some("white"))
    );
    let e = s.black.expect_error("no_takeback_offer");
    assert_eq!(e["id"], "x");
    for addr in [&a.addr, &b.addr] {
        let state = public_state(addr, &s.game);
        assert_eq!(
            (state["ply"].as_u64(), state["takeback"].clone()),
            (Some(3), Value::Null)
        );
    }
}

#[test]
fn a_move_racing_an_acceptance_leaves_one_winner() {
    let Some(url) = fresh_database("takeback_race") else {
        return;
    };
    let (a, b) = (postgres_at(&url), postgres_at(&url));
    for round in 0..4 {
        let mut s = new_game_across(&a.addr, &b.addr, Value::Null);
        play(&mut s, 0, &["e2e4", "e7e5"]);
        // White asks on White's turn (two plies) and moves at once on A,
        // while Black accepts on B.
        s.white.send(s.seat_msg("propose_takeback", &s.white_token));
        s.white.expect("takeback_offered");
        s.black.expect("takeback_offered");
        let mut mv = move_msg(&s.game, &s.white_token, "g1f3", 2);
        mv["id"] = json!("move");
        let mut accept = s.seat_msg("accept_takeback", &s.black_token);
        accept["id"] = json!("accept");
        s.white.send(mv);
        s.black.send(accept);
        let answer = |c: &mut Client, id: &str| loop {
            let m = c.recv();
            if m["id"] == id {
                break m;
            }
        };
        let (moved, accepted) = (answer(&mut s.white, "move"), answer(&mut s.black, "accept"));
        let state = public_state(&a.addr, &s.game);
        assert_eq!(state, public_state(&b.addr, &s.game), "round {round}");
        match (moved["type"].as_str(), accepted["type"].as_str()) {
            (Some("moved"), Some("error")) => {
                assert_eq!(accepted["code"], "no_takeback_offer", "{accepted}");
                assert_eq!(state["ply"], 3);
            }
            (Some("error"), Some("taken_back")) => {
                assert_eq!(moved["code"], "ply_mismatch", "{moved}");
                assert_eq!(state["ply"], 0);
            }
            other => panic!("round {round}: {other:?} {moved} {accepted}"),
        }
        assert_eq!(state["takeback"], Value::Null);
    }
}

/// Moves taken back on A and others played at the same plies, all while B
/// heard nothing: B's followers hear the takeback and the new moves, and B
/// shows the game as A does. The last move B knew is played again at its
/// ply (Black's `b8c6`), so only the mark of takebacks tells B that an
/// earlier one changed (White's `g1f3`, now `b1c3`).
#[test]
fn moves_taken_back_and_replayed_at_the_same_plies_reach_the_other_instance() {
    let Some(url) = fresh_database("takeback_replayed") else {
        return;
    };
    let (a, b) = (postgres_at(&url), postgres_at(&url));
    let mut s = new_game(&a.addr, TIMED());
    let mut watcher = watch(&b.addr, &s.game);
    play(&mut s, 0, &["e2e4", "e7e5", "g1f3", "b8c6"]);
    for _ in 0..4 {
        watcher.expect("moved");
    }
    drop_listeners(&url, 2);
    // On White's turn: White's last move and Black's reply go back.
    s.white.send(s.seat_msg("propose_takeback", &s.white_token));
    s.white.expect("takeback_offered");
    s.black.expect("takeback_offered");
    s.black.send(s.seat_msg("accept_takeback", &s.black_token));
    for c in [&mut s.white, &mut s.black] {
        assert_eq!(c.expect("taken_back")["ply"], 2);
    }
    play(&mut s, 2, &["b1c3", "b8c6"]);
    // B reads its games again once its listener is back.
    let m = watcher.expect("taken_back");
    let fen = after_moves(&["e2e4", "e7e5"]);
    assert_eq!(
        (m["ply"].as_u64(), m["plies"].as_u64(), m["fen"].as_str()),
        (Some(2), Some(2), Some(fen.as_str())),
        "{m}"
    );
    for (ply, mv) in [(2, "b1c3"), (3, "b8c6")] {
        let m = watcher.expect("moved");
        assert_eq!(
            (m["ply"].as_u64(), m["move"].as_str()),
            (Some(ply), Some(mv))
        );
    }
    let fen = after_moves(&["e2e4", "e7e5", "b1c3", "b8c6"]);
    let on_b = public_state(&b.addr, &s.game);
    assert_eq!(on_b["fen"], fen.as_str(), "{on_b}");
    assert_eq!(on_b, public_state(&a.addr, &s.game));
    // The game goes on from B's side too: a resume there sees it as it is.
    let (_, state) = resume(&b.addr, &s.game, &s.black_token);
    assert_eq!(state["fen"], fen.as_str(), "{state}");
    for c in [&mut s.white, &mut s.black, &mut watcher] {
        c.quiet();
    }
}
