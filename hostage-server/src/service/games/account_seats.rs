//! The seats of logged-in players: a connection with an account takes its
//! seats with the account's seat tokens (`domain/account.rs`,
//! [`SeatOwner::seat_token`](crate::domain::account::SeatOwner::seat_token)) and under its username, lists them in the
//! account store, and joining a game where its account holds a seat gives
//! it that seat back, on any device, with no link kept. A connection
//! without an account plays exactly as before.

use std::sync::Arc;

use hostage_core::Color;

use super::{random_failed, Conn, Hub};
use crate::{
    domain::names::DisplayName, domain::refusal::ProtoError, domain::room::Room,
    store::accounts::AccountStore, store::ids,
};

impl Hub {
    /// Lists the seats of logged-in connections in `accounts` from now on.
    /// Set once (a second call does nothing).
    pub fn list_seats_in(&self, accounts: Arc<dyn AccountStore>) {
        let _ = self.accounts.set(accounts);
    }

    /// For `join` on `conn` in `room`: the seat's token (the account's for
    /// a logged-in connection, else a new one), the name the seat gets
    /// (the username when logged in), and the seat the account already
    /// holds in the game, if any (then nothing is to be taken).
    pub(super) fn account_join(
        &self,
        conn: &Conn,
        room: &Room,
        name: Option<DisplayName>,
    ) -> Result<(String, Option<DisplayName>, Option<Color>), ProtoError> {
        let Some(owner) = conn.account.as_deref() else {
            let token = ids::token().map_err(|_| random_failed())?;
            return Ok((token, name, None));
        };
        let token = owner.seat_token(room.id());
        let held = room.seat(Some(&token)).ok();
        Ok((token, Some(owner.name.clone()), held))
    }

    /// Lists `side` of `game` among the seats of `conn`'s account, if it
    /// is logged in. A failure is logged: the seat is taken and plays by
    /// its token all the same, it is only missing from the account's list.
    pub(super) async fn list_seat(&self, conn: &Conn, game: &str, side: Color) {
        let (Some(owner), Some(accounts)) = (conn.account.as_deref(), self.accounts.get()) else {
            return;
        };
        list(accounts.as_ref(), &owner.account, game, side).await;
    }

    /// Lists `side` of `game` among the seats of `account`: a lobby
    /// challenge's logged-in creator, whose seat was drawn before the game
    /// existed and who may be connected to another server.
    pub(super) async fn list_seat_of(&self, account: &str, game: &str, side: Color) {
        if let Some(accounts) = self.accounts.get() {
            list(accounts.as_ref(), account, game, side).await;
        }
    }
}

async fn list(accounts: &dyn AccountStore, account: &str, game: &str, side: Color) {
    let at = crate::domain::time::now_ms();
    if let Err(e) = accounts.add_seat(account, game, side, at).await {
        tracing::warn!(game, error = %e, "an account's seat was not listed");
    }
}
