//! The players' pages over HTTP (`docs/protocol.md`, Players): a player's
//! ratings, history, games and games as one streamed PGN, and the
//! leaderboard, after a rated and a casual game between two accounts; and
//! hostile requests (unknown names, bad categories, bad paging values,
//! overlong, markup, percent-encoded junk), each answered with its
//! documented status and code, the server still answering after them.

#[path = "support/server.rs"]
mod server;
mod support;

use hostage_server::{Config, Server};
use serde_json::{json, Value};
use support::{http_request, move_msg, session_cookie, sign_up, Client};

fn sqlite_server(name: &str) -> (String, tokio::runtime::Runtime) {
    let dir = std::env::temp_dir().join(format!("hostage-players-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    server::serve(Server::bind(&Config::new(dir.join("games.db"))))
}

fn get_json(addr: &str, path: &str) -> (u16, Value) {
    let answer = http_request(addr, "GET", path, &[], "");
    let value = serde_json::from_str(&answer.body).unwrap_or(Value::Null);
    (answer.status, value)
}

/// A lobby game between `white` (who makes the challenge) and `black`,
/// both first moves played, then White resigns.
fn play(white: &mut Client, black: &mut Client, rated: bool) -> String {
    let made = white.ask(json!({"v": 1, "type": "challenge_create", "color": "white",
        "clock": {"initial_ms": 180_000, "increment_ms": 2_000}, "rated": rated}));
    assert_eq!(made["type"], "challenge_created", "{made}");
    let id = made["challenge"]["id"].as_str().expect("id").to_string();
    black.send(json!({"v": 1, "type": "challenge_accept", "challenge": id}));
    let joined = black.expect("joined");
    let game = joined["game"].as_str().expect("game").to_string();
    let bt = joined["token"].as_str().expect("token").to_string();
    black.expect("state");
    white.expect_past("challenge_accepted", &["lobby_changed"]);
    let wt = white.expect("joined")["token"]
        .as_str()
        .expect("token")
        .to_string();
    white.expect("state");
    let skip = ["player_joined", "opponent_gone", "opponent_back"];
    white.send(move_msg(&game, &wt, "e2e4", 0));
    white.expect_past("moved", &skip);
    black.expect_past("moved", &skip);
    black.send(move_msg(&game, &bt, "e7e5", 1));
    black.expect_past("moved", &skip);
    white.expect_past("moved", &skip);
    white.send(json!({"v": 1, "type": "resign", "game": game, "token": wt}));
    white.expect_past("game_over", &skip);
    black.expect_past("game_over", &skip);
    game
}

#[test]
fn a_players_pages_after_a_rated_and_a_casual_game() {
    let (addr, _runtime) = sqlite_server("pages");
    let (ann, bob) = (
        session_cookie(&sign_up(&addr, "Ann")),
        session_cookie(&sign_up(&addr, "Bob")),
    );
    let mut white = Client::connect_with(&addr, &[("Cookie", &ann)]).expect("connect");
    let mut black = Client::connect_with(&addr, &[("Cookie", &bob)]).expect("connect");
    let rated = play(&mut white, &mut black, true);
    let casual = play(&mut white, &mut black, false);

    // Found without regard to case; one blitz game, Bob won it.
    let (status, page) = get_json(&addr, "/api/players/bOB");
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["username"], "Bob");
    assert_eq!(page["closed"], false);
    let blitz = &page["ratings"]["blitz"];
    assert_eq!(blitz["games"], 1, "{page}");
    assert_eq!(blitz["provisional"], true);
    assert!(blitz["rating"].as_u64().expect("rating") > 1500, "{page}");
    assert_eq!(page["ratings"].as_object().expect("ratings").len(), 1);

    let (status, history) = get_json(&addr, "/api/players/Ann/history");
    assert_eq!(status, 200);
    let points = history["history"]["blitz"].as_array().expect("points");
    assert_eq!(points.len(), 1, "{history}");
    assert!(points[0]["rating"].as_u64().expect("rating") < 1500);

    // Newest first: the casual game, then the rated one; paged by one.
    let (status, games) = get_json(&addr, "/api/players/Ann/games");
    assert_eq!(status, 200, "{games}");
    let list = games["games"].as_array().expect("games");
    let ids: Vec<&str> = list.iter().map(|g| g["id"].as_str().expect("id")).collect();
    assert_eq!(ids, [casual.as_str(), rated.as_str()]);
    assert_eq!(list[0]["rated"], false);
    assert_eq!(list[1]["rated"], true);
    assert_eq!(list[1]["result"], "0-1");
    assert_eq!(list[1]["color"], "white");
    assert_eq!(list[1]["opponent"], "Bob");
    assert_eq!(games["next_before"], Value::Null);
    let (status, first) = get_json(&addr, "/api/players/Ann/games?limit=1");
    assert_eq!(status, 200);
    assert_eq!(first["games"][0]["id"], casual.as_str());
    let next = first["next_before"].as_u64().expect("next_before");
    let (status, second) = get_json(
        &addr,
        &format!("/api/players/Ann/games?limit=1&before={next}"),
    );
    assert_eq!(status, 200);
    assert_eq!(second["games"][0]["id"], rated.as_str(), "{second}");

    // The PGN stream: both games, Elo tags in the rated one, `?` in the
    // casual one.
    let answer = http_request(&addr, "GET", "/api/players/ann/games.pgn", &[], "");
    assert_eq!(answer.status, 200);
    let kind = answer.headers.iter().find(|(n, _)| n == "content-type");
    assert!(kind.is_some_and(|(_, v)| v.starts_with("application/x-chess-pgn")));
    let pgn = answer.body;
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    let (newest, oldest) = pgn.split_at(pgn.rfind("[Event ").expect("two games"));
    assert!(newest.contains(&format!("[GameId \"{casual}\"]")), "{pgn}");
    assert!(newest.contains("[WhiteElo \"?\"]"), "{pgn}");
    assert!(newest.contains("[BlackElo \"?\"]"), "{pgn}");
    assert!(oldest.contains(&format!("[GameId \"{rated}\"]")), "{pgn}");
    assert!(oldest.contains("[WhiteElo \"1500\"]"), "{pgn}");
    assert!(oldest.contains("[BlackElo \"1500\"]"), "{pgn}");

    // One game is fewer than the 10 a leaderboard needs.
    let (status, board) = get_json(&addr, "/api/leaderboard/blitz");
    assert_eq!(status, 200);
    assert_eq!(board["min_games"], 10);
    assert_eq!(board["players"], json!([]));
}

#[test]
fn hostile_players_requests_get_their_documented_errors() {
    let (addr, _runtime) = sqlite_server("hostile");
    sign_up(&addr, "Ann");
    let long = "a".repeat(300);
    let longer = "b".repeat(3000);
    let cases: Vec<(String, u16, &str)> = vec![
        ("/api/players/Nobody".into(), 404, "player_not_found"),
        (
            "/api/players/Nobody/history".into(),
            404,
            "player_not_found",
        ),
        ("/api/players/Nobody/games".into(), 404, "player_not_found"),
        (
            "/api/players/Nobody/games.pgn".into(),
            404,
            "player_not_found",
        ),
        (
            "/api/players/%3Cb%3EAnn%3C%2Fb%3E".into(),
            404,
            "player_not_found",
        ),
        ("/api/players/%00%FF%C3%28".into(), 404, "player_not_found"),
        (
            "/api/players/Ann%27%20OR%201%3D1--".into(),
            404,
            "player_not_found",
        ),
        (
            format!("/api/players/{}", "x".repeat(200)),
            404,
            "player_not_found",
        ),
        (
            "/api/leaderboard/hyperbullet".into(),
            404,
            "category_not_found",
        ),
        ("/api/leaderboard/BLITZ".into(), 404, "category_not_found"),
        (
            "/api/leaderboard/%3Cscript%3E".into(),
            404,
            "category_not_found",
        ),
        ("/api/leaderboard/%FF%FE".into(), 404, "category_not_found"),
        (
            "/api/players/Ann/games?limit=0".into(),
            400,
            "invalid_query",
        ),
        (
            "/api/players/Ann/games?limit=101".into(),
            400,
            "invalid_query",
        ),
        (
            "/api/players/Ann/games?limit=-1".into(),
            400,
            "invalid_query",
        ),
        (
            "/api/players/Ann/games?limit=1e3".into(),
            400,
            "invalid_query",
        ),
        ("/api/players/Ann/games?limit=".into(), 400, "invalid_query"),
        (
            "/api/players/Ann/games?before=0".into(),
            400,
            "invalid_query",
        ),
        (
            "/api/players/Ann/games?before=99999999999999999999999".into(),
            400,
            "invalid_query",
        ),
        (
            "/api/players/Ann/games?limit=5&limit=5".into(),
            400,
            "invalid_query",
        ),
        ("/api/players/Ann/games?page=2".into(), 400, "invalid_query"),
        (
            "/api/players/Ann/games?limit=%35".into(),
            400,
            "invalid_query",
        ),
        (
            "/api/players/Ann/games?%3Cb%3E=1".into(),
            400,
            "invalid_query",
        ),
        (
            format!("/api/players/Ann/games?limit={}", "9".repeat(500)),
            400,
            "invalid_query",
        ),
        // The query is read before the name: a bad query for anyone is 400.
        (
            "/api/players/Nobody/games?limit=0".into(),
            400,
            "invalid_query",
        ),
    ];
    for (path, status, code) in &cases {
        let (got, body) = get_json(&addr, path);
        assert_eq!(got, *status, "{path}: {body}");
        assert_eq!(body["code"], *code, "{path}: {body}");
        assert!(body["message"].is_string(), "{path}: {body}");
    }
    // Overlong: a segment over 255 bytes is 404, a path over 2048 is 414
    // (before any route: no JSON body).
    let answer = http_request(&addr, "GET", &format!("/api/players/{long}"), &[], "");
    assert_eq!(answer.status, 404);
    let answer = http_request(&addr, "GET", &format!("/api/players/Ann/{longer}"), &[], "");
    assert_eq!(answer.status, 414);
    // Still answering, and Ann's page unchanged.
    let (status, page) = get_json(&addr, "/api/players/Ann");
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["ratings"], json!({}));
    let (status, games) = get_json(&addr, "/api/players/Ann/games?limit=100&before=1");
    assert_eq!(status, 200);
    assert_eq!(games["games"], json!([]));
}
