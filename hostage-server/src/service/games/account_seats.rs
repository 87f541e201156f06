//! The seats of logged-in players: a connection with an account takes a
//! seat with a random token like any other, under its username, and lists
//! it in the account store. Joining a game where its account holds a seat
//! gives the connection that seat back with a fresh token of its own, whose
//! digest the seat keeps beside its first token (`domain/room/devices.rs`):
//! so the account plays its games from any device where it is logged in,
//! with no link kept and no secret stored in clear. A connection without
//! an account plays exactly as before.

use std::sync::Arc;

use hostage_core::Color;

use super::{random_failed, storage_error, Conn, Hub};
use crate::{
    domain::names::DisplayName, domain::refusal::ProtoError, store::accounts::AccountStore,
    store::ids,
};

impl Hub {
    /// Lists the seats of logged-in connections in `accounts` from now on.
    /// Set once (a second call does nothing).
    pub fn list_seats_in(&self, accounts: Arc<dyn AccountStore>) {
        let _ = self.accounts.set(accounts);
    }

    /// For `join` on `conn` in `game`: a new token, the name the seat gets
    /// (the username when logged in), and the seat the connection's account
    /// already holds in the game, if any (then the token is a further token
    /// of that seat, and no seat is to be taken).
    ///
    /// # Errors
    ///
    /// `internal_error` (no random token), `storage_failed` (the account's
    /// seats could not be read: a second seat is never taken blindly).
    pub(super) async fn account_join(
        &self,
        conn: &Conn,
        game: &str,
        name: Option<DisplayName>,
    ) -> Result<(String, Option<DisplayName>, Option<Color>), ProtoError> {
        let token = ids::token().map_err(|_| random_failed())?;
        let Some(owner) = conn.account.as_deref() else {
            return Ok((token, name, None));
        };
        let held = match self.accounts.get() {
            Some(accounts) => accounts
                .seat_of_account(&owner.account, game)
                .await
                .map_err(|e| storage_error(&e))?,
            None => None,
        };
        Ok((token, Some(owner.name.clone()), held))
    }

    /// Lists `side` of `game` among the seats of `conn`'s account, if it
    /// is logged in. A failure is logged: the seat is taken and plays by
    /// its token all the same, it is only missing from the account's list
    /// (so from "Your games", and from the account's other devices).
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
