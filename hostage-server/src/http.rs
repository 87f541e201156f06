//! The HTTP side: the WebSocket upgrade, the JSON and PGN read-outs of a
//! game, the health check, and the app's static files.
//!
//! Policy: everything here is read-only; games change only over the socket.
//! Errors are JSON `{"code", "message"}` with the protocol's codes.

use std::{path::PathBuf, sync::Arc};

use axum::{
    extract::{Path, State, WebSocketUpgrade},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use tower_http::services::ServeDir;

use crate::{
    games::Hub,
    protocol::{ErrorCode, ProtoError, MAX_FRAME_BYTES, SUPPORTED_VERSIONS},
};

/// The routes of `docs/protocol.md` (HTTP); static files from `static_dir`.
pub fn router(hub: Arc<Hub>, static_dir: Option<PathBuf>) -> Router {
    let router = Router::new()
        .route("/ws", get(upgrade))
        .route("/api/health", get(health))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/pgn", get(game_pgn));
    let router = match static_dir {
        Some(dir) => router.fallback_service(ServeDir::new(dir)),
        None => router.fallback(|| async { (StatusCode::NOT_FOUND, "no app directory is served") }),
    };
    router.with_state(hub)
}

async fn upgrade(ws: WebSocketUpgrade, State(hub): State<Arc<Hub>>) -> Response {
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| crate::ws::serve(socket, hub))
}

async fn health(State(hub): State<Arc<Hub>>) -> Response {
    Json(serde_json::json!({
        "status": "ok",
        "server": concat!("hostage/", env!("CARGO_PKG_VERSION")),
        "protocol": SUPPORTED_VERSIONS,
        "games": hub.games_loaded(),
    }))
    .into_response()
}

fn error_response(e: &ProtoError) -> Response {
    let status = match e.code {
        ErrorCode::GameNotFound => StatusCode::NOT_FOUND,
        ErrorCode::StorageFailed => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    (status, Json(e.clone())).into_response()
}

async fn game_state(Path(id): Path<String>, State(hub): State<Arc<Hub>>) -> Response {
    match hub.snapshot(&id).await {
        Ok((state, _)) => Json(state).into_response(),
        Err(e) => error_response(&e),
    }
}

async fn game_pgn(Path(id): Path<String>, State(hub): State<Arc<Hub>>) -> Response {
    match hub.snapshot(&id).await {
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
