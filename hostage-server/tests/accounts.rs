//! Accounts and sessions over HTTP, end to end (`docs/protocol.md`,
//! Accounts): every endpoint on SQLite and on PostgreSQL with two
//! instances (a session made on one is valid on the other), hostile
//! input, the origin policy, the cookie's attributes, the login throttle
//! against one account and from one address, and what the database keeps
//! (an Argon2id PHC string, never the password; session digests, never the
//! tokens). The expected answers are the documented ones.

#[path = "support/server.rs"]
mod server;
mod support;

use hostage_server::{Config, Server, StoreUrl};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use support::{move_msg, Client};

/// An answer: status, headers (names in lower case), body as JSON (or
/// `Value::Null` when not JSON).
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The session token the answer's `Set-Cookie` gives.
    fn session(&self) -> String {
        let set = self.header("set-cookie").expect("a Set-Cookie");
        let (pair, _) = set.split_once(';').expect("attributes");
        let (name, value) = pair.split_once('=').expect("name=value");
        assert_eq!(name, "hostage_session", "{set}");
        value.to_string()
    }

    /// The documented error: status, code, a message.
    fn refused(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.body["code"], code, "{}", self.body);
        assert!(
            self.body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.body
        );
    }
}

/// One HTTP/1.1 request, raw: `headers` are added to `Host`.
fn request(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let raw = support::http_request(addr, method, path, headers, body);
    Answer {
        status: raw.status,
        headers: raw.headers.into_iter().collect(),
        body: serde_json::from_str(&raw.body).unwrap_or(Value::Null),
    }
}

fn post(addr: &str, path: &str, cookie: Option<&str>, body: &Value) -> Answer {
    let cookie = cookie.map(|t| format!("hostage_session={t}"));
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    request(addr, "POST", path, &headers, &body.to_string())
}

fn get(addr: &str, path: &str, cookie: Option<&str>) -> Answer {
    let cookie = cookie.map(|t| format!("hostage_session={t}"));
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    request(addr, "GET", path, &headers, "")
}

fn credentials(username: &str, password: &str) -> Value {
    json!({"username": username, "password": password})
}

/// The database behind a server, read apart from it.
enum Db {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Db {
    /// Every row of `sql` (text columns) as strings.
    fn rows(&self, sql: &str) -> Vec<Vec<Option<String>>> {
        match self {
            Db::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).expect("open");
                let mut stmt = conn.prepare(sql).expect(sql);
                let n = stmt.column_count();
                stmt.query_map([], |r| {
                    (0..n)
                        .map(|i| r.get::<_, Option<String>>(i))
                        .collect::<Result<Vec<_>, _>>()
                })
                .expect(sql)
                .collect::<Result<Vec<_>, _>>()
                .expect(sql)
            }
            Db::Postgres(url) => {
                let (runtime, client) = server::pg_session(url);
                runtime.block_on(async {
                    client
                        .query(sql, &[])
                        .await
                        .expect(sql)
                        .iter()
                        .map(|r| {
                            (0..r.len())
                                .map(|i| r.get::<_, Option<String>>(i))
                                .collect()
                        })
                        .collect()
                })
            }
        }
    }

    fn count(&self, table: &str) -> usize {
        self.rows(&format!("SELECT id FROM {table}")).len()
    }

    fn sessions(&self) -> Vec<String> {
        self.rows("SELECT token FROM sessions")
            .into_iter()
            .map(|r| r[0].clone().expect("token"))
            .collect()
    }
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A SQLite server on a fresh file: its address, runtime and database.
fn sqlite_server(name: &str) -> (String, tokio::runtime::Runtime, Db) {
    let dir = std::env::temp_dir().join(format!("hostage-accounts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("games.db");
    let (addr, runtime) = server::serve(Server::bind(&Config::new(&path)));
    (addr, runtime, Db::Sqlite(path))
}

fn pg_server(url: &str) -> (String, tokio::runtime::Runtime) {
    let config = Config::with_store(StoreUrl::Postgres(url.to_string()));
    server::serve(Server::bind(&config))
}

/// Sign-up, the cookie, `me` on both servers, and what is stored.
fn sign_up_and_sessions(a: &str, b: &str, db: &Db) -> String {
    let password = "correct horse battery";
    let made = post(
        a,
        "/api/account/signup",
        None,
        &credentials("Ada_L", password),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(made.body, json!({"username": "Ada_L"}));
    let set = made.header("set-cookie").expect("cookie").to_string();
    let attributes: Vec<&str> = set.split("; ").skip(1).collect();
    assert_eq!(
        attributes,
        ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"],
        "{set}"
    );
    let token = made.session();
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|c| c.is_ascii_hexdigit()));
    for addr in [a, b] {
        let me = get(addr, "/api/account/me", Some(&token));
        assert_eq!(me.status, 200, "{}", me.body);
        assert_eq!(me.body["username"], "Ada_L");
    }
    // Stored: an Argon2id PHC string with OWASP's parameters, the
    // session's SHA-256 only.
    let rows = db.rows("SELECT username, password FROM accounts");
    assert_eq!(rows.len(), 1);
    let phc = rows[0][1].clone().expect("hash");
    assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
    assert!(!phc.contains(password));
    assert_eq!(db.sessions(), [sha256_hex(&token)]);
    // The name is taken without regard to case, on either server.
    post(
        b,
        "/api/account/signup",
        None,
        &credentials("aDA_l", "another password"),
    )
    .refused(409, "username_taken");
    assert_eq!(db.count("accounts"), 1);
    token
}

/// Logins: a wrong name and a wrong password alike; a right one on the
/// other server.
fn logins(a: &str, b: &str) -> String {
    let wrong_password = post(
        a,
        "/api/account/login",
        None,
        &credentials("Ada_L", "wrong password"),
    );
    wrong_password.refused(401, "invalid_credentials");
    let no_such_user = post(
        a,
        "/api/account/login",
        None,
        &credentials("Nobody", "wrong password"),
    );
    no_such_user.refused(401, "invalid_credentials");
    assert_eq!(wrong_password.body, no_such_user.body);
    let in_b = post(
        b,
        "/api/account/login",
        None,
        &credentials("ADA_L", "correct horse battery"),
    );
    assert_eq!(in_b.status, 200, "{}", in_b.body);
    assert_eq!(in_b.body["username"], "Ada_L");
    in_b.session()
}

/// The account's games: made on one server, listed and taken back on the
/// other, with no token kept by the client.
fn games_follow_the_account(a: &str, b: &str, on_a: &str, on_b: &str) -> String {
    let cookie_a = format!("hostage_session={on_a}");
    let mut first = Client::connect_with(a, &[("Cookie", &cookie_a)]).expect("connect");
    first.send(json!({"v": 1, "type": "create", "color": "white", "name": "Typed"}));
    let created = first.expect("created");
    let game = created["game"].as_str().expect("id").to_string();
    let state = first.expect("state");
    assert_eq!(state["names"]["white"], "Ada_L", "{state}");
    let listed = get(b, "/api/account/games", Some(on_b));
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert_eq!(listed.body["games"].as_array().map(Vec::len), Some(1));
    assert_eq!(listed.body["games"][0]["game"], game.as_str());
    assert_eq!(listed.body["games"][0]["color"], "white");
    assert_eq!(listed.body["games"][0]["started"], false);
    // A guest takes Black, on the first server.
    let mut guest = Client::connect(a);
    guest.send(json!({"v": 1, "type": "join", "game": game}));
    assert_eq!(guest.expect("joined")["color"], "black");
    // The account, on the other server, joins its own game: its seat.
    let cookie_b = format!("hostage_session={on_b}");
    let mut second = Client::connect_with(b, &[("Cookie", &cookie_b)]).expect("connect");
    second.send(json!({"v": 1, "type": "join", "game": game}));
    let joined = second.expect("joined");
    assert_eq!(joined["color"], "white");
    // A token of its own for this device; the first device keeps its own.
    assert_ne!(joined["token"], created["token"]);
    second.expect("state");
    let token = joined["token"].as_str().expect("token");
    second.send(move_msg(&game, token, "e2e4", 0));
    assert_eq!(
        second.expect_past("moved", &["player_joined"])["move"],
        "e2e4"
    );
    let listed = get(a, "/api/account/games", Some(on_a));
    assert_eq!(listed.body["games"][0]["plies"], 1, "{}", listed.body);
    assert_eq!(listed.body["games"][0]["started"], true);
    assert_eq!(listed.body["games"][0]["your_move"], false);
    // A guest's list: not logged in.
    get(a, "/api/account/games", None).refused(401, "not_logged_in");
    game
}

/// Password change, logouts and closing.
fn password_logouts_and_closing(a: &str, b: &str, db: &Db, on_a: &str, on_b: &str, game: &str) {
    let change =
        |current: &str, new: &str| json!({"current_password": current, "new_password": new});
    post(
        a,
        "/api/account/password",
        Some(on_a),
        &change("wrong one!", "new password 1"),
    )
    .refused(401, "invalid_credentials");
    post(
        a,
        "/api/account/password",
        Some(on_a),
        &change("correct horse battery", "short"),
    )
    .refused(400, "invalid_password");
    post(
        a,
        "/api/account/password",
        None,
        &change("correct horse battery", "new password 1"),
    )
    .refused(401, "not_logged_in");
    let changed = post(
        a,
        "/api/account/password",
        Some(on_a),
        &change("correct horse battery", "new password 1"),
    );
    assert_eq!(changed.status, 200, "{}", changed.body);
    // The other session ended; this one goes on.
    get(b, "/api/account/me", Some(on_b)).refused(401, "not_logged_in");
    assert_eq!(get(b, "/api/account/me", Some(on_a)).status, 200);
    assert_eq!(db.sessions(), [sha256_hex(on_a)]);
    post(
        b,
        "/api/account/login",
        None,
        &credentials("Ada_L", "correct horse battery"),
    )
    .refused(401, "invalid_credentials");
    // Log out: the cookie cleared, the session gone on both servers.
    let out = post(b, "/api/account/logout", Some(on_a), &json!({}));
    assert_eq!(out.status, 200, "{}", out.body);
    assert!(out
        .header("set-cookie")
        .is_some_and(|c| c.starts_with("hostage_session=;") && c.contains("Max-Age=0")));
    get(a, "/api/account/me", Some(on_a)).refused(401, "not_logged_in");
    post(a, "/api/account/logout", Some(on_a), &json!({})).refused(401, "not_logged_in");
    // Log out everywhere.
    let login = || {
        post(
            a,
            "/api/account/login",
            None,
            &credentials("Ada_L", "new password 1"),
        )
        .session()
    };
    let (s1, s2) = (login(), login());
    let all = post(b, "/api/account/logout-all", Some(&s1), &json!({}));
    assert_eq!(all.body, json!({"ended": 2}));
    get(a, "/api/account/me", Some(&s2)).refused(401, "not_logged_in");
    assert!(db.sessions().is_empty());
    // Close: the password again; then no login, the name kept, the game kept.
    let s3 = login();
    post(
        a,
        "/api/account/close",
        Some(&s3),
        &json!({"password": "wrong password"}),
    )
    .refused(401, "invalid_credentials");
    let closed = post(
        a,
        "/api/account/close",
        Some(&s3),
        &json!({"password": "new password 1"}),
    );
    assert_eq!(closed.body, json!({"closed": true}));
    get(b, "/api/account/me", Some(&s3)).refused(401, "not_logged_in");
    post(
        b,
        "/api/account/login",
        None,
        &credentials("Ada_L", "new password 1"),
    )
    .refused(401, "invalid_credentials");
    post(
        b,
        "/api/account/signup",
        None,
        &credentials("ada_l", "new password 1"),
    )
    .refused(409, "username_taken");
    let (status, body) = support::http_get(b, &format!("/api/games/{game}"));
    assert_eq!(status, 200, "{body}");
    let state: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(state["names"]["white"], "Ada_L");
    assert!(db.sessions().is_empty());
}

fn every_endpoint(a: &str, b: &str, db: &Db) {
    let on_a = sign_up_and_sessions(a, b, db);
    let on_b = logins(a, b);
    let game = games_follow_the_account(a, b, &on_a, &on_b);
    password_logouts_and_closing(a, b, db, &on_a, &on_b, &game);
}

#[test]
fn every_endpoint_on_sqlite() {
    let (addr, _runtime, db) = sqlite_server("endpoints");
    every_endpoint(&addr, &addr, &db);
}

#[test]
fn every_endpoint_on_postgresql_across_two_instances() {
    let Some(url) = server::fresh_database("accounts") else {
        return;
    };
    let (a, _ra) = pg_server(&url);
    let (b, _rb) = pg_server(&url);
    every_endpoint(&a, &b, &Db::Postgres(url));
}

/// Hostile input: each refused with its documented code, nothing stored.
fn hostile_input(addr: &str, db: &Db) {
    let long = "x".repeat(10_000);
    for name in [
        "",
        "   ",
        "<script>alert(1)</script>",
        "a\u{0}b",
        "tab\tname",
        "line\nbreak",
        "x".repeat(21).as_str(),
        "\u{202e}evil",
        &long[..3000],
    ] {
        post(
            addr,
            "/api/account/signup",
            None,
            &credentials(name, "good password"),
        )
        .refused(400, "invalid_username");
    }
    for password in [
        "",
        "1234567",
        "x".repeat(129).as_str(),
        "new\nline password",
        "nul\u{0}password",
        "\u{7}bell password",
    ] {
        let refused = post(
            addr,
            "/api/account/signup",
            None,
            &credentials("Bob", password),
        );
        refused.refused(400, "invalid_password");
        if !password.is_empty() {
            assert!(
                !refused.body.to_string().contains(password),
                "echoed: {}",
                refused.body
            );
        }
    }
    // Bodies that are not the documented object, on every endpoint that
    // takes one (with a session where it needs one).
    for body in support::hostile_bodies(&credentials("Bob", "good password")) {
        for path in ["/api/account/signup", "/api/account/login"] {
            request(addr, "POST", path, &[], &body).refused(400, "invalid_request");
        }
    }
    let huge = json!({"username": "Bob", "password": "y".repeat(5000)}).to_string();
    let too_big = request(addr, "POST", "/api/account/signup", &[], &huge);
    assert_eq!(too_big.body["code"], "invalid_request", "{}", too_big.body);
    assert_eq!(db.count("accounts"), 0);
    // Without a session, or with a forged one.
    for cookie in [
        None,
        Some("0".repeat(64).as_str()),
        Some("not-a-token"),
        Some(""),
    ] {
        get(addr, "/api/account/me", cookie).refused(401, "not_logged_in");
        get(addr, "/api/account/games", cookie).refused(401, "not_logged_in");
        for path in ["logout", "logout-all"] {
            post(addr, &format!("/api/account/{path}"), cookie, &json!({}))
                .refused(401, "not_logged_in");
        }
        post(
            addr,
            "/api/account/password",
            cookie,
            &json!({"current_password": "x", "new_password": "good password"}),
        )
        .refused(401, "not_logged_in");
        post(
            addr,
            "/api/account/close",
            cookie,
            &json!({"password": "good password"}),
        )
        .refused(401, "not_logged_in");
    }
    // Another origin: refused before anything is read or stored.
    let body = credentials("Mallory", "good password").to_string();
    for origin in [
        "http://evil.example",
        "null",
        &format!("https://{addr}"),
        &format!("http://{addr}.evil.example"),
    ] {
        request(
            addr,
            "POST",
            "/api/account/signup",
            &[("Origin", origin)],
            &body,
        )
        .refused(403, "origin_refused");
        match Client::connect_with(addr, &[("Origin", origin)]) {
            Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 403),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a socket from {origin} was opened"),
        }
    }
    assert_eq!(db.count("accounts"), 0);
    // The server's own origin, and none, are let through.
    let own = format!("http://{addr}");
    assert!(Client::connect_with(addr, &[("Origin", &own)]).is_ok());
    let made = request(
        addr,
        "POST",
        "/api/account/signup",
        &[("Origin", &own)],
        &body,
    );
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!(db.count("accounts"), 1);
    // The endpoints of a session, with hostile bodies: nothing changes.
    let session = made.session();
    let cookie = format!("hostage_session={session}");
    let change = json!({"current_password": "good password", "new_password": "other password"});
    let closing = json!({"password": "good password"});
    for (path, example) in [("password", change), ("close", closing)] {
        for body in support::hostile_bodies(&example) {
            let path = format!("/api/account/{path}");
            request(addr, "POST", &path, &[("Cookie", &cookie)], &body)
                .refused(400, "invalid_request");
        }
    }
    assert_eq!(get(addr, "/api/account/me", Some(&session)).status, 200);
    assert_eq!(db.sessions(), [sha256_hex(&session)]);
    let login = post(
        addr,
        "/api/account/login",
        None,
        &credentials("Mallory", "good password"),
    );
    assert_eq!(login.status, 200, "{}", login.body);
    // A GET from another origin changes nothing and is answered.
    let me = request(
        addr,
        "GET",
        "/api/health",
        &[("Origin", "http://evil.example")],
        "",
    );
    assert_eq!(me.status, 200);
}

#[test]
fn hostile_input_on_sqlite() {
    let (addr, _runtime, db) = sqlite_server("hostile");
    hostile_input(&addr, &db);
}

#[test]
fn hostile_input_on_postgresql() {
    let Some(url) = server::fresh_database("accounts_hostile") else {
        return;
    };
    let (addr, _runtime) = pg_server(&url);
    hostile_input(&addr, &Db::Postgres(url));
}

/// The documented refusal of the throttle: 429, the code, the seconds in
/// the body and in `Retry-After`, within the 15-minute window.
fn throttled(answer: &Answer) -> u64 {
    answer.refused(429, "too_many_attempts");
    let seconds = answer.body["retry_after_s"]
        .as_u64()
        .expect("retry_after_s");
    assert!((1..=900).contains(&seconds), "{seconds}");
    assert_eq!(
        answer.header("retry-after"),
        Some(seconds.to_string().as_str())
    );
    seconds
}

#[test]
fn a_brute_force_run_against_one_account_is_stopped_after_five_failures() {
    let (addr, _runtime, db) = sqlite_server("brute-account");
    let made = post(
        &addr,
        "/api/account/signup",
        None,
        &credentials("Victim", "the real password"),
    );
    assert_eq!(made.status, 201);
    for guess in 0..5 {
        post(
            &addr,
            "/api/account/login",
            None,
            &credentials("victim", &format!("guess {guess}")),
        )
        .refused(401, "invalid_credentials");
    }
    // The sixth, even with the right password and in another case: refused.
    for _ in 0..3 {
        let refused = post(
            &addr,
            "/api/account/login",
            None,
            &credentials("VICTIM", "the real password"),
        );
        assert!(throttled(&refused) > 890);
    }
    assert_eq!(db.sessions(), [sha256_hex(&made.session())]);
    // Another account from the same address is not locked (5 < 20).
    let other = post(
        &addr,
        "/api/account/signup",
        None,
        &credentials("Other", "other password"),
    );
    assert_eq!(other.status, 201);
    let login = post(
        &addr,
        "/api/account/login",
        None,
        &credentials("Other", "other password"),
    );
    assert_eq!(login.status, 200, "{}", login.body);
}

#[test]
fn a_brute_force_run_from_one_address_is_stopped_after_twenty_failures() {
    let (addr, _runtime, db) = sqlite_server("brute-address");
    let made = post(
        &addr,
        "/api/account/signup",
        None,
        &credentials("Target", "the real password"),
    );
    assert_eq!(made.status, 201);
    for i in 0..20 {
        // Four names, five failures each: no account reaches its limit
        // before the address does.
        let name = ["Target", "Nobody", "Someone", "Anyone"][i % 4];
        post(
            &addr,
            "/api/account/login",
            None,
            &credentials(name, &format!("guess {i}")),
        )
        .refused(401, "invalid_credentials");
    }
    let refused = post(
        &addr,
        "/api/account/login",
        None,
        &credentials("Fresh", "any password"),
    );
    throttled(&refused);
    assert_eq!(db.sessions().len(), 1);
}

#[test]
fn sign_ups_from_one_address_are_limited_to_ten_an_hour() {
    let (addr, _runtime, db) = sqlite_server("signups");
    for i in 0..10 {
        let made = post(
            &addr,
            "/api/account/signup",
            None,
            &credentials(&format!("Player{i}"), "good password"),
        );
        assert_eq!(made.status, 201, "{}", made.body);
    }
    let refused = post(
        &addr,
        "/api/account/signup",
        None,
        &credentials("Player10", "good password"),
    );
    refused.refused(429, "too_many_attempts");
    assert!(refused.body["retry_after_s"]
        .as_u64()
        .is_some_and(|s| s > 3500 && s <= 3600));
    assert_eq!(db.count("accounts"), 10);
}

#[test]
fn behind_tls_the_cookie_is_secure_and_the_origin_https() {
    let dir = std::env::temp_dir().join(format!("hostage-accounts-tls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut config = Config::new(dir.join("games.db"));
    config.accounts.behind_tls = true;
    let (addr, _runtime) = server::serve(Server::bind(&config));
    let body = credentials("Tess", "good password").to_string();
    request(
        &addr,
        "POST",
        "/api/account/signup",
        &[("Origin", &format!("http://{addr}"))],
        &body,
    )
    .refused(403, "origin_refused");
    let made = request(
        &addr,
        "POST",
        "/api/account/signup",
        &[("Origin", &format!("https://{addr}"))],
        &body,
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let set = made.header("set-cookie").expect("cookie");
    assert!(set.ends_with("; Secure"), "{set}");
    assert!(set.contains("; HttpOnly; SameSite=Lax; Path=/;"), "{set}");
}

#[test]
fn a_lobby_challenge_accepted_by_an_account_is_the_accounts_game() {
    let (addr, _runtime, _db) = sqlite_server("lobby");
    let made = post(
        &addr,
        "/api/account/signup",
        None,
        &credentials("Lobbyist", "good password"),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let session = made.session();
    let mut guest = Client::connect(&addr);
    guest.send(
        json!({"v": 1, "type": "challenge_create", "id": "c", "color": "white",
        "clock": {"initial_ms": 180_000, "increment_ms": 2_000}}),
    );
    let challenge = guest.expect("challenge_created")["challenge"]["id"]
        .as_str()
        .expect("challenge id")
        .to_string();
    let cookie = format!("hostage_session={session}");
    let mut account = Client::connect_with(&addr, &[("Cookie", &cookie)]).expect("connect");
    account.send(json!({"v": 1, "type": "challenge_accept", "challenge": challenge, "id": "a"}));
    let joined = account.expect("joined");
    assert_eq!(joined["color"], "black");
    let state = account.expect("state");
    assert_eq!(state["names"]["black"], "Lobbyist", "{state}");
    let game = joined["game"].as_str().expect("game").to_string();
    let listed = get(&addr, "/api/account/games", Some(&session));
    assert_eq!(
        listed.body["games"][0]["game"],
        game.as_str(),
        "{}",
        listed.body
    );
    assert_eq!(listed.body["games"][0]["color"], "black");
    assert_eq!(listed.body["games"][0]["started"], true);
    assert_eq!(listed.body["games"][0]["your_move"], false);
    // Another device of the account takes the seat back by `join`, with
    // a token of its own.
    let mut other = Client::connect_with(&addr, &[("Cookie", &cookie)]).expect("connect");
    other.send(json!({"v": 1, "type": "join", "game": game}));
    let again = other.expect("joined");
    assert_eq!(again["color"], "black");
    assert_ne!(again["token"], joined["token"]);
}

/// Reads until the `moved` of `mv`, failing on an error.
fn until_move(client: &mut Client, mv: &str) {
    loop {
        let m = client.recv();
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "moved" && m["move"] == mv {
            return;
        }
    }
}

/// The token of a `joined` (or `created`) answer.
fn token_of(answer: &Value) -> String {
    answer["token"].as_str().expect("token").to_string()
}

/// A logged-in lobby challenge's creator plays its game from a device
/// that made no challenge (on the other server `b`), and from a third one
/// on `a`; the first device still plays; nobody else takes the seat; the
/// database keeps digests only. Returns every token seen.
fn a_creator_on_every_device(a: &str, b: &str, db: &Db) -> Vec<String> {
    let first_session = support::sign_up(a, "Creator");
    let second_session = support::log_in(b, "Creator");
    let cookie = |s: &str| support::session_cookie(s);
    let mut first = Client::connect_with(a, &[("Cookie", &cookie(&first_session))]).expect("ws");
    first.send(json!({"v": 1, "type": "challenge_create", "color": "white",
        "clock": {"initial_ms": 300_000, "increment_ms": 0}}));
    let challenge = first.expect("challenge_created")["challenge"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let mut guest = Client::connect(a);
    guest.send(json!({"v": 1, "type": "challenge_accept", "challenge": challenge}));
    let guest_token = token_of(&guest.expect("joined"));
    guest.expect("state");
    let game = first.expect_past("challenge_accepted", &["lobby_changed"])["game"]
        .as_str()
        .expect("game")
        .to_string();
    let first_token = token_of(&first.expect("joined"));
    first.expect("state");
    // The second device, on the other server: the creator's seat, with a
    // token of its own, and it plays.
    let mut second = Client::connect_with(b, &[("Cookie", &cookie(&second_session))]).expect("ws");
    second.send(json!({"v": 1, "type": "join", "game": game}));
    let joined = second.expect("joined");
    assert_eq!(joined["color"], "white", "{joined}");
    let second_token = token_of(&joined);
    assert_ne!(second_token, first_token);
    assert_eq!(second.expect("state")["names"]["white"], "Creator");
    second.send(move_msg(&game, &second_token, "e2e4", 0));
    until_move(&mut second, "e2e4");
    until_move(&mut guest, "e2e4");
    guest.send(move_msg(&game, &guest_token, "e7e5", 1));
    until_move(&mut guest, "e7e5");
    // The first device still plays, with its own token.
    until_move(&mut first, "e7e5");
    first.send(move_msg(&game, &first_token, "d2d4", 2));
    until_move(&mut first, "d2d4");
    // The second device's token, taken back on the first server.
    let mut resumed = Client::connect(a);
    resumed.send(json!({"v": 1, "type": "resume", "game": game, "token": second_token}));
    assert_eq!(resumed.expect("resumed")["color"], "white");
    // A third device, on the first server.
    let mut third = Client::connect_with(a, &[("Cookie", &cookie(&first_session))]).expect("ws");
    third.send(json!({"v": 1, "type": "join", "game": game}));
    let third_token = token_of(&third.expect("joined"));
    // A guest, and another account, take no seat; a made-up token is none.
    let mut stranger = Client::connect(b);
    stranger.send(json!({"v": 1, "type": "join", "game": game}));
    stranger.expect_error("game_full");
    let other = support::sign_up(b, "Other");
    let mut other = Client::connect_with(b, &[("Cookie", &cookie(&other))]).expect("ws");
    other.send(json!({"v": 1, "type": "join", "game": game}));
    other.expect_error("game_full");
    stranger.send(json!({"v": 1, "type": "resume", "game": game,
        "token": "0123456789abcdef0123456789abcdef"}));
    stranger.expect_error("invalid_token");
    let tokens = vec![
        first_token,
        second_token,
        third_token,
        guest_token,
        first_session,
        second_session,
    ];
    // The seat keeps the digests of its three tokens, nothing else.
    let rows = db.rows(&format!(
        "SELECT white_token, white_devices, black_token, black_devices FROM games WHERE id = '{game}'"
    ));
    let row = &rows[0];
    assert_eq!(row[0].as_deref(), Some(sha256_hex(&tokens[0]).as_str()));
    let devices = row[1].clone().unwrap_or_default();
    let devices: Vec<&str> = devices.split_whitespace().collect();
    assert_eq!(devices, [sha256_hex(&tokens[1]), sha256_hex(&tokens[2])]);
    assert_eq!(row[2].as_deref(), Some(sha256_hex(&tokens[3]).as_str()));
    assert_eq!(row[3], None);
    tokens
}

/// The columns of `table`, by name.
fn columns(db: &Db, table: &str) -> Vec<String> {
    let sql = match db {
        Db::Sqlite(_) => format!("SELECT name FROM pragma_table_info('{table}') ORDER BY name"),
        Db::Postgres(_) => format!(
            "SELECT column_name::text FROM information_schema.columns
             WHERE table_name = '{table}' ORDER BY column_name"
        ),
    };
    db.rows(&sql)
        .into_iter()
        .map(|r| r[0].clone().expect("name"))
        .collect()
}

/// No secret in clear: the accounts keep no seat key (no column a seat
/// token could be derived from), and no stored text of the accounts',
/// sessions', seats' or games' tables holds any token given out.
fn no_secret_in_clear(db: &Db, tokens: &[String]) {
    assert_eq!(
        columns(db, "accounts"),
        [
            "closed_ms",
            "created_ms",
            "id",
            "password",
            "username",
            "username_key"
        ]
    );
    let texts = [
        "SELECT id, username, username_key, password FROM accounts",
        "SELECT token, account FROM sessions",
        "SELECT account, game, side FROM account_seats",
        "SELECT id, white_token, black_token, white_devices, black_devices, white_name, black_name FROM games",
    ];
    for sql in texts {
        for row in db.rows(sql) {
            for value in row.into_iter().flatten() {
                for token in tokens {
                    assert!(!value.contains(token.as_str()), "{sql}: {value}");
                }
            }
        }
    }
}

#[test]
fn a_lobby_creator_plays_from_any_device_and_no_secret_is_stored_on_sqlite() {
    let (addr, _runtime, db) = sqlite_server("devices");
    let tokens = a_creator_on_every_device(&addr, &addr, &db);
    no_secret_in_clear(&db, &tokens);
}

#[test]
fn a_lobby_creator_plays_from_any_device_and_no_secret_is_stored_on_postgresql() {
    let Some(url) = server::fresh_database("devices") else {
        return;
    };
    let (a, _ra) = pg_server(&url);
    let (b, _rb) = pg_server(&url);
    let db = Db::Postgres(url);
    let tokens = a_creator_on_every_device(&a, &b, &db);
    no_secret_in_clear(&db, &tokens);
}

#[test]
fn a_database_with_seat_keys_loses_them_when_opened() {
    let dir = std::env::temp_dir().join(format!("hostage-accounts-keys-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("games.db");
    let key = "5eed".repeat(16);
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch(&format!(
            "CREATE TABLE accounts (id TEXT PRIMARY KEY, username TEXT NOT NULL,
                username_key TEXT NOT NULL UNIQUE, password TEXT NOT NULL,
                seat_key TEXT NOT NULL, created_ms BIGINT NOT NULL, closed_ms BIGINT);
             INSERT INTO accounts VALUES ('a1', 'Old', 'old', '$argon2id$x', '{key}', 1, NULL);"
        ))
        .expect("old schema");
    }
    let (addr, runtime) = server::serve(Server::bind(&Config::new(&path)));
    let db = Db::Sqlite(path.clone());
    assert!(!columns(&db, "accounts").contains(&"seat_key".to_string()));
    assert_eq!(
        db.rows("SELECT username FROM accounts")[0][0].as_deref(),
        Some("Old")
    );
    // The name is still taken.
    post(
        &addr,
        "/api/account/signup",
        None,
        &credentials("OLD", "good password"),
    )
    .refused(409, "username_taken");
    drop(runtime);
    let bytes = std::fs::read(&path).expect("file");
    let wal = std::fs::read(dir.join("games.db-wal")).unwrap_or_default();
    for file in [bytes, wal] {
        assert!(!file.windows(key.len()).any(|w| w == key.as_bytes()));
    }
}
