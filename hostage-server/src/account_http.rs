//! The account endpoints (`docs/protocol.md`, Accounts): JSON in, JSON
//! out, the session in a cookie.
//!
//! | route | body | answer |
//! | --- | --- | --- |
//! | `POST /api/account/signup` | `{"username", "password"}` | 201 `{"username"}`, a session cookie |
//! | `POST /api/account/login` | `{"username", "password"}` | 200 `{"username"}`, a session cookie |
//! | `POST /api/account/logout` | none | 200 `{"ok": true}`, the cookie cleared |
//! | `POST /api/account/logout-all` | none | 200 `{"ended": n}`, the cookie cleared |
//! | `POST /api/account/password` | `{"current_password", "new_password"}` | 200 `{"ok": true}`, other sessions ended |
//! | `POST /api/account/close` | `{"password"}` | 200 `{"closed": true}`, the cookie cleared |
//! | `GET /api/account/me` | | 200 `{"username", "created_ms"}` |
//! | `GET /api/account/games` | | 200 `{"games": [...]}`: the account's games that go on, my move first (least time left first), each with its time control and time left |
//!
//! Errors are `{"code", "message"}` (with `retry_after_s` and a
//! `Retry-After` header for `too_many_attempts`), as every error of the
//! server. A body is at most [`MAX_BODY_BYTES`], a JSON object with
//! exactly the keys named, each once, of the types named (anything else is
//! `invalid_request`, nothing changed: `json_body.rs`).
//! The cookie is [`COOKIE`]: `HttpOnly; SameSite=Lax; Path=/`, `Secure`
//! when the server is told it is behind TLS, `Max-Age` the session's life.

use std::{net::SocketAddr, sync::Arc};

use axum::{
    body::Bytes,
    extract::{rejection::BytesRejection, ConnectInfo, DefaultBodyLimit, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde_json::json;

use crate::{
    domain::account::{AccountError, AccountRefusal},
    json_body::parse,
    service::accounts::{Accounts, LoggedIn},
    store::accounts::AccountRecord,
    wire::protocol::time_control::TimeControl,
};

/// The session cookie's name.
pub const COOKIE: &str = "hostage_session";
/// The largest body an account endpoint reads, in bytes.
pub const MAX_BODY_BYTES: usize = 4096;

/// What the account routes share: the account service, if the server
/// keeps accounts.
pub(crate) type Shared = Option<Arc<Accounts>>;

/// The account routes, on `accounts`.
pub fn routes<S: Clone + Send + Sync + 'static>(accounts: Shared) -> Router<S> {
    Router::new()
        .route("/api/account/signup", post(sign_up))
        .route("/api/account/login", post(log_in))
        .route("/api/account/logout", post(log_out))
        .route("/api/account/logout-all", post(log_out_everywhere))
        .route("/api/account/password", post(change_password))
        .route("/api/account/close", post(close))
        .route("/api/account/me", get(me))
        .route("/api/account/games", get(games))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(accounts)
}

/// An account error as its response: the status of its code, the JSON.
#[must_use]
pub fn refusal_response(e: &AccountError) -> Response {
    let status = match e.refusal {
        AccountRefusal::InvalidUsername
        | AccountRefusal::InvalidPassword
        | AccountRefusal::InvalidRequest => StatusCode::BAD_REQUEST,
        AccountRefusal::UsernameTaken => StatusCode::CONFLICT,
        AccountRefusal::InvalidCredentials | AccountRefusal::NotLoggedIn => {
            StatusCode::UNAUTHORIZED
        }
        AccountRefusal::TooManyAttempts => StatusCode::TOO_MANY_REQUESTS,
        AccountRefusal::OriginRefused => StatusCode::FORBIDDEN,
        AccountRefusal::StorageFailed => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let mut body = json!({"code": e.code(), "message": e.message});
    let mut response = match e.retry_after_s {
        Some(s) => {
            body["retry_after_s"] = json!(s);
            (status, [(header::RETRY_AFTER, s.to_string())], Json(body)).into_response()
        }
        None => (status, Json(body)).into_response(),
    };
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The token of the request's session cookie, if it sends one.
#[must_use]
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_owned())
}

/// The `Set-Cookie` value of a session (`token`) or of its end (`None`).
fn cookie(accounts: &Accounts, token: Option<&str>) -> String {
    let secure = if accounts.options().behind_tls {
        "; Secure"
    } else {
        ""
    };
    let (value, max_age) = match token {
        Some(token) => (token, accounts.options().session_ms / 1000),
        None => ("", 0),
    };
    format!("{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}")
}

/// `body` with `value` and the cookie `set`.
fn with_cookie(status: StatusCode, set: String, value: serde_json::Value) -> Response {
    let mut response = (status, Json(value)).into_response();
    if let Ok(set) = HeaderValue::from_str(&set) {
        response.headers_mut().insert(header::SET_COOKIE, set);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn service(state: &Shared) -> Result<&Arc<Accounts>, AccountError> {
    state.as_ref().ok_or_else(|| {
        AccountError::new(
            AccountRefusal::StorageFailed,
            "this server keeps no accounts",
        )
    })
}

/// A username and a password.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    username: String,
    password: String,
}

/// The current and the new password.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPassword {
    current_password: String,
    new_password: String,
}

/// The password, to close the account.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Closing {
    password: String,
}

pub(crate) fn answer(result: Result<Response, AccountError>) -> Response {
    result.unwrap_or_else(|e| refusal_response(&e))
}

fn logged_in(accounts: &Accounts, status: StatusCode, session: &LoggedIn) -> Response {
    with_cookie(
        status,
        cookie(accounts, Some(&session.token)),
        json!({"username": session.account.username}),
    )
}

async fn sign_up(
    State(state): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(
        async {
            let accounts = service(&state)?;
            let c: Credentials = parse(body)?;
            let session = accounts
                .sign_up(&c.username, &c.password, &peer.ip().to_string())
                .await?;
            Ok(logged_in(accounts, StatusCode::CREATED, &session))
        }
        .await,
    )
}

async fn log_in(
    State(state): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(
        async {
            let accounts = service(&state)?;
            let c: Credentials = parse(body)?;
            let session = accounts
                .log_in(&c.username, &c.password, &peer.ip().to_string())
                .await?;
            Ok(logged_in(accounts, StatusCode::OK, &session))
        }
        .await,
    )
}

/// The service, the session's token and its account, or `not_logged_in`.
pub(crate) async fn session<'a>(
    state: &'a Shared,
    headers: &HeaderMap,
) -> Result<(&'a Arc<Accounts>, String, AccountRecord), AccountError> {
    let accounts = service(state)?;
    let token = session_token(headers).ok_or_else(AccountError::not_logged_in)?;
    let account = accounts
        .session(&token)
        .await?
        .ok_or_else(AccountError::not_logged_in)?;
    Ok((accounts, token, account))
}

async fn log_out(State(state): State<Shared>, headers: HeaderMap) -> Response {
    answer(
        async {
            let (accounts, token, _) = session(&state, &headers).await?;
            accounts.log_out(&token).await?;
            Ok(with_cookie(
                StatusCode::OK,
                cookie(accounts, None),
                json!({"ok": true}),
            ))
        }
        .await,
    )
}

async fn log_out_everywhere(State(state): State<Shared>, headers: HeaderMap) -> Response {
    answer(
        async {
            let (accounts, _, account) = session(&state, &headers).await?;
            let ended = accounts.log_out_everywhere(&account).await?;
            Ok(with_cookie(
                StatusCode::OK,
                cookie(accounts, None),
                json!({"ended": ended}),
            ))
        }
        .await,
    )
}

async fn change_password(
    State(state): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(
        async {
            let (accounts, token, account) = session(&state, &headers).await?;
            let p: NewPassword = parse(body)?;
            let address = peer.ip().to_string();
            accounts
                .change_password(
                    &account,
                    &token,
                    &p.current_password,
                    &p.new_password,
                    &address,
                )
                .await?;
            Ok(with_cookie(
                StatusCode::OK,
                cookie(accounts, Some(&token)),
                json!({"ok": true}),
            ))
        }
        .await,
    )
}

async fn close(
    State(state): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(
        async {
            let (accounts, _, account) = session(&state, &headers).await?;
            let c: Closing = parse(body)?;
            accounts
                .close(&account, &c.password, &peer.ip().to_string())
                .await?;
            Ok(with_cookie(
                StatusCode::OK,
                cookie(accounts, None),
                json!({"closed": true}),
            ))
        }
        .await,
    )
}

async fn me(State(state): State<Shared>, headers: HeaderMap) -> Response {
    answer(
        async {
            let (_, _, account) = session(&state, &headers).await?;
            Ok(Json(json!({
                "username": account.username,
                "created_ms": account.created_ms,
            }))
            .into_response())
        }
        .await,
    )
}

async fn games(State(state): State<Shared>, headers: HeaderMap) -> Response {
    answer(
        async {
            let (accounts, _, account) = session(&state, &headers).await?;
            let now_ms = crate::domain::time::now_ms();
            let mut games: Vec<_> = accounts
                .ongoing_games(&account)
                .await?
                .into_iter()
                .map(|g| {
                    let to_move = if g.plies % 2 == 0 { "white" } else { "black" };
                    let your_move = g.started && to_move == g.side.name();
                    let left = g.timing.left(g.plies, g.started, g.updated_ms, now_ms);
                    let view = json!({
                        "game": g.game,
                        "color": g.side.name(),
                        "plies": g.plies,
                        "started": g.started,
                        "your_move": your_move,
                        "opponent": g.opponent,
                        "updated_ms": g.updated_ms,
                        "link": format!("/?game={}", g.game),
                        "clock": TimeControl::of(g.timing.clock, g.timing.days),
                        "time_left_ms": left.map(|l| l.left_ms),
                        "deadline_ms": left.and_then(|l| l.deadline_ms),
                    });
                    (urgency(your_move, left.map(|l| l.left_ms)), view)
                })
                .collect();
            // Stable: the store's order (last changed first) within a rank.
            games.sort_by_key(|(rank, _)| *rank);
            let games: Vec<_> = games.into_iter().map(|(_, view)| view).collect();
            Ok(Json(json!({"games": games})).into_response())
        }
        .await,
    )
}

/// Where a game stands in "your games": those where it is my move first,
/// the least time left first (a game without a time limit after those
/// with one), then the others.
fn urgency(your_move: bool, left_ms: Option<u64>) -> (bool, bool, u64) {
    if your_move {
        (false, left_ms.is_none(), left_ms.unwrap_or(0))
    } else {
        (true, false, 0)
    }
}
