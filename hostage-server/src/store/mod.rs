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
//! store (`sqlite/`) and the PostgreSQL store (`postgres/`) implement
//! it, each in one folder with its lobby ([`lobby::LobbyStore`]); the row
//! mapping both use is `columns.rs`. A store that other servers write too says so through
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

pub mod accounts;
pub(crate) mod columns;
pub mod ids;
pub mod live;
pub mod lobby;
pub mod persist;
pub mod postgres;
pub mod puzzles;
pub mod ratings;
pub mod sqlite;

use std::{fmt, future::Future, pin::Pin, sync::Arc};

use hostage_core::{ByColor, Color};

pub use crate::domain::record::{
    AnnouncedMove, NewGame, Seen, StoredClocks, StoredGame, StoredMove, StoredTail,
};
use crate::domain::{chat::ChatLine, names::DisplayName, End, TokenHash};

/// One database's stores: its games, its lobby's challenges and its
/// accounts.
pub struct Stores {
    /// The games.
    pub games: Arc<dyn Store>,
    /// The lobby's open challenges.
    pub lobby: Arc<dyn lobby::LobbyStore>,
    /// The accounts, their sessions and seats.
    pub accounts: Arc<dyn accounts::AccountStore>,
}

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
    /// [`Room::play_announced`]: crate::domain::room::Room::play_announced
    Move(String, AnnouncedMove),
    /// Announcements may have been missed: any game may have changed.
    All,
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
                deadline_ms,
                ..
            } => Some(AnnouncedMove {
                ply: *ply,
                uci: uci.clone(),
                clocks: *clocks,
                at_ms: *at_ms,
                end: *end,
                deadline_ms: *deadline_ms,
                takebacks,
            }),
            _ => None,
        }
    }
}

/// The column of a standing draw offer, and what it is called, for the
/// SQL stores' one function of both offers (`offer`).
pub(crate) const DRAW_OFFER: (&str, &str) = ("draw_offer", "draw offer");
/// The column of a standing takeback request, and what it is called.
pub(crate) const TAKEBACK_OFFER: (&str, &str) = ("takeback", "takeback request");

/// Applies the [`Write`] `$write` with the function of its kind that is in
/// scope where it is used: `create`, `rematch`, `take_seat`, `play`,
/// `offer` (both offers, by [`DRAW_OFFER`] or [`TAKEBACK_OFFER`]),
/// `take_back`, `finish`, `chat`, `rate_game` and `seat_tokens`, each called with `$at` first and
/// followed by `$then` (`.await` for an asynchronous store). The one
/// dispatch of a write, shared by the SQL stores (`sqlite/writes.rs`,
/// `postgres/writes.rs`).
macro_rules! apply_write {
    ($write:expr, $at:expr; $($then:tt)*) => {
        match $write {
            $crate::store::Write::CreateGame(new) => create($at, new) $($then)*,
            $crate::store::Write::Rematch { game, new } => rematch($at, game, new) $($then)*,
            $crate::store::Write::TakeSeat { game, side, token, clocks, name, deadline_ms } => {
                let clocks = (*clocks, *deadline_ms);
                take_seat($at, game, (*side, token), clocks, name.as_ref()) $($then)*
            }
            $crate::store::Write::Move { game, ply, uci, clocks, at_ms, end, deadline_ms } => {
                play($at, game, (*ply, uci), (*clocks, *at_ms, *deadline_ms), *end) $($then)*
            }
            $crate::store::Write::DrawOffer { game, by, clocks, seen } => {
                let offered = (*by, seen.draw_offer);
                offer($at, game, $crate::store::DRAW_OFFER, offered, *clocks, *seen) $($then)*
            }
            $crate::store::Write::TakebackOffer { game, by, standing, clocks, seen } => {
                let offered = (*by, *standing);
                offer($at, game, $crate::store::TAKEBACK_OFFER, offered, *clocks, *seen) $($then)*
            }
            $crate::store::Write::TakeBack { game, by, ply, clocks, seen, deadline_ms } => {
                take_back($at, game, (*by, *ply), (*clocks, *deadline_ms), *seen) $($then)*
            }
            $crate::store::Write::Finish { game, end, clocks, seen } => {
                finish($at, game, *end, *clocks, *seen) $($then)*
            }
            $crate::store::Write::Chat { game, line } => chat($at, game, line) $($then)*,
            $crate::store::Write::SeatTokens { game, side, devices, was } => {
                seat_tokens($at, game, *side, (devices.as_slice(), was.as_slice())) $($then)*
            }
            $crate::store::Write::RateGame(rated) => rate_game($at, rated) $($then)*,
        }
    };
}
pub(crate) use apply_write;

/// A boxed future, as the trait returns them.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

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
        /// White's first deadline, when this seat starts a correspondence
        /// game (kept as the game's deadline).
        deadline_ms: Option<u64>,
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
        /// The opponent's deadline this move set (a correspondence game
        /// that goes on), kept with the move and as the game's deadline.
        deadline_ms: Option<u64>,
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
        /// The side to move's fresh deadline, in a correspondence game.
        deadline_ms: Option<u64>,
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
    /// Marks a game rated (`ratings.rs`): only a game that goes on with a
    /// seat still free, so the mark comes before any move.
    RateGame(ratings::RatedGame),
    /// The further token digests of the taken seat `side` become `devices`
    /// (one more device of the account that holds it), only if they are
    /// still `was`: two servers adding one each at once store one, the
    /// other reads the game again. It changes nothing else of the game
    /// (not its `updated_ms`, from which the clocks count).
    SeatTokens {
        /// Game id.
        game: String,
        /// The seat.
        side: Color,
        /// Its further token digests, oldest first.
        devices: Vec<TokenHash>,
        /// Its further token digests as the server saw them.
        was: Vec<TokenHash>,
    },
}

impl Write {
    /// The game this write is about.
    #[must_use]
    pub fn game(&self) -> &str {
        match self {
            Write::CreateGame(g) => &g.id,
            Write::RateGame(r) => &r.game,
            Write::TakeSeat { game, .. }
            | Write::Move { game, .. }
            | Write::DrawOffer { game, .. }
            | Write::TakebackOffer { game, .. }
            | Write::TakeBack { game, .. }
            | Write::Rematch { game, .. }
            | Write::Finish { game, .. }
            | Write::Chat { game, .. }
            | Write::SeatTokens { game, .. } => game,
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

    /// The games being played now (both seats taken, not ended), the last
    /// changed first, at most `limit` (`live.rs`). The default is a
    /// backend error: a store that cannot list says so.
    fn live_games(&self, limit: u32) -> StoreFuture<'_, Vec<live::LiveGame>> {
        let _ = limit;
        Box::pin(async { Err(StoreError::Backend("this store lists no live games".into())) })
    }

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

    /// The ratings kept with the games ([`ratings::RatingStore`]), if
    /// this store keeps them.
    fn ratings(&self) -> Option<&dyn ratings::RatingStore> {
        None
    }
}
