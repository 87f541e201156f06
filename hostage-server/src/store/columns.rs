//! Column values shared by the SQL stores (`sqlite/`, `postgres/`): how
//! the domain's clocks, endings, colours and token digests are written to
//! and read from a row, and how a row read becomes a [`StoredGame`]. Both
//! stores keep the same schema, so a value means the same in either
//! database; only the SQL dialect and the driver's calls stay in each store.

use hostage_core::{ByColor, Color};

use crate::{
    domain::chat::ChatLine,
    domain::correspondence::Days,
    domain::names::DisplayName,
    domain::timing::GameTiming,
    domain::{color_named, ClockSpec, End, TokenHash},
    store::{StoreError, StoredClocks, StoredGame, StoredMove},
};

/// Milliseconds as a signed column (SQL has no unsigned integers).
pub(crate) fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A signed column back as milliseconds; a negative value reads as 0.
pub(crate) fn uint(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// The two clock columns (both null for an untimed game).
pub(crate) fn clock_params(clocks: StoredClocks) -> (Option<i64>, Option<i64>) {
    clocks.map_or((None, None), |c| (Some(int(c.white)), Some(int(c.black))))
}

/// The termination and winner columns, by the core's names.
pub(crate) fn end_params(end: Option<End>) -> (Option<&'static str>, Option<&'static str>) {
    match end {
        None => (None, None),
        Some(end) => (Some(end.termination()), end.winner.map(Color::name)),
    }
}

/// A write that must change exactly one row, or it lost a race.
pub(crate) fn conflict_unless(changed: u64, what: &str) -> Result<(), StoreError> {
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(what.to_string()))
    }
}

/// A colour column read back.
pub(crate) fn side_of(name: Option<String>) -> Result<Option<Color>, StoreError> {
    name.map(|n| color_named(&n).ok_or_else(|| StoreError::Corrupt(format!("side {n:?}"))))
        .transpose()
}

/// A token-digest column read back.
pub(crate) fn hash_of(hex: Option<String>) -> Result<Option<TokenHash>, StoreError> {
    hex.map(|h| TokenHash::from_hex(&h).ok_or_else(|| StoreError::Corrupt("token digest".into())))
        .transpose()
}

/// A seat's further token digests as their column (`white_devices`,
/// `black_devices`): the digests in hex, oldest first, each followed by a
/// space; empty for none (a null column reads as none too).
pub(crate) fn devices_param(devices: &[TokenHash]) -> String {
    devices.iter().map(|d| d.to_hex() + " ").collect()
}

/// A further-tokens column read back ([`devices_param`]).
fn devices_of(text: Option<String>) -> Result<Vec<TokenHash>, StoreError> {
    text.unwrap_or_default()
        .split_whitespace()
        .map(|h| TokenHash::from_hex(h).ok_or_else(|| StoreError::Corrupt("seat device".into())))
        .collect()
}

/// Sets the further tokens of the seat `side` to `$1`, in the game `$2`,
/// only if they are still `$3` and the seat is taken ([`devices_param`]
/// for both); one text for both databases. The game's `updated_ms` stays.
pub(crate) fn seat_tokens_sql(side: Color) -> String {
    let s = side.name();
    format!(
        "UPDATE games SET {s}_devices = $1
         WHERE id = $2 AND coalesce({s}_devices, '') = $3 AND {s}_token IS NOT NULL"
    )
}

/// The creator's seat as the two token columns (the other seat null).
pub(crate) fn token_params(seat: Color, token: &TokenHash) -> (Option<String>, Option<String>) {
    let mut tokens = ByColor::<Option<String>>::default();
    *tokens.get_mut(seat) = Some(token.to_hex());
    (tokens.white, tokens.black)
}

/// The time control as its two columns (both null for an untimed game).
pub(crate) fn clock_spec_params(clock: Option<ClockSpec>) -> (Option<i64>, Option<i64>) {
    clock.map_or((None, None), |c| {
        (Some(int(c.initial_ms)), Some(int(c.increment_ms)))
    })
}

/// The columns of a game as [`read_game`] reads them, in its order.
pub(crate) const GAME_COLUMNS: &str = "id, created_ms, start_fen, initial_ms, increment_ms, \
     white_token, black_token, white_ms, black_ms, draw_offer, termination, winner, updated_ms, rematch, \
     takeback, white_name, black_name, takebacks, days, deadline_ms, white_devices, black_devices";

/// The time columns of a game as [`timing_of`] reads them, in its order
/// (each prefixed with `g.`, as the listings name the games table).
pub(crate) const TIMING_COLUMNS: &str =
    "g.initial_ms, g.increment_ms, g.white_ms, g.black_ms, g.days, g.deadline_ms";

/// The time columns of a game ([`TIMING_COLUMNS`]) read back; a days
/// value not in the list reads as none (a listing shows no time rather
/// than fail).
pub(crate) fn timing_of(values: [Option<i64>; 6]) -> GameTiming {
    let [initial, increment, white, black, days, deadline] = values;
    let clock = initial.zip(increment).map(|(i, inc)| ClockSpec {
        initial_ms: uint(i),
        increment_ms: uint(inc),
    });
    GameTiming {
        clock,
        days: days.and_then(|n| u64::try_from(n).ok()).and_then(Days::new),
        clocks: clock.and(clocks_of(white, black)),
        deadline_ms: deadline.map(uint),
    }
}

/// The games being played now (both seats taken, not ended), the last
/// changed first, at most `$1`: id, the names, plies, last change,
/// creation, then [`TIMING_COLUMNS`].
pub(crate) fn live_games_sql() -> String {
    format!(
        "SELECT g.id, g.white_name, g.black_name,
            (SELECT count(*) FROM moves m WHERE m.game = g.id), g.updated_ms, g.created_ms,
            {TIMING_COLUMNS}
         FROM games g
         WHERE g.termination IS NULL AND g.white_token IS NOT NULL AND g.black_token IS NOT NULL
         ORDER BY g.updated_ms DESC, g.id
         LIMIT $1"
    )
}

/// The columns of a chat line as [`read_chat`] reads them, in its order.
pub(crate) const CHAT_COLUMNS: &str = "idx, side, text, at_ms";

/// A name column as written (null for none).
pub(crate) fn name_param(name: Option<&DisplayName>) -> Option<&str> {
    name.map(DisplayName::as_str)
}

/// A name column read back: checked again, so that a name stored by
/// anything else than a store never reaches a client unchecked.
fn name_of(text: Option<String>) -> Result<Option<DisplayName>, StoreError> {
    text.map(|t| {
        DisplayName::parse(&t).map_err(|e| StoreError::Corrupt(format!("stored name: {e}")))
    })
    .transpose()
}

/// The columns of a move as [`read_move`] reads them, in its order.
pub(crate) const MOVE_COLUMNS: &str = "ply, uci, white_ms, black_ms, at_ms, deadline_ms";

/// A `games` row as read, before its values are checked.
pub(crate) struct GameRow {
    id: Option<String>,
    created_ms: Option<i64>,
    start_fen: Option<String>,
    initial_ms: Option<i64>,
    increment_ms: Option<i64>,
    white_token: Option<String>,
    black_token: Option<String>,
    white_ms: Option<i64>,
    black_ms: Option<i64>,
    draw_offer: Option<String>,
    termination: Option<String>,
    winner: Option<String>,
    updated_ms: Option<i64>,
    rematch: Option<String>,
    takeback: Option<String>,
    white_name: Option<String>,
    black_name: Option<String>,
    takebacks: Option<i64>,
    days: Option<i64>,
    deadline_ms: Option<i64>,
    white_devices: Option<String>,
    black_devices: Option<String>,
}

/// Reads a row of [`GAME_COLUMNS`] through the database's getters of an
/// integer and of a text column (each by index, null as `None`).
pub(crate) fn read_game<E>(
    int: impl Fn(usize) -> Result<Option<i64>, E>,
    text: impl Fn(usize) -> Result<Option<String>, E>,
) -> Result<GameRow, E> {
    Ok(GameRow {
        id: text(0)?,
        created_ms: int(1)?,
        start_fen: text(2)?,
        initial_ms: int(3)?,
        increment_ms: int(4)?,
        white_token: text(5)?,
        black_token: text(6)?,
        white_ms: int(7)?,
        black_ms: int(8)?,
        draw_offer: text(9)?,
        termination: text(10)?,
        winner: text(11)?,
        updated_ms: int(12)?,
        rematch: text(13)?,
        takeback: text(14)?,
        white_name: text(15)?,
        black_name: text(16)?,
        takebacks: int(17)?,
        days: int(18)?,
        deadline_ms: int(19)?,
        white_devices: text(20)?,
        black_devices: text(21)?,
    })
}

/// A `chat` row as read, before its values are checked.
pub(crate) struct ChatRow {
    idx: Option<i64>,
    side: Option<String>,
    text: Option<String>,
    at_ms: Option<i64>,
}

/// Reads a row of [`CHAT_COLUMNS`], as [`read_game`] does.
pub(crate) fn read_chat<E>(
    int: impl Fn(usize) -> Result<Option<i64>, E>,
    text: impl Fn(usize) -> Result<Option<String>, E>,
) -> Result<ChatRow, E> {
    Ok(ChatRow {
        idx: int(0)?,
        side: text(1)?,
        text: text(2)?,
        at_ms: int(3)?,
    })
}

impl ChatRow {
    /// The stored line.
    pub(crate) fn into_line(self) -> Result<ChatLine, StoreError> {
        Ok(ChatLine {
            index: uint(required(self.idx, "chat.idx")?),
            by: side_of(self.side)?
                .ok_or_else(|| StoreError::Corrupt("chat.side is null".into()))?,
            text: required(self.text, "chat.text")?,
            at_ms: uint(required(self.at_ms, "chat.at_ms")?),
        })
    }
}

/// A `moves` row as read, before its values are checked.
pub(crate) struct MoveRow {
    ply: Option<i64>,
    uci: Option<String>,
    white_ms: Option<i64>,
    black_ms: Option<i64>,
    at_ms: Option<i64>,
    deadline_ms: Option<i64>,
}

/// Reads a row of [`MOVE_COLUMNS`], as [`read_game`] does.
pub(crate) fn read_move<E>(
    int: impl Fn(usize) -> Result<Option<i64>, E>,
    text: impl Fn(usize) -> Result<Option<String>, E>,
) -> Result<MoveRow, E> {
    Ok(MoveRow {
        ply: int(0)?,
        uci: text(1)?,
        white_ms: int(2)?,
        black_ms: int(3)?,
        at_ms: int(4)?,
        deadline_ms: int(5)?,
    })
}

/// A `NOT NULL` column's value; a null one means the database was changed
/// by something else than a store.
fn required<T>(value: Option<T>, column: &str) -> Result<T, StoreError> {
    value.ok_or_else(|| StoreError::Corrupt(format!("{column} is null")))
}

/// Both clocks, when both columns hold one.
fn clocks_of(white: Option<i64>, black: Option<i64>) -> StoredClocks {
    white
        .zip(black)
        .map(|(w, b)| ByColor::new(uint(w), uint(b)))
}

impl MoveRow {
    /// The stored move.
    pub(crate) fn into_move(self) -> Result<StoredMove, StoreError> {
        Ok(StoredMove {
            ply: uint(required(self.ply, "moves.ply")?),
            uci: required(self.uci, "moves.uci")?,
            clocks: clocks_of(self.white_ms, self.black_ms),
            at_ms: uint(required(self.at_ms, "moves.at_ms")?),
            deadline_ms: self.deadline_ms.map(uint),
        })
    }
}

impl GameRow {
    /// The stored game, with its `moves` (read apart, in ply order) and
    /// its `chat` (in index order).
    pub(crate) fn into_game(
        self,
        moves: Vec<StoredMove>,
        chat: Vec<ChatLine>,
    ) -> Result<StoredGame, StoreError> {
        let id = required(self.id, "games.id")?;
        let clock = match (self.initial_ms, self.increment_ms) {
            (Some(i), Some(inc)) => Some(ClockSpec {
                initial_ms: uint(i),
                increment_ms: uint(inc),
            }),
            _ => None,
        };
        // Clocks are kept only for a timed game.
        let clocks = clock.and(clocks_of(self.white_ms, self.black_ms));
        let days = match self.days {
            None => None,
            Some(n) => Some(
                u64::try_from(n)
                    .ok()
                    .and_then(Days::new)
                    .ok_or_else(|| StoreError::Corrupt(format!("game {id}: {n} days per move")))?,
            ),
        };
        let winner = self.winner;
        let end = match self.termination {
            None => None,
            Some(t) => Some(End::from_names(&t, winner.as_deref()).ok_or_else(|| {
                StoreError::Corrupt(format!("game {id}: termination {t:?}, winner {winner:?}"))
            })?),
        };
        Ok(StoredGame {
            created_ms: uint(required(self.created_ms, "games.created_ms")?),
            start_fen: required(self.start_fen, "games.start_fen")?,
            clock,
            days,
            deadline_ms: self.deadline_ms.map(uint),
            tokens: ByColor::new(hash_of(self.white_token)?, hash_of(self.black_token)?),
            devices: ByColor::new(
                devices_of(self.white_devices)?,
                devices_of(self.black_devices)?,
            ),
            clocks,
            draw_offer: side_of(self.draw_offer)?,
            takeback: side_of(self.takeback)?,
            end,
            moves,
            rematch: self.rematch,
            updated_ms: uint(required(self.updated_ms, "games.updated_ms")?),
            names: ByColor::new(name_of(self.white_name)?, name_of(self.black_name)?),
            chat,
            takebacks: uint(required(self.takebacks, "games.takebacks")?),
            id,
        })
    }
}
