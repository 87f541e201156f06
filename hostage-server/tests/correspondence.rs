//! Correspondence games (days per move), "your games" and the list of
//! games being played now (`docs/protocol.md`, Correspondence, Watching):
//! the strict `clock` field, a deadline passing (with a shortened day), a
//! restart after it, the order of an account's games, the live list; and
//! on PostgreSQL, two instances ending one game on time once.

#[path = "support/server.rs"]
mod server;
#[path = "support/mod.rs"]
mod support;

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use hostage_server::{Config, Server, ServerLimits, StoreUrl};
use serde_json::{json, Value};
use support::{http_get, move_msg, new_game, new_game_across, Client};

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostage-corresp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    dir.join("games.db")
}

/// A server on the SQLite file `path` with a day of `day`.
fn sqlite_server(path: &PathBuf, day: Duration) -> (String, tokio::runtime::Runtime) {
    let mut config = Config::new(path);
    config.limits = ServerLimits::default().with_correspondence_day(day);
    server::serve(Server::bind(&config))
}

fn now_ms() -> u64 {
    u64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_millis(),
    )
    .expect("ms")
}

fn state_of(addr: &str, game: &str) -> Value {
    let (status, body) = http_get(addr, &format!("/api/games/{game}"));
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("JSON")
}

#[test]
fn the_days_clock_is_read_exactly() {
    let path = temp_db("parse");
    let (addr, _rt) = sqlite_server(&path, Duration::from_secs(86_400));
    for days in [1, 2, 3, 5, 7, 14] {
        let mut c = Client::connect(&addr);
        c.send(json!({"v":1,"type":"create","color":"white","clock":{"days":days}}));
        c.expect("created");
        let state = c.expect("state");
        assert_eq!(state["clock"], json!({"days": days}), "{state}");
        // No deadline before the game starts.
        assert!(state.get("deadline_ms").is_none(), "{state}");
    }
    // A fresh connection for each refusal (a connection follows few games).
    let bad_values: [(Value, &str, Option<&str>); 10] = [
        (json!({"days": 0}), "invalid_clock", Some("0")),
        (json!({"days": 4}), "invalid_clock", Some("4")),
        (json!({"days": 15}), "invalid_clock", Some("15")),
        (json!({"days": 30}), "invalid_clock", Some("30")),
        (json!({"days": "3"}), "invalid_message", None),
        (json!({"days": 3.5}), "invalid_message", None),
        (json!({"days": -1}), "invalid_message", None),
        (
            json!({"days": 3, "initial_ms": 60_000}),
            "invalid_message",
            None,
        ),
        (
            json!({"days": 3, "increment_ms": 0}),
            "invalid_message",
            None,
        ),
        (json!([3]), "invalid_message", None),
    ];
    for kind in ["create", "challenge_create", "lobby_seek"] {
        for (clock, code, given) in &bad_values {
            let mut c = Client::connect(&addr);
            let mut msg = json!({"v":1,"type":kind,"clock":clock});
            if kind != "lobby_seek" {
                msg["color"] = json!("white");
            }
            c.send(msg);
            let e = c.expect_error(code);
            if let Some(given) = given {
                assert_eq!(e["given"], *given, "{kind} {clock}: {e}");
            }
            c.quiet();
        }
    }
    // The lobby shows a days challenge with its days; a seek of the same
    // days pairs with it, one of other days does not.
    let mut watcher = Client::connect(&addr);
    watcher.send(json!({"v":1,"type":"challenge_create","color":"white","clock":{"days":5}}));
    let made = watcher.expect("challenge_created");
    assert_eq!(made["challenge"]["clock"], json!({"days": 5}), "{made}");
    let mut other = Client::connect(&addr);
    other.send(json!({"v":1,"type":"lobby_seek","clock":{"days":7}}));
    let own = other.expect("challenge_created");
    assert_eq!(own["challenge"]["clock"], json!({"days": 7}));
    let mut seeker = Client::connect(&addr);
    seeker.send(json!({"v":1,"type":"lobby_seek","clock":{"days":5}}));
    let joined = seeker.expect("joined");
    assert_eq!(joined["color"], "black");
    let state = seeker.expect("state");
    assert_eq!(state["clock"], json!({"days": 5}));
    assert!(state["deadline_ms"].as_u64().is_some(), "{state}");
}

#[test]
fn a_deadline_passing_ends_the_game_on_time() {
    let path = temp_db("deadline");
    // Three "days" of one second: a move has three seconds.
    let (addr, _rt) = sqlite_server(&path, Duration::from_secs(1));
    let mut s = new_game(&addr, json!({"days": 3}));
    let state = state_of(&addr, &s.game);
    let first = state["deadline_ms"]
        .as_u64()
        .expect("White's first deadline");
    assert!(first > now_ms() && first <= now_ms() + 3_000, "{state}");
    assert!(state["deadline_left_ms"]
        .as_u64()
        .is_some_and(|l| l <= 3_000));
    assert!(state["clocks"].is_null(), "{state}");
    // A days game has no abandonment claim.
    s.white.send(s.seat_msg("claim_win", &s.white_token));
    s.white.expect_error("claim_too_early");
    let mut deadlines = Vec::new();
    for (ply, mv) in ["e2e4", "e7e5"].into_iter().enumerate() {
        let before = now_ms();
        let token = if ply == 0 {
            &s.white_token
        } else {
            &s.black_token
        };
        let mover = if ply == 0 { &mut s.white } else { &mut s.black };
        mover.send(move_msg(&s.game, token, mv, ply as u64));
        let w = s.white.expect("moved");
        let b = s.black.expect("moved");
        assert_eq!(w["deadline_ms"], b["deadline_ms"]);
        let deadline = w["deadline_ms"].as_u64().expect("a deadline");
        // The mover's opponent has three "days" from the move.
        assert!(
            deadline >= before + 3_000 && deadline <= now_ms() + 3_000,
            "{w}"
        );
        deadlines.push(deadline);
    }
    assert!(deadlines[1] >= deadlines[0]);
    assert_eq!(state_of(&addr, &s.game)["deadline_ms"], deadlines[1]);
    // White does not move: lost on time, told to both, when the deadline passes.
    let over = s.white.expect("game_over");
    let passed = now_ms();
    assert!(
        passed >= deadlines[1],
        "ended early: {passed} < {}",
        deadlines[1]
    );
    assert_eq!(over["termination"], "timeout", "{over}");
    assert_eq!(over["result"], "0-1");
    assert_eq!(over["winner"], "black");
    assert_eq!(s.black.expect("game_over")["termination"], "timeout");
    let state = state_of(&addr, &s.game);
    assert_eq!(state["status"], "finished");
    assert!(state.get("deadline_ms").is_none(), "{state}");
    let (_, pgn) = http_get(&addr, &format!("/api/games/{}/pgn", s.game));
    assert!(pgn.contains("[TimeControl \"1/259200\"]"), "{pgn}");
    // Before both first moves, a deadline passing aborts the game.
    let mut t = new_game(&addr, json!({"days": 3}));
    let over = t.black.expect("game_over");
    assert_eq!(over["termination"], "aborted", "{over}");
    assert_eq!(over["result"], "*");
    t.white.expect("game_over");
}

#[test]
fn a_server_started_after_a_deadline_ends_the_game_at_once() {
    let path = temp_db("restart");
    let (game, deadline) = {
        let (addr, runtime) = sqlite_server(&path, Duration::from_secs(3));
        let mut s = new_game(&addr, json!({"days": 1}));
        s.first_moves();
        let state = state_of(&addr, &s.game);
        assert_eq!(state["status"], "active");
        let deadline = state["deadline_ms"].as_u64().expect("deadline");
        runtime.shutdown_background();
        (s.game.clone(), deadline)
    };
    // A server with a day of its own, started after the deadline: the
    // stored deadline holds.
    while now_ms() <= deadline + 200 {
        std::thread::sleep(Duration::from_millis(100));
    }
    let started = Instant::now();
    let (addr, _rt) = sqlite_server(&path, Duration::from_secs(86_400));
    let mut state = state_of(&addr, &game);
    while state["status"] != "finished" && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
        state = state_of(&addr, &game);
    }
    assert_eq!(state["status"], "finished", "{state}");
    assert_eq!(state["termination"], "timeout");
    assert_eq!(state["winner"], "black");

    // A restart before the deadline keeps it, to the millisecond.
    let path = temp_db("restart_kept");
    let (game, deadline) = {
        let (addr, runtime) = sqlite_server(&path, Duration::from_secs(86_400));
        let mut s = new_game(&addr, json!({"days": 2}));
        s.first_moves();
        let deadline = state_of(&addr, &s.game)["deadline_ms"]
            .as_u64()
            .expect("deadline");
        runtime.shutdown_background();
        (s.game.clone(), deadline)
    };
    let (addr, _rt2) = sqlite_server(&path, Duration::from_secs(1));
    let state = state_of(&addr, &game);
    assert_eq!(state["status"], "active");
    assert_eq!(state["deadline_ms"], deadline);
}

/// One HTTP/1.1 request with a session cookie: status and JSON body (with
/// a new session's token as `_session`).
fn request(addr: &str, method: &str, path: &str, cookie: Option<&str>, body: &str) -> (u16, Value) {
    let cookie = cookie.map(|c| format!("hostage_session={c}"));
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    let raw = support::http_request(addr, method, path, &headers, body);
    let session = raw
        .headers
        .iter()
        .find(|(name, _)| name == "set-cookie")
        .and_then(|(_, c)| c.split(';').next())
        .and_then(|c| c.strip_prefix("hostage_session="))
        .map(str::to_string);
    let mut json: Value = serde_json::from_str(&raw.body).unwrap_or(Value::Null);
    if let Some(c) = session {
        json["_session"] = json!(c);
    }
    (raw.status, json)
}

/// A game the account (by its cookie) creates as `color` with `clock`, a
/// guest taking the other seat: its id, the account's connection and token.
fn account_game(addr: &str, cookie: &str, color: &str, clock: Value) -> (String, Client, Client) {
    let header = format!("hostage_session={cookie}");
    let mut me = Client::connect_with(addr, &[("Cookie", &header)]).expect("connect");
    me.send(json!({"v":1,"type":"create","color":color,"clock":clock}));
    let game = me.expect("created")["game"]
        .as_str()
        .expect("id")
        .to_string();
    me.expect("state");
    let mut guest = Client::connect(addr);
    guest.send(json!({"v":1,"type":"join","game":game}));
    guest.expect("joined");
    guest.expect("state");
    me.expect("player_joined");
    (game, me, guest)
}

#[test]
fn your_games_my_move_first_and_the_live_list() {
    let path = temp_db("yours");
    let (addr, _rt) = sqlite_server(&path, Duration::from_secs(86_400));
    let (status, made) = request(
        &addr,
        "POST",
        "/api/account/signup",
        None,
        &json!({"username":"Corr_Ada","password":"a long password"}).to_string(),
    );
    assert_eq!(status, 201, "{made}");
    let cookie = made["_session"].as_str().expect("session").to_string();
    let fischer = json!({"initial_ms": 600_000, "increment_ms": 0});
    // Some milliseconds apart: the live list orders by the last change.
    let pause = || std::thread::sleep(Duration::from_millis(20));
    let (timed, _c1, _g1) = account_game(&addr, &cookie, "white", fischer.clone());
    pause();
    let (three, _c2, _g2) = account_game(&addr, &cookie, "white", json!({"days": 3}));
    pause();
    let (theirs, _c3, _g3) = account_game(&addr, &cookie, "black", json!({"days": 1}));
    pause();
    let (untimed, _c4, _g4) = account_game(&addr, &cookie, "white", Value::Null);
    pause();
    // Waiting for an opponent: neither live nor anyone's move.
    let mut lone = Client::connect(&addr);
    lone.send(json!({"v":1,"type":"create","color":"white","clock":{"days":2}}));
    let waiting = lone.expect("created")["game"]
        .as_str()
        .expect("id")
        .to_string();

    let (status, listed) = request(&addr, "GET", "/api/account/games", Some(&cookie), "");
    assert_eq!(status, 200, "{listed}");
    let games = listed["games"].as_array().expect("games");
    let order: Vec<&str> = games
        .iter()
        .map(|g| g["game"].as_str().expect("id"))
        .collect();
    // My move first, least time left first (10 min, then 3 days, then no
    // limit), then the game where it is the opponent's move.
    assert_eq!(order, [&timed, &three, &untimed, &theirs], "{listed}");
    assert_eq!(games[0]["clock"], fischer);
    assert_eq!(games[0]["time_left_ms"], 600_000);
    assert!(games[0]["deadline_ms"].is_null(), "no clock runs yet");
    assert_eq!(games[1]["clock"], json!({"days": 3}));
    let left = games[1]["time_left_ms"].as_u64().expect("left");
    assert!(left > 259_100_000 && left <= 259_200_000, "{left}");
    assert!(games[1]["deadline_ms"].as_u64().is_some());
    assert!(games[2]["clock"].is_null() && games[2]["time_left_ms"].is_null());
    assert_eq!(games[3]["your_move"], false);
    assert_eq!(games[3]["clock"], json!({"days": 1}));

    // The days game from another device where the account is logged in:
    // its seat, by the account, with no link kept.
    let header = format!("hostage_session={cookie}");
    let mut phone = Client::connect_with(&addr, &[("Cookie", &header)]).expect("connect");
    phone.send(json!({"v":1,"type":"join","game":three}));
    let joined = phone.expect("joined");
    assert_eq!(joined["color"], "white");
    let state = phone.expect("state");
    assert_eq!(state["you"], "white");
    let token = joined["token"].as_str().expect("token");
    phone.send(move_msg(&three, token, "d2d4", 0));
    let moved = phone.expect_past("moved", &["player_joined", "opponent_back"]);
    assert!(moved["deadline_ms"].as_u64().is_some(), "{moved}");
    let (_, listed) = request(&addr, "GET", "/api/account/games", Some(&cookie), "");
    let three_now = listed["games"]
        .as_array()
        .expect("games")
        .iter()
        .find(|g| g["game"] == three.as_str())
        .cloned()
        .expect("listed");
    assert_eq!(three_now["your_move"], false);
    assert_eq!(listed["games"][2]["game"], three.as_str(), "{listed}");

    // Watch: the games being played, newest activity first, without the
    // waiting one; each followed as a spectator.
    let (status, body) = http_get(&addr, "/api/games/live");
    assert_eq!(status, 200, "{body}");
    let live: Value = serde_json::from_str(&body).expect("JSON");
    let ids: Vec<&str> = live["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["game"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, [&three, &untimed, &theirs, &timed], "{live}");
    assert!(!ids.contains(&waiting.as_str()));
    let first = &live["games"][0];
    assert_eq!(first["white"], "Corr_Ada");
    assert!(first["black"].is_null());
    assert_eq!(first["clock"], json!({"days": 3}));
    assert_eq!(first["turn"], "black");
    assert_eq!(first["plies"], 1);
    assert!(first["deadline_ms"].as_u64().is_some());
    assert_eq!(live["limit"], 50);
    let mut spectator = Client::connect(&addr);
    spectator.send(json!({"v":1,"type":"watch","game":three}));
    spectator.expect("watching");
    let seen = spectator.expect("state");
    assert!(seen["you"].is_null());
    assert_eq!(seen["ply"], 1);
}

#[test]
fn two_postgresql_instances_end_a_game_on_time_once() {
    let Some(url) = server::fresh_database("corresp_two") else {
        return;
    };
    let serve = || {
        let mut config = Config::with_store(StoreUrl::Postgres(url.clone()));
        config.limits = ServerLimits::default().with_correspondence_day(Duration::from_secs(1));
        server::serve(Server::bind(&config))
    };
    let (a, _ra) = serve();
    let (b, _rb) = serve();
    let mut s = new_game_across(&a, &b, json!({"days": 3}));
    s.first_moves();
    let deadline = state_of(&b, &s.game)["deadline_ms"]
        .as_u64()
        .expect("deadline on the other instance");
    assert_eq!(state_of(&a, &s.game)["deadline_ms"], deadline);
    let w = s.white.expect("game_over");
    let bl = s.black.expect("game_over");
    for over in [&w, &bl] {
        assert_eq!(over["termination"], "timeout", "{over}");
        assert_eq!(over["winner"], "black");
    }
    assert!(now_ms() >= deadline);
    // Told once on each instance, and stored once.
    s.white.quiet();
    s.black.quiet();
    let (rt, client) = server::pg_session(&url);
    let rows = rt
        .block_on(client.query(
            "SELECT termination, winner, version FROM games WHERE id = $1",
            &[&s.game],
        ))
        .expect("read");
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].get::<_, Option<String>>(0).as_deref(),
        Some("timeout")
    );
    assert_eq!(
        rows[0].get::<_, Option<String>>(1).as_deref(),
        Some("black")
    );
    // Versions: create, seat, two moves, one ending.
    assert_eq!(
        rows[0].get::<_, i64>(2),
        4,
        "the ending was stored more than once"
    );
}
