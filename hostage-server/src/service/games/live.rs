//! "Watch": the games being played now, as `GET /api/games/live` lists
//! them (`http.rs`), from the store, so that every server of a shared
//! store lists the same games. A spectator follows one with `watch`.

use serde_json::{json, Value};

use super::{storage_error, Hub};
use crate::{
    domain::refusal::ProtoError,
    store::live::{LiveGame, MAX_LIVE_GAMES},
    wire::protocol::time_control::TimeControl,
};

impl Hub {
    /// The games being played now (both seats taken, not ended), the last
    /// changed first, at most [`MAX_LIVE_GAMES`], as JSON (`docs/protocol.md`,
    /// Watching).
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn live_games(&self) -> Result<Value, ProtoError> {
        let games = self
            .store
            .live_games(MAX_LIVE_GAMES)
            .await
            .map_err(|e| storage_error(&e))?;
        let now_ms = crate::domain::time::now_ms();
        let games: Vec<Value> = games.iter().map(|g| view(g, now_ms)).collect();
        Ok(json!({"games": games, "limit": MAX_LIVE_GAMES}))
    }
}

/// One listed game as the endpoint shows it.
fn view(g: &LiveGame, now_ms: u64) -> Value {
    let left = g.timing.left(g.plies, true, g.updated_ms, now_ms);
    json!({
        "game": g.game,
        "white": g.names.white,
        "black": g.names.black,
        "plies": g.plies,
        "turn": if g.plies % 2 == 0 { "white" } else { "black" },
        "clock": TimeControl::of(g.timing.clock, g.timing.days),
        "time_left_ms": left.map(|l| l.left_ms),
        "deadline_ms": left.and_then(|l| l.deadline_ms),
        "updated_ms": g.updated_ms,
        "created_ms": g.created_ms,
        "link": format!("/?game={}", g.game),
    })
}
