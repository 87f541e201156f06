//! Rated games in the game service (`docs/server.md`, Ratings): the
//! players' ratings a lobby pairing needs, the mark of a rated game
//! (stored before its second seat), and the ratings shown in `state` and
//! `game_over`. The update itself is the store's, in the write of the
//! game's result (`store/ratings.rs`); this file only reads it back.

use hostage_core::{ByColor, Color};

use super::{storage_error, Conn, Hub, Inner};
use crate::{
    domain::correspondence::Control,
    domain::lobby::Player,
    domain::rating::category::{Category, Pace},
    domain::rating::instant::{Perf, LICHESS},
    store::ratings::{RatedGame, RatingStore},
    store::{Store, Write},
    wire::protocol::ratings_wire::{shown, ChangeView, ShownRating},
    wire::protocol::{ErrorCode, GameState, Message, ProtoError},
};

/// What a rated game shows: each player's rating as the game began, and
/// the changes once it is over.
#[derive(Clone, Debug)]
pub(super) struct RatedShown {
    ratings: ByColor<ShownRating>,
    changes: Option<ByColor<ChangeView>>,
}

impl RatedShown {
    /// Each player's rating as the game began, for the PGN.
    pub(super) fn elo(&self) -> ByColor<u32> {
        self.ratings.map(|r| r.rating)
    }
}

/// `account`'s rating in `category` (the start for a category never played).
async fn perf_in(
    ratings: &dyn RatingStore,
    account: &str,
    category: Category,
) -> Result<Perf, ProtoError> {
    let perfs = ratings
        .perfs(account)
        .await
        .map_err(|e| storage_error(&e))?;
    Ok(perfs
        .into_iter()
        .find(|(c, _)| *c == category)
        .map_or_else(|| Perf::new(&LICHESS), |(_, p)| p))
}

/// Both players' ratings in `category` as shown now.
async fn shown_ratings(
    ratings: &dyn RatingStore,
    accounts: &ByColor<String>,
    category: Category,
) -> Result<ByColor<ShownRating>, ProtoError> {
    let now = crate::domain::time::now_ms();
    let white = perf_in(ratings, &accounts.white, category).await?;
    let black = perf_in(ratings, &accounts.black, category).await?;
    Ok(ByColor::new(shown(&white, now), shown(&black, now)))
}

fn not_kept() -> ProtoError {
    ProtoError::new(
        ErrorCode::InternalError,
        "this server's store keeps no ratings",
    )
}

impl Hub {
    /// The logged-in player of `conn` with its rating in the category of
    /// `control` (`None`: a guest, or an untimed game).
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub(crate) async fn player_for(
        &self,
        conn: &Conn,
        control: Control,
    ) -> Result<Option<Player>, ProtoError> {
        let category = Category::of(Pace::of_control(control));
        let (Some(owner), Some(category)) = (conn.account.as_deref(), category) else {
            return Ok(None);
        };
        let Some(ratings) = self.store.ratings() else {
            return Ok(None);
        };
        let perf = perf_in(ratings, &owner.account, category).await?;
        let seen = shown(&perf, crate::domain::time::now_ms());
        Ok(Some(Player {
            account: owner.account.clone(),
            rating: seen.rating,
            provisional: seen.provisional,
        }))
    }

    /// Marks `game` rated between `accounts` (stored before its second
    /// seat), and returns what its followers are shown.
    ///
    /// # Errors
    ///
    /// `storage_failed`, `internal_error` (a store without ratings).
    pub(super) async fn mark_rated(
        &self,
        game: &str,
        category: Category,
        accounts: ByColor<String>,
    ) -> Result<RatedShown, ProtoError> {
        let ratings = self.store.ratings().ok_or_else(not_kept)?;
        let shown_now = shown_ratings(ratings, &accounts, category).await?;
        let rated = RatedGame {
            game: game.to_string(),
            category,
            accounts,
        };
        self.store
            .write(Write::RateGame(rated))
            .await
            .map_err(|e| storage_error(&e))?;
        Ok(RatedShown {
            ratings: shown_now,
            changes: None,
        })
    }

    /// What a stored game shows of its ratings (`None`: unrated). A
    /// failed read is logged and shows nothing.
    pub(super) async fn rated_shown(&self, game: &str) -> Option<RatedShown> {
        let ratings = self.store.ratings()?;
        match read_shown(ratings, game).await {
            Ok(shown) => shown,
            Err(e) => {
                tracing::warn!(game, error = %e, "a game's ratings were not read");
                None
            }
        }
    }
}

async fn read_shown(
    ratings: &dyn RatingStore,
    game: &str,
) -> Result<Option<RatedShown>, ProtoError> {
    let Some(rated) = ratings.rated(game).await.map_err(|e| storage_error(&e))? else {
        return Ok(None);
    };
    let changes = ratings.changes(game).await.map_err(|e| storage_error(&e))?;
    let mut shown_now = shown_ratings(ratings, &rated.accounts, rated.category).await?;
    if let Some(c) = &changes {
        // A game over shows the ratings it began with.
        for side in Color::ALL {
            let before = ChangeView::from(*c.get(side)).before;
            shown_now.get_mut(side).rating = u32::try_from(before.max(0)).unwrap_or(0);
        }
    }
    Ok(Some(RatedShown {
        ratings: shown_now,
        changes: changes.map(|c| c.map(ChangeView::from)),
    }))
}

/// `state` with a rated game's ratings.
pub(super) fn with_ratings(state: &mut GameState, rated: Option<&RatedShown>) {
    if let Some(r) = rated {
        state.rated = true;
        state.ratings = Some(r.ratings.into());
        state.rating_changes = r.changes.map(Into::into);
    }
}

/// After a rated game's result is stored: reads its rating changes and
/// puts them into its `game_over`.
pub(super) async fn rate_messages(store: &dyn Store, inner: &mut Inner, messages: &mut [Message]) {
    let (Some(rated), Some(ratings)) = (inner.rated.as_mut(), store.ratings()) else {
        return;
    };
    if !messages
        .iter()
        .any(|m| matches!(m, Message::GameOver { .. }))
    {
        return;
    }
    if rated.changes.is_none() {
        match ratings.changes(inner.room.id()).await {
            Ok(changes) => rated.changes = changes.map(|c| c.map(ChangeView::from)),
            Err(e) => tracing::warn!(error = %e, "a game's rating changes were not read"),
        }
    }
    for message in messages {
        if let Message::GameOver { ratings, .. } = message {
            *ratings = rated.changes.map(Into::into);
        }
    }
}

impl Hub {
    /// The ratings this server's store keeps (`None`: it keeps none).
    #[must_use]
    pub fn rating_store(&self) -> Option<&dyn RatingStore> {
        self.store.ratings()
    }

    /// The PGN of the stored game `game` (read from the store, not kept
    /// in memory), with its Elo tags; `None` if there is no such game.
    ///
    /// # Errors
    ///
    /// `storage_failed`, `internal_error` (a stored game that does not
    /// replay).
    pub async fn archived_pgn(
        &self,
        game: &str,
        site: Option<&str>,
    ) -> Result<Option<String>, ProtoError> {
        let Some(stored) = self.store.load(game).await.map_err(|e| storage_error(&e))? else {
            return Ok(None);
        };
        let room = crate::domain::room::Room::restore(stored, std::time::Instant::now()).map_err(
            |_| ProtoError::new(ErrorCode::InternalError, "the stored game does not replay"),
        )?;
        let elo = match self.store.ratings() {
            Some(ratings) => read_shown(ratings, game).await?.map(|r| r.elo()),
            None => None,
        };
        Ok(Some(room.pgn_rated(site, elo)))
    }
}

impl Hub {
    /// Marks the game of a rated `challenge` rated between its creator's
    /// account (seated on `creator`) and the accepter's (`conn`).
    pub(super) async fn rate_challenge(
        &self,
        conn: &Conn,
        challenge: &crate::domain::lobby::Challenge,
        creator: Color,
        game: &str,
    ) -> Result<Option<RatedShown>, ProtoError> {
        if !challenge.terms.rated {
            return Ok(None);
        }
        let made_by = challenge.terms.creator.as_ref();
        let control = (challenge.clock, challenge.days);
        let category = Category::of(Pace::of_control(control));
        let (Some(made_by), Some(taker), Some(category)) =
            (made_by, conn.account.as_deref(), category)
        else {
            return Err(ProtoError::new(
                ErrorCode::RatedNeedsAccounts,
                "a rated game needs two logged-in players and a clock or days per move",
            ));
        };
        let mut accounts = ByColor::new(made_by.account.clone(), made_by.account.clone());
        *accounts.get_mut(creator.other()) = taker.account.clone();
        self.mark_rated(game, category, accounts).await.map(Some)
    }
}
