//! The HTTP side: the WebSocket upgrade, the JSON and PGN read-outs of a
//! game, the health check, and the app's static files.
//!
//! Policy: games change only over the socket; the account endpoints
//! (`account_http.rs`) are the only requests that change anything, and a
//! WebSocket upgrade or a state-changing request from another origin is
//! refused first (`origin.rs`). The socket learns its account from the
//! session cookie of its upgrade request.
//! Errors are JSON `{"code", "message"}` with the protocol's codes. A path
//! longer than [`MAX_PATH_BYTES`] is 414 and a path with a segment longer
//! than [`MAX_SEGMENT_BYTES`] is 404, before any route or file look-up. The
//! app's files are compressed (brotli or gzip, as the client accepts) and
//! carry `Cache-Control:` [`STATIC_CACHE`] (`no-cache`): the app's modules
//! have no content hash in their names, so a `max-age` could pair a new
//! `index.html` with stale modules after a deploy; each use revalidates
//! instead (`Last-Modified`, answered 304 when unchanged).
//! WebSocket upgrades take a place under the connection caps (`caps.rs`):
//! 429 past the cap of one address, 503 past the total.

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use axum::{
    extract::{ConnectInfo, Path, Request, State, WebSocketUpgrade},
    http::{header, HeaderValue, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use tower_http::{compression::CompressionLayer, services::ServeDir};

use crate::{
    account_http,
    caps::{ConnCaps, Refused},
    origin::{check_origin, OriginPolicy},
    pgn_site::site_of,
    service::accounts::Accounts,
    service::games::Hub,
    service::limits::ServerLimits,
    wire::protocol::{ErrorCode, ProtoError, SUPPORTED_VERSIONS},
};

/// The longest request path answered (bytes, as sent).
pub const MAX_PATH_BYTES: usize = 2048;
/// The longest path segment answered (bytes, as sent): longer than any
/// file name the system allows.
pub const MAX_SEGMENT_BYTES: usize = 255;
/// `Cache-Control` of the app's files: kept, but revalidated on each use.
pub const STATIC_CACHE: &str = "no-cache";
/// The largest frame the WebSocket layer reads before closing: frames over
/// `MAX_FRAME_BYTES` up to this are read and answered with close 1009;
/// larger ones are cut off at once (with close 1009 if the socket allows).
const WS_READ_CAPACITY: usize = 1 << 20;
/// The WebSocket read buffer a connection starts with (it grows for a
/// larger frame). The library's default, 128 KiB, is zeroed again before
/// each read: with messages of a few hundred bytes that zeroing showed in
/// a profile of the load benchmark (`docs/server.md`), and 128 KiB a
/// connection is memory an idle spectator does not need.
const WS_READ_BUFFER: usize = 4 << 10;

/// What the routes share.
#[derive(Clone)]
pub struct AppState {
    /// The game service.
    pub hub: Arc<Hub>,
    /// The lobby.
    pub lobby: Arc<crate::service::lobby::Lobby>,
    /// The connection caps.
    pub caps: Arc<ConnCaps>,
    /// The limits in force.
    pub limits: ServerLimits,
    /// The account service (`None`: this server keeps no accounts).
    pub accounts: Option<Arc<Accounts>>,
}

/// The routes of `docs/protocol.md` (HTTP); static files from `static_dir`.
pub fn router(state: AppState, static_dir: Option<PathBuf>) -> Router {
    let policy = state
        .accounts
        .as_ref()
        .map(|a| OriginPolicy::of(a.options()))
        .unwrap_or_default();
    let router = Router::new()
        .merge(account_http::routes(state.accounts.clone()))
        .merge(crate::puzzle_http::routes(state.accounts.clone()))
        .merge(crate::players_http::routes(
            Arc::clone(&state.hub),
            state.accounts.clone(),
        ))
        .route("/ws", get(upgrade))
        .route("/api/health", get(health))
        .route("/api/games/live", get(live_games))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/pgn", get(game_pgn));
    let router = match static_dir {
        Some(dir) => {
            let files = Router::new()
                .fallback_service(ServeDir::new(dir))
                .layer(middleware::from_fn(cache_control))
                .layer(CompressionLayer::new().gzip(true).br(true));
            router.fallback_service(files)
        }
        None => router.fallback(|| async { (StatusCode::NOT_FOUND, "no app directory is served") }),
    };
    router
        .layer(middleware::from_fn_with_state(policy, check_origin))
        .layer(middleware::from_fn(path_limits))
        .with_state(state)
}

/// 414 for a path over [`MAX_PATH_BYTES`], 404 for a segment over
/// [`MAX_SEGMENT_BYTES`] (the file system would refuse the name: never a 500).
async fn path_limits(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    if path.len() > MAX_PATH_BYTES {
        return (StatusCode::URI_TOO_LONG, "path too long").into_response();
    }
    if path.split('/').any(|s| s.len() > MAX_SEGMENT_BYTES) {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    next.run(request).await
}

/// `Cache-Control` on the app's files.
async fn cache_control(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static(STATIC_CACHE),
        );
    }
    response
}

/// The account of the request's session cookie, as the game service
/// sees it; none without a cookie, with an ended session, or when the
/// look-up fails (the connection then plays as a guest).
async fn seat_owner(
    state: &AppState,
    headers: &axum::http::HeaderMap,
) -> Option<Arc<crate::domain::account::SeatOwner>> {
    let accounts = state.accounts.as_ref()?;
    let token = account_http::session_token(headers)?;
    let account = accounts.session(&token).await.ok()??;
    Accounts::seat_owner(&account).map(Arc::new)
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
) -> Response {
    let account = seat_owner(&state, &headers).await;
    let place = match state.caps.take(peer.ip()) {
        Ok(place) => place,
        Err(Refused::PerAddress) => {
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, "5")],
                "too many open connections from this address",
            )
                .into_response()
        }
        Err(Refused::Total) => {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "5")],
                "too many open connections",
            )
                .into_response()
        }
    };
    let (hub, limits) = (state.hub, state.limits);
    let member = state.lobby.member(peer.ip());
    let lobby = state.lobby;
    ws.max_message_size(WS_READ_CAPACITY)
        .max_frame_size(WS_READ_CAPACITY)
        .read_buffer_size(WS_READ_BUFFER)
        .on_upgrade(move |socket| {
            crate::ws::serve(
                socket,
                hub,
                limits,
                place,
                crate::ws::InLobby { lobby, member },
                account,
            )
        })
}

async fn health(State(AppState { hub, .. }): State<AppState>) -> Response {
    Json(serde_json::json!({
        "status": "ok",
        "server": concat!("hostage/", env!("CARGO_PKG_VERSION")),
        "protocol": SUPPORTED_VERSIONS,
        "games": hub.games_loaded(),
    }))
    .into_response()
}

pub(crate) fn error_response(e: &ProtoError) -> Response {
    let status = match e.code {
        ErrorCode::GameNotFound => StatusCode::NOT_FOUND,
        ErrorCode::StorageFailed => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    (status, Json(e.clone())).into_response()
}

/// `GET /api/games/live`: the games being played now (`service/games/live.rs`).
async fn live_games(State(AppState { hub, .. }): State<AppState>) -> Response {
    match hub.live_games().await {
        Ok(list) => Json(list).into_response(),
        Err(e) => error_response(&e),
    }
}

async fn game_state(
    Path(id): Path<String>,
    State(AppState { hub, .. }): State<AppState>,
) -> Response {
    match hub.snapshot(&id).await {
        Ok((state, _)) => Json(state).into_response(),
        Err(e) => error_response(&e),
    }
}

async fn game_pgn(
    Path(id): Path<String>,
    State(AppState { hub, .. }): State<AppState>,
    headers: axum::http::HeaderMap,
) -> Response {
    match hub.snapshot_at(&id, site_of(&headers).as_deref()).await {
        Ok((state, pgn)) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"hostage-{}.pgn\"", state.game),
                ),
            ],
            pgn,
        )
            .into_response(),
        Err(e) => error_response(&e),
    }
}
