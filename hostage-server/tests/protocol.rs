//! Protocol tests over a real socket with a plain WebSocket client: the whole
//! flow of a game, every rejection of `docs/protocol.md` (each answered
//! with its code and changing nothing), idempotent resends, reconnecting,
//! flag fall without a move, floods, oversized frames, a failing database,
//! and random garbage frames that must never crash the server or change a
//! game. Each test (but the failing database, a wrapped SQLite) runs on
//! SQLite and, when `HOSTAGE_TEST_PG_URL` names a PostgreSQL
//! (`scripts/test-postgres` sets it), on PostgreSQL too.

#[path = "support/server.rs"]
mod server;
mod support;

use std::{
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
};

use hostage_server::{
    service::limits::ServerLimits,
    store::sqlite::SqliteStore,
    store::{Store, StoreError, StoreFuture, StoredGame, Write},
    Config, Server, StoreUrl,
};
use serde_json::{json, Value};
use support::{http_get, move_msg, new_game, public_state, Client};

struct TestServer {
    addr: String,
    _runtime: tokio::runtime::Runtime,
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostage-proto-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("games.db")
}

fn start_with(store: Arc<dyn Store>) -> TestServer {
    let (addr, runtime) = server::serve(Server::bind_with_store(&Config::new("unused.db"), store));
    TestServer {
        addr,
        _runtime: runtime,
    }
}

/// A server on SQLite; and one on PostgreSQL as well when the tests are
/// given one (`HOSTAGE_TEST_PG_URL`, set by `scripts/test-postgres`): each
/// test runs on every store.
fn start(name: &str) -> Vec<TestServer> {
    start_limited(name, ServerLimits::default())
}

/// As [`start`], with `limits`.
fn start_limited(name: &str, limits: ServerLimits) -> Vec<TestServer> {
    let mut sqlite_config = Config::new("unused.db");
    sqlite_config.limits = limits;
    let store = Arc::new(SqliteStore::open(&temp_db(name)).expect("db"));
    let (addr, runtime) = server::serve(Server::bind_with_store(&sqlite_config, store));
    let mut servers = vec![TestServer {
        addr,
        _runtime: runtime,
    }];
    if let Some(url) = server::database_if_given(&format!("proto_{name}")) {
        let mut config = Config::new("unused.db");
        config.limits = limits;
        config.db = StoreUrl::Postgres(url);
        let (addr, runtime) = server::serve(Server::bind(&config));
        servers.push(TestServer {
            addr,
            _runtime: runtime,
        });
    }
    servers
}

const CLOCK: Value = Value::Null;

#[test]
fn a_whole_game_with_a_spectator_draw_offers_and_pgn() {
    for server in start("flow") {
        let addr = &server.addr;
        let mut s = new_game(addr, json!({"initial_ms": 300_000, "increment_ms": 2_000}));
        let mut spectator = Client::connect(addr);
        spectator.send(json!({"v": 1, "type": "watch", "game": s.game}));
        spectator.expect("watching");
        let state = spectator.expect("state");
        assert_eq!(state["you"], Value::Null);
        // No clock runs before both first moves (the first moves take no time).
        assert_eq!(state["clocks"]["running"], Value::Null);
        assert_eq!(
            state["first_move_ms"].as_u64().map(|ms| ms > 20_000),
            Some(true)
        );

        // A move: the mover's answer carries its id, the others' do not.
        s.white.send(json!({"v":1,"type":"move","game":s.game,"token":s.white_token,"move":"e2e4","ply":0,"id":41}));
        let ack = s.white.expect("moved");
        assert_eq!(ack["id"], 41);
        assert_eq!(ack["san"], "e4");
        assert_eq!(ack["by"], "white");
        assert_eq!(ack["clocks"]["running"], Value::Null);
        assert_eq!(ack["clocks"]["white_ms"], 300_000);
        for c in [&mut s.black, &mut spectator] {
            let m = c.expect("moved");
            assert_eq!(m["move"], "e2e4");
            assert!(m.get("id").is_none());
        }

        // Draw offered and declined, offered and accepted.
        s.black
            .send(json!({"v":1,"type":"offer_draw","game":s.game,"token":s.black_token}));
        for c in [&mut s.black, &mut s.white, &mut spectator] {
            assert_eq!(c.expect("draw_offered")["by"], "black");
        }
        s.white
            .send(json!({"v":1,"type":"decline_draw","game":s.game,"token":s.white_token}));
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            assert_eq!(c.expect("draw_declined")["by"], "white");
        }
        s.black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
        s.black.expect("moved");
        s.white.expect("moved");
        spectator.expect("moved");
        s.white
            .send(json!({"v":1,"type":"offer_draw","game":s.game,"token":s.white_token}));
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            c.expect("draw_offered");
        }
        s.black
            .send(json!({"v":1,"type":"accept_draw","game":s.game,"token":s.black_token}));
        for c in [&mut s.black, &mut s.white, &mut spectator] {
            let over = c.expect("game_over");
            assert_eq!(over["result"], "1/2-1/2");
            assert_eq!(over["termination"], "agreement");
            assert_eq!(over["clocks"]["running"], Value::Null);
        }

        let (status, pgn) = http_get(addr, &format!("/api/games/{}/pgn", s.game));
        assert_eq!(status, 200);
        assert!(pgn.contains("[Variant \"Hostage\"]"), "{pgn}");
        assert!(pgn.contains("[TimeControl \"300+2\"]"), "{pgn}");
        assert!(pgn.contains("[Termination \"agreement\"]"), "{pgn}");
        assert!(pgn.contains("1. e4 e5 1/2-1/2"), "{pgn}");
        let (status, body) = http_get(addr, "/api/games/nosuchgame/pgn");
        assert_eq!(status, 404);
        assert!(body.contains("game_not_found"));
        let (status, body) = http_get(addr, "/api/health");
        assert_eq!(status, 200);
        assert!(body.contains("\"status\":\"ok\""));
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            c.quiet();
        }
    }
}

#[test]
fn checkmate_and_resignation_end_games() {
    for server in start("endings") {
        let mut s = new_game(&server.addr, CLOCK);
        let moves = ["f2f3", "e7e5", "g2g4"];
        for (ply, mv) in moves.iter().enumerate() {
            let (me, token) = if ply % 2 == 0 {
                (&mut s.white, &s.white_token)
            } else {
                (&mut s.black, &s.black_token)
            };
            me.send(move_msg(&s.game, token, mv, ply as u64));
            s.white.expect("moved");
            s.black.expect("moved");
        }
        s.black.send(move_msg(&s.game, &s.black_token, "d8h4", 3));
        for c in [&mut s.black, &mut s.white] {
            let mate = c.expect("moved");
            assert_eq!(mate["san"], "Qh4#");
            let over = c.expect("game_over");
            assert_eq!(over["termination"], "checkmate");
            assert_eq!(over["winner"], "black");
        }
        let mut s = new_game(&server.addr, CLOCK);
        s.white
            .send(json!({"v":1,"type":"resign","game":s.game,"token":s.white_token,"id":"r"}));
        let over = s.white.expect("game_over");
        assert_eq!(
            (over["id"].as_str(), over["winner"].as_str()),
            (Some("r"), Some("black"))
        );
        assert_eq!(s.black.expect("game_over")["termination"], "resignation");
    }
}

/// Every rejection of the protocol: the right code, the offending input in
/// `given`, nothing sent to anyone else, and the game unchanged.
#[test]
fn every_rejection_is_answered_and_changes_nothing() {
    for server in start("rejections") {
        let addr = &server.addr;
        let mut s = new_game(addr, json!({"initial_ms": 600_000, "increment_ms": 0}));
        s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
        s.white.expect("moved");
        s.black.expect("moved");
        let mut spectator = Client::connect(addr);
        spectator.send(json!({"v": 1, "type": "watch", "game": s.game}));
        spectator.expect("watching");
        spectator.expect("state");
        let before = public_state(addr, &s.game);
        let g = s.game.clone();
        let (wt, bt) = (s.white_token.clone(), s.black_token.clone());

        let mut c = Client::connect(addr);
        let cases: Vec<(String, &str)> = vec![
        ("{not json".into(), "invalid_json"),
        ("[1,2]".into(), "invalid_message"),
        ("42".into(), "invalid_message"),
        (json!({"v":1,"type":"move","game":g,"token":bt,"move":"e7e5"}).to_string(), "invalid_message"),
        (json!({"v":1,"type":"move","game":g,"token":bt,"move":"e7e5","ply":"1"}).to_string(), "invalid_message"),
        (json!({"v":1,"type":"move","game":g,"token":bt,"move":"e7e5","ply":1,"extra":true}).to_string(), "invalid_message"),
        (json!({"v":1,"type":"move","game":g,"token":bt,"move":"e7e5","ply":1,"id":[1]}).to_string(), "invalid_message"),
        (json!({"type":"move","game":g,"token":bt,"move":"e7e5","ply":1}).to_string(), "unsupported_version"),
        (json!({"v":7,"type":"move","game":g,"token":bt,"move":"e7e5","ply":1}).to_string(), "unsupported_version"),
        (json!({"v":1,"type":"teleport","game":g}).to_string(), "unknown_type"),
        (json!({"v":1,"game":g}).to_string(), "unknown_type"),
        (json!({"v":1,"type":"create","color":"white","clock":{"initial_ms":10,"increment_ms":0}}).to_string(), "invalid_clock"),
        (json!({"v":1,"type":"create","color":"white","clock":{"initial_ms":60000,"increment_ms":9999999}}).to_string(), "invalid_clock"),
        (json!({"v":1,"type":"watch","game":"zzzzzzzzzz"}).to_string(), "game_not_found"),
        (json!({"v":1,"type":"watch","game":"../../etc/passwd"}).to_string(), "game_not_found"),
        (json!({"v":1,"type":"resume","game":g,"token":"0".repeat(32)}).to_string(), "invalid_token"),
        (move_msg(&g, &"f".repeat(32), "e7e5", 1).to_string(), "invalid_token"),
        (json!({"v":1,"type":"move","game":g,"move":"e7e5","ply":1}).to_string(), "not_a_player"),
        (json!({"v":1,"type":"resign","game":g}).to_string(), "not_a_player"),
        (move_msg(&g, &wt, "d2d4", 1).to_string(), "not_your_turn"),
        (move_msg(&g, &bt, "e7e4", 1).to_string(), "illegal_move"),
        (move_msg(&g, &bt, "P@e4", 1).to_string(), "illegal_move"),
        (move_msg(&g, &bt, "e7e5e5", 1).to_string(), "invalid_move"),
        (move_msg(&g, &bt, "", 1).to_string(), "invalid_move"),
        (move_msg(&g, &bt, "e7e5", 5).to_string(), "ply_mismatch"),
        (move_msg(&g, &bt, "e7e5", 0).to_string(), "ply_mismatch"),
        (move_msg(&g, &wt, "d2d4", 0).to_string(), "ply_mismatch"),
        (json!({"v":1,"type":"join","game":g}).to_string(), "game_full"),
        (json!({"v":1,"type":"join","game":g,"color":"white"}).to_string(), "game_full"),
        (json!({"v":1,"type":"accept_draw","game":g,"token":wt}).to_string(), "no_draw_offer"),
        (json!({"v":1,"type":"decline_draw","game":g,"token":bt}).to_string(), "no_draw_offer"),
    ];
        for (text, code) in &cases {
            // A fresh connection each: these cases are not about flooding.
            let mut c = Client::connect(addr);
            c.send_text(text);
            c.expect_error(code);
            c.quiet();
        }
        let e = c.ask(move_msg(&g, &bt, "e7e4", 1));
        assert_eq!(
            (e["code"].as_str(), e["given"].as_str(), e["game"].as_str()),
            (Some("illegal_move"), Some("e7e4"), Some(g.as_str()))
        );
        // Why, as the core says it (R1: a pawn does not move three squares).
        assert_eq!(e["reason"].as_str(), Some("wrong_way"));
        // `given` repeats the input, shortened.
        c.send(move_msg(&g, &bt, &"x".repeat(500), 1));
        let e = c.expect_error("invalid_move");
        assert_eq!(e["given"].as_str().unwrap().chars().count(), 101);
        c.send(
        json!({"v":1,"type":"create","color":"white","clock":{"initial_ms":10,"increment_ms":0}}),
    );
        assert_eq!(c.expect_error("invalid_clock")["given"], "10+0");
        // Oversized (but under the frame limit): refused, connection kept.
        c.send_text(&format!(
            "{{\"v\":1,\"type\":\"ping\",\"pad\":\"{}\"}}",
            "x".repeat(5000)
        ));
        assert_eq!(c.expect_error("message_too_large")["given"], "5030");
        assert!(c.try_send(tungstenite::Message::binary(vec![1, 2, 3])));
        c.expect_error("binary_frame");
        // A spectator's draw offer, a seat already offering, the taken seat.
        spectator.send(json!({"v":1,"type":"offer_draw","game":g}));
        spectator.expect_error("not_a_player");
        s.black
            .send(json!({"v":1,"type":"offer_draw","game":g,"token":bt}));
        s.black.expect("draw_offered");
        s.white.expect("draw_offered");
        spectator.expect("draw_offered");
        s.black
            .send(json!({"v":1,"type":"offer_draw","game":g,"token":bt}));
        s.black.expect_error("draw_already_offered");
        s.black
            .send(json!({"v":1,"type":"decline_draw","game":g,"token":bt}));
        s.black.expect_error("no_draw_offer");
        s.white
            .send(json!({"v":1,"type":"decline_draw","game":g,"token":wt}));
        s.white.expect("draw_declined");
        s.black.expect("draw_declined");
        spectator.expect("draw_declined");

        // Nobody heard of any refused message, and the game is as it was.
        for client in [&mut s.white, &mut s.black, &mut spectator, &mut c] {
            client.quiet();
        }
        assert_eq!(public_state(addr, &s.game), before);

        // A game waiting for its second player refuses moves and offers.
        let mut w = Client::connect(addr);
        w.send(json!({"v":1,"type":"create","color":"black","clock":null}));
        let created = w.expect("created");
        w.expect("state");
        let (g2, t2) = (
            created["game"].as_str().unwrap(),
            created["token"].as_str().unwrap(),
        );
        w.send(move_msg(g2, t2, "e7e5", 0));
        w.expect_error("game_not_started");
        w.send(json!({"v":1,"type":"offer_draw","game":g2,"token":t2}));
        w.expect_error("game_not_started");
        let mut joiner = Client::connect(addr);
        joiner.send(json!({"v":1,"type":"join","game":g2,"color":"black"}));
        joiner.expect_error("seat_taken");
        // A finished game refuses every action.
        w.send(json!({"v":1,"type":"resign","game":g2,"token":t2}));
        w.expect("game_over");
        w.send(json!({"v":1,"type":"resign","game":g2,"token":t2}));
        w.expect_error("game_over");
        joiner.send(json!({"v":1,"type":"join","game":g2}));
        joiner.expect_error("game_over");
    }
}

#[test]
fn a_resent_move_is_acknowledged_once_and_stored_once() {
    for server in start("idempotent") {
        let addr = &server.addr;
        let mut s = new_game(addr, CLOCK);
        s.white.send(move_msg(&s.game, &s.white_token, "g1f3", 0));
        s.white.expect("moved");
        s.black.expect("moved");
        for _ in 0..3 {
            s.white.send(move_msg(&s.game, &s.white_token, "g1f3", 0));
            let again = s.white.expect("moved");
            assert_eq!(again["duplicate"], true);
            assert_eq!(again["ply"], 0);
        }
        // The opponent heard of the move once.
        s.black.quiet();
        let state = public_state(addr, &s.game);
        assert_eq!(state["ply"], 1);
        assert_eq!(state["moves"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn a_player_reconnects_with_the_token_and_gets_the_whole_state() {
    for server in start("reconnect") {
        let addr = &server.addr;
        let s = new_game(addr, json!({"initial_ms": 60_000, "increment_ms": 0}));
        let (game, wt, bt) = (s.game.clone(), s.white_token.clone(), s.black_token.clone());
        let mut black = s.black;
        drop(s.white); // White's connection drops.
        let mut white = Client::connect(addr);
        white.send(move_msg(&game, &wt, "d2d4", 0)); // a seat may act from any connection
        white.expect("moved");
        // Black is told White's first connection left (then that White is back).
        let presence = ["opponent_gone", "opponent_back"];
        black.expect_past("moved", &presence);
        drop(white);
        let mut white = Client::connect(addr);
        white.send(json!({"v":1,"type":"resume","game":game,"token":wt,"id":1}));
        let resumed = white.expect("resumed");
        assert_eq!(
            (resumed["color"].as_str(), resumed["id"].as_u64()),
            (Some("white"), Some(1))
        );
        let state = white.expect("state");
        assert_eq!(state["you"], "white");
        assert_eq!(
            state["moves"],
            json!([{"ply":0,"move":"d2d4","san":"d4","by":"white"}])
        );
        assert_eq!(state["turn"], "black");
        // Following again: the opponent's next move arrives.
        black.send(move_msg(&game, &bt, "d7d5", 1));
        black.expect_past("moved", &presence);
        assert_eq!(white.expect("moved")["san"], "d5");
        white.send(json!({"v":1,"type":"unwatch","game":game}));
        white.expect("unwatched");
        black.send(move_msg(&game, &bt, "e7e6", 2));
        assert_eq!(
            black.expect_past("error", &presence)["code"],
            "not_your_turn"
        );
        white.quiet();
    }
}

#[test]
fn the_server_ends_a_game_on_time_when_nobody_moves() {
    for server in start("flag") {
        let mut s = new_game(
            &server.addr,
            json!({"initial_ms": 1_000, "increment_ms": 0}),
        );
        s.first_moves();
        for c in [&mut s.white, &mut s.black] {
            let over = c.expect("game_over");
            assert_eq!(over["termination"], "timeout");
            assert_eq!(over["winner"], "black");
            assert_eq!(over["clocks"]["white_ms"], 0);
        }
        s.white.send(move_msg(&s.game, &s.white_token, "d2d4", 2));
        s.white.expect_error("game_over");
        let state = public_state(&server.addr, &s.game);
        assert_eq!(
            (state["status"].as_str(), state["ply"].as_u64()),
            (Some("finished"), Some(2))
        );
    }
}

#[test]
fn floods_are_refused_then_cut_off_and_big_frames_close_the_connection() {
    for server in start("flood") {
        let mut c = Client::connect(&server.addr);
        for _ in 0..40 {
            c.send(json!({"v":1,"type":"ping"}));
        }
        let mut pongs = 0;
        let mut limited = 0;
        for _ in 0..40 {
            match c.recv()["type"].as_str() {
                Some("pong") => pongs += 1,
                Some("error") => limited += 1,
                other => panic!("{other:?}"),
            }
        }
        // The burst, plus what refilled while the 40 were read (10 a second).
        assert!((20..=35).contains(&pongs) && limited >= 5, "{pongs} pongs");
        assert_eq!(pongs + limited, 40);
        // Keep flooding: the server closes the connection.
        let mut closed = false;
        for _ in 0..400 {
            if !c.try_send(tungstenite::Message::text(r#"{"v":1,"type":"ping"}"#)) {
                closed = true;
                break;
            }
        }
        while !closed {
            closed = c.try_recv().is_none();
        }
        // A frame over the hard limit closes that connection only.
        let mut big = Client::connect(&server.addr);
        let _ = big.try_send(tungstenite::Message::text("x".repeat(70_000)));
        assert!(big.try_recv().is_none());
        let mut fresh = Client::connect(&server.addr);
        fresh.quiet();
    }
}

/// A store that can be told to refuse every write.
struct Flaky {
    inner: SqliteStore,
    fail: Arc<AtomicBool>,
}

impl Store for Flaky {
    fn write(&self, write: Write) -> StoreFuture<'_, ()> {
        if self.fail.load(Ordering::SeqCst) {
            Box::pin(async { Err(StoreError::Backend("disk on fire".into())) })
        } else {
            self.inner.write(write)
        }
    }
    fn load<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<StoredGame>> {
        self.inner.load(game)
    }
    fn unfinished(&self) -> StoreFuture<'_, Vec<String>> {
        self.inner.unfinished()
    }
}

#[test]
fn a_write_the_database_refuses_is_not_accepted() {
    let fail = Arc::new(AtomicBool::new(false));
    let store = Flaky {
        inner: SqliteStore::open(&temp_db("flaky")).expect("db"),
        fail: Arc::clone(&fail),
    };
    let server = start_with(Arc::new(store));
    let addr = &server.addr;
    let mut s = new_game(addr, json!({"initial_ms": 60_000, "increment_ms": 1_000}));
    let before = public_state(addr, &s.game);
    fail.store(true, Ordering::SeqCst);
    s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    s.white.expect_error("storage_failed");
    s.white
        .send(json!({"v":1,"type":"resign","game":s.game,"token":s.white_token}));
    s.white.expect_error("storage_failed");
    s.white
        .send(json!({"v":1,"type":"offer_draw","game":s.game,"token":s.white_token}));
    s.white.expect_error("storage_failed");
    s.white.send(json!({"v":1,"type":"create","color":"white"}));
    s.white.expect_error("storage_failed");
    s.black.quiet();
    assert_eq!(public_state(addr, &s.game), before);
    fail.store(false, Ordering::SeqCst);
    s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
    s.white.expect("moved");
    s.black.expect("moved");
}

/// A small xorshift generator: the garbage is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn garbage(rng: &mut Rng, game: &str) -> tungstenite::Message {
    const PIECES: [&str; 24] = [
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\"",
        "\"v\"",
        "1",
        "-1",
        "1e999",
        "null",
        "true",
        "\"type\"",
        "\"move\"",
        "\"join\"",
        "\"create\"",
        "\"game\"",
        "\"ply\"",
        "\"token\"",
        "\"e2e4\"",
        "\\u0000",
        "é",
        "🂡",
    ];
    let valid = [
        json!({"v":1,"type":"move","game":game,"token":"0123","move":"e2e4","ply":0}).to_string(),
        json!({"v":1,"type":"join","game":game,"color":"white"}).to_string(),
        json!({"v":1,"type":"resign","game":game}).to_string(),
        json!({"v":1,"type":"create","color":"random","clock":{"initial_ms":1000,"increment_ms":0}}).to_string(),
    ];
    match rng.below(4) {
        0 => tungstenite::Message::binary(
            (0..rng.below(300))
                .map(|_| rng.next() as u8)
                .collect::<Vec<u8>>(),
        ),
        1 => {
            let text: String = (0..rng.below(60))
                .map(|_| PIECES[rng.below(PIECES.len())])
                .collect();
            tungstenite::Message::text(text)
        }
        2 => {
            // A valid message with a few bytes changed (kept UTF-8).
            let mut bytes = valid[rng.below(valid.len())].clone().into_bytes();
            for _ in 0..=rng.below(4) {
                let i = rng.below(bytes.len());
                bytes[i] = b" {}[]\":,0123456789abcxyz-"[rng.below(25)];
            }
            tungstenite::Message::text(String::from_utf8_lossy(&bytes).to_string())
        }
        _ => {
            let text: String = (0..rng.below(200))
                .map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'))
                .collect();
            tungstenite::Message::text(text)
        }
    }
}

#[test]
fn random_garbage_never_crashes_the_server_or_changes_a_game() {
    for server in start("garbage") {
        let addr = &server.addr;
        let mut s = new_game(addr, json!({"initial_ms": 600_000, "increment_ms": 0}));
        s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
        s.white.expect("moved");
        s.black.expect("moved");
        let before = public_state(addr, &s.game);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut answered = 0;
        // 32 connections of 19 frames each and a ping: inside the burst of 20,
        // so that every frame reaches the parser (608 frames).
        for _ in 0..32 {
            let mut c = Client::connect(addr);
            let mut sent = 0;
            for _ in 0..19 {
                if c.try_send(garbage(&mut rng, &s.game)) {
                    sent += 1;
                }
            }
            // Every frame gets exactly one answer, in order, then the pong.
            c.send(json!({"v":1,"type":"ping","id":"end"}));
            loop {
                let m = c.recv();
                if m["type"] == "pong" && m["id"] == "end" {
                    break;
                }
                answered += 1;
            }
            assert!(answered > 0 && sent > 0);
        }
        assert!(answered >= 32 * 19, "{answered} answers");
        assert_eq!(public_state(addr, &s.game), before);
        // The players heard nothing, and the game goes on.
        s.white.quiet();
        s.black.quiet();
        s.black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
        s.black.expect("moved");
        s.white.expect("moved");
    }
}

/// The next message of type `kind`, passing over the broadcasts a race may
/// put before it (an offer, a player joining).
fn next_of(c: &mut Client, kind: &str) -> Value {
    loop {
        let m = c.recv();
        if m["type"] == kind {
            return m;
        }
        assert!(
            ["rematch_offered", "player_joined"].contains(&m["type"].as_str().unwrap_or("")),
            "expected {kind}, got {m}"
        );
    }
}

fn rematch_msg(game: &str, token: &str, id: u64) -> Value {
    json!({"v": 1, "type": "rematch", "game": game, "token": token, "id": id})
}

#[test]
fn a_rematch_swaps_the_colours_and_the_opponent_joins_it() {
    for server in start("rematch") {
        let addr = &server.addr;
        let clock = json!({"initial_ms": 60_000, "increment_ms": 1_000});
        let mut s = new_game(addr, clock.clone());
        let mut spectator = Client::connect(addr);
        spectator.send(json!({"v": 1, "type": "watch", "game": s.game}));
        spectator.expect("watching");
        assert_eq!(spectator.expect("state")["rematch"], Value::Null);
        s.black
            .send(json!({"v":1,"type":"resign","game":s.game,"token":s.black_token}));
        for c in [&mut s.black, &mut s.white, &mut spectator] {
            c.expect("game_over");
        }

        // A spectator cannot ask, nor a stranger's token.
        spectator.send(json!({"v":1,"type":"rematch","game":s.game,"id":1}));
        spectator.expect_error("not_a_player");
        spectator.send(rematch_msg(&s.game, "0123456789abcdef0123456789abcdef", 2));
        spectator.expect_error("invalid_token");
        assert_eq!(public_state(addr, &s.game)["rematch"], Value::Null);

        // White asks: a new game, White seated as Black, same clock.
        s.white.send(rematch_msg(&s.game, &s.white_token, 3));
        let made = s.white.expect("rematched");
        assert_eq!(made["id"], 3);
        assert_eq!(made["color"], "black");
        assert_eq!(made["rematch_of"], s.game.as_str());
        let new = made["game"].as_str().expect("id").to_string();
        assert_ne!(new, s.game);
        assert_eq!(made["link"], format!("/?game={new}"));
        let white_new_token = made["token"].as_str().expect("token").to_string();
        assert_ne!(white_new_token, s.white_token);
        let state = s.white.expect("state");
        assert_eq!(state["game"], new.as_str());
        assert_eq!(state["you"], "black");
        assert_eq!(state["status"], "waiting");
        assert_eq!(state["clock"], clock);

        // The opponent and the spectator hear of it; the old game's state
        // carries it.
        for c in [&mut s.black, &mut spectator] {
            let offered = c.expect("rematch_offered");
            assert_eq!(offered["game"], s.game.as_str());
            assert_eq!(offered["rematch"], new.as_str());
        }
        assert_eq!(public_state(addr, &s.game)["rematch"], new.as_str());

        // Resent: the same game and seat, nothing new.
        s.white.send(rematch_msg(&s.game, &s.white_token, 4));
        let again = s.white.expect("rematched");
        assert_eq!(again["game"], new.as_str());
        assert_eq!(again["token"], white_new_token.as_str());
        assert_eq!(again["color"], "black");
        s.white.expect("state");

        // Black accepts: takes White in the new game, which starts.
        s.black.send(rematch_msg(&s.game, &s.black_token, 5));
        let joined = s.black.expect("rematched");
        assert_eq!(joined["game"], new.as_str());
        assert_eq!(joined["color"], "white");
        let black_new_token = joined["token"].as_str().expect("token").to_string();
        let state = s.black.expect("state");
        assert_eq!(state["you"], "white");
        assert_eq!(state["status"], "active");
        assert_eq!(s.white.expect("player_joined")["color"], "white");
        // The old tokens are no seats of the new game.
        s.white.send(move_msg(&new, &s.black_token, "e2e4", 0));
        s.white.expect_error("invalid_token");
        s.black.send(move_msg(&new, &black_new_token, "e2e4", 0));
        assert_eq!(s.black.expect("moved")["by"], "white");
        assert_eq!(s.white.expect("moved")["move"], "e2e4");
        s.white.send(move_msg(&new, &white_new_token, "e7e5", 1));
        assert_eq!(s.white.expect("moved")["by"], "black");
        s.black.expect("moved");
        // Asked again by Black: the seat Black holds.
        s.black.send(rematch_msg(&s.game, &s.black_token, 6));
        assert_eq!(
            s.black.expect("rematched")["token"],
            black_new_token.as_str()
        );
        s.black.expect("state");
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            c.quiet();
        }
    }
}

#[test]
fn both_asking_at_once_end_in_one_rematch() {
    for server in start("rematch_race") {
        let addr = &server.addr;
        let mut s = new_game(addr, CLOCK);
        s.white
            .send(json!({"v":1,"type":"resign","game":s.game,"token":s.white_token}));
        s.white.expect("game_over");
        s.black.expect("game_over");
        s.white.send(rematch_msg(&s.game, &s.white_token, 1));
        s.black.send(rematch_msg(&s.game, &s.black_token, 2));
        let w = next_of(&mut s.white, "rematched");
        let b = next_of(&mut s.black, "rematched");
        assert_eq!(w["game"], b["game"]);
        assert_eq!(w["color"], "black");
        assert_eq!(b["color"], "white");
        let new = w["game"].as_str().expect("id").to_string();
        let state = public_state(addr, &new);
        assert_eq!(state["status"], "active");
        assert_eq!(state["seats"], json!({"white": true, "black": true}));
        assert_eq!(public_state(addr, &s.game)["rematch"], new.as_str());
    }
}

#[test]
fn a_rematch_of_a_game_that_goes_on_is_refused() {
    for server in start("rematch_early") {
        let addr = &server.addr;
        let mut s = new_game(addr, CLOCK);
        let before = public_state(addr, &s.game);
        s.white.send(rematch_msg(&s.game, &s.white_token, 1));
        let e = s.white.expect_error("game_not_over");
        assert_eq!(e["id"], 1);
        assert_eq!(e["game"], s.game.as_str());
        assert_eq!(public_state(addr, &s.game), before);
        assert_eq!(before["rematch"], Value::Null);
        s.white.quiet();
        s.black.quiet();
    }
}

/// A move withdraws a standing draw offer, and says so to everyone: the
/// offerer, the opponent and the spectators; the offer can then no longer
/// be accepted.
#[test]
fn a_move_withdraws_a_draw_offer_visibly_to_everyone() {
    for server in start("withdrawn") {
        let mut s = new_game(&server.addr, CLOCK);
        let mut spectator = Client::connect(&server.addr);
        spectator.send(json!({"v": 1, "type": "watch", "game": s.game}));
        spectator.expect("watching");
        spectator.expect("state");
        s.white.send(s.seat_msg("offer_draw", &s.white_token));
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            assert_eq!(c.expect("draw_offered")["by"], "white");
        }
        s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            let m = c.expect("moved");
            assert_eq!(m["draw_offer"], Value::Null, "{m}");
            assert_eq!(m["draw_offer_withdrawn"], "white", "{m}");
        }
        s.black.send(s.seat_msg("accept_draw", &s.black_token));
        s.black.expect_error("no_draw_offer");
        // The next move withdraws nothing, and says nothing of it.
        s.black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            assert!(c.expect("moved").get("draw_offer_withdrawn").is_none());
        }
        assert_eq!(
            public_state(&server.addr, &s.game)["draw_offer"],
            Value::Null
        );
        for c in [&mut s.white, &mut s.black, &mut spectator] {
            c.quiet();
        }
    }
}

/// The limits of the first-move tests: a short time for a first move.
fn quick_first_move() -> ServerLimits {
    ServerLimits::default().with_first_move(std::time::Duration::from_millis(800))
}

const TIMED: fn() -> Value = || json!({"initial_ms": 60_000, "increment_ms": 0});

/// A first move not made in time aborts a timed game: no result, no
/// winner, the late move refused; White's time counts from the join,
/// Black's from White's first move; `hello` says how long it is.
#[test]
fn a_first_move_not_made_in_time_aborts_the_game() {
    for server in start_limited("firstmove", quick_first_move()) {
        let mut c = Client::connect_raw(&server.addr);
        assert_eq!(c.expect("hello")["limits"]["first_move_ms"], 800);
        // White never moves.
        let mut s = new_game(&server.addr, TIMED());
        for c in [&mut s.white, &mut s.black] {
            let over = c.expect("game_over");
            assert_eq!(
                (over["termination"].as_str(), over["result"].as_str()),
                (Some("aborted"), Some("*")),
                "{over}"
            );
            assert_eq!(over["winner"], Value::Null);
            assert_eq!(over["clocks"]["white_ms"], 60_000);
        }
        s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
        s.white.expect_error("game_over");
        let state = public_state(&server.addr, &s.game);
        assert_eq!(
            (state["status"].as_str(), state["termination"].as_str()),
            (Some("finished"), Some("aborted"))
        );
        assert_eq!(
            (state["result"].as_str(), state["ply"].as_u64()),
            (Some("*"), Some(0))
        );
        let (_, pgn) = http_get(&server.addr, &format!("/api/games/{}/pgn", s.game));
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(pgn.contains("[Termination \"aborted\"]"), "{pgn}");

        // White moves at once; Black does not: aborted after White's move.
        let mut s = new_game(&server.addr, TIMED());
        s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
        s.white.expect("moved");
        let seen = s.black.expect("moved");
        assert_eq!(seen["clocks"]["running"], Value::Null);
        for c in [&mut s.white, &mut s.black] {
            assert_eq!(c.expect("game_over")["termination"], "aborted");
        }
        s.black.send(move_msg(&s.game, &s.black_token, "e7e5", 1));
        s.black.expect_error("game_over");
        assert_eq!(public_state(&server.addr, &s.game)["ply"], 1);

        // Both first moves in time: the game goes on, White's clock runs.
        let mut s = new_game(&server.addr, TIMED());
        s.first_moves();
        std::thread::sleep(std::time::Duration::from_millis(1_200));
        let state = public_state(&server.addr, &s.game);
        assert_eq!(state["status"], "active", "{state}");
        // An untimed game has no time for a first move.
        let mut u = new_game(&server.addr, CLOCK);
        std::thread::sleep(std::time::Duration::from_millis(1_200));
        assert_eq!(public_state(&server.addr, &u.game)["status"], "active");
        for c in [&mut s.white, &mut s.black, &mut u.white, &mut u.black] {
            c.quiet();
        }
    }
}

/// A game read again after a restart still aborts on time (the time the
/// server was down is charged to no one, as on the clocks).
#[test]
fn a_restarted_server_still_aborts_a_game_on_time() {
    let db = temp_db("abortrestart");
    let limits = ServerLimits::default().with_first_move(std::time::Duration::from_millis(1_500));
    let boot = || {
        let mut config = Config::new("unused.db");
        config.limits = limits;
        let store = Arc::new(SqliteStore::open(&db).expect("db"));
        server::serve(Server::bind_with_store(&config, store))
    };
    let (addr, runtime) = boot();
    let s = new_game(&addr, TIMED());
    let game = s.game.clone();
    drop(s);
    runtime.shutdown_background();
    let (addr, _runtime) = boot();
    let t0 = std::time::Instant::now();
    loop {
        let state = public_state(&addr, &game);
        if state["status"] == "finished" {
            assert_eq!(state["termination"], "aborted", "{state}");
            break;
        }
        assert!(t0.elapsed() < std::time::Duration::from_secs(5), "{state}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        t0.elapsed() >= std::time::Duration::from_millis(1_000),
        "aborted too early"
    );
}

/// `abort` before both first moves ends the game with no result, for
/// everyone; after them it is refused with `cannot_abort`, and hostile
/// `abort`s are refused and change nothing.
#[test]
fn abort_before_both_first_moves_only() {
    for server in start("abort") {
        let addr = &server.addr;
        let mut s = new_game(addr, CLOCK);
        s.white.send(move_msg(&s.game, &s.white_token, "e2e4", 0));
        s.white.expect("moved");
        s.black.expect("moved");
        let before = public_state(addr, &s.game);
        let g = s.game.clone();
        let cases = [
            (json!({"v":1,"type":"abort","game":g}), "not_a_player"),
            (
                json!({"v":1,"type":"abort","game":g,"token":"f".repeat(32)}),
                "invalid_token",
            ),
            (
                json!({"v":1,"type":"abort","game":g,"token":7}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"abort","game":g,"token":s.black_token,"why":"x"}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"abort","game":"zzzzzzzzzz","token":s.black_token}),
                "game_not_found",
            ),
            (
                json!({"v":1,"type":"abort","game":"x".repeat(3000),"token":s.black_token}),
                "game_not_found",
            ),
        ];
        for (msg, code) in &cases {
            let mut c = Client::connect(addr);
            c.send(msg.clone());
            c.expect_error(code);
            c.quiet();
        }
        s.white.quiet();
        s.black.quiet();
        assert_eq!(public_state(addr, &s.game), before);
        // Black aborts after White's first move: no result, told to both.
        s.black
            .send(json!({"v":1,"type":"abort","game":g,"token":s.black_token,"id":"a"}));
        let over = s.black.expect("game_over");
        assert_eq!(over["id"], "a");
        for over in [over, s.white.expect("game_over")] {
            assert_eq!(
                (
                    over["termination"].as_str(),
                    over["result"].as_str(),
                    &over["winner"]
                ),
                (Some("aborted"), Some("*"), &Value::Null)
            );
        }
        s.white.send(s.seat_msg("abort", &s.white_token));
        s.white.expect_error("game_over");
        // After both first moves: refused, nothing changes.
        let mut s = new_game(addr, CLOCK);
        s.first_moves();
        let before = public_state(addr, &s.game);
        for (c, t) in [
            (&mut s.white, &s.white_token),
            (&mut s.black, &s.black_token),
        ] {
            c.send(json!({"v":1,"type":"abort","game":s.game,"token":t}));
            c.expect_error("cannot_abort");
        }
        s.white.quiet();
        s.black.quiet();
        assert_eq!(public_state(addr, &s.game), before);
    }
}

/// A player is told when the opponent's last connection leaves the game
/// (`opponent_gone`, with the time left before a claim) and when the
/// opponent is back (`opponent_back`); a player arriving while the
/// opponent is gone is told at once; the claim is accepted once the time
/// told has passed.
#[test]
fn the_remaining_player_is_told_the_opponent_left_and_came_back() {
    let limits =
        ServerLimits::default().with_abandon_after(std::time::Duration::from_millis(2_000));
    for server in start_limited("gone", limits) {
        let addr = &server.addr;
        let mut s = new_game(addr, CLOCK);
        let (g, wt, bt) = (s.game.clone(), s.white_token.clone(), s.black_token.clone());
        drop(s.black);
        let gone = s.white.expect("opponent_gone");
        assert_eq!(
            (gone["game"].as_str(), gone["color"].as_str()),
            (Some(g.as_str()), Some("black"))
        );
        let wait = gone["claim_after_ms"].as_u64().expect("claim_after_ms");
        assert!(wait > 0 && wait <= 2_500, "{gone}");
        s.white
            .send(json!({"v":1,"type":"claim_win","game":g,"token":wt}));
        s.white.expect_error("claim_too_early");
        // A spectator arriving now is told too.
        let mut watcher = Client::connect(addr);
        watcher.send(json!({"v":1,"type":"watch","game":g}));
        watcher.expect("watching");
        watcher.expect("state");
        assert_eq!(watcher.expect("opponent_gone")["color"], "black");
        // Black comes back: both are told once.
        let mut black = Client::connect(addr);
        black.send(json!({"v":1,"type":"resume","game":g,"token":bt}));
        black.expect("resumed");
        black.expect("state");
        for c in [&mut s.white, &mut watcher] {
            assert_eq!(c.expect("opponent_back")["color"], "black");
        }
        black.quiet();
        s.white.quiet();
        // Black leaves again; White waits the time told, then claims.
        drop(black);
        let gone = s.white.expect("opponent_gone");
        watcher.expect("opponent_gone");
        let wait = gone["claim_after_ms"].as_u64().expect("claim_after_ms");
        std::thread::sleep(std::time::Duration::from_millis(wait + 300));
        s.white
            .send(json!({"v":1,"type":"claim_win","game":g,"token":wt}));
        let over = s.white.expect("game_over");
        assert_eq!(
            (over["termination"].as_str(), over["winner"].as_str()),
            (Some("abandonment"), Some("white"))
        );
        assert_eq!(watcher.expect("game_over")["termination"], "abandonment");
        s.white.quiet();
        watcher.quiet();

        // A creator who left before anyone joined: the joiner is told at once.
        let mut creator = Client::connect(addr);
        creator.send(json!({"v":1,"type":"create","color":"white"}));
        let game = creator.expect("created")["game"]
            .as_str()
            .expect("id")
            .to_string();
        creator.expect("state");
        drop(creator);
        let mut joiner = Client::connect(addr);
        joiner.send(json!({"v":1,"type":"join","game":game}));
        joiner.expect("joined");
        joiner.expect("state");
        assert_eq!(joiner.expect("opponent_gone")["color"], "white");
        joiner.quiet();
    }
}

/// A field documented as an object refuses an array (`"clock":[60000,0]`
/// is not `{"initial_ms":60000,"increment_ms":0}`), and a message that
/// gives a key twice is refused, at any depth: `invalid_message`, and no
/// game, challenge or move comes of it.
#[test]
fn a_clock_as_an_array_and_a_key_given_twice_are_refused_and_change_nothing() {
    for server in start("strict") {
        let addr = &server.addr;
        let mut s = new_game(addr, json!({"initial_ms": 600_000, "increment_ms": 0}));
        let before = public_state(addr, &s.game);
        let mut watcher = Client::connect(addr);
        watcher.send(json!({"v":1,"type":"lobby_watch"}));
        let lobby = watcher.expect("lobby");
        assert_eq!(lobby["challenges"], json!([]));
        let (g, wt) = (s.game.clone(), s.white_token.clone());
        let cases: Vec<String> = vec![
            json!({"v":1,"type":"create","color":"white","clock":[60000,0]}).to_string(),
            json!({"v":1,"type":"create","color":"white","clock":[60000]}).to_string(),
            json!({"v":1,"type":"challenge_create","color":"white","clock":[60000,0]}).to_string(),
            json!({"v":1,"type":"lobby_seek","clock":[60000,0]}).to_string(),
            r#"{"v":1,"type":"create","color":"white","color":"black"}"#.into(),
            r#"{"v":1,"type":"create","color":"white","clock":{"initial_ms":60000,"initial_ms":1000,"increment_ms":0}}"#.into(),
            r#"{"v":1,"type":"challenge_create","color":"white","color":"white"}"#.into(),
            r#"{"v":1,"type":"lobby_seek","clock":{"initial_ms":60000,"increment_ms":0,"increment_ms":0}}"#.into(),
            r#"{"v":1,"v":1,"type":"lobby_seek"}"#.into(),
            format!(r#"{{"v":1,"type":"move","game":"{g}","token":"{wt}","move":"e2e4","ply":0,"ply":0}}"#),
            format!(r#"{{"v":1,"type":"resign","type":"resign","game":"{g}","token":"{wt}"}}"#),
        ];
        for text in &cases {
            let mut c = Client::connect(addr);
            c.send_text(text);
            c.expect_error("invalid_message");
            c.quiet();
        }
        for client in [&mut s.white, &mut s.black, &mut watcher] {
            client.quiet();
        }
        assert_eq!(public_state(addr, &s.game), before);
        let mut again = Client::connect(addr);
        again.send(json!({"v":1,"type":"lobby_watch"}));
        assert_eq!(again.expect("lobby")["challenges"], json!([]));
        // The documented object is still accepted.
        let mut c = Client::connect(addr);
        c.send(json!({"v":1,"type":"create","color":"white","clock":{"initial_ms":60000,"increment_ms":0}}));
        c.expect("created");
    }
}
