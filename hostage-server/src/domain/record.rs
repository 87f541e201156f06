//! The record of a game: what is kept of it (its creation, its moves,
//! clocks, offers, ending, names and chat) and the game as a decision saw
//! it ([`Seen`]). The room is put back from a record (`room/restore.rs`,
//! `room/tail.rs`); the store keeps records (`store/`), as rows of its own.

use hostage_core::{ByColor, Color};

use crate::domain::{
    chat::ChatLine, correspondence::Days, names::DisplayName, ClockSpec, End, SeatDevices,
    SeatHashes, TokenHash,
};

/// A stored move as a shared store announces it: the `Write::Move` of the store and
/// the game's mark of takebacks when it was stored. A move changes only
/// its own row and, in the game's row, the clocks, the ending and the
/// standing offers (both cleared), so a room that knew the game just
/// before it, at that mark, knows the game just after it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnnouncedMove {
    /// The move's ply (0 is White's first).
    pub ply: u64,
    /// Long form.
    pub uci: String,
    /// The clocks after the move.
    pub clocks: StoredClocks,
    /// Wall-clock time of the move, milliseconds since the Unix epoch (the
    /// game's `updated_ms` after it).
    pub at_ms: u64,
    /// The ending this move brought, if any.
    pub end: Option<End>,
    /// The opponent's deadline this move set, milliseconds since the Unix
    /// epoch (a correspondence game that goes on).
    pub deadline_ms: Option<u64>,
    /// The game's mark of takebacks ([`StoredGame::takebacks`]).
    pub takebacks: u64,
}

/// Each side's remaining time in milliseconds, for a timed game.
pub type StoredClocks = Option<ByColor<u64>>;

/// The game as the server deciding a change saw it: the change is stored
/// only if the stored game is still at this ply with this standing offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The number of moves played.
    pub ply: u64,
    /// The draw offer standing.
    pub draw_offer: Option<Color>,
}

/// A game as created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Game id.
    pub id: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// The start position.
    pub start_fen: String,
    /// The time control.
    pub clock: Option<ClockSpec>,
    /// Days per move, for a correspondence game (then `clock` is `None`).
    pub days: Option<Days>,
    /// The creator's seat.
    pub seat: Color,
    /// The creator's token's digest.
    pub token: TokenHash,
    /// The creator's display name, if given.
    pub name: Option<DisplayName>,
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// Its ply.
    pub ply: u64,
    /// Long form.
    pub uci: String,
    /// The clocks after it.
    pub clocks: StoredClocks,
    /// When it was stored, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The opponent's deadline it set (a correspondence game).
    pub deadline_ms: Option<u64>,
}

/// A whole stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredGame {
    /// Game id.
    pub id: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// The start position.
    pub start_fen: String,
    /// The time control.
    pub clock: Option<ClockSpec>,
    /// Days per move, for a correspondence game.
    pub days: Option<Days>,
    /// The deadline of the side to move in a correspondence game,
    /// milliseconds since the Unix epoch (set by the last move, or by the
    /// seat that started the game, or by a takeback).
    pub deadline_ms: Option<u64>,
    /// Each seat's token digest, if taken.
    pub tokens: SeatHashes,
    /// Each seat's further token digests, oldest first (an account's
    /// devices).
    pub devices: SeatDevices,
    /// The clocks at the last stored event.
    pub clocks: StoredClocks,
    /// A standing draw offer.
    pub draw_offer: Option<Color>,
    /// A standing takeback request, by the side asking.
    pub takeback: Option<Color>,
    /// How the game ended, if it has.
    pub end: Option<End>,
    /// The moves, by ply.
    pub moves: Vec<StoredMove>,
    /// The rematch's id, once one was asked for.
    pub rematch: Option<String>,
    /// When the last change was stored, milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// Each seat's display name, if given.
    pub names: ByColor<Option<DisplayName>>,
    /// The game's chat, by index.
    pub chat: Vec<ChatLine>,
    /// How many takebacks were accepted in the game: the mark of takebacks.
    /// Moves are otherwise only added at the next ply, so a server whose
    /// room knows the game at this mark knows the stored moves up to its
    /// own ply and may read only the moves after them
    /// ([`Store::load_since`](crate::store::Store::load_since)).
    pub takebacks: u64,
}

/// A game's row with only the end of its moves and chat
/// ([`Store::load_since`](crate::store::Store::load_since)): to bring a room that knows the game up to date
/// without reading the moves and lines it knows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredTail {
    /// The game as [`Store::load`](crate::store::Store::load) reads it, but its `moves` only those
    /// from ply `from_ply` on and its `chat` only the lines from index
    /// `from_chat` on.
    pub game: StoredGame,
    /// The first ply read.
    pub from_ply: u64,
    /// The first chat index read.
    pub from_chat: u64,
}

impl StoredTail {
    /// The tail of a whole game: its moves from ply `from_ply` on and its
    /// chat lines from index `from_chat` on (as a store without a read of
    /// its own gives it).
    #[must_use]
    pub fn of(mut game: StoredGame, from_ply: u64, from_chat: u64) -> StoredTail {
        game.moves.retain(|m| m.ply >= from_ply);
        game.chat.retain(|l| l.index >= from_chat);
        StoredTail {
            game,
            from_ply,
            from_chat,
        }
    }
}
