//! The PostgreSQL store's writes: one function per kind of [`Write`],
//! each inside the write's transaction (or savepoint, `group.rs`), the
//! game's row locked by its first statement so that two instances' writes
//! of one game are ordered.

use tokio_postgres::Transaction;

use hostage_core::Color;

use super::{at_ply, backend, write_error, GameRow, SeatRow, INSERT_GAME, TAKE_SEAT};
use crate::{
    domain::chat::ChatLine,
    domain::{names::DisplayName, End, TokenHash},
    store::{
        apply_write,
        columns::{
            clock_params, conflict_unless, devices_param, end_params, int, seat_tokens_sql, uint,
        },
        NewGame, Seen, StoreError, StoredClocks, Write,
    },
};

/// The transaction a write runs in, and the time it is stored.
struct At<'a, 't> {
    tx: &'a Transaction<'t>,
    now: i64,
}

/// Applies one write inside `tx`.
pub(super) async fn apply(tx: &Transaction<'_>, write: &Write) -> Result<(), StoreError> {
    let at = At {
        tx,
        now: int(crate::domain::time::now_ms()),
    };
    apply_write!(write, &at; .await)
}

/// [`Write::CreateGame`].
async fn create(at: &At<'_, '_>, new: &NewGame) -> Result<(), StoreError> {
    insert_game(at.tx, new, at.now).await
}

/// [`Write::TakeSeat`]: one statement ([`TAKE_SEAT`]), its conflict a
/// count of 0.
async fn take_seat(
    at: &At<'_, '_>,
    game: &String,
    (side, token): (Color, &TokenHash),
    clocks: (StoredClocks, Option<u64>),
    name: Option<&DisplayName>,
) -> Result<(), StoreError> {
    let seat = SeatRow::new(game, side, token, clocks, name, at.now);
    let n = at
        .tx
        .execute(*TAKE_SEAT.get(seat.side), &seat.params())
        .await
        .map_err(|e| backend(&e))?;
    SeatRow::taken(n)
}

/// Inserts a new game inside `tx` ([`INSERT_GAME`]).
async fn insert_game(tx: &Transaction<'_>, new: &NewGame, now: i64) -> Result<(), StoreError> {
    let row = GameRow::of(new, now);
    let n = tx
        .execute(INSERT_GAME, &row.params())
        .await
        .map_err(|e| backend(&e))?;
    row.stored(n)
}

/// [`Write::Rematch`]: links the finished game to its rematch and creates it.
async fn rematch(at: &At<'_, '_>, game: &String, new: &NewGame) -> Result<(), StoreError> {
    let n = at
        .tx
        .execute(
            "UPDATE games SET rematch = $2, updated_ms = $3, version = version + 1
             WHERE id = $1 AND termination IS NOT NULL AND rematch IS NULL",
            &[game, &new.id, &at.now],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(n, "the game goes on, or has a rematch")?;
    insert_game(at.tx, new, at.now).await
}

/// [`Write::Move`]: the move `(ply, uci)`, only at the next ply of a game
/// that goes on with both seats taken. The row lock taken by the update
/// orders two instances' moves of one game; the primary key refuses the
/// second at the same ply.
async fn play(
    at: &At<'_, '_>,
    game: &String,
    (ply, uci): (u64, &String),
    (clocks, at_ms, deadline): (StoredClocks, u64, Option<u64>),
    end: Option<End>,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let deadline = deadline.map(int);
    let (termination, winner) = end_params(end);
    let n = at
        .tx
        .execute(
            "UPDATE games SET white_ms = coalesce($2, white_ms), black_ms = coalesce($3, black_ms),
                draw_offer = NULL, takeback = NULL, termination = $4, winner = $5,
                updated_ms = $6, version = version + 1, deadline_ms = coalesce($7, deadline_ms)
             WHERE id = $1 AND termination IS NULL
               AND white_token IS NOT NULL AND black_token IS NOT NULL",
            &[game, &w, &b, &termination, &winner, &int(at_ms), &deadline],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(n, "the game has ended or waits for a player")?;
    at_ply(at.tx, game, ply).await?;
    if let Some(end) = &end {
        super::ratings::on_end(at.tx, game, end, at_ms).await?;
    }
    at.tx
        .execute(
            "INSERT INTO moves (game, ply, uci, white_ms, black_ms, at_ms, deadline_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[game, &int(ply), uci, &w, &b, &int(at_ms), &deadline],
        )
        .await
        .map_err(|e| write_error(&e, &format!("ply {ply} is stored")))?;
    Ok(())
}

/// [`Write::DrawOffer`] and [`Write::TakebackOffer`]: the offer kept in
/// `column` (`draw_offer`, `takeback`) becomes `by`, only if it is still
/// `standing` and the game is still at `seen.ply`.
async fn offer(
    at: &At<'_, '_>,
    game: &String,
    (column, what): (&str, &str),
    (by, standing): (Option<Color>, Option<Color>),
    clocks: StoredClocks,
    seen: Seen,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let n = at
        .tx
        .execute(
            &format!(
                "UPDATE games SET {column} = $2, white_ms = coalesce($3, white_ms),
                    black_ms = coalesce($4, black_ms), updated_ms = $5, version = version + 1
                 WHERE id = $1 AND termination IS NULL AND {column} IS NOT DISTINCT FROM $6"
            ),
            &[
                game,
                &by.map(Color::name),
                &w,
                &b,
                &at.now,
                &standing.map(Color::name),
            ],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(n, &format!("the game has ended or its {what} changed"))?;
    at_ply(at.tx, game, seen.ply).await
}

/// [`Write::TakeBack`]: the request of `by` accepted, the moves from `ply`
/// on deleted with it. The row lock taken by the update orders the
/// takeback and a racing move of another instance: whichever is second
/// finds the game changed (a ply more, or the request gone) and fails.
async fn take_back(
    at: &At<'_, '_>,
    game: &String,
    (by, ply): (Color, u64),
    (clocks, deadline): (StoredClocks, Option<u64>),
    seen: Seen,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let deadline = deadline.map(int);
    let n = at
        .tx
        .execute(
            "UPDATE games SET takeback = NULL, draw_offer = NULL,
                white_ms = coalesce($2, white_ms), black_ms = coalesce($3, black_ms),
                updated_ms = $4, version = version + 1, takebacks = takebacks + 1,
                deadline_ms = coalesce($6, deadline_ms)
             WHERE id = $1 AND termination IS NULL AND takeback = $5",
            &[game, &w, &b, &at.now, &by.name(), &deadline],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(n, "the game has ended or its takeback request changed")?;
    at_ply(at.tx, game, seen.ply).await?;
    let gone = at
        .tx
        .execute(
            "DELETE FROM moves WHERE game = $1 AND ply >= $2",
            &[game, &int(ply)],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(
        u64::from(gone == seen.ply.saturating_sub(ply) && gone > 0),
        "the moves to take back are not the last ones",
    )
}

/// [`Write::Finish`]: an ending without a move, only if the game is still
/// as `seen`.
async fn finish(
    at: &At<'_, '_>,
    game: &String,
    end: End,
    clocks: StoredClocks,
    seen: Seen,
) -> Result<(), StoreError> {
    let (w, b) = clock_params(clocks);
    let (termination, winner) = end_params(Some(end));
    let n = at
        .tx
        .execute(
            "UPDATE games SET white_ms = coalesce($2, white_ms), black_ms = coalesce($3, black_ms),
                draw_offer = NULL, takeback = NULL, termination = $4, winner = $5,
                updated_ms = $6, version = version + 1
             WHERE id = $1 AND termination IS NULL AND draw_offer IS NOT DISTINCT FROM $7",
            &[
                game,
                &w,
                &b,
                &termination,
                &winner,
                &at.now,
                &seen.draw_offer.map(Color::name),
            ],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(n, "the game has ended or its draw offer changed")?;
    at_ply(at.tx, game, seen.ply).await?;
    super::ratings::on_end(at.tx, game, &end, uint(at.now)).await
}

/// [`Write::RateGame`].
async fn rate_game(
    at: &At<'_, '_>,
    rated: &crate::store::ratings::RatedGame,
) -> Result<(), StoreError> {
    super::ratings::rate_game(at.tx, rated).await
}

/// [`Write::Chat`]: only as the game's next line. The game's row is locked
/// first, as every write of a game does, so that the count after it sees
/// every line committed before; the primary key refuses a second line at
/// one index anyway.
async fn chat(at: &At<'_, '_>, game: &String, line: &ChatLine) -> Result<(), StoreError> {
    let locked = at
        .tx
        .execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[game])
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(locked, "no such game")?;
    let count: i64 = at
        .tx
        .query_one("SELECT count(*) FROM chat WHERE game = $1", &[game])
        .await
        .map_err(|e| backend(&e))?
        .get(0);
    if uint(count) != line.index {
        return Err(StoreError::Conflict(format!(
            "the chat has {count} lines, not {}",
            line.index
        )));
    }
    at.tx
        .execute(
            "INSERT INTO chat (game, idx, side, text, at_ms) VALUES ($1, $2, $3, $4, $5)",
            &[
                game,
                &int(line.index),
                &line.by.name(),
                &line.text,
                &int(line.at_ms),
            ],
        )
        .await
        .map_err(|e| write_error(&e, &format!("chat line {} is stored", line.index)))?;
    Ok(())
}

/// [`Write::SeatTokens`]: only if the seat's further tokens are still
/// `was` (`columns.rs`, `seat_tokens_sql`); the update locks the row.
async fn seat_tokens(
    at: &At<'_, '_>,
    game: &String,
    side: Color,
    (devices, was): (&[TokenHash], &[TokenHash]),
) -> Result<(), StoreError> {
    let n = at
        .tx
        .execute(
            &seat_tokens_sql(side),
            &[&devices_param(devices), game, &devices_param(was)],
        )
        .await
        .map_err(|e| backend(&e))?;
    conflict_unless(n, "no such seat, or its devices changed")
}
