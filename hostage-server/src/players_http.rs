//! The players' public pages (`docs/protocol.md`, Players): read-only
//! JSON, and a player's games as one PGN, streamed.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /api/players/{name}` | 200 `{"username", "closed", "created_ms", "ratings": {category: {"rating", "deviation", "provisional", "games"}}}` |
//! | `GET /api/players/{name}/history` | 200 `{"history": {category: [{"at_ms", "rating"}]}}` |
//! | `GET /api/players/{name}/games?before=&limit=` | 200 `{"games": [...], "next_before"}`, newest first |
//! | `GET /api/players/{name}/games.pgn` | 200 every finished game, one PGN text, streamed |
//! | `GET /api/leaderboard/{category}` | 200 `{"category", "min_games", "players": [...]}` |
//!
//! Errors are `{"code", "message"}`: 404 `player_not_found` (also when
//! the server keeps no accounts), 404 `category_not_found`, 400
//! `invalid_query` (a query parameter unknown, doubled, not a number, or
//! out of bounds), 503 `storage_failed`. Ratings are rounded to whole
//! points; a rating is provisional while its deviation is 110 or more.

use std::sync::Arc;

use axum::{
    body::Body,
    extract::{rejection::PathRejection, Path, RawQuery, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use hostage_core::Color;
use serde_json::{json, Map, Value};

use crate::{
    domain::rating::category::Category,
    domain::rating::instant::{Perf, LICHESS},
    domain::time::now_ms,
    pgn_site::site_of,
    service::accounts::Accounts,
    service::games::Hub,
    store::accounts::AccountRecord,
    store::ratings::{PlayerGame, RatingStore},
    store::StoreError,
    wire::protocol::ratings_wire::{rounded, shown},
};

/// The most games one `games` page lists.
pub const MAX_GAMES_PAGE: u32 = 100;
/// The games a `games` page lists when `limit` is not given.
pub const DEFAULT_GAMES_PAGE: u32 = 20;
/// The rated games in a category a player needs to be on its leaderboard
/// (and a rating that is not provisional).
pub const LEADERBOARD_MIN_GAMES: u32 = 10;
/// The players a leaderboard lists.
pub const LEADERBOARD_SIZE: u32 = 50;
/// The games the PGN stream reads from the store at a time.
const PGN_PAGE: u32 = 50;

/// What the players' routes share: the game service (its ratings store)
/// and the account service (`None`: this server keeps no accounts).
#[derive(Clone)]
struct Players {
    hub: Arc<Hub>,
    accounts: Option<Arc<Accounts>>,
}

/// The players' routes, on `hub` and `accounts`.
pub fn routes<S: Clone + Send + Sync + 'static>(
    hub: Arc<Hub>,
    accounts: Option<Arc<Accounts>>,
) -> Router<S> {
    Router::new()
        .route("/api/players/{name}", get(player))
        .route("/api/players/{name}/history", get(history))
        .route("/api/players/{name}/games", get(games))
        .route("/api/players/{name}/games.pgn", get(games_pgn))
        .route("/api/leaderboard/{category}", get(leaderboard))
        .with_state(Players { hub, accounts })
}

fn refused(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({"code": code, "message": message}))).into_response()
}

fn not_found() -> Response {
    refused(
        StatusCode::NOT_FOUND,
        "player_not_found",
        "no player with this name",
    )
}

fn storage(e: &StoreError) -> Response {
    tracing::warn!(error = %e, "a player's page was not read");
    refused(
        StatusCode::SERVICE_UNAVAILABLE,
        "storage_failed",
        "the database could not be read; try again",
    )
}

/// A path's `{name}` or `{category}`: one that cannot be read (not
/// UTF-8 once percent-decoded) names nobody, and gets `missing`.
#[allow(clippy::result_large_err)] // the refusal is the request's answer, made once
fn segment(
    path: Result<Path<String>, PathRejection>,
    missing: fn() -> Response,
) -> Result<String, Response> {
    path.map(|Path(s)| s).map_err(|_| missing())
}

fn no_category() -> Response {
    refused(
        StatusCode::NOT_FOUND,
        "category_not_found",
        "the categories are ultrabullet, bullet, blitz, rapid, classical, correspondence",
    )
}

/// The account named in `path` and the ratings store, or the response.
async fn found(
    state: &Players,
    path: Result<Path<String>, PathRejection>,
) -> Result<(AccountRecord, Arc<Hub>), Response> {
    let name = segment(path, not_found)?;
    let name = name.as_str();
    let Some(accounts) = state.accounts.as_ref() else {
        return Err(not_found());
    };
    if state.hub.rating_store().is_none() {
        return Err(not_found());
    }
    match accounts.find(name).await {
        Ok(Some(account)) => Ok((account, Arc::clone(&state.hub))),
        Ok(None) => Err(not_found()),
        Err(e) => Err(crate::account_http::refusal_response(&e)),
    }
}

#[allow(clippy::result_large_err)] // the refusal is the request's answer, made once
fn ratings_of(hub: &Hub) -> Result<&dyn RatingStore, Response> {
    hub.rating_store().ok_or_else(not_found)
}

fn perf_json(perf: &Perf, now: u64) -> Value {
    let seen = shown(perf, now);
    json!({
        "rating": seen.rating,
        "deviation": rounded(perf.deviation_at(now, &LICHESS)),
        "provisional": seen.provisional,
        "games": perf.games,
    })
}

async fn player(
    name: Result<Path<String>, PathRejection>,
    State(state): State<Players>,
) -> Response {
    let (account, hub) = match found(&state, name).await {
        Ok(found) => found,
        Err(r) => return r,
    };
    let ratings = match ratings_of(&hub) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let perfs = match ratings.perfs(&account.id).await {
        Ok(p) => p,
        Err(e) => return storage(&e),
    };
    let now = now_ms();
    let mut by_category = Map::new();
    for (category, perf) in &perfs {
        by_category.insert(category.name().to_string(), perf_json(perf, now));
    }
    Json(json!({
        "username": account.username,
        "closed": account.closed_ms.is_some(),
        "created_ms": account.created_ms,
        "ratings": by_category,
    }))
    .into_response()
}

async fn history(
    name: Result<Path<String>, PathRejection>,
    State(state): State<Players>,
) -> Response {
    let (account, hub) = match found(&state, name).await {
        Ok(found) => found,
        Err(r) => return r,
    };
    let ratings = match ratings_of(&hub) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let points = match ratings.history(&account.id).await {
        Ok(p) => p,
        Err(e) => return storage(&e),
    };
    let mut by_category = Map::new();
    for point in points {
        let list = by_category
            .entry(point.category.name().to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(json!({"at_ms": point.at_ms, "rating": rounded(point.rating)}));
        }
    }
    Json(json!({ "history": by_category })).into_response()
}

/// `before` and `limit` of a games query: each at most once, decimal,
/// `limit` 1..=[`MAX_GAMES_PAGE`], `before` at least 1.
#[allow(clippy::result_large_err)] // the refusal is the request's answer, made once
fn page_of(query: Option<&str>) -> Result<(u64, u32), Response> {
    let bad = |why: &str| refused(StatusCode::BAD_REQUEST, "invalid_query", why);
    let (mut before, mut limit) = (None, None);
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number =
            (!value.is_empty() && value.len() <= 20 && value.bytes().all(|b| b.is_ascii_digit()))
                .then(|| value.parse::<u64>().ok())
                .flatten();
        let slot = match key {
            "before" => &mut before,
            "limit" => &mut limit,
            _ => return Err(bad("the parameters are before and limit")),
        };
        if slot.is_some() {
            return Err(bad("a parameter is given twice"));
        }
        *slot = Some(number.ok_or_else(|| bad("a parameter is not a whole number"))?);
    }
    let limit = limit.unwrap_or(u64::from(DEFAULT_GAMES_PAGE));
    if !(1..=u64::from(MAX_GAMES_PAGE)).contains(&limit) {
        return Err(bad("limit is 1 to 100"));
    }
    let before = before.unwrap_or(u64::MAX);
    if before == 0 {
        return Err(bad("before is at least 1"));
    }
    Ok((before, u32::try_from(limit).unwrap_or(MAX_GAMES_PAGE)))
}

fn result_of(game: &PlayerGame) -> &'static str {
    match game.winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None if game.termination == "aborted" => "*",
        None => "1/2-1/2",
    }
}

fn game_json(game: &PlayerGame) -> Value {
    json!({
        "id": game.game,
        "color": game.side.name(),
        "opponent": game.opponent,
        "result": result_of(game),
        "termination": game.termination,
        "clock": game.clock,
        "rated": game.rated,
        "ended_ms": game.ended_ms,
    })
}

async fn games(
    name: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
    State(state): State<Players>,
) -> Response {
    let (before, limit) = match page_of(query.as_deref()) {
        Ok(page) => page,
        Err(r) => return r,
    };
    let (account, hub) = match found(&state, name).await {
        Ok(found) => found,
        Err(r) => return r,
    };
    let ratings = match ratings_of(&hub) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let list = match ratings.player_games(&account.id, before, limit).await {
        Ok(list) => list,
        Err(e) => return storage(&e),
    };
    // A full page may have more behind it: the next page ends before its last.
    let next = (list.len() == limit as usize)
        .then(|| list.last().map(|g| g.ended_ms))
        .flatten();
    let games: Vec<Value> = list.iter().map(game_json).collect();
    Json(json!({"games": games, "next_before": next})).into_response()
}

/// Where the PGN stream is: the games still to write, and the page after.
struct PgnCursor {
    hub: Arc<Hub>,
    account: String,
    site: Option<String>,
    before: u64,
    pending: std::collections::VecDeque<PlayerGame>,
    done: bool,
}

/// The next game's PGN text (with a blank line after it), or `None` at
/// the end. A read that fails ends the stream with an error (the client
/// sees a cut response, not a short list that looks whole).
async fn next_pgn(mut cursor: PgnCursor) -> Option<(Result<String, std::io::Error>, PgnCursor)> {
    loop {
        if let Some(game) = cursor.pending.pop_front() {
            let site = cursor.site.clone();
            match cursor.hub.archived_pgn(&game.game, site.as_deref()).await {
                Ok(Some(pgn)) => return Some((Ok(format!("{pgn}\n")), cursor)),
                Ok(None) => continue,
                Err(e) => {
                    cursor.done = true;
                    cursor.pending.clear();
                    return Some((Err(std::io::Error::other(e.message.clone())), cursor));
                }
            }
        }
        if cursor.done {
            return None;
        }
        let ratings = cursor.hub.rating_store()?;
        let page = ratings
            .player_games(&cursor.account, cursor.before, PGN_PAGE)
            .await;
        match page {
            Ok(page) => {
                cursor.done = page.len() < PGN_PAGE as usize;
                if let Some(last) = page.last() {
                    cursor.before = last.ended_ms;
                }
                cursor.pending.extend(page);
            }
            Err(e) => {
                cursor.done = true;
                return Some((Err(std::io::Error::other(e.to_string())), cursor));
            }
        }
    }
}

async fn games_pgn(
    name: Result<Path<String>, PathRejection>,
    State(state): State<Players>,
    headers: axum::http::HeaderMap,
) -> Response {
    let (account, hub) = match found(&state, name).await {
        Ok(found) => found,
        Err(r) => return r,
    };
    let cursor = PgnCursor {
        hub,
        account: account.id,
        site: site_of(&headers),
        before: u64::MAX,
        pending: std::collections::VecDeque::new(),
        done: false,
    };
    let stream = futures_util::stream::unfold(cursor, next_pgn);
    let file = format!("attachment; filename=\"hostage-{}.pgn\"", account.username);
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, file),
        ],
        Body::from_stream(stream),
    )
        .into_response()
}

async fn leaderboard(
    category: Result<Path<String>, PathRejection>,
    State(state): State<Players>,
) -> Response {
    let category = match segment(category, no_category) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Some(category) = Category::named(&category) else {
        return no_category();
    };
    let Some(ratings) = state.hub.rating_store() else {
        return Json(
            json!({"category": category.name(), "min_games": LEADERBOARD_MIN_GAMES,
            "players": []}),
        )
        .into_response();
    };
    // More than shown are read: a deviation grown since the last game makes
    // a rating provisional again, and such players are left out.
    let leaders = match ratings
        .leaders(category, LEADERBOARD_MIN_GAMES, LEADERBOARD_SIZE * 4)
        .await
    {
        Ok(l) => l,
        Err(e) => return storage(&e),
    };
    let now = now_ms();
    let players: Vec<Value> = leaders
        .iter()
        .filter(|(_, perf)| !perf.is_provisional_at(now, &LICHESS))
        .take(LEADERBOARD_SIZE as usize)
        .map(|(name, perf)| {
            let mut v = perf_json(perf, now);
            v["username"] = json!(name);
            v
        })
        .collect();
    Json(json!({
        "category": category.name(),
        "min_games": LEADERBOARD_MIN_GAMES,
        "players": players,
    }))
    .into_response()
}
