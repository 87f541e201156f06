//! Display names and chat over a real socket: names given at `create`,
//! `join` and in the lobby reach the opponent, the state, a reload and the
//! PGN; chat lines are stored, sent to players and spectators, sent again
//! in every `state`, and every hostile input is refused with its code and
//! changes nothing. Each test runs on SQLite and, when
//! `HOSTAGE_TEST_PG_URL` names a PostgreSQL (`scripts/test-postgres` sets
//! it), on PostgreSQL too; the last one runs two instances on one
//! PostgreSQL database.

#[path = "support/server.rs"]
mod server;
mod support;

use std::{path::PathBuf, sync::Arc};

use hostage_core::Color;
use hostage_server::{
    domain::chat::{ChatLine, CHAT_BURST, MAX_CHAT_CHARS, MAX_CHAT_LINES},
    domain::names::DisplayName,
    domain::TokenHash,
    store::postgres::PostgresStore,
    store::sqlite::SqliteStore,
    store::{NewGame, Store, Write},
    Config, Server, StoreUrl,
};
use serde_json::{json, Value};
use support::{http_get, public_state, Client};

struct TestServer {
    addr: String,
    _runtime: tokio::runtime::Runtime,
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostage-chat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("games.db")
}

/// A server on SQLite, and one on PostgreSQL when one is given.
fn start(name: &str) -> Vec<TestServer> {
    let store = Arc::new(SqliteStore::open(&temp_db(name)).expect("db"));
    let (addr, runtime) = server::serve(Server::bind_with_store(&Config::new("unused.db"), store));
    let mut servers = vec![TestServer {
        addr,
        _runtime: runtime,
    }];
    if let Some(url) = server::database_if_given(&format!("chat_{name}")) {
        let mut config = Config::new("unused.db");
        config.db = StoreUrl::Postgres(url);
        let (addr, runtime) = server::serve(Server::bind(&config));
        servers.push(TestServer {
            addr,
            _runtime: runtime,
        });
    }
    servers
}

/// A game created by "Ada" (White) and joined by "Bo" (Black); both
/// states read, and White's `player_joined`.
struct Named {
    game: String,
    white: Client,
    wt: String,
    black: Client,
    bt: String,
}

fn named_game(white_addr: &str, black_addr: &str) -> Named {
    let mut white = Client::connect(white_addr);
    white.send(json!({"v":1,"type":"create","color":"white","name":" Ada "}));
    let created = white.expect("created");
    let game = created["game"].as_str().expect("id").to_string();
    let wt = created["token"].as_str().expect("token").to_string();
    let state = white.expect("state");
    assert_eq!(state["names"], json!({"white": "Ada", "black": null}));
    assert_eq!(state["chat"], json!([]));
    let mut black = Client::connect(black_addr);
    black.send(json!({"v":1,"type":"join","game":game,"name":"Bo"}));
    let bt = black.expect("joined")["token"]
        .as_str()
        .expect("token")
        .to_string();
    let state = black.expect("state");
    assert_eq!(state["names"], json!({"white": "Ada", "black": "Bo"}));
    let joined = white.expect("player_joined");
    assert_eq!(
        (&joined["color"], &joined["name"]),
        (&json!("black"), &json!("Bo"))
    );
    Named {
        game,
        white,
        wt,
        black,
        bt,
    }
}

fn chat(game: &str, token: &str, text: &str) -> Value {
    json!({"v":1,"type":"chat","game":game,"token":token,"text":text})
}

fn resume(addr: &str, game: &str, token: &str) -> Value {
    let mut c = Client::connect(addr);
    c.send(json!({"v":1,"type":"resume","game":game,"token":token}));
    c.expect("resumed");
    c.expect("state")
}

#[test]
fn names_reach_the_opponent_the_state_a_reload_and_the_pgn() {
    for server in start("names") {
        let addr = &server.addr;
        let g = named_game(addr, addr);
        // A reload (a new connection resuming) shows both names.
        let state = resume(addr, &g.game, &g.wt);
        assert_eq!(state["names"], json!({"white": "Ada", "black": "Bo"}));
        assert_eq!(
            public_state(addr, &g.game)["names"],
            json!({"white": "Ada", "black": "Bo"})
        );
        let (status, pgn) = http_get(addr, &format!("/api/games/{}/pgn", g.game));
        assert_eq!(status, 200);
        let created = state["created_ms"].as_u64().expect("created_ms");
        assert!(created > 1_600_000_000_000 && created <= hostage_server::now_ms());
        for tag in [
            "[White \"Ada\"]",
            "[Black \"Bo\"]",
            "[UTCDate \"",
            "[UTCTime \"",
        ] {
            assert!(pgn.contains(tag), "{tag} in {pgn}");
        }
        // The server's host, as the client asked for it.
        assert!(pgn.contains(&format!("[Site \"{addr}\"]")), "{pgn}");
        // Without names: null in the state, `?` in the PGN.
        let mut anon = Client::connect(addr);
        anon.send(json!({"v":1,"type":"create","color":"black"}));
        let id = anon.expect("created")["game"]
            .as_str()
            .expect("id")
            .to_string();
        assert_eq!(
            anon.expect("state")["names"],
            json!({"white": null, "black": null})
        );
        let (_, pgn) = http_get(addr, &format!("/api/games/{id}/pgn"));
        assert!(pgn.contains("[White \"?\"]"), "{pgn}");
    }
}

#[test]
fn hostile_names_are_refused_and_nothing_is_made() {
    for server in start("badnames") {
        let addr = &server.addr;
        let mut c = Client::connect(addr);
        let long = "a".repeat(21);
        for (name, code) in [
            (json!("<b>x</b>"), "invalid_name"),
            (json!("<img src=x onerror=alert(1)>"), "invalid_name"),
            (json!("a\u{0}b"), "invalid_name"),
            (json!("tab\tname"), "invalid_name"),
            (json!("rtl\u{202e}x"), "invalid_name"),
            (json!(long), "invalid_name"),
            (json!(""), "invalid_name"),
            (json!(7), "invalid_message"),
            (json!(["Ada"]), "invalid_message"),
        ] {
            c.send(json!({"v":1,"type":"create","color":"white","name":name}));
            c.expect_error(code);
        }
        // Nothing was created: the connection follows no game yet and the
        // next game is made as usual.
        c.quiet();
        let mut g = named_game(addr, addr);
        let mut third = Client::connect(addr);
        third.send(json!({"v":1,"type":"join","game":g.game,"name":"<script>"}));
        third.expect_error("invalid_name");
        third.quiet();
        g.white.quiet();
        g.black.quiet();
    }
}

#[test]
fn chat_reaches_players_and_spectators_and_survives_a_reload() {
    for server in start("chat") {
        let addr = &server.addr;
        let mut g = named_game(addr, addr);
        let mut watcher = Client::connect(addr);
        watcher.send(json!({"v":1,"type":"watch","game":g.game}));
        watcher.expect("watching");
        watcher.expect("state");
        let markup = "<b>hi</b><img src=x onerror=alert(1)>";
        g.white.send(json!({"v":1,"type":"chat","game":g.game,"token":g.wt,"text":format!("  {markup} "),"id":9}));
        let ack = g.white.expect("chat");
        assert_eq!(ack["id"], 9);
        for m in [ack, g.black.expect("chat"), watcher.expect("chat")] {
            assert_eq!(m["text"], markup, "{m}");
            assert_eq!(m["by"], "white");
            assert_eq!(m["index"], 0);
            assert_eq!(m["game"], g.game);
            assert!(m["at_ms"].as_u64().is_some_and(|t| t > 1_600_000_000_000));
        }
        g.black.send(chat(&g.game, &g.bt, "gl"));
        for c in [&mut g.black, &mut g.white, &mut watcher] {
            let m = c.expect("chat");
            assert_eq!((&m["by"], &m["index"]), (&json!("black"), &json!(1)));
        }
        // A reload, a new spectator and the HTTP state show the lines.
        let lines = |state: &Value| -> Vec<(String, String)> {
            state["chat"]
                .as_array()
                .expect("chat")
                .iter()
                .map(|l| {
                    (
                        l["by"].as_str().unwrap_or("").into(),
                        l["text"].as_str().unwrap_or("").into(),
                    )
                })
                .collect()
        };
        let want = vec![
            ("white".to_string(), markup.to_string()),
            ("black".into(), "gl".into()),
        ];
        assert_eq!(lines(&resume(addr, &g.game, &g.bt)), want);
        assert_eq!(lines(&public_state(addr, &g.game)), want);
        // Chat after the end is allowed.
        g.white
            .send(json!({"v":1,"type":"resign","game":g.game,"token":g.wt}));
        for c in [&mut g.white, &mut g.black, &mut watcher] {
            c.expect("game_over");
        }
        g.black.send(chat(&g.game, &g.bt, "gg"));
        for c in [&mut g.black, &mut g.white, &mut watcher] {
            assert_eq!(c.expect("chat")["text"], "gg");
        }
    }
}

#[test]
fn hostile_chat_is_refused_and_stores_nothing() {
    for server in start("badchat") {
        let addr = &server.addr;
        let mut g = named_game(addr, addr);
        let mut watcher = Client::connect(addr);
        watcher.send(json!({"v":1,"type":"watch","game":g.game}));
        watcher.expect("watching");
        watcher.expect("state");
        let game = g.game.clone();
        let too_long = "x".repeat(MAX_CHAT_CHARS + 1);
        for (msg, code) in [
            (chat(&game, &g.wt, ""), "invalid_chat"),
            (chat(&game, &g.wt, "   "), "invalid_chat"),
            (chat(&game, &g.wt, &too_long), "invalid_chat"),
            (chat(&game, &g.wt, "two\nlines"), "invalid_chat"),
            (chat(&game, &g.wt, "nul\u{0}"), "invalid_chat"),
            (chat(&game, &g.wt, "bidi\u{202e}"), "invalid_chat"),
            (
                chat(&game, "0123456789abcdef0123456789abcdef", "hi"),
                "invalid_token",
            ),
            (chat("AAAAAAAAAAA", &g.wt, "hi"), "game_not_found"),
            (chat("../etc", &g.wt, "hi"), "game_not_found"),
            (
                json!({"v":1,"type":"chat","game":game,"text":"hi"}),
                "not_a_player",
            ),
            (
                json!({"v":1,"type":"chat","game":game,"token":g.wt,"text":5}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"chat","game":game,"token":g.wt,"text":null}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"chat","game":game,"token":g.wt}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"chat","game":game,"token":g.wt,"text":"hi","by":"black"}),
                "invalid_message",
            ),
            (
                json!({"v":1,"type":"chat","game":7,"token":g.wt,"text":"hi"}),
                "invalid_message",
            ),
        ] {
            g.white.send(msg.clone());
            g.white.expect_error(code);
        }
        // A spectator reads but does not write.
        watcher.send(json!({"v":1,"type":"chat","game":game,"text":"hi"}));
        watcher.expect_error("not_a_player");
        // 140 characters (not bytes) pass.
        let full = "é".repeat(MAX_CHAT_CHARS);
        g.white.send(chat(&game, &g.wt, &full));
        assert_eq!(g.white.expect("chat")["index"], 0);
        assert_eq!(g.black.expect("chat")["text"], full);
        assert_eq!(watcher.expect("chat")["text"], full);
        for c in [&mut g.white, &mut g.black, &mut watcher] {
            c.quiet();
        }
        assert_eq!(
            public_state(addr, &game)["chat"].as_array().map(Vec::len),
            Some(1)
        );
    }
}

#[test]
fn each_seat_may_post_a_few_lines_at_a_time() {
    for server in start("pace") {
        let addr = &server.addr;
        let mut g = named_game(addr, addr);
        for i in 0..CHAT_BURST {
            g.white.send(chat(&g.game, &g.wt, &format!("line {i}")));
            g.white.expect("chat");
            g.black.expect("chat");
        }
        g.white.send(chat(&g.game, &g.wt, "one too many"));
        let e = g.white.expect_error("chat_too_fast");
        assert_eq!(e["game"], g.game);
        g.black.quiet();
        // The other seat has its own pace.
        g.black.send(chat(&g.game, &g.bt, "my turn"));
        assert_eq!(g.black.expect("chat")["index"], CHAT_BURST);
        g.white.expect("chat");
        assert_eq!(
            public_state(addr, &g.game)["chat"].as_array().map(Vec::len),
            Some(CHAT_BURST + 1)
        );
    }
}

/// A game with `MAX_CHAT_LINES` lines already stored (long ago), made
/// through the store itself; its White token.
async fn full_chat_game(store: &dyn Store, game: &str) -> String {
    let white = "0123456789abcdef0123456789abcdef".to_string();
    let new = NewGame {
        id: game.into(),
        created_ms: hostage_server::now_ms(),
        start_fen: hostage_core::Position::new().fen(),
        days: None,
        clock: None,
        seat: Color::White,
        token: TokenHash::of(&white),
        name: DisplayName::parse("Ada").ok(),
    };
    store.write(Write::CreateGame(new)).await.expect("game");
    for index in 0..MAX_CHAT_LINES as u64 {
        let line = ChatLine {
            index,
            by: Color::White,
            text: format!("line {index}"),
            at_ms: index,
        };
        store
            .write(Write::Chat {
                game: game.into(),
                line,
            })
            .await
            .expect("line");
    }
    // A line at a taken index, or past the next, is refused by the store.
    for index in [3, MAX_CHAT_LINES as u64 + 1] {
        let line = ChatLine {
            index,
            by: Color::White,
            text: "x".into(),
            at_ms: 0,
        };
        assert!(store
            .write(Write::Chat {
                game: game.into(),
                line
            })
            .await
            .is_err());
    }
    white
}

#[test]
fn a_full_chat_takes_no_more_lines() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&temp_db("full")).expect("db"));
    let rt = tokio::runtime::Runtime::new().expect("rt");
    let white = rt.block_on(full_chat_game(&*store, "fullchat01"));
    drop(rt);
    let (addr, _runtime) = server::serve(Server::bind_with_store(&Config::new("unused.db"), store));
    check_full(&addr, &white);
    if let Some(url) = server::database_if_given("chat_full") {
        let rt = tokio::runtime::Runtime::new().expect("rt");
        let white = rt.block_on(async {
            let store = PostgresStore::open(&url).await.expect("pg");
            full_chat_game(&*store, "fullchat01").await
        });
        drop(rt);
        let mut config = Config::new("unused.db");
        config.db = StoreUrl::Postgres(url);
        let (addr, _runtime) = server::serve(Server::bind(&config));
        check_full(&addr, &white);
    }
}

fn check_full(addr: &str, white: &str) {
    let state = resume(addr, "fullchat01", white);
    assert_eq!(state["chat"].as_array().map(Vec::len), Some(MAX_CHAT_LINES));
    assert_eq!(state["names"]["white"], "Ada");
    let mut c = Client::connect(addr);
    c.send(chat("fullchat01", white, "one more"));
    c.expect_error("chat_full");
    c.quiet();
}

#[test]
fn names_from_the_lobby_are_the_game_s() {
    for server in start("lobby") {
        let addr = &server.addr;
        let mut creator = Client::connect(addr);
        creator.send(json!({"v":1,"type":"challenge_create","color":"white","name":"Ada"}));
        let challenge = creator.expect("challenge_created")["challenge"]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let mut accepter = Client::connect(addr);
        accepter.send(json!({"v":1,"type":"challenge_accept","challenge":challenge,"name":"Bo"}));
        accepter.expect("joined");
        let state = accepter.expect("state");
        assert_eq!(state["names"], json!({"white": "Ada", "black": "Bo"}));
        let state = creator.expect_past(
            "state",
            &[
                "challenge_removed",
                "challenge_accepted",
                "joined",
                "player_joined",
            ],
        );
        assert_eq!(state["names"], json!({"white": "Ada", "black": "Bo"}));
    }
}

#[test]
fn a_rematch_keeps_the_names() {
    for server in start("rematch") {
        let addr = &server.addr;
        let mut g = named_game(addr, addr);
        g.white
            .send(json!({"v":1,"type":"resign","game":g.game,"token":g.wt}));
        g.white.expect("game_over");
        g.black.expect("game_over");
        g.white
            .send(json!({"v":1,"type":"rematch","game":g.game,"token":g.wt}));
        g.white.expect("rematched");
        // Colours swapped: Ada is Black now.
        assert_eq!(
            g.white.expect("state")["names"],
            json!({"white": null, "black": "Ada"})
        );
        g.black.expect("rematch_offered");
        g.black
            .send(json!({"v":1,"type":"rematch","game":g.game,"token":g.bt}));
        g.black.expect("rematched");
        assert_eq!(
            g.black.expect("state")["names"],
            json!({"white": "Bo", "black": "Ada"})
        );
        assert_eq!(g.white.expect("player_joined")["name"], "Bo");
    }
}

/// Two instances on one PostgreSQL database: a name given on one and a
/// line posted on one reach the followers on the other.
#[test]
fn names_and_chat_cross_instances() {
    let Some(url) = server::fresh_database("chat_two") else {
        return;
    };
    let mut config = Config::new("unused.db");
    config.db = StoreUrl::Postgres(url);
    let (a, _ra) = server::serve(Server::bind(&config));
    let (b, _rb) = server::serve(Server::bind(&config));
    let mut watcher = Client::connect(&a);
    let mut g = named_game(&a, &b);
    watcher.send(json!({"v":1,"type":"watch","game":g.game}));
    watcher.expect("watching");
    assert_eq!(
        watcher.expect("state")["names"],
        json!({"white": "Ada", "black": "Bo"})
    );
    // Black, on B, writes; White and the spectator on A read it.
    g.black.send(chat(&g.game, &g.bt, "<i>from B</i>"));
    assert_eq!(g.black.expect("chat")["index"], 0);
    for c in [&mut g.white, &mut watcher] {
        let m = c.expect("chat");
        assert_eq!(
            (&m["by"], &m["text"]),
            (&json!("black"), &json!("<i>from B</i>"))
        );
    }
    // White, on A, answers: index 1 on both.
    g.white.send(chat(&g.game, &g.wt, "from A"));
    assert_eq!(g.white.expect("chat")["index"], 1);
    assert_eq!(g.black.expect("chat")["index"], 1);
    assert_eq!(watcher.expect("chat")["index"], 1);
    let (sa, sb) = (public_state(&a, &g.game), public_state(&b, &g.game));
    assert_eq!(sa["chat"], sb["chat"]);
    assert_eq!(sa["names"], sb["names"]);
    // A reload on the other instance shows both.
    let state = resume(&a, &g.game, &g.bt);
    assert_eq!(state["chat"].as_array().map(Vec::len), Some(2));
    assert_eq!(state["names"], json!({"white": "Ada", "black": "Bo"}));
}

/// A PostgreSQL database made before names and chat (no name columns, no
/// `chat` table) opens: its game resumes, without names, and takes a line.
#[test]
fn an_old_postgresql_database_gets_names_and_chat() {
    let Some(url) = server::fresh_database("chat_old") else {
        return;
    };
    let white = "0123456789abcdef0123456789abcdef";
    let black = "fedcba9876543210fedcba9876543210";
    let hex = |t: &str| TokenHash::of(t).to_hex();
    let insert = format!(
        "INSERT INTO games (id, created_ms, start_fen, white_token, black_token, updated_ms)
         VALUES ('oldgame001', 1, '{}', '{}', '{}', 1)",
        hostage_core::Position::new().fen(),
        hex(white),
        hex(black)
    );
    server::admin_sql(
        &url,
        &[
            "CREATE TABLE games (
                id TEXT PRIMARY KEY, created_ms BIGINT NOT NULL, start_fen TEXT NOT NULL,
                initial_ms BIGINT, increment_ms BIGINT, white_token TEXT, black_token TEXT,
                white_ms BIGINT, black_ms BIGINT, draw_offer TEXT, termination TEXT,
                winner TEXT, updated_ms BIGINT NOT NULL, version BIGINT NOT NULL DEFAULT 0,
                rematch TEXT)",
            &insert,
        ],
    );
    let mut config = Config::new("unused.db");
    config.db = StoreUrl::Postgres(url);
    let (addr, _runtime) = server::serve(Server::bind(&config));
    let state = resume(&addr, "oldgame001", white);
    assert_eq!(state["names"], json!({"white": null, "black": null}));
    assert_eq!(state["chat"], json!([]));
    let mut c = Client::connect(&addr);
    c.send(chat("oldgame001", black, "still here"));
    assert_eq!(c.expect("chat")["by"], "black");
    assert_eq!(
        public_state(&addr, "oldgame001")["chat"][0]["text"],
        "still here"
    );
}
