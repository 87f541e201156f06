//! Rated games end to end (`docs/protocol.md`, Ratings): a rated lobby
//! challenge between two accounts, its `state`, `game_over` and PGN, the
//! ratings stored with the result; the refusals (guests, no clock, the
//! creator's own account, rating ranges, bad fields); an aborted rated
//! game counts nothing. On SQLite, and on PostgreSQL with two instances
//! (`postgresql_two_instances_rate_one_flag_fall_once`); a kill right after
//! a rated result is in `hostage-cli/tests/serve.rs`.
//!
//! The expected ratings are computed in this file from Glickman's paper
//! ("Example of the Glicko-2 system", steps 1–8, with τ = 0.75), not by
//! the server's code: two new players (1500, deviation 500, volatility
//! 0.09) play one game, which is one rating period of one game each.

#[path = "support/server.rs"]
mod server;
mod support;

use hostage_server::{Config, Server};
use serde_json::{json, Value};
use support::{http_request, move_msg, session_cookie, sign_up, Client};

/// Glicko-2's scale (Glickman: 173.7178).
const SCALE: f64 = 173.7178;

/// One rating period of one game (Glickman's steps 2–8): the rating
/// (`r`, `rd`, `sigma`) after scoring `s` against (`r_j`, `rd_j`).
fn glickman(r: f64, rd: f64, sigma: f64, opponent: (f64, f64), s: f64) -> (f64, f64) {
    let tau = 0.75_f64;
    let (mu, phi) = ((r - 1500.0) / SCALE, rd / SCALE);
    let (mu_j, phi_j) = ((opponent.0 - 1500.0) / SCALE, opponent.1 / SCALE);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / std::f64::consts::PI.powi(2)).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let delta = v * g * (s - e);
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-9 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * g * (s - e);
    (SCALE * mu_new + 1500.0, SCALE * phi_new)
}

/// A new player's rating after one game against another new player,
/// rounded as shown.
fn new_after(score: f64) -> i64 {
    glickman(1500.0, 500.0, 0.09, (1500.0, 500.0), score)
        .0
        .round() as i64
}

fn request(addr: &str, method: &str, path: &str, cookie: Option<&str>, body: &str) -> (u16, Value) {
    let cookie = cookie.map(session_cookie);
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    let answer = http_request(addr, method, path, &headers, body);
    (
        answer.status,
        serde_json::from_str(&answer.body).unwrap_or(Value::Null),
    )
}

fn logged_in(addr: &str, session: &str) -> Client {
    Client::connect_with(addr, &[("Cookie", &session_cookie(session))]).expect("connect")
}

/// 3+2: 180 + 40 × 2 = 260 s estimated, blitz.
fn blitz() -> Value {
    json!({"initial_ms": 180_000, "increment_ms": 2_000})
}

fn sqlite_server(name: &str) -> (String, tokio::runtime::Runtime, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("hostage-rated-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("games.db");
    let (addr, runtime) = server::serve(Server::bind(&Config::new(&path)));
    (addr, runtime, path)
}

/// Every row of `sql` as strings (numbers as text).
fn rows(path: &std::path::Path, sql: &str) -> Vec<Vec<String>> {
    let conn = rusqlite::Connection::open(path).expect("open");
    let mut stmt = conn.prepare(sql).expect(sql);
    let n = stmt.column_count();
    stmt.query_map([], |r| {
        (0..n)
            .map(|i| {
                let v: rusqlite::types::Value = r.get(i)?;
                Ok(match v {
                    rusqlite::types::Value::Text(t) => t,
                    rusqlite::types::Value::Integer(i) => i.to_string(),
                    rusqlite::types::Value::Real(f) => format!("{f:.2}"),
                    other => format!("{other:?}"),
                })
            })
            .collect::<Result<Vec<_>, _>>()
    })
    .expect(sql)
    .collect::<Result<Vec<_>, _>>()
    .expect(sql)
}

/// A rated game between `white` and `black` from a lobby challenge that
/// `white` makes and `black` accepts: the game id and both seat tokens.
fn rated_game(white: &mut Client, black: &mut Client) -> (String, String, String) {
    let made = white.ask(
        json!({"v": 1, "type": "challenge_create", "color": "white", "clock": blitz(),
               "rated": true}),
    );
    assert_eq!(made["type"], "challenge_created", "{made}");
    let challenge = made["challenge"].clone();
    assert_eq!(challenge["rated"], true, "{challenge}");
    let id = challenge["id"].as_str().expect("id").to_string();
    black.send(json!({"v": 1, "type": "challenge_accept", "challenge": id}));
    let joined = black.expect("joined");
    assert_eq!(joined["color"], "black");
    let game = joined["game"].as_str().expect("game").to_string();
    let black_token = joined["token"].as_str().expect("token").to_string();
    let state = black.expect("state");
    assert_eq!(state["rated"], true, "{state}");
    white.expect_past("challenge_accepted", &["lobby_changed"]);
    let joined = white.expect("joined");
    let white_token = joined["token"].as_str().expect("token").to_string();
    let state = white.expect("state");
    assert_eq!(state["rated"], true, "{state}");
    (game, white_token, black_token)
}

/// Both first moves, heard by both.
fn first_moves(game: &str, seats: [(&mut Client, &str); 2]) {
    let [(white, wt), (black, bt)] = seats;
    let skip = ["player_joined", "opponent_gone", "opponent_back"];
    white.send(move_msg(game, wt, "e2e4", 0));
    white.expect_past("moved", &skip);
    black.expect_past("moved", &skip);
    black.send(move_msg(game, bt, "e7e5", 1));
    black.expect_past("moved", &skip);
    white.expect_past("moved", &skip);
}

#[test]
fn a_rated_game_moves_both_ratings_by_glicko2_and_tags_the_pgn() {
    let (addr, _runtime, path) = sqlite_server("game");
    let (ann, bob) = (sign_up(&addr, "Ann"), sign_up(&addr, "Bob"));
    let (mut white, mut black) = (logged_in(&addr, &ann), logged_in(&addr, &bob));
    let made = white.ask(
        json!({"v": 1, "type": "challenge_create", "color": "white", "clock": blitz(),
               "rated": true, "rating_range": {"min": 1000, "max": 2000}}),
    );
    // The challenge as every watcher sees it: rated, Ann's provisional 1500.
    let view = &made["challenge"];
    assert_eq!(view["name"], "Ann", "{view}");
    assert_eq!(view["rating"], json!({"rating": 1500, "provisional": true}));
    assert_eq!(view["rating_range"], json!({"min": 1000, "max": 2000}));
    let id = view["id"].as_str().expect("id");
    black.send(json!({"v": 1, "type": "challenge_accept", "challenge": id}));
    let joined = black.expect("joined");
    let game = joined["game"].as_str().expect("game").to_string();
    let bt = joined["token"].as_str().expect("token").to_string();
    let state = black.expect("state");
    let new = json!({"rating": 1500, "provisional": true});
    assert_eq!(state["ratings"], json!({"white": new, "black": new}));
    assert!(state.get("rating_changes").is_none(), "{state}");
    white.expect_past("challenge_accepted", &["lobby_changed"]);
    let wt = white.expect("joined")["token"]
        .as_str()
        .expect("token")
        .to_string();
    white.expect("state");
    first_moves(&game, [(&mut white, &wt), (&mut black, &bt)]);
    black.send(json!({"v": 1, "type": "resign", "game": game, "token": bt}));
    let over = black.expect("game_over");
    let (win, loss) = (new_after(1.0), new_after(0.0));
    assert_eq!((win, loss), (1742, 1258), "Glickman's figures");
    let want = json!({
        "white": {"before": 1500, "after": win, "diff": win - 1500},
        "black": {"before": 1500, "after": loss, "diff": loss - 1500},
    });
    assert_eq!(over["ratings"], want, "{over}");
    assert_eq!(white.expect("game_over")["ratings"], want);
    // Stored: one history row per player, the ratings with one game.
    let history = rows(
        &path,
        "SELECT side, category, before, after FROM rating_history ORDER BY side",
    );
    let exact = |score| {
        format!(
            "{:.2}",
            glickman(1500.0, 500.0, 0.09, (1500.0, 500.0), score).0
        )
    };
    assert_eq!(
        history,
        [
            ["black", "blitz", "1500.00", &exact(0.0)],
            ["white", "blitz", "1500.00", &exact(1.0)]
        ]
    );
    let games = rows(&path, "SELECT games FROM ratings ORDER BY rating");
    assert_eq!(games, [["1"], ["1"]]);
    // The state after: ratings as it began, and the changes.
    let (status, state) = request(&addr, "GET", &format!("/api/games/{game}"), None, "");
    assert_eq!(status, 200);
    assert_eq!(state["rating_changes"], want, "{state}");
    // The PGN: rated, both Elo tags as the game began.
    let (status, pgn) = support::http_get(&addr, &format!("/api/games/{game}/pgn"));
    assert_eq!(status, 200);
    assert!(pgn.contains("[WhiteElo \"1500\"]"), "{pgn}");
    assert!(pgn.contains("[BlackElo \"1500\"]"), "{pgn}");
    assert!(pgn.contains("[Event \"Rated Hostage Chess online game\"]"));
    // The next challenge shows Ann's new rating, no longer 1500.
    let again = white.ask(
        json!({"v": 1, "type": "challenge_create", "color": "white", "clock": blitz(),
               "rated": true}),
    );
    assert_eq!(again["challenge"]["rating"]["rating"], win, "{again}");
}

#[test]
fn refusals_of_rated_challenges_and_seeks() {
    let (addr, _runtime, _path) = sqlite_server("refusals");
    let ann = sign_up(&addr, "Ann");
    let mut guest = Client::connect(&addr);
    let mut account = logged_in(&addr, &ann);
    for (who, message, code) in [
        (
            true,
            json!({"v": 1, "type": "challenge_create", "color": "white", "clock": blitz(),
                   "rated": true}),
            "rated_needs_accounts",
        ),
        (
            true,
            json!({"v": 1, "type": "lobby_seek", "clock": blitz(), "rated": true}),
            "rated_needs_accounts",
        ),
        (
            false,
            json!({"v": 1, "type": "challenge_create", "color": "white", "rated": true}),
            "rated_needs_clock",
        ),
        (
            false,
            json!({"v": 1, "type": "lobby_seek", "clock": null, "rated": true}),
            "rated_needs_clock",
        ),
        (
            false,
            json!({"v": 1, "type": "lobby_seek", "clock": blitz(), "rated": "yes"}),
            "invalid_message",
        ),
        (
            false,
            json!({"v": 1, "type": "lobby_seek", "clock": blitz(), "rated": 1}),
            "invalid_message",
        ),
        (
            false,
            json!({"v": 1, "type": "lobby_seek", "clock": blitz(),
                   "rating_range": [1000, 2000]}),
            "invalid_message",
        ),
        (
            false,
            json!({"v": 1, "type": "lobby_seek", "clock": blitz(),
                   "rating_range": {"min": 2000, "max": 1000}}),
            "invalid_rating_range",
        ),
        (
            false,
            json!({"v": 1, "type": "lobby_seek", "clock": blitz(),
                   "rating_range": {"min": 0, "max": 99999999999u64}}),
            "invalid_message",
        ),
    ] {
        let who = if who { &mut guest } else { &mut account };
        let answer = who.ask(message.clone());
        assert_eq!(answer["type"], "error", "{message}: {answer}");
        assert_eq!(answer["code"], code, "{message}: {answer}");
    }
    // Ann's rated challenge: a guest may not take it, nor Ann's own
    // other connection; it stays open for someone who may.
    let made = account.ask(
        json!({"v": 1, "type": "challenge_create", "color": "random", "clock": blitz(),
               "rated": true}),
    );
    let id = made["challenge"]["id"].as_str().expect("id").to_string();
    let take = json!({"v": 1, "type": "challenge_accept", "challenge": id});
    let answer = guest.ask(take.clone());
    assert_eq!(answer["code"], "rated_needs_accounts", "{answer}");
    let mut ann_again = logged_in(&addr, &ann);
    let answer = ann_again.ask(take.clone());
    assert_eq!(answer["code"], "rated_needs_accounts", "{answer}");
    // A casual seek does not pair with it; a rated seek of another does.
    let bob = sign_up(&addr, "Bob");
    let mut bob = logged_in(&addr, &bob);
    let casual = bob.ask(json!({"v": 1, "type": "lobby_seek", "clock": blitz()}));
    assert_eq!(casual["type"], "challenge_created", "{casual}");
    assert_eq!(casual["challenge"]["rated"], false);
    let mut bob2 = logged_in(&addr, &sign_up(&addr, "Bob2"));
    // Bob2's range excludes a new player's 1500: no pairing, a challenge.
    let ranged = bob2.ask(json!({"v": 1, "type": "lobby_seek", "clock": blitz(),
        "rated": true, "rating_range": {"min": 1600, "max": 4000}}));
    assert_eq!(ranged["type"], "challenge_created", "{ranged}");
    assert_eq!(ranged["challenge"]["rated"], true);
    let paired = bob.ask(json!({"v": 1, "type": "lobby_seek", "clock": blitz(), "rated": true}));
    assert_eq!(paired["type"], "joined", "{paired}");
    // Bob2's ranged challenge refuses a 1500 accepter.
    let mut cy = logged_in(&addr, &sign_up(&addr, "Cy"));
    let id = ranged["challenge"]["id"].as_str().expect("id");
    let answer = cy.ask(json!({"v": 1, "type": "challenge_accept", "challenge": id}));
    assert_eq!(answer["code"], "out_of_rating_range", "{answer}");
}

#[test]
fn an_aborted_rated_game_counts_nothing_and_a_draw_keeps_1500() {
    let (addr, _runtime, path) = sqlite_server("abort");
    let (ann, bob) = (sign_up(&addr, "Ann"), sign_up(&addr, "Bob"));
    let (mut white, mut black) = (logged_in(&addr, &ann), logged_in(&addr, &bob));
    let (game, wt, _bt) = rated_game(&mut white, &mut black);
    white.send(json!({"v": 1, "type": "abort", "game": game, "token": wt}));
    let over = white.expect("game_over");
    assert_eq!(over["termination"], "aborted");
    assert!(over.get("ratings").is_none(), "{over}");
    assert!(black.expect("game_over").get("ratings").is_none());
    assert!(rows(&path, "SELECT game FROM rating_history").is_empty());
    // A draw between two new players: both stay 1500 (expected score 0.5).
    let (game, wt, bt) = rated_game(&mut white, &mut black);
    first_moves(&game, [(&mut white, &wt), (&mut black, &bt)]);
    white.send(json!({"v": 1, "type": "offer_draw", "game": game, "token": wt}));
    black.expect("draw_offered");
    black.send(json!({"v": 1, "type": "accept_draw", "game": game, "token": bt}));
    let over = black.expect("game_over");
    assert_eq!(new_after(0.5), 1500);
    let same = json!({"before": 1500, "after": 1500, "diff": 0});
    assert_eq!(
        over["ratings"],
        json!({"white": same, "black": same}),
        "{over}"
    );
    assert_eq!(rows(&path, "SELECT game FROM rating_history").len(), 2);
}

/// Two instances on one PostgreSQL database: Ann on one, Bob on the
/// other, a rated game of 3 s a side; White's flag falls, and both
/// instances, each following the game, decide the ending. It is stored
/// and rated once, and both players hear the same changes.
#[test]
fn postgresql_two_instances_rate_one_flag_fall_once() {
    let Some(url) = server::fresh_database("rated_two") else {
        return;
    };
    let start = || {
        let mut config = Config::new("unused.db");
        config.db = hostage_server::StoreUrl::Postgres(url.clone());
        server::serve(Server::bind(&config))
    };
    let ((a, _rt_a), (b, _rt_b)) = (start(), start());
    let (ann, bob) = (sign_up(&a, "Ann"), sign_up(&a, "Bob"));
    let (mut white, mut black) = (logged_in(&a, &ann), logged_in(&b, &bob));
    let made = white.ask(json!({"v": 1, "type": "challenge_create", "color": "white",
        "clock": {"initial_ms": 3_000, "increment_ms": 0}, "rated": true}));
    assert_eq!(made["challenge"]["rated"], true, "{made}");
    let id = made["challenge"]["id"].as_str().expect("id").to_string();
    // The challenge reaches instance B through the database.
    let joined = (0..50)
        .find_map(|_| {
            let answer = black.ask(json!({"v": 1, "type": "challenge_accept", "challenge": id}));
            if answer["type"] == "joined" {
                return Some(answer);
            }
            assert_eq!(answer["code"], "challenge_not_found", "{answer}");
            std::thread::sleep(std::time::Duration::from_millis(200));
            None
        })
        .expect("the challenge reached B");
    let game = joined["game"].as_str().expect("game").to_string();
    let bt = joined["token"].as_str().expect("token").to_string();
    assert_eq!(black.expect("state")["rated"], true);
    white.expect_past("challenge_accepted", &["lobby_changed"]);
    let wt = white.expect("joined")["token"]
        .as_str()
        .expect("token")
        .to_string();
    white.expect("state");
    first_moves(&game, [(&mut white, &wt), (&mut black, &bt)]);
    // White does not move: its 3 s run out.
    let over_white = white.expect_past("game_over", &["opponent_gone", "opponent_back"]);
    let over_black = black.expect_past("game_over", &["opponent_gone", "opponent_back"]);
    assert_eq!(over_white["termination"], "timeout", "{over_white}");
    let (win, loss) = (new_after(1.0), new_after(0.0));
    let want = json!({
        "white": {"before": 1500, "after": loss, "diff": loss - 1500},
        "black": {"before": 1500, "after": win, "diff": win - 1500},
    });
    assert_eq!(over_white["ratings"], want, "{over_white}");
    assert_eq!(over_black["ratings"], want, "{over_black}");
    let (runtime, client) = server::pg_session(&url);
    runtime.block_on(async {
        let history: i64 = client
            .query_one("SELECT count(*) FROM rating_history", &[])
            .await
            .expect("count")
            .get(0);
        assert_eq!(history, 2, "one row per player, once");
        let games: Vec<i64> = client
            .query("SELECT games FROM ratings", &[])
            .await
            .expect("games")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(games, [1, 1]);
    });
}

/// A correspondence game (days per move) may be rated: its ratings are
/// the `correspondence` category's, and a resignation moves them as a
/// blitz game's would.
#[test]
fn a_rated_correspondence_game_is_rated_in_its_own_category() {
    let (addr, _runtime, path) = sqlite_server("days");
    let (ann, bob) = (sign_up(&addr, "Ann"), sign_up(&addr, "Bob"));
    let (mut white, mut black) = (logged_in(&addr, &ann), logged_in(&addr, &bob));
    let made = white.ask(
        json!({"v": 1, "type": "challenge_create", "color": "white", "clock": {"days": 3},
               "rated": true}),
    );
    assert_eq!(made["type"], "challenge_created", "{made}");
    assert_eq!(made["challenge"]["clock"], json!({"days": 3}));
    assert_eq!(made["challenge"]["rated"], true);
    let id = made["challenge"]["id"].as_str().expect("id").to_string();
    black.send(json!({"v": 1, "type": "challenge_accept", "challenge": id}));
    let joined = black.expect("joined");
    let game = joined["game"].as_str().expect("game").to_string();
    let bt = joined["token"].as_str().expect("token").to_string();
    assert_eq!(black.expect("state")["rated"], true);
    white.expect_past("challenge_accepted", &["lobby_changed"]);
    let wt = white.expect("joined")["token"]
        .as_str()
        .expect("token")
        .to_string();
    white.expect("state");
    first_moves(&game, [(&mut white, &wt), (&mut black, &bt)]);
    white.send(json!({"v": 1, "type": "resign", "game": game, "token": wt}));
    let over = white.expect("game_over");
    let (win, loss) = (new_after(1.0), new_after(0.0));
    assert_eq!(over["ratings"]["black"]["after"], win, "{over}");
    assert_eq!(over["ratings"]["white"]["after"], loss, "{over}");
    let history = rows(
        &path,
        "SELECT DISTINCT category FROM rating_history ORDER BY category",
    );
    assert_eq!(history, [["correspondence"]]);
}
