//! An account's puzzle rating over HTTP, end to end (`docs/protocol.md`,
//! Puzzles of an account): on SQLite, and on PostgreSQL with two
//! instances (an attempt stored by one is read by the other); the rating
//! after each attempt against Glickman's formulas written out here (not
//! the crate's code); a repeat attempt stored but not rated; hostile input
//! each with its documented answer and nothing stored.

#[path = "support/server.rs"]
mod server;
mod support;

use hostage_server::{Config, Server, StoreUrl};
use serde_json::{json, Value};
use support::{log_in, sign_up};

/// An answer: status and body as JSON (`Value::Null` when not JSON).
struct Answer {
    status: u16,
    body: Value,
}

impl Answer {
    fn refused(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.body["code"], code, "{}", self.body);
        assert!(self.body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
}

fn request(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let raw = support::http_request(addr, method, path, headers, body);
    Answer {
        status: raw.status,
        body: serde_json::from_str(&raw.body).unwrap_or(Value::Null),
    }
}

fn with_cookie(token: Option<&str>) -> Option<String> {
    token.map(|t| format!("hostage_session={t}"))
}

fn post_raw(addr: &str, path: &str, token: Option<&str>, body: &str) -> Answer {
    let cookie = with_cookie(token);
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    request(addr, "POST", path, &headers, body)
}

fn get(addr: &str, path: &str, token: Option<&str>) -> Answer {
    let cookie = with_cookie(token);
    let headers: Vec<(&str, &str)> = cookie.iter().map(|c| ("Cookie", c.as_str())).collect();
    request(addr, "GET", path, &headers, "")
}

fn attempt(addr: &str, token: Option<&str>, id: &str, solved: bool) -> Answer {
    let body = json!({"id": id, "solved": solved}).to_string();
    post_raw(addr, "/api/account/puzzles/attempts", token, &body)
}

/// Glicko-2 for one game, from Glickman's "Example of the Glicko-2
/// system" (2013), steps 2–8, written out here with lichess's puzzle
/// parameters (τ = 0.75; the deviation kept within 45–500, at most 700
/// points a game): the player's (rating, deviation, volatility) after
/// scoring `score` against `opp`.
fn glickman(me: (f64, f64, f64), opp: (f64, f64), score: f64) -> (f64, f64, f64) {
    const K: f64 = 173.7178;
    const TAU: f64 = 0.75;
    let (mu, phi, sigma) = ((me.0 - 1500.0) / K, me.1 / K, me.2);
    let (mu_j, phi_j) = ((opp.0 - 1500.0) / K, opp.1 / K);
    let pi2 = std::f64::consts::PI.powi(2);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / pi2).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let delta = v * g * (score - e);
    // Step 5, the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            (big_a, f_a) = (big_b, f_b);
        } else {
            f_a /= 2.0;
        }
        (big_b, f_b) = (c, f_c);
    }
    let sigma2 = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * g * (score - e);
    let rating = (mu2 * K + 1500.0).clamp(me.0 - 700.0, me.0 + 700.0);
    (rating, (phi2 * K).clamp(45.0, 500.0), sigma2)
}

fn rating_of(v: &Value) -> (f64, f64, f64) {
    let n = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"));
    (n("rating"), n("deviation"), n("volatility"))
}

fn close(a: (f64, f64, f64), b: (f64, f64, f64)) -> bool {
    (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6 && (a.2 - b.2).abs() < 1e-9
}

/// Two puzzles of the set far apart in rating: (id, rating, deviation).
fn two_puzzles() -> [(String, f64, f64); 2] {
    let set = hostage_puzzles::puzzles();
    let low = set.iter().min_by_key(|p| p.rating).expect("a puzzle");
    let high = set.iter().max_by_key(|p| p.rating).expect("a puzzle");
    [low, high].map(|p| (p.id.clone(), f64::from(p.rating), f64::from(p.deviation)))
}

/// The database behind a server, read apart from it.
enum Db {
    Sqlite(std::path::PathBuf),
    Postgres(String),
}

impl Db {
    fn count(&self, table: &str) -> i64 {
        let sql = format!("SELECT count(*) FROM {table}");
        match self {
            Db::Sqlite(path) => {
                let conn = rusqlite::Connection::open(path).expect("open");
                conn.query_row(&sql, [], |r| r.get(0)).expect("count")
            }
            Db::Postgres(url) => {
                let (runtime, client) = server::pg_session(url);
                runtime.block_on(async { client.query_one(&sql, &[]).await.expect("count").get(0) })
            }
        }
    }
}

/// Sign up on `a`, attempt on `a` and `b` in turn, read on both.
fn attempts_follow_the_account(a: &str, b: &str, db: &Db) {
    let on_a = sign_up(a, "Puzzler");
    let fresh = get(b, "/api/account/puzzles", Some(&on_a));
    assert_eq!(fresh.status, 200, "{}", fresh.body);
    assert_eq!(rating_of(&fresh.body["rating"]), (1500.0, 500.0, 0.09));
    assert_eq!(fresh.body["provisional"], true);
    assert_eq!(fresh.body["seen"], json!([]));
    assert_eq!(fresh.body["history"], json!([]));

    let [(low, low_r, low_rd), (high, high_r, high_rd)] = two_puzzles();
    // Missing the easiest puzzle: a loss against its rating in the set.
    let first = attempt(a, Some(&on_a), &low, false);
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.body["rated"], true);
    assert_eq!(first.body["seq"], 1);
    let expect1 = glickman((1500.0, 500.0, 0.09), (low_r, low_rd), 0.0);
    let got1 = rating_of(&first.body["rating"]);
    assert!(close(got1, expect1), "{got1:?} vs {expect1:?}");
    assert!(got1.0 < 1500.0);
    assert_eq!(
        rating_of(&first.body["puzzle"]),
        (low_r, low_rd, 0.09),
        "{}",
        first.body
    );

    // The same puzzle again, solved, on the other server: stored, not rated.
    let again = attempt(b, Some(&on_a), &low, true);
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body["rated"], false);
    assert_eq!(again.body["seq"], 2);
    assert_eq!(rating_of(&again.body["rating"]), got1);

    // Solving the hardest puzzle, from the rating after the first.
    let second = attempt(b, Some(&on_a), &high, true);
    assert_eq!(second.body["rated"], true, "{}", second.body);
    let expect2 = glickman(got1, (high_r, high_rd), 1.0);
    let got2 = rating_of(&second.body["rating"]);
    assert!(close(got2, expect2), "{got2:?} vs {expect2:?}");
    assert!(got2.0 > got1.0);

    // Another login, on the other server, reads the same.
    let on_b = log_in(b, "puzzler");
    for (addr, token) in [(a, &on_a), (b, &on_b)] {
        let read = get(addr, "/api/account/puzzles", Some(token));
        assert_eq!(read.status, 200, "{}", read.body);
        assert_eq!(rating_of(&read.body["rating"]), got2);
        assert_eq!(read.body["provisional"], got2.1 >= 110.0, "{}", read.body);
        assert_eq!(read.body["seen"], json!([low, high]));
        let history = read.body["history"].as_array().expect("history");
        let shown: Vec<(Value, Value, Value)> = history
            .iter()
            .map(|h| (h["id"].clone(), h["solved"].clone(), h["rated"].clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (json!(low), json!(false), json!(true)),
                (json!(low), json!(true), json!(false)),
                (json!(high), json!(true), json!(true)),
            ]
        );
        assert_eq!(history[0]["rating"].as_f64(), Some(got1.0));
        assert_eq!(history[2]["rating"].as_f64(), Some(got2.0));
        assert!(history.iter().all(|h| h["at_ms"].as_u64().is_some()));
    }
    assert_eq!(db.count("puzzle_attempts"), 3);
    assert_eq!(db.count("puzzle_ratings"), 1);
    // Another account starts afresh.
    let other = sign_up(a, "Other");
    let theirs = get(a, "/api/account/puzzles", Some(&other));
    assert_eq!(rating_of(&theirs.body["rating"]), (1500.0, 500.0, 0.09));
    assert_eq!(theirs.body["seen"], json!([]));
}

fn sqlite_server(name: &str) -> (String, tokio::runtime::Runtime, Db) {
    let dir = std::env::temp_dir().join(format!("hostage-puzzles-{name}-{}", std::process::id()));
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

#[test]
fn attempts_on_sqlite() {
    let (addr, _runtime, db) = sqlite_server("attempts");
    attempts_follow_the_account(&addr, &addr, &db);
}

#[test]
fn attempts_on_sqlite_survive_a_restart() {
    let (addr, runtime, db) = sqlite_server("restart");
    let token = sign_up(&addr, "Restarted");
    let [(low, ..), _] = two_puzzles();
    let stored = attempt(&addr, Some(&token), &low, true);
    assert_eq!(stored.status, 201, "{}", stored.body);
    runtime.shutdown_background();
    let Db::Sqlite(path) = &db else {
        unreachable!()
    };
    let (again, _runtime) = server::serve(Server::bind(&Config::new(path)));
    let read = get(&again, "/api/account/puzzles", Some(&token));
    assert_eq!(read.status, 200, "{}", read.body);
    assert_eq!(read.body["rating"], stored.body["rating"]);
    assert_eq!(read.body["seen"], json!([low]));
}

#[test]
fn attempts_on_postgresql_across_two_instances() {
    let Some(url) = server::fresh_database("puzzle_ratings") else {
        return;
    };
    let (a, _ra) = pg_server(&url);
    let (b, _rb) = pg_server(&url);
    attempts_follow_the_account(&a, &b, &Db::Postgres(url));
}

/// Hostile input: each refused with its documented answer, nothing stored.
fn hostile_input(addr: &str, db: &Db) {
    let token = sign_up(addr, "Hostile");
    let [(id, ..), _] = two_puzzles();
    let path = "/api/account/puzzles/attempts";
    // No session, or a forged one.
    for cookie in [None, Some("0".repeat(64)), Some("not-a-token".into())] {
        attempt(addr, cookie.as_deref(), &id, true).refused(401, "not_logged_in");
        get(addr, "/api/account/puzzles", cookie.as_deref()).refused(401, "not_logged_in");
    }
    // Another origin, with a valid session.
    let cookie = format!("hostage_session={token}");
    let body = json!({"id": id, "solved": true}).to_string();
    for origin in ["http://evil.example", "null"] {
        request(
            addr,
            "POST",
            path,
            &[("Cookie", &cookie), ("Origin", origin)],
            &body,
        )
        .refused(403, "origin_refused");
    }
    // Unknown ids.
    for unknown in ["nope", "", &"0".repeat(10), &"x".repeat(500)] {
        attempt(addr, Some(&token), unknown, true).refused(404, "unknown_puzzle");
    }
    // Bodies that are not the documented object.
    for bad in support::hostile_bodies(&json!({"id": id, "solved": true})) {
        let refused = post_raw(addr, path, Some(&token), &bad);
        assert_eq!(refused.status, 400, "{bad:.80}: {}", refused.body);
        refused.refused(400, "invalid_request");
    }
    assert_eq!(db.count("puzzle_attempts"), 0);
    assert_eq!(db.count("puzzle_ratings"), 0);
    // At most 20 attempts of one puzzle.
    for n in 1..=20 {
        let a = attempt(addr, Some(&token), &id, n % 2 == 0);
        assert_eq!(a.status, 201, "{}", a.body);
        assert_eq!(a.body["rated"], n == 1);
    }
    attempt(addr, Some(&token), &id, true).refused(409, "attempt_limit");
    assert_eq!(db.count("puzzle_attempts"), 20);
    let read = get(addr, "/api/account/puzzles", Some(&token));
    assert_eq!(read.body["seen"], json!([id]));
    assert_eq!(read.body["history"].as_array().map(Vec::len), Some(20));
}

#[test]
fn hostile_input_on_sqlite() {
    let (addr, _runtime, db) = sqlite_server("hostile");
    hostile_input(&addr, &db);
}

#[test]
fn hostile_input_on_postgresql() {
    let Some(url) = server::fresh_database("puzzle_hostile") else {
        return;
    };
    let (addr, _runtime) = pg_server(&url);
    hostile_input(&addr, &Db::Postgres(url));
}

/// Attempts of one account raced from many threads at once: each stored
/// once with its own number, and the puzzle rated once.
#[test]
fn racing_attempts_rate_a_puzzle_once() {
    let (addr, _runtime, db) = sqlite_server("race");
    let token = sign_up(&addr, "Racer");
    let [(id, r, rd), _] = two_puzzles();
    let answers: Vec<Answer> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..6)
            .map(|_| s.spawn(|| attempt(&addr, Some(&token), &id, true)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    assert!(answers.iter().all(|a| a.status == 201));
    assert_eq!(
        answers.iter().filter(|a| a.body["rated"] == true).count(),
        1
    );
    let expect = glickman((1500.0, 500.0, 0.09), (r, rd), 1.0);
    let read = get(&addr, "/api/account/puzzles", Some(&token));
    assert!(close(rating_of(&read.body["rating"]), expect));
    assert_eq!(db.count("puzzle_attempts"), 6);
}
