//! Load benchmark (not a test): many concurrent games of random legal moves
//! against `hostage serve` started in this process on 127.0.0.1 with a
//! fresh SQLite database (or, with `--pg URL`, on a PostgreSQL database,
//! and with `--instances 2` two servers on it: White plays on the first,
//! Black on the second, so every move crosses instances), then a check of
//! that database: every acknowledged move stored once, at its ply, and
//! nothing else. With `--pg URL` the run makes a database of its own on
//! that server (and drops it at the end), so the check counts every move
//! stored.
//!
//! With `--server ADDR` (once per instance) the run plays against servers
//! already running elsewhere (say `hostage serve` processes, each with a
//! CPU quota of its own, as separate machines would have) instead of
//! starting its own; `--pg URL` is then their database, checked as it is,
//! and must be fresh for the count to mean anything.
//!
//! ```sh
//! cargo run --release -p hostage-server --example load -- --games 200 --plies 60 --think-ms 100
//! cargo run --release -p hostage-server --example load -- --pg postgres://me@127.0.0.1:5432/db --instances 2
//! ```
//!
//! Each game has two WebSocket clients. A player sends its move, times the
//! round trip to its `moved` acknowledgement, waits until the opponent has
//! heard the opponent's move, and keeps to the protocol's rate (`--think-ms`
//! between its own moves, 100 by default: the limit is 10 a second). Moves
//! are drawn with `hostage-core` from the legal moves. Loopback only; every
//! loop is bounded by `--plies` and `--timeout-s`.

use std::{
    path::PathBuf,
    sync::Arc,
    time::{Duration, Instant},
};

use futures_util::{SinkExt, StreamExt};
use hostage_core::{game::Game, uci::UciMove};
use hostage_server::{Config, Server, StoreUrl};
use serde_json::{json, Value};
use tokio::{net::TcpStream, sync::Mutex};
use tokio_tungstenite::{tungstenite::Message, MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

struct Args {
    games: usize,
    plies: usize,
    think_ms: u64,
    timeout_s: u64,
    clock: bool,
    pg: Option<String>,
    instances: usize,
    servers: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        games: 200,
        plies: 60,
        think_ms: 100,
        timeout_s: 300,
        clock: true,
        pg: None,
        instances: 1,
        servers: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--no-clock" {
            args.clock = false;
            continue;
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        if flag == "--pg" {
            args.pg = Some(value);
            continue;
        }
        if flag == "--server" {
            args.servers.push(value);
            continue;
        }
        let n: u64 = value
            .parse()
            .map_err(|_| format!("{flag}: not a number: {value}"))?;
        match flag.as_str() {
            "--games" => args.games = n as usize,
            "--plies" => args.plies = n as usize,
            "--think-ms" => args.think_ms = n,
            "--timeout-s" => args.timeout_s = n,
            "--instances" => args.instances = (n as usize).clamp(1, 8),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if !args.servers.is_empty() && args.pg.is_none() {
        return Err("--server needs --pg URL, the servers' database, to check".into());
    }
    Ok(args)
}

async fn connect(addr: &str) -> Ws {
    // A small read buffer, as the server's: the library's 128 KiB default
    // is zeroed before each read, and the clients share the machine with
    // the servers they measure.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4 << 10);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws"),
        Some(config),
        false,
    )
    .await
    .expect("connect");
    let hello = recv(&mut ws).await;
    assert_eq!(hello["type"], "hello");
    ws
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::text(v.to_string())).await.expect("send");
}

async fn recv(ws: &mut Ws) -> Value {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Some(Ok(_)) => continue,
            other => panic!("connection lost: {other:?}"),
        }
    }
}

async fn expect(ws: &mut Ws, kind: &str) -> Value {
    let m = recv(ws).await;
    assert_eq!(m["type"], kind, "expected {kind}, got {m}");
    m
}

/// What one game reports: its id, the acknowledged moves, the round trips.
struct Report {
    game: String,
    acked: Vec<String>,
    rtts: Vec<Duration>,
    /// From a move sent to the opponent hearing it (across instances with
    /// `--instances 2`).
    heard: Vec<Duration>,
    /// When both seats were taken, and when each move was acknowledged,
    /// from the start of the run.
    seated: Duration,
    acked_at: Vec<Duration>,
}

async fn play_game(addrs: Vec<String>, args: Arc<Args>, seed: u64, started: Instant) -> Report {
    let addr = addrs[0].clone();
    let other_addr = addrs[addrs.len() - 1].clone();
    let clock = if args.clock {
        json!({"initial_ms": 600_000, "increment_ms": 1_000})
    } else {
        Value::Null
    };
    let mut white = connect(&addr).await;
    send(
        &mut white,
        json!({"v":1,"type":"create","color":"white","clock":clock}),
    )
    .await;
    let created = expect(&mut white, "created").await;
    expect(&mut white, "state").await;
    let game = created["game"].as_str().expect("id").to_string();
    let wt = created["token"].as_str().expect("token").to_string();
    let mut black = connect(&other_addr).await;
    send(&mut black, json!({"v":1,"type":"join","game":game})).await;
    let joined = expect(&mut black, "joined").await;
    expect(&mut black, "state").await;
    expect(&mut white, "player_joined").await;
    let bt = joined["token"].as_str().expect("token").to_string();
    let seated = started.elapsed();

    let mut mirror = Game::new();
    let mut rng = seed | 1;
    let mut rtts = Vec::with_capacity(args.plies);
    let mut acked = Vec::with_capacity(args.plies);
    let mut heard = Vec::with_capacity(args.plies);
    let mut acked_at = Vec::with_capacity(args.plies);
    let mut last_sent = [Instant::now() - Duration::from_secs(1); 2];
    let think = Duration::from_millis(args.think_ms);
    while mirror.ply() < args.plies && mirror.outcome().is_none() {
        let side = mirror.ply() % 2;
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let moves = mirror.position().legal_moves();
        let m = moves[(rng % moves.len() as u64) as usize];
        let uci = UciMove::from_move(&m).to_string();
        let wait = (last_sent[side] + think).saturating_duration_since(Instant::now());
        tokio::time::sleep(wait).await;
        let (me, other, token) = if side == 0 {
            (&mut white, &mut black, &wt)
        } else {
            (&mut black, &mut white, &bt)
        };
        let ply = mirror.ply();
        let start = Instant::now();
        last_sent[side] = start;
        send(
            me,
            json!({"v":1,"type":"move","game":game,"token":token,"move":uci,"ply":ply}),
        )
        .await;
        let ack = recv(me).await;
        if ack["type"] != "moved" {
            panic!("game {game} ply {ply}: {ack}");
        }
        rtts.push(start.elapsed());
        acked_at.push(started.elapsed());
        acked.push(uci.clone());
        let told = expect(other, "moved").await;
        heard.push(start.elapsed());
        assert_eq!(told["move"], uci.as_str());
        mirror.push_uci(&uci).expect("legal");
        if mirror.outcome().is_some() {
            expect(me, "game_over").await;
            expect(other, "game_over").await;
        }
    }
    Report {
        game,
        acked,
        rtts,
        heard,
        seated,
        acked_at,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let args = match parse_args() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!("load: {e}\nusage: load [--games N] [--plies P] [--think-ms MS] [--timeout-s S] [--no-clock] [--pg URL] [--instances N] [--server ADDR]...");
            std::process::exit(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("hostage-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db: PathBuf = dir.join("load.db");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut config = Config::new(&db);
    // On PostgreSQL, a fresh database of its own, dropped at the end;
    // servers started elsewhere bring theirs.
    let pg = match &args.pg {
        Some(url) if !args.servers.is_empty() => Some((url.clone(), None)),
        Some(admin) => {
            let (url, name) = fresh_postgres(admin);
            Some((url, Some(name)))
        }
        None => None,
    };
    if let Some((url, _)) = &pg {
        config.db = StoreUrl::Postgres(url.clone());
    }
    // Every client is on 127.0.0.1: lift the per-address cap.
    config.limits.max_connections_per_address = usize::MAX;
    let load_before = load_average();
    let reports = runtime.block_on(async {
        let mut addrs = args.servers.clone();
        let to_start = if addrs.is_empty() { args.instances } else { 0 };
        for _ in 0..to_start {
            let server = Server::bind(&config).await.expect("bind");
            addrs.push(server.local_addr().to_string());
            tokio::spawn(server.run(std::future::pending()));
        }
        let started = Instant::now();
        let tasks: Vec<_> = (0..args.games)
            .map(|i| {
                tokio::spawn(play_game(
                    addrs.clone(),
                    Arc::clone(&args),
                    0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(i as u64 + 1),
                    started,
                ))
            })
            .collect();
        let reports = Arc::new(Mutex::new(Vec::new()));
        let all = async {
            for t in tasks {
                let report = t.await.expect("a game failed");
                reports.lock().await.push(report);
            }
        };
        if tokio::time::timeout(Duration::from_secs(args.timeout_s), all)
            .await
            .is_err()
        {
            eprintln!("load: stopped after --timeout-s {}", args.timeout_s);
        }
        let elapsed = started.elapsed();
        let reports = std::mem::take(&mut *reports.lock().await);
        (reports, elapsed)
    });
    let (reports, elapsed) = reports;
    drop(runtime); // stops the server
    let load_after = load_average();

    let mut rtts: Vec<Duration> = reports
        .iter()
        .flat_map(|r| r.rtts.iter().copied())
        .collect();
    rtts.sort();
    let moves = rtts.len();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "games: {} finished of {} ({} plies max, think {} ms, clocks {}, store {}, instances {})",
        reports.len(),
        args.games,
        args.plies,
        args.think_ms,
        args.clock,
        if args.pg.is_some() {
            "postgres"
        } else {
            "sqlite"
        },
        if args.servers.is_empty() {
            args.instances
        } else {
            args.servers.len()
        }
    );
    println!(
        "moves acknowledged: {moves} in {:.2} s = {:.0} moves/s",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64()
    );
    println!(
        "round trip (move sent -> stored -> acknowledged): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&rtts, 0.50)),
        ms(percentile(&rtts, 0.90)),
        ms(percentile(&rtts, 0.99)),
        ms(percentile(&rtts, 1.0)),
    );

    let mut heard: Vec<Duration> = reports
        .iter()
        .flat_map(|r| r.heard.iter().copied())
        .collect();
    heard.sort();
    println!(
        "heard by the opponent (move sent -> opponent told): p50 {:.2} ms, p99 {:.2} ms",
        ms(percentile(&heard, 0.50)),
        ms(percentile(&heard, 0.99)),
    );
    // The steady state: from the last game seated to the first game over
    // that played every ply (a random game may end early in mate).
    let mut seated: Vec<Duration> = reports.iter().map(|r| r.seated).collect();
    seated.sort();
    let all_seated = seated.last().copied();
    println!(
        "seated (both seats taken, from the start): p50 {:.0} ms, p90 {:.0} ms, last {:.0} ms",
        ms(percentile(&seated, 0.5)),
        ms(percentile(&seated, 0.9)),
        ms(percentile(&seated, 1.0)),
    );
    let first_over = reports
        .iter()
        .filter(|r| r.acked.len() == args.plies)
        .filter_map(|r| r.acked_at.last())
        .min();
    if let (Some(&from), Some(&to)) = (all_seated.as_ref(), first_over) {
        let window = to.saturating_sub(from);
        let inside = reports
            .iter()
            .flat_map(|r| r.acked_at.iter())
            .filter(|&&t| t > from && t <= to)
            .count();
        println!(
            "while every game played ({:.2} s): {:.0} moves/s",
            window.as_secs_f64(),
            inside as f64 / window.as_secs_f64().max(1e-9)
        );
    }

    println!("load average (1, 5, 15 min): {load_before} before, {load_after} after");

    // Every acknowledged move in the database, once, at its ply; nothing else.
    let games: Vec<String> = reports.iter().map(|r| r.game.clone()).collect();
    let (by_game, total) = match &pg {
        None => stored_sqlite(&db, &games),
        Some((url, _)) => stored_postgres(url, &games),
    };
    let (mut lost, mut extra) = (0usize, 0usize);
    for (r, stored) in reports.iter().zip(by_game) {
        for (i, uci) in r.acked.iter().enumerate() {
            if stored.get(i) != Some(&(i as i64, uci.clone())) {
                lost += 1;
            }
        }
        extra += stored.len().saturating_sub(r.acked.len());
    }
    println!(
        "database check: {total} moves stored for {moves} acknowledged; lost or misplaced {lost}, doubled or unacknowledged {extra}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    if let (Some(admin), Some((_, Some(name)))) = (&args.pg, &pg) {
        postgres_sql(
            admin,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
    }
    if lost > 0 || extra > 0 || total as usize != moves {
        std::process::exit(1);
    }
}

/// The machine's load averages (Linux), to say how busy it was.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".into(),
        |s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    )
}

/// Each game's stored moves `(ply, uci)`, and the count of all moves.
type Stored = (Vec<Vec<(i64, String)>>, i64);

fn stored_sqlite(db: &std::path::Path, games: &[String]) -> Stored {
    let conn = rusqlite::Connection::open(db).expect("open db");
    let mut stmt = conn
        .prepare("SELECT ply, uci FROM moves WHERE game = ?1 ORDER BY ply")
        .expect("prepare");
    let by_game = games
        .iter()
        .map(|g| {
            stmt.query_map([g], |row| Ok((row.get(0)?, row.get(1)?)))
                .expect("query")
                .collect::<Result<_, _>>()
                .expect("rows")
        })
        .collect();
    let total = conn
        .query_row("SELECT count(*) FROM moves", [], |row| row.get(0))
        .expect("count");
    (by_game, total)
}

/// A new database on the server of `admin` (a URL): its URL and name.
fn fresh_postgres(admin: &str) -> (String, String) {
    let name = format!("hostage_load_{}", std::process::id());
    postgres_sql(admin, &format!("DROP DATABASE IF EXISTS {name}"));
    postgres_sql(admin, &format!("CREATE DATABASE {name}"));
    let (base, _) = admin.rsplit_once('/').expect("--pg: a URL with a database");
    (format!("{base}/{name}"), name)
}

/// Runs one statement on `url`.
fn postgres_sql(url: &str, sql: &str) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(connection);
        client.batch_execute(sql).await.expect(sql);
    });
}

/// The same on PostgreSQL (the database is the run's own: the count is of
/// every move in it).
fn stored_postgres(url: &str, games: &[String]) -> Stored {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(connection);
        let mut by_game = Vec::new();
        let total = client
            .query_one("SELECT count(*) FROM moves", &[])
            .await
            .expect("count")
            .get(0);
        for g in games {
            let rows: Vec<(i64, String)> = client
                .query(
                    "SELECT ply, uci FROM moves WHERE game = $1 ORDER BY ply",
                    &[g],
                )
                .await
                .expect("query")
                .into_iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            by_game.push(rows);
        }
        (by_game, total)
    })
}
