//! The games being played now, as the store lists them (`GET
//! /api/games/live`): one read of the games table, shared by the SQL
//! stores (`columns.rs`, `live_games_sql`), so a list is the
//! same on every server of a shared store.

use hostage_core::ByColor;

use crate::domain::timing::GameTiming;

/// The most games one list holds.
pub const MAX_LIVE_GAMES: u32 = 50;

/// A game being played: both seats taken, not ended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LiveGame {
    /// The game's id.
    pub game: String,
    /// Each seat's display name, if given.
    pub names: ByColor<Option<String>>,
    /// Moves played so far.
    pub plies: u64,
    /// The game's last change, milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// When it was created, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Its time control and stored time.
    pub timing: GameTiming,
}

impl LiveGame {
    /// A listed game from its columns: id, names, plies, last change,
    /// creation, time.
    #[must_use]
    pub fn new(
        game: String,
        names: ByColor<Option<String>>,
        (plies, updated_ms, created_ms): (u64, u64, u64),
        timing: GameTiming,
    ) -> LiveGame {
        LiveGame {
            game,
            names,
            plies,
            updated_ms,
            created_ms,
            timing,
        }
    }
}
