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

use hostage_server::{service::limits::ServerLimits, Config, Server, StoreUrl};
use serde_json::{json, Value};
use server::{fresh_database, pg_session};
use support::{http_get, move_msg, new_game, new_game_across, public_state, Client};

struct Instance {
    addr: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Instance {
    fn start(url: &str) -> Instance {
        Instance::start_with(url, ServerLimits::default())
    }

    fn start_with(url: &str, limits: ServerLimits) -> Instance {
        let mut config = Config::new("unused.db");
        config.db = StoreUrl::Postgres(url.to_string());
        config.limits = limits;
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

/// Ends the `LISTEN` connection of every instance (`instances` of them) on
/// `url`'s database and waits until they are gone: a change committed
/// meanwhile is announced to no instance (each reconnects a second later
/// and reads its games again).
fn drop_listeners(url: &str, instances: i64) {
    let (runtime, client) = pg_session(url);
    runtime.block_on(async {
        let listeners = "FROM pg_stat_activity WHERE datname = current_database()
             AND query = 'LISTEN hostage_games' AND pid <> pg_backend_pid()";
        let count = format!("SELECT count(*) {listeners}");
        // The listeners dropped last time are back first (a second later).
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
        let ended: i64 = client
            .query_one(
                &format!("SELECT count(pg_terminate_backend(pid)) {listeners}"),
                &[],
            )
            .await
            .expect("terminate")
            .get(0);
        assert_eq!(ended, instances, "listeners ended");
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
        let ((ra, heard_a), (rb, heard_b)) = (answer(&mut on_a, "a"), answer(&mut on_b, "b"));
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
        black.quiet();
        // Each white connection hears the stored move once: the winner as
        // its answer, the other as a broadcast (its own answer is then a
        // duplicate or a mismatch), and nothing else.
        let (won_a, won_b) = (
            ra["type"] == "moved" && ra["duplicate"] != true,
            rb["type"] == "moved" && rb["duplicate"] != true,
        );
        assert!(won_a != won_b, "{ra} {rb}");
        let heard_a = heard_a + moves_heard(&mut on_a) + usize::from(won_a);
        let heard_b = heard_b + moves_heard(&mut on_b) + usize::from(won_b);
        assert_eq!((heard_a, heard_b), (1, 1), "round {round}: {ra} {rb}");
    }
}

/// The direct answer to the request `id`, and how many `moved` broadcasts
/// came before it.
fn answer(c: &mut Client, id: &str) -> (Value, usize) {
    let mut heard = 0;
    loop {
        let m = c.recv();
        if m["id"] == id {
            return (m, heard);
        }
        assert_eq!(m["type"], "moved", "{m}");
        assert_ne!(m["duplicate"], true, "{m}");
        heard += 1;
    }
}

/// How many `moved` broadcasts `c` hears until a pong (and nothing else).
fn moves_heard(c: &mut Client) -> usize {
    c.send(json!({"v": 1, "type": "ping", "id": "count"}));
    let mut heard = 0;
    loop {
        let m = c.recv();
        if m["type"] == "pong" {
            return heard;
        }
        assert_eq!(
            (m["type"].as_str(), m.get("id")),
            (Some("moved"), None),
            "{m}"
        );
        heard += 1;
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

/// White's move on A withdraws White's offer; Black, on B, which has not
/// heard of the move yet (its listener is down), accepts the offer: the
/// acceptance is refused (`no_draw_offer`, after B read the move), the game
/// goes on.
#[test]
fn an_acceptance_of_an_offer_a_move_withdrew_elsewhere_is_refused() {
    let Some(url) = fresh_database("accept") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let s = new_game(&a.addr, Value::Null);
    let mut white = s.white;
    let mut black = resume(&b.addr, &s.game, &s.black_token);
    white.send(json!({"v":1,"type":"offer_draw","game":s.game,"token":s.white_token}));
    white.expect("draw_offered");
    black.expect("draw_offered");
    drop_listeners(&url, 2);
    white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    white.expect("moved");
    black.send(json!({"v":1,"type":"accept_draw","game":s.game,"token":s.black_token,"id":"x"}));
    let (reply, heard) = answer(&mut black, "x");
    assert_eq!(reply["code"], "no_draw_offer", "{reply}");
    assert_eq!(heard, 1, "B told Black of the move before refusing");
    for addr in [&a.addr, &b.addr] {
        let state = public_state(addr, &s.game);
        assert_eq!(
            (state["status"].as_str(), state["ply"].as_u64()),
            (Some("active"), Some(1))
        );
    }
    white.quiet();
}

/// White moves on A in time, while B, which has not heard of the move
/// (its listener is down), sees White's flag fall: B's ending is refused by
/// the store, B reads the move, and the game goes on.
#[test]
fn a_flag_fall_decided_before_a_move_elsewhere_was_heard_is_not_stored() {
    let Some(url) = fresh_database("lateflag") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let mut s = new_game_across(
        &a.addr,
        &b.addr,
        json!({"initial_ms": 4_000, "increment_ms": 0}),
    );
    // White's clock runs from Black's first move.
    s.first_moves();
    let joined = Instant::now();
    let (game, wt) = (s.game, s.white_token);
    let (mut white, mut black) = (s.white, s.black);
    // B's flag falls 4 s after that; its listener is back a second
    // after it is dropped, so dropped at 3.3 s it misses a move at 3.4 s.
    std::thread::sleep(Duration::from_millis(3_300).saturating_sub(joined.elapsed()));
    drop_listeners(&url, 2);
    white.send(move_msg(&game, &wt, "d2d4", 2));
    white.expect("moved");
    assert!(
        joined.elapsed() < Duration::from_millis(3_900),
        "too slow to test"
    );
    assert_eq!(black.expect("moved")["move"], "d2d4");
    std::thread::sleep(Duration::from_millis(5_000).saturating_sub(joined.elapsed()));
    for addr in [&a.addr, &b.addr] {
        let state = public_state(addr, &game);
        assert_eq!(
            (state["status"].as_str(), state["ply"].as_u64()),
            (Some("active"), Some(3)),
            "{state}"
        );
    }
    white.quiet();
    black.quiet();
}

/// A spectator's view of a game's clocks on `addr`.
fn clocks_on(addr: &str, game: &str) -> (u64, u64) {
    let mut c = Client::connect(addr);
    c.send(json!({"v":1,"type":"watch","game":game}));
    c.expect("watching");
    let state = c.expect("state");
    let ms = |side: &str| state["clocks"][side].as_u64().expect("ms");
    (ms("white_ms"), ms("black_ms"))
}

/// The clocks read on A and on B within moments of each other agree (to
/// 500 ms: two connections are opened in between, on a busy machine).
fn assert_same_clocks(a: &str, b: &str, game: &str) {
    let (on_a, on_b) = (clocks_on(a, game), clocks_on(b, game));
    let near = |x: u64, y: u64| x.abs_diff(y) <= 500;
    assert!(
        near(on_a.0, on_b.0) && near(on_a.1, on_b.1),
        "A {on_a:?}, B {on_b:?}"
    );
}

/// Offers, a decline and an acceptance across instances reach everyone;
/// the clocks stay the same on both instances after each (the side to move
/// is not given back its thinking time before the offer).
#[test]
fn draw_offers_declines_and_acceptance_across_instances() {
    let Some(url) = fresh_database("draws") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let mut s = new_game(&a.addr, json!({"initial_ms": 600_000, "increment_ms": 0}));
    s.first_moves();
    let (game, wt, bt) = (s.game.clone(), s.white_token.clone(), s.black_token.clone());
    let mut white = s.white;
    let mut black = resume(&b.addr, &game, &bt);
    let mut watcher = Client::connect(&b.addr);
    watcher.send(json!({"v":1,"type":"watch","game":game}));
    watcher.expect("watching");
    watcher.expect("state");
    assert_same_clocks(&a.addr, &b.addr, &game);
    // White thinks, then offers on A (B would give the thinking time back
    // if the offer stored no clocks).
    std::thread::sleep(Duration::from_millis(2_000));
    white.send(json!({"v":1,"type":"offer_draw","game":game,"token":wt}));
    white.expect("draw_offered");
    assert_eq!(black.expect("draw_offered")["by"], "white");
    assert_eq!(watcher.expect("draw_offered")["by"], "white");
    assert_same_clocks(&a.addr, &b.addr, &game);
    let (white_ms, _) = clocks_on(&b.addr, &game);
    assert!(
        white_ms <= 600_000 - 2_000,
        "White's thinking time was given back: {white_ms}"
    );
    std::thread::sleep(Duration::from_millis(500));
    black.send(json!({"v":1,"type":"decline_draw","game":game,"token":bt}));
    black.expect("draw_declined");
    assert_eq!(white.expect("draw_declined")["by"], "black");
    assert_eq!(watcher.expect("draw_declined")["by"], "black");
    assert_same_clocks(&a.addr, &b.addr, &game);
    black.send(json!({"v":1,"type":"offer_draw","game":game,"token":bt}));
    black.expect("draw_offered");
    assert_eq!(white.expect("draw_offered")["by"], "black");
    watcher.expect("draw_offered");
    white.send(json!({"v":1,"type":"accept_draw","game":game,"token":wt}));
    for c in [&mut white, &mut black, &mut watcher] {
        let over = c.expect("game_over");
        assert_eq!(
            (over["termination"].as_str(), over["result"].as_str()),
            (Some("agreement"), Some("1/2-1/2"))
        );
    }
    for c in [&mut white, &mut black, &mut watcher] {
        c.quiet();
    }
    assert_eq!(public_state(&a.addr, &game), public_state(&b.addr, &game));
}

/// A flag falls with players and spectators on both instances: both
/// instances' timers fire, one ending is stored, and everyone hears it once.
#[test]
fn a_flag_falls_once_across_instances() {
    let Some(url) = fresh_database("flag") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let mut s = new_game(&a.addr, json!({"initial_ms": 1_000, "increment_ms": 0}));
    s.first_moves();
    let mut white = s.white;
    let mut black = resume(&b.addr, &s.game, &s.black_token);
    let mut watchers: Vec<Client> = [&a.addr, &b.addr]
        .into_iter()
        .map(|addr| {
            let mut c = Client::connect(addr);
            c.send(json!({"v":1,"type":"watch","game":s.game}));
            c.expect("watching");
            c.expect("state");
            c
        })
        .collect();
    let mut everyone: Vec<&mut Client> = vec![&mut white, &mut black];
    everyone.extend(watchers.iter_mut());
    for c in everyone.iter_mut() {
        let over = c.expect("game_over");
        assert_eq!(
            (over["termination"].as_str(), over["winner"].as_str()),
            (Some("timeout"), Some("black"))
        );
    }
    // Both timers have fired by now; nobody hears the end twice.
    std::thread::sleep(Duration::from_millis(500));
    for c in everyone.iter_mut() {
        c.quiet();
    }
    assert_eq!(
        public_state(&a.addr, &s.game),
        public_state(&b.addr, &s.game)
    );
}

/// B loses its `LISTEN` connection; a move made on A meanwhile still
/// reaches B's players and spectators (B reads its games again once it
/// listens again).
#[test]
fn followers_hear_a_move_made_while_their_instance_was_not_listening() {
    let Some(url) = fresh_database("listen") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let s = new_game(&a.addr, Value::Null);
    let mut white = s.white;
    let mut black = resume(&b.addr, &s.game, &s.black_token);
    let mut watcher = Client::connect(&b.addr);
    watcher.send(json!({"v":1,"type":"watch","game":s.game}));
    watcher.expect("watching");
    watcher.expect("state");
    drop_listeners(&url, 2);
    white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    white.expect("moved");
    let t0 = Instant::now();
    assert_eq!(black.expect("moved")["move"], "e2e4");
    assert_eq!(watcher.expect("moved")["move"], "e2e4");
    assert!(t0.elapsed() < Duration::from_secs(5));
    for c in [&mut white, &mut black, &mut watcher] {
        c.quiet();
    }
    black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
    black.expect("moved");
    assert_eq!(white.expect("moved")["move"], "e7e5");
}

/// A player on A cannot claim a win against an opponent connected to B;
/// once the opponent has left B for the documented time, the claim stands.
#[test]
fn an_abandonment_claim_needs_the_opponent_gone_from_every_instance() {
    let Some(url) = fresh_database("abandon") else {
        return;
    };
    let limits = ServerLimits::default().with_abandon_after(Duration::from_millis(2_000));
    let a = Instance::start_with(&url, limits);
    let b = Instance::start_with(&url, limits);
    let s = new_game_across(&a.addr, &b.addr, Value::Null);
    let (game, wt) = (s.game, s.white_token);
    let (mut white, mut black) = (s.white, s.black);
    let claim = json!({"v":1,"type":"claim_win","game":game,"token":wt});
    // Black follows on B all along: never gone, however long A has had no
    // connection of Black's. (The abandonment time is long enough that B's
    // marks, every quarter of it, are never late by the rest under load.)
    std::thread::sleep(Duration::from_millis(2_500));
    white.send(claim.clone());
    white.expect_error("claim_too_early");
    black.quiet();
    drop(black);
    std::thread::sleep(Duration::from_millis(150));
    white.send(claim.clone());
    // (White is told Black has gone when A sees the marks stop: any time now.)
    let presence = ["opponent_gone"];
    assert_eq!(
        white.expect_past("error", &presence)["code"],
        "claim_too_early"
    );
    // Gone for the time, plus a quarter of it (B marks the seats followed
    // there every quarter), plus time for B to see the connection close.
    std::thread::sleep(Duration::from_millis(3_000));
    white.send(claim);
    let over = white.expect_past("game_over", &presence);
    assert_eq!(
        (over["termination"].as_str(), over["winner"].as_str()),
        (Some("abandonment"), Some("white"))
    );
}

/// Requests that a room not yet up to date would refuse (a seat just taken
/// on B, a move just made on B) are decided again after reading the game:
/// resumed, and the move played.
#[test]
fn an_instance_behind_reads_the_game_again_before_refusing() {
    let Some(url) = fresh_database("behind") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let mut white = Client::connect(&a.addr);
    white.send(json!({"v":1,"type":"create","color":"white"}));
    let created = white.expect("created");
    white.expect("state");
    let game = created["game"].as_str().expect("id").to_string();
    let wt = created["token"].as_str().expect("token").to_string();
    // Black joins on B, unheard by A; resuming on A is not `invalid_token`.
    drop_listeners(&url, 2);
    let mut black_b = Client::connect(&b.addr);
    black_b.send(json!({"v":1,"type":"join","game":game}));
    let bt = black_b.expect("joined")["token"]
        .as_str()
        .expect("token")
        .to_string();
    black_b.expect("state");
    let mut black = Client::connect(&a.addr);
    black.send(json!({"v":1,"type":"resume","game":game,"token":bt}));
    black.expect("resumed");
    assert_eq!(black.expect("state")["status"], "active");
    assert_eq!(white.expect("player_joined")["color"], "black");
    drop(black_b);
    // White moves on B, unheard by A; Black's answer on A, for ply 1, is
    // not a `ply_mismatch`.
    let mut white_b = resume(&b.addr, &game, &wt);
    drop_listeners(&url, 2);
    white_b.send(move_msg(&game, &wt, "e2e4", 0));
    white_b.expect("moved");
    black.send(move_msg(&game, &bt, "e7e5", 1));
    assert_eq!(black.expect("moved")["move"], "e2e4");
    assert_eq!(black.expect("moved")["move"], "e7e5");
    assert_eq!(white_b.expect("moved")["move"], "e7e5");
}

/// White on A and Black on B: each game is created on A, joined on B and
/// resigned; a spectator follows on B.
fn finished_across(a: &str, b: &str) -> (String, Client, String, Client, String) {
    let s = new_game_across(a, b, Value::Null);
    let (game, wt, bt) = (s.game, s.white_token, s.black_token);
    let (mut white, mut black) = (s.white, s.black);
    black.send(json!({"v":1,"type":"resign","game":game,"token":bt}));
    black.expect("game_over");
    white.expect("game_over");
    (game, white, wt, black, bt)
}

#[test]
fn a_rematch_asked_on_one_instance_is_heard_and_joined_on_the_other() {
    let Some(url) = fresh_database("rematch") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let (game, mut white, wt, mut black, bt) = finished_across(&a.addr, &b.addr);
    let mut spectator = Client::connect(&b.addr);
    spectator.send(json!({"v":1,"type":"watch","game":game}));
    spectator.expect("watching");
    spectator.expect("state");

    white.send(json!({"v":1,"type":"rematch","game":game,"token":wt}));
    let made = white.expect("rematched");
    white.expect("state");
    let new = made["game"].as_str().expect("id").to_string();
    for c in [&mut black, &mut spectator] {
        assert_eq!(c.expect("rematch_offered")["rematch"], new.as_str());
    }
    assert_eq!(public_state(&b.addr, &game)["rematch"], new.as_str());

    black.send(json!({"v":1,"type":"rematch","game":game,"token":bt}));
    let joined = black.expect("rematched");
    assert_eq!(
        (joined["game"].as_str(), joined["color"].as_str()),
        (Some(new.as_str()), Some("white"))
    );
    black.expect("state");
    assert_eq!(white.expect("player_joined")["color"], "white");
    let black_new = joined["token"].as_str().expect("token").to_string();
    black.send(move_msg(&new, &black_new, "e2e4", 0));
    black.expect("moved");
    assert_eq!(white.expect("moved")["move"], "e2e4");

    // Both asking at once, on two instances: one game, both seated.
    let (game, mut white, wt, mut black, bt) = finished_across(&a.addr, &b.addr);
    white.send(json!({"v":1,"type":"rematch","game":game,"token":wt}));
    black.send(json!({"v":1,"type":"rematch","game":game,"token":bt}));
    let rematched = |c: &mut Client| loop {
        let m = c.recv();
        if m["type"] == "rematched" {
            return m;
        }
        assert!(
            m["type"] == "rematch_offered" || m["type"] == "player_joined",
            "{m}"
        );
    };
    let (w, b2) = (rematched(&mut white), rematched(&mut black));
    assert_eq!(w["game"], b2["game"]);
    assert_eq!(
        (w["color"].as_str(), b2["color"].as_str()),
        (Some("black"), Some("white"))
    );
    let new = w["game"].as_str().expect("id");
    assert_eq!(public_state(&a.addr, new)["status"], "active");
    assert_eq!(public_state(&b.addr, &game)["rematch"], new);
}

/// A first move not made in time aborts the game once across instances:
/// the players and spectators on both hear `game_over` (`aborted`, no
/// result) once; a move withdrawing a draw offer is told as such on the
/// other instance; `abort` sent on B ends a game started on A.
#[test]
fn aborts_and_withdrawn_offers_across_instances() {
    let Some(url) = fresh_database("abort") else {
        return;
    };
    let limits = ServerLimits::default().with_first_move(Duration::from_millis(1_000));
    let a = Instance::start_with(&url, limits);
    let b = Instance::start_with(&url, limits);
    let s = new_game_across(
        &a.addr,
        &b.addr,
        json!({"initial_ms": 60_000, "increment_ms": 0}),
    );
    let (mut white, mut black) = (s.white, s.black);
    let mut watcher = Client::connect(&b.addr);
    watcher.send(json!({"v":1,"type":"watch","game":s.game}));
    watcher.expect("watching");
    watcher.expect("state");
    for c in [&mut white, &mut black, &mut watcher] {
        let over = c.expect("game_over");
        assert_eq!(
            (over["termination"].as_str(), over["result"].as_str()),
            (Some("aborted"), Some("*")),
            "{over}"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    for c in [&mut white, &mut black, &mut watcher] {
        c.quiet();
    }
    assert_eq!(
        public_state(&a.addr, &s.game),
        public_state(&b.addr, &s.game)
    );

    // A draw offer on B withdrawn by a move on A; then Black aborts on B.
    let mut s = new_game_across(&a.addr, &b.addr, Value::Null);
    s.black.send(s.seat_msg("offer_draw", &s.black_token));
    assert_eq!(s.black.expect("draw_offered")["by"], "black");
    assert_eq!(s.white.expect("draw_offered")["by"], "black");
    s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    assert_eq!(s.white.expect("moved")["draw_offer_withdrawn"], "black");
    let heard = s.black.expect("moved");
    assert_eq!(heard["draw_offer_withdrawn"], "black", "{heard}");
    s.black.send(s.seat_msg("abort", &s.black_token));
    assert_eq!(s.black.expect("game_over")["termination"], "aborted");
    assert_eq!(s.white.expect("game_over")["termination"], "aborted");
    // Both first moves made on two instances: `abort` is refused on either.
    let mut s = new_game_across(&a.addr, &b.addr, Value::Null);
    s.first_moves();
    s.white.send(s.seat_msg("abort", &s.white_token));
    s.white.expect_error("cannot_abort");
    s.black.send(s.seat_msg("abort", &s.black_token));
    s.black.expect_error("cannot_abort");
    s.white.quiet();
    s.black.quiet();
}

/// The opponent leaves instance B: the player on instance A is told it has
/// gone (from the presence marks), that it is back when it resumes on B,
/// and may claim once the time told has passed.
#[test]
fn a_player_is_told_across_instances_that_the_opponent_left_and_came_back() {
    let Some(url) = fresh_database("gone") else {
        return;
    };
    let limits = ServerLimits::default().with_abandon_after(Duration::from_millis(2_000));
    let a = Instance::start_with(&url, limits);
    let b = Instance::start_with(&url, limits);
    let s = new_game_across(&a.addr, &b.addr, Value::Null);
    let (game, wt, bt) = (s.game.clone(), s.white_token.clone(), s.black_token.clone());
    let mut white = s.white;
    // Black is on B only; nobody is told anything while it stays.
    std::thread::sleep(Duration::from_millis(1_500));
    white.quiet();
    drop(s.black);
    let gone = white.expect("opponent_gone");
    assert_eq!(gone["color"], "black");
    let mut black = resume(&b.addr, &game, &bt);
    assert_eq!(white.expect("opponent_back")["color"], "black");
    black.quiet();
    drop(black);
    let gone = white.expect("opponent_gone");
    let wait = gone["claim_after_ms"].as_u64().expect("claim_after_ms");
    std::thread::sleep(Duration::from_millis(wait + 300));
    white.send(json!({"v":1,"type":"claim_draw","game":game,"token":wt}));
    let over = white.expect("game_over");
    assert_eq!(
        (over["termination"].as_str(), over["result"].as_str()),
        (Some("abandonment"), Some("1/2-1/2"))
    );
}

/// Stores White's `uci` at ply 0 of the untimed `game` as the store does,
/// but without its announcement: what an instance that stopped between its
/// commit and its `NOTIFY` leaves behind.
fn store_unannounced(url: &str, game: &str, uci: &str) {
    let at_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_millis(),
    )
    .expect("ms");
    let (runtime, client) = pg_session(url);
    runtime.block_on(async {
        client
            .execute(
                "INSERT INTO moves (game, ply, uci, white_ms, black_ms, at_ms)
                 VALUES ($1, 0, $2, NULL, NULL, $3)",
                &[&game, &uci, &at_ms],
            )
            .await
            .expect("move stored");
        let n = client
            .execute(
                "UPDATE games SET updated_ms = $2, version = version + 1 WHERE id = $1",
                &[&game, &at_ms],
            )
            .await
            .expect("game updated");
        assert_eq!(n, 1);
    });
}

/// A move stored but never announced: the other instance's followers hear
/// it once the game has been quiet there for a presence period (a quarter
/// of `abandon_after`), not before.
#[test]
fn a_move_stored_but_never_announced_reaches_the_other_instance_when_quiet() {
    let Some(url) = fresh_database("unannounced_quiet") else {
        return;
    };
    let limits = ServerLimits::default().with_abandon_after(Duration::from_secs(2));
    let a = Instance::start_with(&url, limits);
    let b = Instance::start_with(&url, limits);
    let s = new_game_across(&a.addr, &b.addr, Value::Null);
    let mut black = s.black;
    store_unannounced(&url, &s.game, "e2e4");
    let t0 = Instant::now();
    let skipped = ["opponent_gone", "opponent_back"];
    assert_eq!(black.expect_past("moved", &skipped)["move"], "e2e4");
    // Quiet for one period of 500 ms, found at the next: within two.
    assert!(
        t0.elapsed() < Duration::from_millis(1_500),
        "{:?}",
        t0.elapsed()
    );
    black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
    black.expect_past("moved", &skipped);
    let mut white = s.white;
    assert_eq!(white.expect_past("moved", &skipped)["move"], "e2e4");
    assert_eq!(white.expect_past("moved", &skipped)["move"], "e7e5");
    assert_eq!(public_state(&b.addr, &s.game)["ply"], 2);
}

/// A move stored but never announced: a follower arriving at the other
/// instance sees it at once, and that instance's followers hear it then,
/// long before a presence period (15 s with the default limits).
#[test]
fn a_move_stored_but_never_announced_is_read_when_a_follower_arrives() {
    let Some(url) = fresh_database("unannounced_follow") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let s = new_game_across(&a.addr, &b.addr, Value::Null);
    let mut black = s.black;
    store_unannounced(&url, &s.game, "e2e4");
    let t0 = Instant::now();
    let mut watcher = Client::connect(&b.addr);
    watcher.send(json!({"v":1,"type":"watch","game":s.game}));
    watcher.expect("watching");
    assert_eq!(watcher.expect("state")["ply"], 1);
    assert_eq!(black.expect("moved")["move"], "e2e4");
    assert!(t0.elapsed() < Duration::from_secs(5));
    let mut again = resume(&b.addr, &s.game, &s.black_token);
    again.quiet();
    black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
    black.expect("moved");
    assert_eq!(watcher.expect("moved")["move"], "e7e5");
    let mut white = s.white;
    assert_eq!(white.expect("moved")["move"], "e2e4");
    assert_eq!(white.expect("moved")["move"], "e7e5");
}

/// The connections that announce the instances' writes are ended (as a
/// restarted database or a cut network would end them): the next move is
/// still announced, on a new connection, before it is acknowledged, and
/// the other instance's player hears it long before a presence period.
#[test]
fn a_move_is_announced_after_the_announcing_connection_was_lost() {
    let Some(url) = fresh_database("teller") else {
        return;
    };
    let a = Instance::start(&url);
    let b = Instance::start(&url);
    let s = new_game_across(&a.addr, &b.addr, Value::Null);
    let (mut white, mut black) = (s.white, s.black);
    white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    white.expect("moved");
    assert_eq!(black.expect("moved")["move"], "e2e4");
    let (runtime, client) = pg_session(&url);
    let ended: i64 = runtime
        .block_on(client.query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE datname = current_database() AND query LIKE 'SELECT pg_notify($1, p)%'",
            &[],
        ))
        .expect("terminate")
        .get(0);
    assert!(ended >= 2, "each instance announced: {ended}");
    let t0 = Instant::now();
    black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
    black.expect("moved");
    assert_eq!(white.expect("moved")["move"], "e7e5");
    white.send(move_msg(&s.game, &s.white_token, "g1f3", 2));
    white.expect("moved");
    assert_eq!(black.expect("moved")["move"], "g1f3");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
}
