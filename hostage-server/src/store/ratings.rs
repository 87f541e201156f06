//! Ratings as stored: which games are rated ([`RatedGame`]), each
//! account's rating per category, and a history row per rated game, with
//! the [`RatingStore`] trait that reads them. SQL text shared by both
//! stores is here (PostgreSQL's `$N`, which SQLite reads as the N-th
//! parameter when each first appears in order); `sqlite/ratings.rs` and
//! `postgres/ratings.rs` run it.
//!
//! Policy (`docs/server.md`, Ratings):
//! - a game is marked rated by [`crate::store::Write::RateGame`] before
//!   its second player is seated, so the mark is stored before any move;
//! - the rating update is **part of the write that stores the game's
//!   result** (a move that ends it, or an ending): the same transaction,
//!   after that write's condition held. A write whose condition fails
//!   (the result was stored already, by this server or another) changes
//!   no rating, so a result is counted once; a server killed before the
//!   commit stored neither the result nor the update;
//! - an aborted game is unrated ([`crate::domain::rating::rateable::counts`]);
//! - the update is the instant Glicko-2 of `domain/rating/instant.rs`
//!   with lichess's parameters ([`crate::domain::rating::instant::LICHESS`]).

use hostage_core::{ByColor, Color};

use crate::{
    domain::rating::category::Category,
    domain::rating::glicko2::Rating,
    domain::rating::instant::{update, Perf, LICHESS},
    domain::rating::rateable::counts,
    domain::End,
    store::{StoreError, StoreFuture},
};

/// A rated game: its category and the accounts in its seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// The game's id.
    pub game: String,
    /// Its rating category.
    pub category: Category,
    /// The account id in each seat.
    pub accounts: ByColor<String>,
}

/// One player's rating moved by one rated game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// One row of a player's rating history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// The category.
    pub category: Category,
    /// When the game's result was stored.
    pub at_ms: u64,
    /// The rating after the game.
    pub rating: f64,
}

/// Where ratings are read (they are written only with a game's result).
pub trait RatingStore: Send + Sync + 'static {
    /// The rated game `game`, if it is one.
    fn rated<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<RatedGame>>;

    /// Every stored rating of `account` (categories never played are absent).
    fn perfs<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<(Category, Perf)>>;

    /// How the game `game` moved each player's rating, once its result is
    /// stored (`None`: unrated, aborted, or not over).
    fn changes<'a>(&'a self, game: &'a str) -> StoreFuture<'a, Option<ByColor<RatingChange>>>;

    /// `account`'s rating after each of its rated games, oldest first.
    fn history<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<HistoryPoint>>;

    /// `account`'s finished games that ended before `before_ms`, newest
    /// first, at most `limit`.
    fn player_games<'a>(
        &'a self,
        account: &'a str,
        before_ms: u64,
        limit: u32,
    ) -> StoreFuture<'a, Vec<PlayerGame>>;

    /// The open accounts with at least `min_games` rated games in
    /// `category`, highest rating first, at most `limit`.
    fn leaders(
        &self,
        category: Category,
        min_games: u32,
        limit: u32,
    ) -> StoreFuture<'_, Vec<(String, Perf)>>;
}

/// One finished game of a player, as the archive lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerGame {
    /// The game's id.
    pub game: String,
    /// The player's seat.
    pub side: Color,
    /// The opponent's display name, if any.
    pub opponent: Option<String>,
    /// How it ended (`termination` names).
    pub termination: String,
    /// The winner (`None`: a draw, or no result).
    pub winner: Option<Color>,
    /// The time control (`None`: untimed).
    pub clock: Option<crate::domain::ClockSpec>,
    /// Whether it was rated.
    pub rated: bool,
    /// When its result was stored.
    pub ended_ms: u64,
}

/// A player's finished games: account, before, limit. Each row: id,
/// side, opponent's name, termination, winner, initial, increment,
/// updated, rated (0 or 1).
pub(crate) const SELECT_PLAYER_GAMES: &str = "SELECT g.id, s.side,
        CASE WHEN s.side = 'white' THEN g.black_name ELSE g.white_name END,
        g.termination, g.winner, g.initial_ms, g.increment_ms, g.updated_ms,
        CASE WHEN r.game IS NULL THEN 0 ELSE 1 END
     FROM account_seats s JOIN games g ON g.id = s.game
     LEFT JOIN rated_games r ON r.game = g.id
     WHERE s.account = $1 AND g.termination IS NOT NULL AND g.updated_ms < $2
     ORDER BY g.updated_ms DESC, g.id DESC LIMIT $3";

/// The leaders of a category: category, least games, limit. Each row:
/// username, rating, deviation, volatility, games, last.
pub(crate) const SELECT_LEADERS: &str =
    "SELECT a.username, r.rating, r.deviation, r.volatility, r.games, r.last_ms
     FROM ratings r JOIN accounts a ON a.id = r.account
     WHERE r.category = $1 AND r.games >= $2 AND a.closed_ms IS NULL
     ORDER BY r.rating DESC, a.username_key LIMIT $3";

/// A row of [`SELECT_PLAYER_GAMES`] read back.
#[allow(clippy::type_complexity)]
pub(crate) fn player_game_of(
    row: (
        String,
        String,
        Option<String>,
        String,
        Option<String>,
        (Option<i64>, Option<i64>),
        i64,
        i64,
    ),
) -> Result<PlayerGame, StoreError> {
    let (game, side, opponent, termination, winner, (initial, increment), updated, rated) = row;
    let color = |name: String| {
        crate::domain::color_named(&name)
            .ok_or_else(|| StoreError::Corrupt(format!("side {name:?}")))
    };
    Ok(PlayerGame {
        game,
        side: color(side)?,
        opponent,
        termination,
        winner: winner.map(color).transpose()?,
        clock: initial
            .zip(increment)
            .map(|(i, n)| crate::domain::ClockSpec {
                initial_ms: crate::store::columns::uint(i),
                increment_ms: crate::store::columns::uint(n),
            }),
        rated: rated != 0,
        ended_ms: crate::store::columns::uint(updated),
    })
}

/// The tables, in words both databases accept (`DOUBLE PRECISION` is a
/// real in SQLite, `BIGINT` an integer).
pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rated_games (
    game          TEXT PRIMARY KEY,
    category      TEXT NOT NULL,
    white_account TEXT NOT NULL,
    black_account TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    account    TEXT NOT NULL,
    category   TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    last_ms    BIGINT,
    PRIMARY KEY (account, category)
);
CREATE TABLE IF NOT EXISTS rating_history (
    account   TEXT NOT NULL,
    category  TEXT NOT NULL,
    game      TEXT NOT NULL,
    side      TEXT NOT NULL,
    before    DOUBLE PRECISION NOT NULL,
    after     DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at_ms     BIGINT NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE INDEX IF NOT EXISTS rating_history_game ON rating_history (game);
";

/// Marks a game rated: game, category, white's account, black's account;
/// only a game that exists, has not ended and has a free seat.
pub(crate) const INSERT_RATED: &str =
    "INSERT INTO rated_games (game, category, white_account, black_account)
     SELECT $1, $2, $3, $4 FROM games
     WHERE id = $1 AND termination IS NULL
       AND (white_token IS NULL OR black_token IS NULL)";

/// A rated game's category and accounts.
pub(crate) const SELECT_RATED: &str =
    "SELECT category, white_account, black_account FROM rated_games WHERE game = $1";

/// An account's stored rating in a category.
pub(crate) const SELECT_PERF: &str =
    "SELECT rating, deviation, volatility, games, last_ms FROM ratings
     WHERE account = $1 AND category = $2";

/// Every stored rating of an account.
pub(crate) const SELECT_PERFS: &str =
    "SELECT category, rating, deviation, volatility, games, last_ms FROM ratings
     WHERE account = $1";

/// Stores an account's rating in a category (made or replaced).
pub(crate) const UPSERT_PERF: &str =
    "INSERT INTO ratings (account, category, rating, deviation, volatility, games, last_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (account, category) DO UPDATE SET rating = excluded.rating,
        deviation = excluded.deviation, volatility = excluded.volatility,
        games = excluded.games, last_ms = excluded.last_ms";

/// One history row: account, category, game, side, before, after,
/// deviation, time.
pub(crate) const INSERT_HISTORY: &str =
    "INSERT INTO rating_history (account, category, game, side, before, after, deviation, at_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// A game's history rows: side, before, after, deviation.
pub(crate) const SELECT_CHANGES: &str =
    "SELECT side, before, after, deviation FROM rating_history WHERE game = $1";

/// An account's history: category, time, rating after.
pub(crate) const SELECT_HISTORY: &str =
    "SELECT category, at_ms, after FROM rating_history WHERE account = $1
     ORDER BY at_ms, game";

/// A stored category name read back.
pub(crate) fn category_of(name: &str) -> Result<Category, StoreError> {
    Category::named(name).ok_or_else(|| StoreError::Corrupt(format!("category {name:?}")))
}

/// A ratings row read back (rating, deviation, volatility, games, last).
pub(crate) fn perf_of(row: (f64, f64, f64, i64, Option<i64>)) -> Perf {
    let (rating, deviation, volatility, games, last) = row;
    Perf {
        glicko: Rating {
            rating,
            deviation,
            volatility,
        },
        games: u32::try_from(games).unwrap_or(u32::MAX),
        last_rated_ms: last.map(crate::store::columns::uint),
    }
}

/// What a game's result does to its players' ratings: `None` if the
/// result does not count (an abort); else each side's rating before and after.
pub(crate) fn after_end(
    before: ByColor<Perf>,
    end: &End,
    now_ms: u64,
) -> Option<ByColor<(Perf, Perf)>> {
    counts(end).ok()?;
    let after = update(before, end.winner, now_ms, &LICHESS);
    Some(ByColor::new_with(|side: Color| {
        (*before.get(side), *after.get(side))
    }))
}

/// The history rows' changes read back as one per side.
pub(crate) fn changes_of(
    rows: Vec<(String, f64, f64, f64)>,
) -> Result<Option<ByColor<RatingChange>>, StoreError> {
    let mut sides: ByColor<Option<RatingChange>> = ByColor::default();
    for (side, before, after, deviation) in rows {
        let side = crate::domain::color_named(&side)
            .ok_or_else(|| StoreError::Corrupt(format!("side {side:?}")))?;
        *sides.get_mut(side) = Some(RatingChange {
            before,
            after,
            deviation,
        });
    }
    Ok(match (sides.white, sides.black) {
        (Some(w), Some(b)) => Some(ByColor::new(w, b)),
        _ => None,
    })
}
