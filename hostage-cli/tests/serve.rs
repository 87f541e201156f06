//! `hostage serve` as a program: it starts, prints its address, serves the
//! app's files, and loses nothing when killed with SIGKILL in the middle of
//! games (`docs/server.md`, Durability).

#[path = "../../hostage-server/tests/support/mod.rs"]
mod support;

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use hostage_core::{game::Game, uci::UciMove};
use serde_json::{json, Value};
use support::{http_get, move_msg, new_game, public_state, session_cookie, sign_up, Client, Seats};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostage-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A running `hostage serve`; killed (SIGKILL) when dropped.
struct Serve {
    child: Child,
    addr: String,
}

impl Serve {
    fn start(db: &Path, static_dir: &Path) -> Serve {
        Serve::start_on(db.as_os_str(), static_dir)
    }

    fn start_on(db: &std::ffi::OsStr, static_dir: &Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hostage"))
            .args(["serve", "--port", "0", "--db"])
            .arg(db)
            .arg("--static")
            .arg(static_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn hostage serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("hostage serve printed no address");
        let addr = line
            .trim()
            .strip_prefix("hostage serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Serve { child, addr }
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One game as its two clients know it: every acknowledged move, mirrored
/// in a core `Game`, and the clocks of the last acknowledgement.
struct Tracked {
    seats: Seats,
    mirror: Game,
    last_clocks: Value,
    rng: u64,
}

impl Tracked {
    fn next_move(&mut self) -> String {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let moves = self.mirror.position().legal_moves();
        let m = moves[(self.rng % moves.len() as u64) as usize];
        UciMove::from_move(&m).to_string()
    }

    fn mover(&mut self) -> (&mut Client, &mut Client, String) {
        let s = &mut self.seats;
        if self.mirror.ply() % 2 == 0 {
            (&mut s.white, &mut s.black, s.white_token.clone())
        } else {
            (&mut s.black, &mut s.white, s.black_token.clone())
        }
    }

    /// Plays one random legal move and waits for both players to hear of it.
    fn play(&mut self) -> bool {
        if self.mirror.outcome().is_some() {
            return false;
        }
        let mv = self.next_move();
        let ply = self.mirror.ply() as u64;
        let game = self.seats.game.clone();
        let (me, other, token) = self.mover();
        me.send(move_msg(&game, &token, &mv, ply));
        let ack = me.expect("moved");
        assert_eq!(
            (ack["move"].as_str(), ack["ply"].as_u64()),
            (Some(mv.as_str()), Some(ply))
        );
        assert_eq!(other.expect("moved")["move"], mv);
        self.mirror.push_uci(&mv).expect("legal");
        self.last_clocks = ack["clocks"].clone();
        true
    }
}

#[test]
fn serve_prints_its_address_and_serves_the_app() {
    let dir = temp_dir("static");
    let app = dir.join("app");
    std::fs::create_dir_all(&app).expect("app dir");
    std::fs::write(
        app.join("index.html"),
        "<!doctype html><title>hostage app</title>",
    )
    .expect("write");
    let serve = Serve::start(&dir.join("games.db"), &app);
    let (status, body) = http_get(&serve.addr, "/");
    assert_eq!(status, 200);
    assert!(body.contains("hostage app"));
    let (status, _) = http_get(&serve.addr, "/missing.js");
    assert_eq!(status, 404);
    let (status, body) = http_get(&serve.addr, "/api/health");
    assert_eq!((status, body.contains("\"protocol\":[1]")), (200, true));
}

/// Several games, two with clocks, are played; then the server is killed
/// with SIGKILL while a move of every game is in flight, and started again
/// on the same database. Every game must come back exactly as acknowledged
/// (position, history, clocks), an in-flight move at most once, and play
/// must go on.
#[test]
fn sigkill_in_the_middle_of_games_loses_nothing() {
    let dir = temp_dir("kill");
    let db = dir.join("games.db");
    let serve = Serve::start(&db, &dir);
    let clocks = [
        json!({"initial_ms": 600_000, "increment_ms": 1_000}),
        json!({"initial_ms": 300_000, "increment_ms": 0}),
        Value::Null,
        Value::Null,
    ];
    let mut games: Vec<Tracked> = clocks
        .iter()
        .enumerate()
        .map(|(i, clock)| Tracked {
            seats: new_game(&serve.addr, clock.clone()),
            mirror: Game::new(),
            last_clocks: Value::Null,
            rng: 0x2545_F491_4F6C_DD1D ^ ((i as u64 + 1) * 0x9E37_79B9),
        })
        .collect();
    for g in &mut games {
        for _ in 0..12 {
            g.play();
        }
    }
    // One more move in every game, its acknowledgement never read: in the
    // even games the opponent has heard of it (so it was stored), in the
    // odd ones it is still in flight. Then SIGKILL.
    let mut in_flight = Vec::new();
    for (i, g) in games.iter_mut().enumerate() {
        let mv = g.next_move();
        let ply = g.mirror.ply() as u64;
        let game = g.seats.game.clone();
        let (me, other, token) = g.mover();
        me.send(move_msg(&game, &token, &mv, ply));
        let seen = if i % 2 == 0 {
            Some(other.expect("moved")["clocks"].clone())
        } else {
            None
        };
        in_flight.push((mv, ply, token, seen));
    }
    serve.kill();

    let serve = Serve::start(&db, &dir);
    for (g, (mv, ply, token, seen)) in games.iter_mut().zip(in_flight) {
        let game = g.seats.game.clone();
        let acked: Vec<String> = g
            .mirror
            .moves()
            .iter()
            .map(|m| UciMove::from_move(m).to_string())
            .collect();
        // Both players reconnect with their tokens.
        let mut white = Client::connect(&serve.addr);
        white.send(json!({"v":1,"type":"resume","game":game,"token":g.seats.white_token}));
        white.expect("resumed");
        let state = white.expect("state");
        let mut black = Client::connect(&serve.addr);
        black.send(json!({"v":1,"type":"resume","game":game,"token":g.seats.black_token}));
        black.expect("resumed");
        black.expect("state");
        if state["status"] == "active" {
            // White, back first, was told Black had gone, then that Black is back.
            assert_eq!(white.expect("opponent_gone")["color"], "black");
            assert_eq!(white.expect("opponent_back")["color"], "black");
        }
        let stored: Vec<String> = state["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["move"].as_str().expect("move").to_string())
            .collect();
        // Every acknowledged move is there, in order, once; the in-flight
        // move is there at most once, and surely if anyone heard of it.
        assert_eq!(stored[..acked.len()], acked[..], "game {game}");
        let landed = match &stored[acked.len()..] {
            [] => false,
            [extra] if *extra == mv => true,
            rest => panic!("game {game}: unexpected moves {rest:?}"),
        };
        assert!(
            landed || seen.is_none(),
            "game {game}: a broadcast move was lost"
        );
        let mut expected = g.mirror.clone();
        if landed {
            expected.push_uci(&mv).expect("legal");
        }
        assert_eq!(state["fen"], expected.position().fen());
        assert_eq!(state["ply"], expected.ply());
        let known_clocks = if landed {
            seen.clone()
        } else {
            Some(g.last_clocks.clone())
        };
        if let Some(clocks) = known_clocks.filter(Value::is_object) {
            // Each clock as last told; the one running has run only since
            // the restart (the downtime is charged to no one).
            let running = state["clocks"]["running"].as_str().expect("running");
            for side in ["white", "black"] {
                let key = format!("{side}_ms");
                let now = state["clocks"][&key].as_u64().expect("ms");
                let then = clocks[&key].as_u64().expect("ms");
                if side == running {
                    assert!(
                        now <= then && now + 5_000 >= then,
                        "{side}: {now} vs {then}"
                    );
                } else {
                    assert_eq!(now, then, "{side}");
                }
            }
        }
        eprintln!("game {game}: in-flight move stored before the kill: {landed}");
        // The client resends its unanswered move with the same ply: stored
        // once either way.
        g.seats.white = white;
        g.seats.black = black;
        let (me, other, _) = g.mover();
        me.send(move_msg(&game, &token, &mv, ply));
        let ack = me.expect("moved");
        assert_eq!(ack["ply"], ply);
        assert_eq!(ack.get("duplicate").is_some(), landed, "{ack}");
        if !landed {
            other.expect("moved");
        }
        other.quiet();
        g.mirror.push_uci(&mv).expect("legal");
        // Play goes on.
        for _ in 0..6 {
            g.play();
        }
        let state = public_state(&serve.addr, &game);
        assert_eq!(state["ply"], g.mirror.ply());
        assert_eq!(state["fen"], g.mirror.position().fen());
        let (status, pgn) = http_get(&serve.addr, &format!("/api/games/{game}/pgn"));
        assert_eq!(status, 200);
        assert!(pgn.contains(&format!("[GameId \"{game}\"]")), "{pgn}");
    }
    serve.kill();
}

/// The PostgreSQL of `scripts/test-postgres`, or `None` (said loudly; a
/// failure when `CI=true`).
fn postgres_url() -> Option<String> {
    match std::env::var("HOSTAGE_TEST_PG_URL") {
        Ok(url) => Some(url),
        Err(_) => {
            let say = "HOSTAGE_TEST_PG_URL is not set: the PostgreSQL test of hostage serve did NOT run (scripts/test-postgres sets it)";
            assert!(std::env::var("CI").map_or(true, |v| v != "true"), "{say}");
            eprintln!("\n!!!! {say} !!!!\n");
            None
        }
    }
}

/// Two `hostage serve` processes on one PostgreSQL: a player on each; the
/// first is killed with SIGKILL right after acknowledging a move, which the
/// opponent on the second still hears; the player reconnects to the second
/// and the game goes on.
#[test]
fn postgres_two_processes_one_killed_after_an_ack() {
    let Some(url) = postgres_url() else {
        return;
    };
    let dir = temp_dir("pg");
    let a = Serve::start_on(url.as_ref(), &dir);
    let b = Serve::start_on(url.as_ref(), &dir);
    let s = new_game(&a.addr, json!({"initial_ms": 600_000, "increment_ms": 0}));
    let (game, wt, bt) = (s.game.clone(), s.white_token.clone(), s.black_token.clone());
    let mut white = s.white;
    drop(s.black);
    let mut black = Client::connect(&b.addr);
    black.send(json!({"v":1,"type":"resume","game":game,"token":bt}));
    black.expect("resumed");
    black.expect("state");
    let mut mirror = Game::new();
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let ply = mirror.ply() as u64;
        let (me, other, token) = if ply % 2 == 0 {
            (&mut white, &mut black, &wt)
        } else {
            (&mut black, &mut white, &bt)
        };
        me.send(move_msg(&game, token, mv, ply));
        me.expect("moved");
        assert_eq!(other.expect("moved")["move"], mv);
        mirror.push_uci(mv).expect("legal");
    }
    white.send(move_msg(&game, &wt, "f1c4", 4));
    let ack = white.expect("moved");
    a.kill();
    assert_eq!(black.expect("moved")["move"], "f1c4");
    mirror.push_uci("f1c4").expect("legal");
    let mut white = Client::connect(&b.addr);
    white.send(json!({"v":1,"type":"resume","game":game,"token":wt}));
    white.expect("resumed");
    let state = white.expect("state");
    assert_eq!(state["fen"], mirror.position().fen());
    assert_eq!(state["clocks"]["white_ms"], ack["clocks"]["white_ms"]);
    // Resending the acknowledged move is a duplicate; play goes on.
    white.send(move_msg(&game, &wt, "f1c4", 4));
    assert_eq!(white.expect("moved")["duplicate"], true);
    black.send(move_msg(&game, &bt, "g8f6", 5));
    black.expect("moved");
    assert_eq!(white.expect("moved")["san"], "Nf6");
    b.kill();
}

/// A rated blitz game between two accounts ends by resignation and the
/// server is killed with SIGKILL as soon as both players have heard
/// `game_over`: restarted on the same database, the result and both
/// ratings are there as announced, each counted once (`docs/server.md`,
/// Ratings: the update is stored in the result's transaction).
#[test]
fn sigkill_right_after_a_rated_result_keeps_it_counted_once() {
    let dir = temp_dir("rated-kill");
    let db = dir.join("games.db");
    let serve = Serve::start(&db, &dir);
    let (ann, bob) = (sign_up(&serve.addr, "Ann"), sign_up(&serve.addr, "Bob"));
    let (ann, bob) = (session_cookie(&ann), session_cookie(&bob));
    let mut white = Client::connect_with(&serve.addr, &[("Cookie", &ann)]).expect("connect");
    let mut black = Client::connect_with(&serve.addr, &[("Cookie", &bob)]).expect("connect");
    let made = white.ask(json!({"v": 1, "type": "challenge_create", "color": "white",
        "clock": {"initial_ms": 180_000, "increment_ms": 2_000}, "rated": true}));
    assert_eq!(made["type"], "challenge_created", "{made}");
    let challenge = made["challenge"]["id"].as_str().expect("id").to_string();
    black.send(json!({"v": 1, "type": "challenge_accept", "challenge": challenge}));
    let joined = black.expect("joined");
    let game = joined["game"].as_str().expect("game").to_string();
    let bt = joined["token"].as_str().expect("token").to_string();
    white.expect_past("joined", &["lobby_changed", "challenge_accepted"]);
    let skip = [
        "state",
        "player_joined",
        "opponent_gone",
        "opponent_back",
        "lobby_changed",
    ];
    black.send(json!({"v": 1, "type": "resign", "game": game, "token": bt}));
    let over = black.expect_past("game_over", &skip);
    assert_eq!(
        white.expect_past("game_over", &skip)["ratings"],
        over["ratings"]
    );
    serve.kill();

    let serve = Serve::start(&db, &dir);
    let state: Value =
        serde_json::from_str(&http_get(&serve.addr, &format!("/api/games/{game}")).1)
            .expect("JSON");
    assert_eq!(state["result"], "1-0", "{state}");
    assert_eq!(state["rating_changes"], over["ratings"], "{state}");
    for (name, side) in [("Ann", "white"), ("Bob", "black")] {
        let (status, page) = http_get(&serve.addr, &format!("/api/players/{name}"));
        assert_eq!(status, 200, "{page}");
        let page: Value = serde_json::from_str(&page).expect("JSON");
        let blitz = &page["ratings"]["blitz"];
        assert_eq!(blitz["games"], 1, "{page}");
        assert_eq!(blitz["rating"], over["ratings"][side]["after"], "{page}");
        let (_, history) = http_get(&serve.addr, &format!("/api/players/{name}/history"));
        let history: Value = serde_json::from_str(&history).expect("JSON");
        assert_eq!(
            history["history"]["blitz"].as_array().map(Vec::len),
            Some(1),
            "{history}"
        );
    }
}
