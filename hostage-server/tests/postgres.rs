//! The server on a real PostgreSQL (no mock): the protocol on one
//! instance, then two instances on one database serving the same games.
//!
//! `scripts/test-postgres` starts a throwaway PostgreSQL and sets
//! `HOSTAGE_TEST_PG_URL`; each test makes a database of its own there.
//! Without the variable the tests say so loudly and pass, except in CI
//! (`CI=true`), where they fail.

#[path = "support/server.rs"]
mod server;
mod support;

use std::time::{Duration, Instant};

use hostage_server::{Config, Server, StoreUrl};
use serde_json::{json, Value};
use support::{http_get, move_msg, new_game, public_state, Client};

/// A fresh database on the test server, or `None` (said loudly) when no
/// PostgreSQL was given.
fn fresh_database(name: &str) -> Option<String> {
    let Ok(admin) = std::env::var("HOSTAGE_TEST_PG_URL") else {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        let say = "HOSTAGE_TEST_PG_URL is not set: the PostgreSQL tests did NOT run (scripts/test-postgres starts a server and sets it)";
        assert!(!ci, "{say}");
        eprintln!("\n!!!! {say} !!!!\n");
        return None;
    };
    let db = format!("hostage_{name}_{}", std::process::id());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
            .await
            .expect("connect to HOSTAGE_TEST_PG_URL");
        tokio::spawn(connection);
        client
            .batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
            .await
            .expect("drop");
        client
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .await
            .expect("create database");
    });
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{db}"))
}

struct Instance {
    addr: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Instance {
    fn start(url: &str) -> Instance {
        let mut config = Config::new("unused.db");
        config.db = StoreUrl::Postgres(url.to_string());
        let (addr, runtime) = server::serve(Server::bind(&config));
        Instance {
            addr,
            runtime: Some(runtime),
        }
    }

    /// Stops at once: every task dropped, no goodbye to anyone.
    fn stop(mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

fn resume(addr: &str, game: &str, token: &str) -> Client {
    let mut c = Client::connect(addr);
    c.send(json!({"v":1,"type":"resume","game":game,"token":token}));
    c.expect("resumed");
    c.expect("state");
    c
}

#[test]
fn the_protocol_on_postgresql_with_a_restart() {
    let Some(url) = fresh_database("flow") else {
        return;
    };
    let a = Instance::start(&url);
    let mut s = new_game(
        &a.addr,
        json!({"initial_ms": 300_000, "increment_ms": 2_000}),
    );
    for (ply, mv) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
        let (me, other, token) = if ply % 2 == 0 {
            (&mut s.white, &mut s.black, &s.white_token)
        } else {
            (&mut s.black, &mut s.white, &s.black_token)
        };
        me.send(move_msg(&s.game, token, mv, ply as u64));
        assert_eq!(me.expect("moved")["move"], mv);
        assert_eq!(other.expect("moved")["move"], mv);
    }
    // Resent: acknowledged again, stored once.
    s.white.send(move_msg(&s.game, &s.white_token, "g1f3", 2));
    assert_eq!(s.white.expect("moved")["duplicate"], true);
    s.black.quiet();
    s.black.send(move_msg(&s.game, &s.black_token, "e5e4", 3));
    s.black.expect_error("illegal_move");
    s.black
        .send(json!({"v":1,"type":"offer_draw","game":s.game,"token":s.black_token}));
    s.black.expect("draw_offered");
    s.white.expect("draw_offered");
    let before = public_state(&a.addr, &s.game);
    a.stop();
    // Another instance on the same database: everything is there.
    let b = Instance::start(&url);
    assert_eq!(public_state(&b.addr, &s.game)["moves"], before["moves"]);
    assert_eq!(public_state(&b.addr, &s.game)["draw_offer"], "black");
    let mut white = resume(&b.addr, &s.game, &s.white_token);
    white.send(json!({"v":1,"type":"accept_draw","game":s.game,"token":s.white_token}));
    assert_eq!(white.expect("game_over")["termination"], "agreement");
    let (status, pgn) = http_get(&b.addr, &format!("/api/games/{}/pgn", s.game));
    assert_eq!(status, 200);
    assert!(pgn.contains("1. e4 e5 2. Nf3 1/2-1/2"), "{pgn}");
}

/// A player on instance A, the opponent and a spectator on instance B:
/// each hears every move once and in order, and the clocks agree.
#[test]
fn two_instances_serve_one_game() {
    let Some(url) = fresh_database("two") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let mut white = Client::connect(&a.addr);
    white.send(json!({"v":1,"type":"create","color":"white","clock":{"initial_ms":600_000,"increment_ms":1_000}}));
    let created = white.expect("created");
    white.expect("state");
    let game = created["game"].as_str().expect("id").to_string();
    let wt = created["token"].as_str().expect("token").to_string();
    let mut spectator = Client::connect(&b.addr);
    spectator.send(json!({"v":1,"type":"watch","game":game}));
    spectator.expect("watching");
    spectator.expect("state");
    let mut black = Client::connect(&b.addr);
    black.send(json!({"v":1,"type":"join","game":game}));
    let joined = black.expect("joined");
    black.expect("state");
    let bt = joined["token"].as_str().expect("token").to_string();
    assert_eq!(white.expect("player_joined")["color"], "black");
    assert_eq!(spectator.expect("player_joined")["color"], "black");
    let moves = ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"];
    for (ply, mv) in moves.into_iter().enumerate() {
        let (me, other, token) = if ply % 2 == 0 {
            (&mut white, &mut black, &wt)
        } else {
            (&mut black, &mut white, &bt)
        };
        std::thread::sleep(Duration::from_millis(150));
        let sent = Instant::now();
        me.send(move_msg(&game, token, mv, ply as u64));
        let ack = me.expect("moved");
        let seen = other.expect("moved");
        let took = u64::try_from(sent.elapsed().as_millis()).expect("ms");
        let watched = spectator.expect("moved");
        for m in [&ack, &seen, &watched] {
            assert_eq!(
                (m["move"].as_str(), m["ply"].as_u64()),
                (Some(mv), Some(ply as u64))
            );
        }
        // Clocks: the mover's is exact on both instances; the running one
        // has run on the other instance only for the time between the two
        // readings, which both happened while this move was under way.
        let side = if ply % 2 == 0 { "white_ms" } else { "black_ms" };
        let running = if ply % 2 == 0 { "black_ms" } else { "white_ms" };
        assert_eq!(ack["clocks"][side], seen["clocks"][side], "{ack} {seen}");
        let (x, y) = (
            ack["clocks"][running].as_u64().expect("ms"),
            seen["clocks"][running].as_u64().expect("ms"),
        );
        // (2 ms for the whole milliseconds of both readings and the stored time.)
        assert!(
            y <= x && x - y <= took + 2,
            "running clock {x} vs {y} ({took} ms)"
        );
    }
    for c in [&mut white, &mut black, &mut spectator] {
        c.quiet();
    }
    // The same state from both instances.
    let (sa, sb) = (public_state(&a.addr, &game), public_state(&b.addr, &game));
    assert_eq!(sa, sb);
    assert_eq!(sa["ply"], 6);
    // Black resigns on B; White on A hears it.
    black.send(json!({"v":1,"type":"resign","game":game,"token":bt}));
    black.expect("game_over");
    assert_eq!(white.expect("game_over")["winner"], "white");
    assert_eq!(spectator.expect("game_over")["termination"], "resignation");
}

/// One move sent to both instances at once is stored once (the other
/// answer is a duplicate); two different moves at once: one is stored,
/// the other refused with `ply_mismatch`.
#[test]
fn races_between_instances_store_one_move() {
    let Some(url) = fresh_database("race") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    for round in 0..6 {
        let s = new_game(&a.addr, Value::Null);
        let mut on_a = s.white;
        let mut on_b = resume(&b.addr, &s.game, &s.white_token);
        let other = if round % 2 == 0 { "e2e4" } else { "d2d4" };
        let same = round < 3;
        let second = if same { "e2e4" } else { other };
        let first = if same { "e2e4" } else { "g1f3" };
        let ask = |mv: &str, id: &str| {
            let mut m = move_msg(&s.game, &s.white_token, mv, 0);
            m["id"] = json!(id);
            m
        };
        let (qa, qb) = (ask(first, "a"), ask(second, "b"));
        on_a.send(qa);
        on_b.send(qb);
        let (ra, rb) = (answer(&mut on_a, "a"), answer(&mut on_b, "b"));
        let stored = public_state(&a.addr, &s.game);
        assert_eq!(stored["ply"], 1, "round {round}");
        assert_eq!(public_state(&b.addr, &s.game)["ply"], 1);
        let winner = stored["moves"][0]["move"]
            .as_str()
            .expect("move")
            .to_string();
        if same {
            assert_eq!(
                (ra["type"].as_str(), rb["type"].as_str()),
                (Some("moved"), Some("moved"))
            );
            let duplicates = [&ra, &rb].iter().filter(|m| m["duplicate"] == true).count();
            assert_eq!(duplicates, 1, "{ra} {rb}");
        } else {
            let (won, lost) = if ra["type"] == "moved" {
                (&ra, &rb)
            } else {
                (&rb, &ra)
            };
            assert_eq!(won["type"], "moved", "{ra} {rb}");
            assert_eq!(won["move"], winner.as_str());
            assert_eq!(
                (lost["type"].as_str(), lost["code"].as_str()),
                (Some("error"), Some("ply_mismatch")),
                "{lost}"
            );
            assert_eq!(lost["expected"], 1);
        }
        // Black (on A) heard the stored move exactly once.
        let mut black = s.black;
        assert_eq!(black.expect("moved")["move"], winner.as_str());
        // Each white connection hears the move once at most (its own ack or
        // the broadcast from the other instance), and nothing else.
        black.quiet();
    }
}

/// The direct answer to the request `id` (broadcasts before it skipped).
fn answer(c: &mut Client, id: &str) -> Value {
    loop {
        let m = c.recv();
        if m["id"] == id {
            return m;
        }
        assert_eq!(m["type"], "moved", "{m}");
    }
}

/// An instance acknowledges a move and dies at once: the opponent,
/// connected to the other instance, hears it.
#[test]
fn a_move_acknowledged_by_a_dying_instance_reaches_the_other() {
    let Some(url) = fresh_database("die") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let s = new_game(&a.addr, Value::Null);
    let mut white = s.white;
    let mut black = resume(&b.addr, &s.game, &s.black_token);
    white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    white.expect("moved");
    a.stop();
    let t0 = Instant::now();
    assert_eq!(black.expect("moved")["move"], "e2e4");
    assert!(t0.elapsed() < Duration::from_secs(5));
    black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
    black.expect("moved");
    assert_eq!(public_state(&b.addr, &s.game)["ply"], 2);
}
