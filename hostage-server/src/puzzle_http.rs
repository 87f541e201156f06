//! The puzzle endpoints of an account (`docs/protocol.md`, Puzzles of an
//! account): the session cookie and the origin policy as for every
//! account endpoint (`account_http.rs`, `origin.rs`).
//!
//! | route | body | answer |
//! | --- | --- | --- |
//! | `GET /api/account/puzzles` | | 200 `{"rating", "provisional", "seen", "history"}` |
//! | `POST /api/account/puzzles/attempts` | `{"id", "solved"}` | 201 the attempt, rated (the first at this puzzle) or not, stored |
//!
//! A body is at most [`MAX_BODY_BYTES`], a JSON object with exactly these
//! keys and types (`invalid_request` otherwise, nothing stored).

use axum::{
    body::Bytes,
    extract::{rejection::BytesRejection, DefaultBodyLimit, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde_json::{json, Value};

use crate::{
    account_http::{answer, refusal_response, session, Shared},
    domain::puzzles::{is_provisional, PuzzleError, PuzzleRefusal, Rating},
    json_body::parse,
    service::puzzles::{AttemptError, PuzzleStanding},
};

/// The largest body the attempt endpoint reads, in bytes.
pub const MAX_BODY_BYTES: usize = 1024;

/// The puzzle routes, on the account service.
pub fn routes<S: Clone + Send + Sync + 'static>(accounts: Shared) -> Router<S> {
    Router::new()
        .route("/api/account/puzzles", get(standing))
        .route("/api/account/puzzles/attempts", post(attempt))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(accounts)
}

/// An attempt as posted.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Attempt {
    id: String,
    solved: bool,
}

fn rating_json(r: Rating) -> Value {
    json!({"rating": r.rating, "deviation": r.deviation, "volatility": r.volatility})
}

fn standing_json(s: &PuzzleStanding) -> Value {
    let history: Vec<Value> = s
        .history
        .iter()
        .map(|a| {
            json!({
                "id": a.puzzle,
                "solved": a.solved,
                "rated": a.rated,
                "at_ms": a.at_ms,
                "rating": a.rating_after,
            })
        })
        .collect();
    json!({
        "rating": rating_json(s.rating),
        "provisional": is_provisional(s.rating),
        "seen": s.seen,
        "history": history,
    })
}

/// A puzzle error as its response: 404 `unknown_puzzle`, 409
/// `attempt_limit`.
fn puzzle_refusal(e: &PuzzleError) -> Response {
    let status = match e.refusal {
        PuzzleRefusal::UnknownPuzzle => StatusCode::NOT_FOUND,
        PuzzleRefusal::AttemptLimit => StatusCode::CONFLICT,
    };
    no_store(
        (
            status,
            Json(json!({"code": e.code(), "message": e.message})),
        )
            .into_response(),
    )
}

fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn standing(State(state): State<Shared>, headers: HeaderMap) -> Response {
    answer(
        async {
            let (accounts, _, account) = session(&state, &headers).await?;
            let standing = accounts.puzzle_standing(&account).await?;
            Ok(no_store(Json(standing_json(&standing)).into_response()))
        }
        .await,
    )
}

async fn attempt(
    State(state): State<Shared>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let result = async {
        let (accounts, _, account) = session(&state, &headers).await?;
        let a: Attempt = parse(body)?;
        let stored = accounts.record_attempt(&account, &a.id, a.solved).await?;
        let o = stored.outcome;
        Ok::<_, AttemptError>(no_store(
            (
                StatusCode::CREATED,
                Json(json!({
                    "id": a.id,
                    "solved": a.solved,
                    "rated": o.rated,
                    "seq": stored.seq,
                    "before": rating_json(o.before),
                    "rating": rating_json(o.after),
                    "provisional": is_provisional(o.after),
                    "puzzle": rating_json(stored.puzzle),
                })),
            )
                .into_response(),
        ))
    }
    .await;
    match result {
        Ok(response) => response,
        Err(AttemptError::Account(e)) => refusal_response(&e),
        Err(AttemptError::Puzzle(e)) => puzzle_refusal(&e),
    }
}
