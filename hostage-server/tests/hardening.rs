//! What a public server must also survive (issue 19): big frames, long
//! paths, slow or silent clients, idle sockets, connection caps, tokens at
//! rest, games evicted from memory, abandoned games, and compressed static
//! files. The timeouts are shortened through [`ServerLimits`]; the
//! defaults are documented in `docs/protocol.md`.

#[path = "support/server.rs"]
mod server;
mod support;

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::PathBuf,
    time::{Duration, Instant},
};

use hostage_server::{domain::TokenHash, Config, Server, ServerLimits};
use serde_json::{json, Value};
use support::{http_get, new_game, Client};
use tungstenite::protocol::frame::coding::CloseCode;

struct TestServer {
    addr: String,
    db: PathBuf,
    _runtime: tokio::runtime::Runtime,
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostage-hard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn start(name: &str, limits: ServerLimits, static_dir: Option<PathBuf>) -> TestServer {
    let dir = temp_dir(name);
    let db = dir.join("games.db");
    let mut config = Config::new(&db);
    config.limits = limits;
    config.static_dir = static_dir;
    let (addr, runtime) = server::serve(Server::bind(&config));
    TestServer {
        addr,
        db,
        _runtime: runtime,
    }
}

/// Reads until the server closes the WebSocket; the close code, if any.
fn close_code(c: &mut Client) -> Option<CloseCode> {
    loop {
        match c.ws_mut().read() {
            Ok(tungstenite::Message::Close(frame)) => return frame.map(|f| f.code),
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!("the server did not close the connection")
            }
            Err(_) => return None,
        }
    }
}

#[test]
fn a_frame_over_the_limit_gets_close_1009_and_one_at_the_limit_an_error() {
    let server = start("frame", ServerLimits::default(), None);
    let mut c = Client::connect(&server.addr);
    // 65 536 bytes: too large a message, but the connection stays.
    c.send_text(&"x".repeat(65_536));
    assert_eq!(c.expect_error("message_too_large")["given"], "65536");
    c.quiet();
    // One byte more: close 1009, for text and binary frames alike.
    for frame in [
        tungstenite::Message::text("x".repeat(65_537)),
        tungstenite::Message::binary(vec![0u8; 70_000]),
    ] {
        let mut big = Client::connect(&server.addr);
        assert!(big.try_send(frame));
        assert_eq!(close_code(&mut big), Some(CloseCode::Size));
    }
    // A frame far past the read capacity is cut off after its header: the
    // server sends close 1009 and closes at once, so a client still writing
    // may see the reset first (TCP drops the close frame then). Either way
    // the connection ends, and never with another code.
    let mut huge = Client::connect(&server.addr);
    let _ = huge.try_send(tungstenite::Message::text("y".repeat(2 << 20)));
    let code = close_code(&mut huge);
    assert!(matches!(code, None | Some(CloseCode::Size)), "{code:?}");
    // Others are not affected, and new connections are served.
    c.quiet();
    let mut after = Client::connect(&server.addr);
    after.send_text(&"x".repeat(65_536));
    assert_eq!(after.expect_error("message_too_large")["given"], "65536");
}

#[test]
fn long_paths_are_404_or_414_never_500() {
    let dir = temp_dir("paths-app");
    std::fs::write(dir.join("index.html"), "<!doctype html><title>app</title>").expect("write");
    let server = start("paths", ServerLimits::default(), Some(dir));
    let long_segment = format!("/{}", "a".repeat(256));
    let encoded = format!("/{}", "%41".repeat(300));
    let deep = format!("/{}", "a/".repeat(1000));
    let huge = format!("/{}", "b".repeat(100 * 1024));
    for (path, allowed) in [
        (long_segment.as_str(), &[404][..]),
        (encoded.as_str(), &[404, 414][..]),
        (deep.as_str(), &[404, 414][..]),
        (huge.as_str(), &[404, 414, 431][..]),
        (
            "/api/games/zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
            &[404][..],
        ),
    ] {
        let (status, _) = http_get(&server.addr, path);
        assert!(allowed.contains(&status), "{} bytes: {status}", path.len());
    }
    let (status, _) = http_get(&server.addr, "/");
    assert_eq!(status, 200);
}

/// Whether the server closed `s` within `within` (EOF or reset).
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).expect("timeout");
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // e.g. a 408 before the close
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn silent_and_slow_clients_are_closed_after_the_header_timeout() {
    let limits = ServerLimits {
        header_read_timeout: Duration::from_millis(600),
        ..ServerLimits::default()
    };
    let server = start("slow", limits, None);
    // Connects and sends nothing.
    let t0 = Instant::now();
    let mut silent = TcpStream::connect(&server.addr).expect("connect");
    assert!(closed_within(&mut silent, Duration::from_secs(5)));
    assert!(
        t0.elapsed() >= Duration::from_millis(500),
        "{:?}",
        t0.elapsed()
    );
    // Sends the request line only.
    let mut partial = TcpStream::connect(&server.addr).expect("connect");
    partial.write_all(b"GET / HTTP/1.1\r\n").expect("write");
    assert!(closed_within(&mut partial, Duration::from_secs(5)));
    // Trickles a header line every 200 ms: closed although it never stops.
    let mut trickle = TcpStream::connect(&server.addr).expect("connect");
    trickle.write_all(b"GET / HTTP/1.1\r\n").expect("write");
    let t0 = Instant::now();
    let mut closed = false;
    while t0.elapsed() < Duration::from_secs(5) {
        if trickle.write_all(b"X-Slow: 1\r\n").is_err() {
            closed = true;
            break;
        }
        if closed_within(&mut trickle, Duration::from_millis(200)) {
            closed = true;
            break;
        }
    }
    assert!(closed, "the trickling client was never closed");
    // A normal client is served.
    let (status, _) = http_get(&server.addr, "/api/health");
    assert_eq!(status, 200);
}

#[test]
fn idle_sockets_close_and_connections_are_capped_per_address() {
    let limits = ServerLimits {
        idle_timeout: Duration::from_millis(400),
        max_connections_per_address: 3,
        ..ServerLimits::default()
    };
    let server = start("idle", limits, None);
    let hello = Client::connect_raw(&server.addr).recv();
    assert_eq!(hello["limits"]["idle_timeout_ms"], 400);
    assert_eq!(hello["limits"]["max_connections_per_address"], 3);
    assert!(hello["limits"]["max_queued_bytes"].as_u64().unwrap() <= 4 << 20);
    assert_eq!(hello["limits"]["max_frame_bytes"], 65_536);
    // A socket that follows nothing and says nothing is closed (1000);
    // the server's pings and the client's pongs do not keep it open.
    let mut idle = Client::connect(&server.addr);
    let t0 = Instant::now();
    assert_eq!(close_code(&mut idle), Some(CloseCode::Normal));
    assert!(t0.elapsed() >= Duration::from_millis(300));
    drop(idle);
    // A player waiting for an opponent follows a game: never idle.
    let mut waiting = Client::connect(&server.addr);
    waiting.send(json!({"v":1,"type":"create","color":"white"}));
    waiting.expect("created");
    waiting.expect("state");
    std::thread::sleep(Duration::from_millis(1_000));
    waiting.quiet();
    // The cap: `waiting` holds one place; two more open, the next is 429.
    let a = Client::connect(&server.addr);
    let b = Client::connect(&server.addr);
    match tungstenite::connect(format!("ws://{}/ws", server.addr)) {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 429),
        other => panic!(
            "a fourth connection was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    // Others keep working, and a freed place can be taken at once.
    waiting.quiet();
    drop(a);
    let mut again = None;
    for _ in 0..50 {
        if let Ok((ws, _)) = tungstenite::connect(format!("ws://{}/ws", server.addr)) {
            again = Some(ws);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(again.is_some(), "the freed place was not given again");
    drop(b);
}

#[test]
fn tokens_are_stored_as_digests_only() {
    let server = start("tokens", ServerLimits::default(), None);
    let s = new_game(&server.addr, Value::Null);
    let mut bytes = Vec::new();
    for suffix in ["", "-wal"] {
        let path = PathBuf::from(format!("{}{suffix}", server.db.display()));
        if let Ok(b) = std::fs::read(&path) {
            bytes.extend(b);
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    for token in [&s.white_token, &s.black_token] {
        assert!(!text.contains(token.as_str()), "a token is stored in clear");
        assert!(
            text.contains(&TokenHash::of(token).to_hex()),
            "no digest stored"
        );
    }
}

#[test]
fn finished_and_idle_games_leave_memory_and_load_again() {
    let limits = ServerLimits {
        evict_after: Duration::from_millis(300),
        ..ServerLimits::default()
    };
    let server = start("evict", limits, None);
    let games_loaded = || -> u64 {
        let (_, body) = http_get(&server.addr, "/api/health");
        serde_json::from_str::<Value>(&body).expect("JSON")["games"]
            .as_u64()
            .expect("games")
    };
    let mut s = new_game(&server.addr, Value::Null);
    s.white.send(
        json!({"v":1,"type":"move","game":s.game,"token":s.white_token,"move":"e2e4","ply":0}),
    );
    s.white.expect("moved");
    s.black.expect("moved");
    // Followed: kept however long.
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(games_loaded(), 1);
    drop(s.white);
    drop(s.black);
    let t0 = Instant::now();
    while games_loaded() > 0 {
        assert!(t0.elapsed() < Duration::from_secs(5), "never evicted");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Loaded again on demand, as it was.
    let state = support::public_state(&server.addr, &s.game);
    assert_eq!(state["ply"], 1);
    let mut black = Client::connect(&server.addr);
    black.send(json!({"v":1,"type":"resume","game":s.game,"token":s.black_token}));
    black.expect("resumed");
    black.expect("state");
    black.send(support::move_msg(&s.game, &s.black_token, "e7e5", 1));
    black.expect("moved");
}

#[test]
fn a_player_claims_the_win_or_a_draw_when_the_opponent_is_gone() {
    let limits = ServerLimits {
        abandon_after: Duration::from_millis(500),
        ..ServerLimits::default()
    };
    let server = start("abandon", limits, None);
    for (kind, winner, result) in [
        ("claim_win", json!("white"), "1-0"),
        ("claim_draw", Value::Null, "1/2-1/2"),
    ] {
        let mut s = new_game(
            &server.addr,
            json!({"initial_ms": 600_000, "increment_ms": 0}),
        );
        let claim = json!({"v":1,"type":kind,"game":s.game,"token":s.white_token});
        // The opponent is here: too early.
        s.white.send(claim.clone());
        s.white.expect_error("claim_too_early");
        s.black.quiet();
        drop(s.black);
        // Gone, but not for long enough yet.
        std::thread::sleep(Duration::from_millis(100));
        s.white.send(claim.clone());
        s.white.expect_error("claim_too_early");
        std::thread::sleep(Duration::from_millis(600));
        // A spectator cannot claim.
        s.white.send(json!({"v":1,"type":kind,"game":s.game}));
        s.white.expect_error("not_a_player");
        s.white.send(claim.clone());
        let over = s.white.expect("game_over");
        assert_eq!(over["termination"], "abandonment");
        assert_eq!(over["winner"], winner);
        assert_eq!(over["result"], result);
        s.white.send(claim);
        s.white.expect_error("game_over");
    }
}

#[test]
fn static_files_are_compressed_and_cached() {
    let dir = temp_dir("static-app");
    let script = "export const board = 'hostage';\n".repeat(200);
    std::fs::write(
        dir.join("index.html"),
        format!(
            "<!doctype html><title>app</title>{}",
            "<p>x</p>".repeat(100)
        ),
    )
    .expect("write");
    std::fs::write(dir.join("app.js"), &script).expect("write");
    let server = start("static", ServerLimits::default(), Some(dir));
    for (encoding, expected) in [
        ("br", Some("br")),
        ("gzip", Some("gzip")),
        ("identity", None),
    ] {
        let (head, body) = raw_get(&server.addr, "/app.js", encoding);
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        let got = header(&head, "content-encoding");
        assert_eq!(got.as_deref(), expected, "{head}");
        assert_eq!(
            header(&head, "cache-control").as_deref(),
            Some("public, max-age=3600")
        );
        let plain = match expected {
            Some("gzip") => {
                let mut out = String::new();
                flate2::read::GzDecoder::new(&body[..])
                    .read_to_string(&mut out)
                    .expect("gzip");
                out
            }
            Some("br") => {
                let mut out = String::new();
                brotli_decompressor::Decompressor::new(&body[..], 4096)
                    .read_to_string(&mut out)
                    .expect("brotli");
                out
            }
            _ => String::from_utf8(body.clone()).expect("utf-8"),
        };
        assert_eq!(plain, script);
        if expected.is_some() {
            assert!(
                body.len() < script.len() / 4,
                "{} of {}",
                body.len(),
                script.len()
            );
        }
    }
    let (head, _) = raw_get(&server.addr, "/", "gzip");
    assert_eq!(header(&head, "cache-control").as_deref(), Some("no-cache"));
    // The API is not cached as a file.
    let (head, _) = raw_get(&server.addr, "/api/health", "gzip");
    assert_eq!(header(&head, "cache-control"), None);
}

/// `GET path` with `Accept-Encoding`: the head and the raw body (the
/// server closes after it: `Connection: close`).
fn raw_get(addr: &str, path: &str, encoding: &str) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(support::READ_TIMEOUT))
        .expect("timeout");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: {encoding}\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("head") + 4;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split..].to_vec();
    if header(&head, "transfer-encoding").as_deref() == Some("chunked") {
        body = dechunk(&body);
    }
    (head, body)
}

fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = body
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("chunk size");
        let size = usize::from_str_radix(
            std::str::from_utf8(&body[..line_end]).expect("size").trim(),
            16,
        )
        .expect("hex size");
        body = &body[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
}
