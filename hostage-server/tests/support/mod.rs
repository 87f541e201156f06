//! A plain, blocking WebSocket client and HTTP getter for the server's
//! tests (also used by `hostage-cli/tests/serve.rs`). Every wait has a
//! timeout, so a server that stops answering fails a test instead of
//! hanging it.

#![allow(dead_code, missing_docs)]

use std::{
    io::{Read, Write},
    net::TcpStream,
    time::Duration,
};

use serde_json::{json, Value};
use tungstenite::{stream::MaybeTlsStream, Message, WebSocket};

/// How long any single read may wait.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

pub struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects to `ws://addr/ws` and reads the `hello`.
    pub fn connect(addr: &str) -> Client {
        let mut c = Client::connect_raw(addr);
        let hello = c.expect("hello");
        assert_eq!(hello["protocol"], json!([1]));
        c
    }

    /// Connects to `ws://addr/ws` with these extra request headers
    /// (`Cookie`, `Origin`), reads the `hello`; the handshake's error if
    /// the server refuses the upgrade.
    pub fn connect_with(
        addr: &str,
        headers: &[(&str, &str)],
    ) -> Result<Client, tungstenite::Error> {
        use tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/ws").into_client_request()?;
        for (name, value) in headers {
            request.headers_mut().insert(
                tungstenite::http::HeaderName::from_bytes(name.as_bytes()).expect("header name"),
                value.parse().expect("header value"),
            );
        }
        let (ws, _) = tungstenite::connect(request)?;
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(READ_TIMEOUT)).expect("timeout");
        }
        let mut c = Client { ws };
        c.expect("hello");
        Ok(c)
    }

    /// Connects without reading anything.
    pub fn connect_raw(addr: &str) -> Client {
        let (ws, _) = tungstenite::connect(format!("ws://{addr}/ws")).expect("connect");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(READ_TIMEOUT)).expect("timeout");
        }
        Client { ws }
    }

    /// The socket itself, for tests of closes and frames.
    pub fn ws_mut(&mut self) -> &mut WebSocket<MaybeTlsStream<TcpStream>> {
        &mut self.ws
    }

    pub fn send(&mut self, v: Value) {
        self.send_text(&v.to_string());
    }

    pub fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).expect("send");
    }

    /// Sends, returning false if the connection is gone.
    pub fn try_send(&mut self, message: Message) -> bool {
        self.ws.send(message).is_ok()
    }

    /// The next JSON message, or `None` if the connection closed.
    pub fn try_recv(&mut self) -> Option<Value> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    return Some(serde_json::from_str(t.as_str()).expect("server sent JSON"))
                }
                Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_)) => continue,
                Ok(Message::Binary(_)) => panic!("the server sent a binary frame"),
                Ok(Message::Close(_)) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    panic!("no message from the server within {READ_TIMEOUT:?}")
                }
                Err(_) => return None,
            }
        }
    }

    pub fn recv(&mut self) -> Value {
        self.try_recv().expect("the connection closed")
    }

    /// The next message, which must be of type `kind`.
    pub fn expect(&mut self, kind: &str) -> Value {
        let m = self.recv();
        assert_eq!(m["type"], kind, "expected {kind}, got {m}");
        assert_eq!(m["v"], 1, "{m}");
        m
    }

    /// The next message of type `kind`, skipping any of the types in
    /// `skipped` (messages whose timing a test does not decide).
    pub fn expect_past(&mut self, kind: &str, skipped: &[&str]) -> Value {
        loop {
            let m = self.recv();
            if m["type"].as_str().is_some_and(|t| skipped.contains(&t)) {
                continue;
            }
            assert_eq!(m["type"], kind, "expected {kind}, got {m}");
            return m;
        }
    }

    /// The next message, which must be an error with `code`.
    pub fn expect_error(&mut self, code: &str) -> Value {
        let m = self.expect("error");
        assert_eq!(m["code"], code, "{m}");
        assert!(m["message"].as_str().is_some_and(|s| !s.is_empty()), "{m}");
        m
    }

    /// Asserts nothing else was queued for this client: a ping's pong is
    /// the very next message.
    pub fn quiet(&mut self) {
        self.send(json!({"v": 1, "type": "ping", "id": "quiet"}));
        let m = self.recv();
        assert_eq!(m["type"], "pong", "unexpected message: {m}");
        assert_eq!(m["id"], "quiet");
    }

    /// Sends a request and returns the first answer.
    pub fn ask(&mut self, v: Value) -> Value {
        self.send(v);
        self.recv()
    }
}

/// A game seen by its two players.
pub struct Seats {
    pub game: String,
    pub white: Client,
    pub white_token: String,
    pub black: Client,
    pub black_token: String,
}

/// Creates a game (White creates) and joins it; both states read.
pub fn new_game(addr: &str, clock: Value) -> Seats {
    new_game_across(addr, addr, clock)
}

/// As [`new_game`], with White on the server at `white_addr` and Black
/// joining on the one at `black_addr` (two servers on one database).
pub fn new_game_across(white_addr: &str, black_addr: &str, clock: Value) -> Seats {
    let mut white = Client::connect(white_addr);
    white.send(json!({"v": 1, "type": "create", "color": "white", "clock": clock}));
    let created = white.expect("created");
    let game = created["game"].as_str().expect("game id").to_string();
    let white_token = created["token"].as_str().expect("token").to_string();
    assert_eq!(created["link"], format!("/?game={game}"));
    let state = white.expect("state");
    assert_eq!(state["status"], "waiting");
    assert_eq!(state["you"], "white");
    let mut black = Client::connect(black_addr);
    black.send(json!({"v": 1, "type": "join", "game": game}));
    let joined = black.expect("joined");
    assert_eq!(joined["color"], "black");
    let black_token = joined["token"].as_str().expect("token").to_string();
    let state = black.expect("state");
    assert_eq!(state["status"], "active");
    assert_eq!(white.expect("player_joined")["color"], "black");
    Seats {
        game,
        white,
        white_token,
        black,
        black_token,
    }
}

impl Seats {
    /// Plays both first moves (`e2e4`, `e7e5`), each heard by both
    /// players: from then on White's clock runs (none runs before).
    pub fn first_moves(&mut self) {
        for (ply, mv) in ["e2e4", "e7e5"].into_iter().enumerate() {
            let (me, token) = if ply == 0 {
                (&mut self.white, &self.white_token)
            } else {
                (&mut self.black, &self.black_token)
            };
            me.send(move_msg(&self.game, token, mv, ply as u64));
            assert_eq!(self.white.expect("moved")["move"], mv);
            assert_eq!(self.black.expect("moved")["move"], mv);
        }
    }

    /// Sends a seat action (`type` with the game and `token`).
    pub fn seat_msg(&self, kind: &str, token: &str) -> Value {
        json!({"v": 1, "type": kind, "game": self.game, "token": token})
    }
}

/// A move request.
pub fn move_msg(game: &str, token: &str, mv: &str, ply: u64) -> Value {
    json!({"v": 1, "type": "move", "game": game, "token": token, "move": mv, "ply": ply})
}

/// An HTTP answer as the tests read it: the status, the headers (names in
/// lower case) and the body.
pub struct RawAnswer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// One HTTP/1.1 request, raw: `headers` are added to `Host`, and a body
/// is sent as JSON on any method but GET.
pub fn http_request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> RawAnswer {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(READ_TIMEOUT)).expect("timeout");
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if method != "GET" {
        text.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    text.push_str("\r\n");
    text.push_str(body);
    s.write_all(text.as_bytes()).expect("write");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let raw = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw.as_str(), ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    RawAnswer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// The password of the tests' accounts.
pub const PASSWORD: &str = "a good long password";

/// The session token an answer's `Set-Cookie` sets.
pub fn session_of(answer: &RawAnswer) -> String {
    let (_, cookie) = answer
        .headers
        .iter()
        .find(|(n, _)| n == "set-cookie")
        .unwrap_or_else(|| panic!("no Set-Cookie: {}", answer.body));
    let pair = cookie.split(';').next().expect("pair");
    pair.split_once('=').expect("name=value").1.to_string()
}

/// Signs `name` up on `addr` with [`PASSWORD`]: its session token.
pub fn sign_up(addr: &str, name: &str) -> String {
    let body = serde_json::json!({"username": name, "password": PASSWORD}).to_string();
    let answer = http_request(addr, "POST", "/api/account/signup", &[], &body);
    assert_eq!(answer.status, 201, "{}", answer.body);
    session_of(&answer)
}

/// Logs `name` in on `addr` with [`PASSWORD`]: a new session token.
pub fn log_in(addr: &str, name: &str) -> String {
    let body = serde_json::json!({"username": name, "password": PASSWORD}).to_string();
    let answer = http_request(addr, "POST", "/api/account/login", &[], &body);
    assert_eq!(answer.status, 200, "{}", answer.body);
    session_of(&answer)
}

/// The `Cookie` header's value for the session `token`.
pub fn session_cookie(token: &str) -> String {
    format!("hostage_session={token}")
}

/// `GET path` over plain HTTP/1.1: the status and the body.
pub fn http_get(addr: &str, path: &str) -> (u16, String) {
    let answer = http_request(addr, "GET", path, &[], "");
    (answer.status, answer.body)
}

/// A game's public state over HTTP, without the clocks (which run).
pub fn public_state(addr: &str, game: &str) -> Value {
    let (status, body) = http_get(addr, &format!("/api/games/{game}"));
    assert_eq!(status, 200, "{body}");
    let mut v: Value = serde_json::from_str(&body).expect("JSON");
    v["clocks"] = Value::Null;
    // Counts down too, while a first move is due.
    v["first_move_ms"] = Value::Null;
    v
}

/// Values of other JSON types than `value`'s, each to be refused where
/// `value` is documented (a text, a number, a boolean, an object).
pub fn wrong_values(value: &Value) -> Vec<Value> {
    let mut out = vec![Value::Null, json!([]), json!([value]), json!({"v": value})];
    match value {
        Value::String(_) => out.extend([json!(7), json!(1.5), json!(true)]),
        Value::Bool(_) => out.extend([json!("yes"), json!(1), json!(0)]),
        Value::Number(_) => out.extend([json!("1"), json!(true), json!(-1.5)]),
        _ => out.extend([json!("x"), json!(1)]),
    }
    out
}

/// Bodies that are not the documented JSON object `example` (an object of
/// the endpoint's keys, each valid): not JSON, not an object, the fields
/// as an array in order, each key twice, each field missing or of another
/// type, an unknown key, and a body too long for any endpoint. The one
/// table of hostile bodies of the HTTP endpoints' tests.
pub fn hostile_bodies(example: &Value) -> Vec<String> {
    let fields = example.as_object().expect("an example object");
    let mut out: Vec<String> = ["", " ", "not json", "{", "[]", "null", "7", "\"text\""]
        .map(String::from)
        .to_vec();
    out.push(Value::Array(fields.values().cloned().collect()).to_string());
    out.push(json!([example]).to_string());
    for (key, value) in fields {
        let inner = example.to_string();
        let inner = &inner[1..inner.len() - 1];
        out.push(format!("{{{inner}, {}: {value}}}", json!(key)));
        let mut missing = fields.clone();
        missing.remove(key);
        out.push(Value::Object(missing).to_string());
        for wrong in wrong_values(value) {
            let mut changed = fields.clone();
            changed.insert(key.clone(), wrong);
            out.push(Value::Object(changed).to_string());
        }
    }
    let mut unknown = fields.clone();
    unknown.insert("admin".into(), json!(true));
    out.push(Value::Object(unknown).to_string());
    let mut huge = fields.clone();
    huge.insert("pad".into(), json!("y".repeat(20_000)));
    out.push(Value::Object(huge).to_string());
    out
}
