//! The domain events: what a room decided, in the room's terms.
//!
//! Policy: a [`Room`](crate::domain::room::Room) decides and returns an [`Event`];
//! it never builds a wire message nor a store write. The edges map each
//! event: `wire/mod.rs` to the messages the followers are sent
//! (`docs/protocol.md`), `store/persist.rs` to the write the store keeps
//! (`store/mod.rs`). So a new thing the room decides is a new variant here and
//! one arm in each mapping, each testable alone.
//!
//! An event carries everything both mappings need, read once when the room
//! decided: the clocks at that instant (their remaining times are what is
//! stored, the reading with the running side is what is sent) and, for a
//! change that is stored only if the game is still as the room saw it, that
//! [`Seen`].

use hostage_core::Color;

use crate::{
    domain::chat::ChatLine,
    domain::names::DisplayName,
    domain::record::{NewGame, Seen},
    domain::{ClockReading, End, TokenHash},
};

/// A move of the game, as played (or played before and acknowledged again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePlayed {
    /// Game id.
    pub game: String,
    /// The move's ply (0 is White's first).
    pub ply: u64,
    /// Long form.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// The position after it (FEN).
    pub fen: String,
    /// The mover.
    pub by: Color,
    /// The clocks after it (`None`: untimed).
    pub clocks: Option<ClockReading>,
    /// Wall-clock time of the move, milliseconds since the Unix epoch (0
    /// for a move told again, which is never stored).
    pub at_ms: u64,
    /// The ending this move brought, if any.
    pub end: Option<End>,
    /// The side whose standing draw offer this move withdrew, if any.
    pub withdrew: Option<Color>,
    /// The side whose standing takeback request this move withdrew, if any.
    pub withdrew_takeback: Option<Color>,
    /// The opponent's deadline after it, milliseconds since the Unix epoch
    /// (a correspondence game that goes on).
    pub deadline_ms: Option<u64>,
}

/// Something a room decided.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// The seat `side` was taken with the token whose digest is `token`.
    SeatTaken {
        /// Game id.
        game: String,
        /// The seat.
        side: Color,
        /// Its token's digest.
        token: TokenHash,
        /// The clocks once the seat was taken (the game may have started).
        clocks: Option<ClockReading>,
        /// The player's display name, if given.
        name: Option<DisplayName>,
        /// White's deadline for its first move, if the seat started a
        /// correspondence game.
        deadline_ms: Option<u64>,
    },
    /// The seat `side`, held by an account, got a further token for one
    /// more of the account's devices (`room/devices.rs`): nothing to tell.
    SeatTokenAdded {
        /// Game id.
        game: String,
        /// The seat.
        side: Color,
        /// The seat's further token digests after the change, oldest first.
        devices: Vec<TokenHash>,
        /// The seat's further token digests before it (the change is stored
        /// only if they are still so).
        was: Vec<TokenHash>,
    },
    /// A new move was played (a standing draw offer is withdrawn by it).
    MovePlayed(MovePlayed),
    /// A move already stored was sent again: acknowledged, not played.
    MoveRepeated(MovePlayed),
    /// `by` offered a draw.
    DrawOffered {
        /// Game id.
        game: String,
        /// The side offering.
        by: Color,
        /// The clocks at the offer.
        clocks: Option<ClockReading>,
        /// The game when the offer was decided.
        seen: Seen,
    },
    /// `by` declined the opponent's draw offer.
    DrawDeclined {
        /// Game id.
        game: String,
        /// The side declining.
        by: Color,
        /// The clocks at the answer.
        clocks: Option<ClockReading>,
        /// The game when the answer was decided.
        seen: Seen,
    },
    /// `by` asked to take back `plies` plies (`room/takeback.rs`).
    TakebackOffered {
        /// Game id.
        game: String,
        /// The side asking.
        by: Color,
        /// How many plies accepting takes back (1 or 2).
        plies: u64,
        /// The clocks at the request.
        clocks: Option<ClockReading>,
        /// The game when the request was decided.
        seen: Seen,
    },
    /// `by` declined the opponent's takeback request.
    TakebackDeclined {
        /// Game id.
        game: String,
        /// The side declining.
        by: Color,
        /// The clocks at the answer.
        clocks: Option<ClockReading>,
        /// The game when the answer was decided.
        seen: Seen,
    },
    /// The takeback request of `by` was accepted: the last `plies` plies
    /// are gone, the game is at `ply`.
    TakenBack {
        /// Game id.
        game: String,
        /// The side whose request it was.
        by: Color,
        /// How many plies were taken back.
        plies: u64,
        /// The number of moves left.
        ply: u64,
        /// The position now (FEN).
        fen: String,
        /// The clocks after the takeback (booked as a local take-back).
        clocks: Option<ClockReading>,
        /// The side to move's fresh deadline, in a correspondence game.
        deadline_ms: Option<u64>,
        /// The side whose standing draw offer the takeback withdrew, if any.
        withdrew: Option<Color>,
        /// The game when the acceptance was decided (`seen.ply` moves,
        /// before the takeback).
        seen: Seen,
    },
    /// The game ended without a move: resignation, agreement, time,
    /// abandonment (an ending by a move is [`MovePlayed::end`]).
    GameEnded {
        /// Game id.
        game: String,
        /// How.
        end: End,
        /// The clocks at the end (stopped).
        clocks: Option<ClockReading>,
        /// The game when the ending was decided.
        seen: Seen,
    },
    /// A player of the finished `game` asked for a rematch, `rematch`.
    RematchLinked {
        /// The finished game's id.
        game: String,
        /// The rematch's id.
        rematch: String,
        /// The rematch as created, with the requester's seat, to store
        /// with the link; `None` for a link read from the store (made on
        /// another server), only told.
        new: Option<NewGame>,
    },
    /// A seated player posted a line to the game's chat (`chat.rs`); a
    /// line read from the store (posted on another server) is the same
    /// event, told and not stored again.
    ChatPosted {
        /// Game id.
        game: String,
        /// The line.
        line: ChatLine,
    },
}

impl Event {
    /// The game this event is about.
    #[must_use]
    pub fn game(&self) -> &str {
        match self {
            Event::MovePlayed(m) | Event::MoveRepeated(m) => &m.game,
            Event::SeatTaken { game, .. }
            | Event::SeatTokenAdded { game, .. }
            | Event::DrawOffered { game, .. }
            | Event::DrawDeclined { game, .. }
            | Event::TakebackOffered { game, .. }
            | Event::TakebackDeclined { game, .. }
            | Event::TakenBack { game, .. }
            | Event::GameEnded { game, .. }
            | Event::RematchLinked { game, .. }
            | Event::ChatPosted { game, .. } => game,
        }
    }
}
