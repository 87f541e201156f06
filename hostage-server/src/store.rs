//! Persistence: the [`Store`] trait, the records it keeps, and nothing else.
//!
//! Policy: **write-ahead**. The game service hands every change to
//! [`Store::write`] and waits for it to return `Ok` before it changes the game
//! in memory or tells any client; a write that fails leaves the game as it
//! was and the client gets `storage_failed`. A write returns only once the
//! change is durable (for SQLite: committed, the WAL fsync'd).
//!
//! Writes are **conditional**, so that a store shared by several server
//! instances (`docs/server.md`) can never hold a doubled or lost move: a move
//! is stored only at the next free ply of an unfinished game, a seat only if
//! it is free. A draw offer, its answer and an ending carry the game as the
//! server saw it when it decided ([`Seen`]: the ply and the standing
//! offer) and are stored only if the stored game is still so; so an ending
//! on time decided before another server's move was read, or the
//! acceptance of an offer that a move has withdrawn, is never stored. A
//! write that finds the condition false fails with [`StoreError::Conflict`]
//! and changes nothing; the game service then reads the game again and
//! decides once more.
//!
//! The trait is object-safe and asynchronous (boxed futures): the SQLite
//! store (`sqlite.rs`) and the PostgreSQL store (`postgres.rs`) implement
//! it. A store that other servers write too says so through
//! [`Store::changes`]: the game service then re-reads a game by ply before
//! acting on it and after every change announced, and keeps who follows
//! each seat in the store too ([`Store::mark_present`]), since a player and
//! the opponent may follow the game on different servers.
//!
//! Stored moves are only added, at the next ply, except by an accepted
//! takeback, which also counts one on the game's mark of takebacks
//! ([`StoredGame::takebacks`]) in the same write. So a server whose room
//! knows a game at the mark stored knows its stored moves up to its ply,
//! and reads again only the end of the game ([`Store::load_since`]).

use std::{fmt, future::Future, pin::Pin};

use hostage_core::{ByColor, Color};

use crate::{
    chat::ChatLine,
    domain::{ClockSpec, End, SeatHashes, TokenHash},
    names::DisplayName,
};

/// A change announced by a shared store.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Changed {
    /// This game changed (on any server sharing the store).
    Game(String),
    /// A move was stored in this game (on any server sharing the store),
    /// with what a room that knows the game up to the ply before needs to
    /// play it without reading the store ([`Room::play_announced`]).
    ///
    /// [`Room::play_announced`]: crate::room::Room::play_announced
    Move(String, AnnouncedMove),
    /// Announcements may have been missed: any game may have changed.
    All,
}

/// A stored move as a shared store announces it: the [`Write::Move`] and
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
    /// The game's mark of takebacks ([`StoredGame::takebacks`]).
    pub takebacks: u64,
}

impl AnnouncedMove {
    /// The announcement of `write`, stored at the mark `takebacks`; `None`
    /// for a write that is not a move.
    #[must_use]
    pub fn of(write: &Write, takebacks: u64) -> Option<AnnouncedMove> {
        match write {
            Write::Move {
                ply,
                uci,
                clocks,
                at_ms,
                end,
                ..
            } => Some(AnnouncedMove {
                ply: *ply,
                uci: uci.clone(),
                clocks: *clocks,
                at_ms: *at_ms,
                end: *end,
                takebacks,
            }),
            _ => None,
        }
    }
}

/// A boxed future, as the trait returns them.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

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

/// A change to store.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Write {
    /// A new game with its creator's seat.
    CreateGame(NewGame),
    /// The seat `side` is taken (only if free).
    TakeSeat {
        /// Game id.
        game: String,
        /// The seat.
        side: Color,
        /// Its token's digest.
        token: TokenHash,
        /// The clocks when the seat was taken.
        clocks: StoredClocks,
        /// The player's display name, if given.
        name: Option<DisplayName>,
    },
    /// A move at `ply` (only if `ply` is the next ply and the game goes on);
    /// clears a standing draw offer, and ends the game if `end` is set.
    Move {
        /// Game id.
        game: String,
        /// The move's ply (0 is White's first).
        ply: u64,
        /// Long form.
        uci: String,
        /// The clocks after the move.
        clocks: StoredClocks,
        /// Wall-clock time of the move, milliseconds since the Unix epoch.
        at_ms: u64,
        /// The ending this move brought, if any.
        end: Option<End>,
    },
    /// A draw offer stands (`Some`) or was declined (`None`), only if the
    /// game is still as `seen`.
    DrawOffer {
        /// Game id.
        game: String,
        /// The side offering.
        by: Option<Color>,
        /// The clocks at the offer or the answer (the side to move's has
        /// run since the last move: another server reading the game counts
        /// from this write's time).
        clocks: StoredClocks,
        /// The game when the change was decided.
        seen: Seen,
    },
    /// A takeback request stands (`by` is `Some`) or was declined (`None`),
    /// only if the game is still as `seen` and the standing request is
    /// `standing`.
    TakebackOffer {
        /// Game id.
        game: String,
        /// The side asking, or `None` once declined.
        by: Option<Color>,
        /// The request standing before this change.
        standing: Option<Color>,
        /// The clocks at the request or the answer.
        clocks: StoredClocks,
        /// The game when the change was decided.
        seen: Seen,
    },
    /// The takeback request of `by` was accepted: the moves from ply `ply`
    /// on are deleted, with the request and any draw offer, in one
    /// transaction, only if the game goes on, is still as `seen` (its
    /// `seen.ply` moves) and the request of `by` stands.
    TakeBack {
        /// Game id.
        game: String,
        /// The side whose request it was.
        by: Color,
        /// The number of moves kept.
        ply: u64,
        /// The clocks after the takeback.
        clocks: StoredClocks,
        /// The game when the acceptance was decided.
        seen: Seen,
    },
    /// The rematch `new` of the finished `game`: the new game is created
    /// and linked to `game` together (only if `game` has ended and has no
    /// rematch yet).
    Rematch {
        /// The finished game's id.
        game: String,
        /// The rematch, with its first seat.
        new: NewGame,
    },
    /// The game ended without a move: resignation, agreement, time,
    /// abandonment (only if it had not ended and is still as `seen`).
    Finish {
        /// Game id.
        game: String,
        /// How.
        end: End,
        /// The clocks at the end.
        clocks: StoredClocks,
        /// The game when the ending was decided.
        seen: Seen,
    },
    /// A line of the game's chat, stored only as the game's next line
    /// (`line.index` lines are stored already): two servers never store two
    /// lines at one index. It changes nothing else of the game (not its
    /// `updated_ms`, from which the clocks count).
    Chat {
        /// Game id.
        game: String,
        /// The line.
        line: ChatLine,
    },
}

impl Write {
    /// The game this write is about.
    #[must_use]
    pub fn game(&self) -> &str {
        match self {
            Write::CreateGame(g) => &g.id,
            Write::TakeSeat { game, .. }
            | Write::Move { game, .. }
            | Write::DrawOffer { game, .. }
            | Write::TakebackOffer { game, .. }
            | Write::TakeBack { game, .. }
            | Write::Rematch { game, .. }
            | Write::Finish { game, .. }
            | Write::Chat { game, .. } => game,
        }
    }
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
    /// Each seat's token digest, if taken.
    pub tokens: SeatHashes,
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
    /// ([`Store::load_since`]).
    pub takebacks: u64,
}

/// A game's row with only the end of its moves and chat
/// ([`Store::load_since`]): to bring a room that knows the game up to date
/// without reading the moves and lines it knows.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StoredTail {
    /// The game as [`Store::load`] reads it, but its `moves` only those
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

/// Why a store operation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StoreError {
    /// The write's condition was false (a taken seat, a ply already stored,
    /// an ended game); nothing changed.
    Conflict(String),
    /// The database failed (i/o, full disk, closed store); nothing changed.
    Backend(String),
    /// A stored record could not be read back (corruption or a bug).
    Corrupt(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict(m) => write!(f, "conflict: {m}"),
            StoreError::Backend(m) => write!(f, "storage: {m}"),
            StoreError::Corrupt(m) => write!(f, "corrupt record: {m}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// Where games are kept.
pub trait Store: Send + Sync + 'static {
    /// Stores one change durably; returns once it is committed.
    fn write(&self, write: Write) -> StoreFuture<'_, ()>;

    /// A whole game, or `None` if there is no such game.
    fn load<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<StoredGame>>;

    /// A game's row, its moves from ply `from_ply` on and its chat lines
    /// from index `from_chat` on, all read at one moment; `None` if there
    /// is no such game. The default reads the whole game and keeps the end.
    fn load_since<'a>(
        &'a self,
        game: &'a str,
        from_ply: u64,
        from_chat: u64,
    ) -> StoreFuture<'a, Option<StoredTail>> {
        Box::pin(async move {
            Ok(self
                .load(game)
                .await?
                .map(|g| StoredTail::of(g, from_ply, from_chat)))
        })
    }

    /// The ids of every game that has not ended (to restart their clocks).
    fn unfinished(&self) -> StoreFuture<'_, Vec<String>>;

    /// The changes stored by anyone, for a store that several servers
    /// share; `None` (the default) for a store only this server writes.
    fn changes(&self) -> Option<tokio::sync::broadcast::Receiver<Changed>> {
        None
    }

    /// Records that each of `seats` (a game and a seat) has a connection
    /// following its game on this server at `at_ms` (wall clock), for a
    /// store that several servers share. The default does nothing: a store
    /// only this server writes needs no presence but the server's own.
    fn mark_present(&self, seats: Vec<(String, Color)>, at_ms: u64) -> StoreFuture<'_, ()> {
        let _ = (seats, at_ms);
        Box::pin(async { Ok(()) })
    }

    /// When each seat of `game` was last marked present by any server
    /// ([`Store::mark_present`]); never, by default.
    fn last_present<'a>(&'a self, game: &'a str) -> StoreFuture<'a, ByColor<Option<u64>>> {
        let _ = game;
        Box::pin(async { Ok(ByColor::default()) })
    }
}
