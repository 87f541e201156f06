//! The SQLite store's writes: one function per kind of [`Write`], each
//! with its condition in SQL (see `store/mod.rs`), run inside the write's
//! savepoint by the writer thread (`mod.rs`).

use rusqlite::{params, Connection};

use hostage_core::Color;

use super::backend;
use crate::{
    domain::chat::ChatLine,
    domain::correspondence::Days,
    domain::names::DisplayName,
    domain::{End, TokenHash},
    store::{
        apply_write,
        columns::{
            clock_params, clock_spec_params, conflict_unless, devices_param, end_params, int,
            name_param, seat_tokens_sql, token_params,
        },
        NewGame, Seen, StoreError, StoredClocks, Write,
    },
};

/// The connection a write runs on, and the time it is stored.
struct At<'a> {
    conn: &'a Connection,
    now: i64,
}

/// Applies one write on `conn` (inside its savepoint).
pub(super) fn apply(conn: &Connection, write: &Write) -> Result<(), StoreError> {
    let at = At {
        conn,
        now: int(crate::domain::time::now_ms()),
    };
    apply_write!(write, &at;)
}

/// A constraint violation as a conflict (`what` is stored already), any
/// other failure as the backend's.
fn stored_already(e: rusqlite::Error, what: impl FnOnce() -> String) -> StoreError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict(what()),
        _ => backend(e),
    }
}

/// [`Write::CreateGame`].
fn create(at: &At<'_>, new: &NewGame) -> Result<(), StoreError> {
    insert_game(at.conn, new, at.now)
}

/// Inserts a new game with its creator's seat.
fn insert_game(conn: &Connection, new: &NewGame, now: i64) -> Result<(), StoreError> {
    let NewGame {
        id,
        created_ms,
        start_fen,
        clock,
        days,
        seat,
        token,
        name,
    } = new;
    let (white, black) = token_params(*seat, token);
    let (initial, increment) = clock_spec_params(*clock);
    let name = name_param(name.as_ref());
    let (white_name, black_name) = match seat {
        Color::White => (name, None),
        Color::Black => (None, name),
    };
    conn.execute(
        "INSERT INTO games (id, created_ms, start_fen, initial_ms, increment_ms,
            white_token, black_token, white_ms, black_ms, updated_ms, white_name, black_name, days)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?4, ?4, ?8, ?9, ?10, ?11)",
        params![
            id,
            int(*created_ms),
            start_fen,
            initial,
            increment,
            white,
            black,
            now,
            white_name,
            black_name,
            days.map(Days::get)
        ],
    )
    .map_err(|e| stored_already(e, || format!("game {id} exists")))?;
    Ok(())
}

/// [`Write::Rematch`]: links the finished game to its rematch and creates it.
fn rematch(at: &At<'_>, game: &str, new: &NewGame) -> Result<(), StoreError> {
    let n = at
        .conn
        .execute(
            "UPDATE games SET rematch = ?2, updated_ms = ?3
             WHERE id = ?1 AND termination IS NOT NULL AND rematch IS NULL",
            params![game, new.id, at.now],
        )
        .map_err(backend)?;
    conflict_unless(n as u64, "the game goes on, or has a rematch")?;
    insert_game(at.conn, new, at.now)
}

/// [`Write::TakeSeat`]: only if the seat is free and the game goes on.
fn take_seat(
    at: &At<'_>,
    game: &str,
    (side, token): (Color, &TokenHash),
    (clocks, deadline): (StoredClocks, Option<u64>),
    name: Option<&DisplayName>,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let sql = match side {
        Color::White => {
            "UPDATE games SET white_token = ?2, white_ms = coalesce(?3, white_ms),
             black_ms = coalesce(?4, black_ms), updated_ms = ?5, white_name = ?6
             WHERE id = ?1 AND white_token IS NULL AND termination IS NULL"
        }
        Color::Black => {
            "UPDATE games SET black_token = ?2, white_ms = coalesce(?3, white_ms),
             black_ms = coalesce(?4, black_ms), updated_ms = ?5, black_name = ?6
             WHERE id = ?1 AND black_token IS NULL AND termination IS NULL"
        }
    };
    let n = at
        .conn
        .execute(
            sql,
            params![game, token.to_hex(), w, b, at.now, name_param(name)],
        )
        .map_err(backend)?;
    conflict_unless(n as u64, "the seat is taken")?;
    set_deadline(at, game, deadline)
}

/// Keeps a correspondence game's new deadline (none: the game has none,
/// or it ended; a stale one is never read for an ended game).
fn set_deadline(at: &At<'_>, game: &str, deadline: Option<u64>) -> Result<(), StoreError> {
    if let Some(deadline) = deadline {
        at.conn
            .execute(
                "UPDATE games SET deadline_ms = ?2 WHERE id = ?1",
                params![game, int(deadline)],
            )
            .map_err(backend)?;
    }
    Ok(())
}

/// [`Write::Move`]: the move `(ply, uci)`, only at the next ply of a game
/// that goes on with both seats taken.
fn play(
    at: &At<'_>,
    game: &str,
    (ply, uci): (u64, &String),
    (clocks, at_ms, deadline): (StoredClocks, u64, Option<u64>),
    end: Option<End>,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let (termination, winner) = end_params(end);
    let n = at
        .conn
        .execute(
            "UPDATE games SET white_ms = coalesce(?2, white_ms), black_ms = coalesce(?3, black_ms),
                draw_offer = NULL, takeback = NULL, termination = ?4, winner = ?5, updated_ms = ?6
             WHERE id = ?1 AND termination IS NULL
               AND white_token IS NOT NULL AND black_token IS NOT NULL
               AND (SELECT count(*) FROM moves WHERE game = ?1) = ?7",
            params![game, w, b, termination, winner, at.now, int(ply)],
        )
        .map_err(backend)?;
    conflict_unless(n as u64, "the game is not at that ply, or has ended")?;
    if let Some(end) = &end {
        super::ratings::on_end(at.conn, game, end, at_ms)?;
    }
    at.conn
        .execute(
            "INSERT INTO moves (game, ply, uci, white_ms, black_ms, at_ms, deadline_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![game, int(ply), uci, w, b, int(at_ms), deadline.map(int)],
        )
        .map_err(backend)?;
    set_deadline(at, game, deadline)
}

/// [`Write::DrawOffer`] and [`Write::TakebackOffer`]: the offer kept in
/// `column` (`draw_offer`, `takeback`) becomes `by`, only if it is still
/// `standing` and the game is still at `seen.ply`.
fn offer(
    at: &At<'_>,
    game: &str,
    (column, what): (&str, &str),
    (by, standing): (Option<Color>, Option<Color>),
    clocks: StoredClocks,
    seen: Seen,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let n = at
        .conn
        .execute(
            &format!(
                "UPDATE games SET {column} = ?2, white_ms = coalesce(?3, white_ms),
                    black_ms = coalesce(?4, black_ms), updated_ms = ?5
                 WHERE id = ?1 AND termination IS NULL AND {column} IS ?6
                   AND (SELECT count(*) FROM moves WHERE game = ?1) = ?7"
            ),
            params![
                game,
                by.map(Color::name),
                w,
                b,
                at.now,
                standing.map(Color::name),
                int(seen.ply)
            ],
        )
        .map_err(backend)?;
    conflict_unless(
        n as u64,
        &format!("the game has ended, or moved on, or its {what} changed"),
    )
}

/// [`Write::TakeBack`]: the request of `by` accepted, the moves from `ply`
/// on deleted with it (in the write's savepoint: both, or neither).
fn take_back(
    at: &At<'_>,
    game: &str,
    (by, ply): (Color, u64),
    (clocks, deadline): (StoredClocks, Option<u64>),
    seen: Seen,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let n = at
        .conn
        .execute(
            "UPDATE games SET takeback = NULL, draw_offer = NULL,
                white_ms = coalesce(?2, white_ms), black_ms = coalesce(?3, black_ms),
                updated_ms = ?4, takebacks = takebacks + 1
             WHERE id = ?1 AND termination IS NULL AND takeback IS ?5
               AND (SELECT count(*) FROM moves WHERE game = ?1) = ?6",
            params![game, w, b, at.now, by.name(), int(seen.ply)],
        )
        .map_err(backend)?;
    conflict_unless(
        n as u64,
        "the game has ended, or moved on, or its takeback request changed",
    )?;
    let gone = at
        .conn
        .execute(
            "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
            params![game, int(ply)],
        )
        .map_err(backend)?;
    conflict_unless(
        u64::from(gone as u64 == seen.ply.saturating_sub(ply) && gone > 0),
        "the moves to take back are not the last ones",
    )?;
    set_deadline(at, game, deadline)
}

/// [`Write::Finish`]: an ending without a move, only if the game is still
/// as `seen`.
fn finish(
    at: &At<'_>,
    game: &str,
    end: End,
    clocks: StoredClocks,
    seen: Seen,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let (termination, winner) = end_params(Some(end));
    let n = at
        .conn
        .execute(
            "UPDATE games SET white_ms = coalesce(?2, white_ms), black_ms = coalesce(?3, black_ms),
                draw_offer = NULL, takeback = NULL, termination = ?4, winner = ?5, updated_ms = ?6
             WHERE id = ?1 AND termination IS NULL AND draw_offer IS ?7
               AND (SELECT count(*) FROM moves WHERE game = ?1) = ?8",
            params![
                game,
                w,
                b,
                termination,
                winner,
                at.now,
                seen.draw_offer.map(Color::name),
                int(seen.ply)
            ],
        )
        .map_err(backend)?;
    conflict_unless(
        n as u64,
        "the game has ended, or moved on, or its draw offer changed",
    )?;
    super::ratings::on_end(at.conn, game, &end, crate::store::columns::uint(at.now))
}

fn rate_game(at: &At<'_>, rated: &crate::store::ratings::RatedGame) -> Result<(), StoreError> {
    super::ratings::rate_game(at.conn, rated)
}

/// [`Write::Chat`]: only as the game's next line (the count is the index).
fn chat(at: &At<'_>, game: &str, line: &ChatLine) -> Result<(), StoreError> {
    let n = at
        .conn
        .execute(
            "INSERT INTO chat (game, idx, side, text, at_ms)
             SELECT ?1, ?2, ?3, ?4, ?5 FROM games
             WHERE id = ?1 AND (SELECT count(*) FROM chat WHERE game = ?1) = ?2",
            params![
                game,
                int(line.index),
                line.by.name(),
                line.text,
                int(line.at_ms)
            ],
        )
        .map_err(|e| stored_already(e, || format!("chat line {} is stored", line.index)))?;
    conflict_unless(n as u64, "no such game, or its chat has moved on")
}

/// [`Write::SeatTokens`]: only if the seat's further tokens are still
/// `was` (`columns.rs`, `seat_tokens_sql`).
fn seat_tokens(
    at: &At<'_>,
    game: &str,
    side: Color,
    (devices, was): (&[TokenHash], &[TokenHash]),
) -> Result<(), StoreError> {
    let n = at
        .conn
        .execute(
            &seat_tokens_sql(side),
            params![devices_param(devices), game, devices_param(was)],
        )
        .map_err(backend)?;
    conflict_unless(n as u64, "no such seat, or its devices changed")
}
