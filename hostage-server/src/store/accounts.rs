//! The [`AccountStore`] trait: accounts, their sessions and the seats they
//! hold, and the SQL both stores share for them.
//!
//! Policy: a password is stored only as its Argon2id PHC string, a session
//! only as the SHA-256 digest of its token ([`TokenHash`], as seat tokens
//! are). Each kind of change is one function, one transaction: a password
//! changed ends the account's other sessions in the same transaction, a
//! closed account ends all of them. The username's key (its lower case) is
//! unique in the database itself, so two sign-ups racing for one name on
//! two servers end in one account and one `Conflict`. A closed account's
//! row is kept (its name stays taken, its games keep it).
//!
//! The statements are written once here, with `$1`, `$2`, ... first used
//! in that order in the text (SQLite numbers `$N` by first appearance,
//! PostgreSQL by N: the two agree only so); only the tables' declarations differ (`sqlite/accounts.rs`,
//! `postgres/accounts.rs`).

use hostage_core::Color;

use crate::{
    domain::TokenHash,
    store::{puzzles::PuzzleStore, StoreError, StoreFuture},
};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRecord {
    /// The account's id (random, never shown as a name).
    pub id: String,
    /// The username as typed at sign-up.
    pub username: String,
    /// The Argon2id PHC string of the password.
    pub password: String,
    /// When it was made, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// When it was closed, if it was.
    pub closed_ms: Option<u64>,
}

/// A new account to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAccount {
    /// The record (not closed).
    pub account: AccountRecord,
    /// The username's key (lower case), unique.
    pub key: String,
}

/// A seat an account holds in a game that goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountGame {
    /// The game's id.
    pub game: String,
    /// The account's seat.
    pub side: Color,
    /// Moves played so far.
    pub plies: u64,
    /// Whether both seats are taken.
    pub started: bool,
    /// The opponent's name, if given.
    pub opponent: Option<String>,
    /// The game's last change, milliseconds since the Unix epoch.
    pub updated_ms: u64,
    /// Its time control and stored time (`domain/timing.rs`).
    pub timing: crate::domain::timing::GameTiming,
}

/// Where accounts and sessions are kept (and, by the same store, the
/// accounts' puzzle ratings: [`PuzzleStore`]).
pub trait AccountStore: PuzzleStore + Send + Sync + 'static {
    /// Stores a new account; [`StoreError::Conflict`] if its key is taken.
    fn create_account(&self, new: NewAccount) -> StoreFuture<'_, ()>;

    /// The account whose username's key is `key`, open or closed.
    fn account_by_key<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<AccountRecord>>;

    /// The open account of the session with this digest, if the session
    /// exists and has not expired at `now_ms`.
    fn account_by_session(
        &self,
        session: TokenHash,
        now_ms: u64,
    ) -> StoreFuture<'_, Option<AccountRecord>>;

    /// Stores a session of `account` until `expires_ms`.
    fn create_session<'a>(
        &'a self,
        session: TokenHash,
        account: &'a str,
        created_ms: u64,
        expires_ms: u64,
    ) -> StoreFuture<'a, ()>;

    /// Ends one session (nothing if there is none).
    fn end_session(&self, session: TokenHash) -> StoreFuture<'_, ()>;

    /// Ends every session of `account` but `keep`; how many ended.
    fn end_sessions<'a>(
        &'a self,
        account: &'a str,
        keep: Option<TokenHash>,
    ) -> StoreFuture<'a, u64>;

    /// Sets the password of `account` (a PHC string) and ends every other
    /// session of it but `keep`, in one transaction.
    fn set_password<'a>(
        &'a self,
        account: &'a str,
        phc: &'a str,
        keep: TokenHash,
    ) -> StoreFuture<'a, ()>;

    /// Closes `account` at `at_ms` and ends all its sessions, in one
    /// transaction; [`StoreError::Conflict`] if it was closed already.
    fn close_account<'a>(&'a self, account: &'a str, at_ms: u64) -> StoreFuture<'a, ()>;

    /// Records that `account` holds the seat `side` of `game` (again:
    /// nothing changes).
    fn add_seat<'a>(
        &'a self,
        account: &'a str,
        game: &'a str,
        side: Color,
        at_ms: u64,
    ) -> StoreFuture<'a, ()>;

    /// The seat `account` holds in `game`, if it holds one
    /// ([`AccountStore::add_seat`]).
    fn seat_of_account<'a>(
        &'a self,
        account: &'a str,
        game: &'a str,
    ) -> StoreFuture<'a, Option<Color>>;

    /// The games that go on in which `account` holds a seat, the last
    /// changed first.
    fn ongoing_games<'a>(&'a self, account: &'a str) -> StoreFuture<'a, Vec<AccountGame>>;
}

/// The accounts' tables, one text for both databases: SQLite reads a
/// `BIGINT` column as an integer one (its type affinity rule: any declared
/// type containing "INT"), stored alike whatever the declared name.
pub(crate) const ACCOUNTS_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS accounts (
    id           TEXT PRIMARY KEY,
    username     TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE, -- the username in lower case
    password     TEXT NOT NULL,        -- Argon2id, a PHC string
    created_ms   BIGINT NOT NULL,
    closed_ms    BIGINT
);
CREATE TABLE IF NOT EXISTS sessions (
    token      TEXT PRIMARY KEY, -- the SHA-256 of the session's token, in hex
    account    TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account);
CREATE TABLE IF NOT EXISTS account_seats (
    account TEXT NOT NULL REFERENCES accounts (id),
    game    TEXT NOT NULL,
    side    TEXT NOT NULL,
    at_ms   BIGINT NOT NULL,
    PRIMARY KEY (account, game, side)
);
";

/// The columns of an account, in [`AccountRecord`]'s order.
pub(crate) const ACCOUNT_COLUMNS: &str = "a.id, a.username, a.password, a.created_ms, a.closed_ms";

/// Inserts an account: id, username, key, password, created.
pub(crate) const INSERT_ACCOUNT: &str = "INSERT INTO accounts
    (id, username, username_key, password, created_ms)
    VALUES ($1, $2, $3, $4, $5)";

/// An account by its username's key.
pub(crate) fn account_by_key_sql() -> String {
    format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.username_key = $1")
}

/// The open account of a session not expired at `$2`.
pub(crate) fn account_by_session_sql() -> String {
    format!(
        "SELECT {ACCOUNT_COLUMNS} FROM sessions s JOIN accounts a ON a.id = s.account
         WHERE s.token = $1 AND s.expires_ms > $2 AND a.closed_ms IS NULL"
    )
}

/// Inserts a session: token digest, account, created, expires.
pub(crate) const INSERT_SESSION: &str =
    "INSERT INTO sessions (token, account, created_ms, expires_ms) VALUES ($1, $2, $3, $4)";

/// Deletes one session.
pub(crate) const DELETE_SESSION: &str = "DELETE FROM sessions WHERE token = $1";

/// Deletes an account's sessions but one (`$2`, which may be null; typed
/// by a cast, since PostgreSQL cannot type a parameter tested for null).
pub(crate) const DELETE_OTHER_SESSIONS: &str = "DELETE FROM sessions
    WHERE account = $1 AND (CAST($2 AS TEXT) IS NULL OR token <> CAST($2 AS TEXT))";

/// Deletes every session of an account.
pub(crate) const DELETE_ALL_SESSIONS: &str = "DELETE FROM sessions WHERE account = $1";

/// Sets an open account's password: the PHC string, the account.
pub(crate) const SET_PASSWORD: &str =
    "UPDATE accounts SET password = $1 WHERE id = $2 AND closed_ms IS NULL";

/// Closes an open account: the time, the account.
pub(crate) const CLOSE_ACCOUNT: &str =
    "UPDATE accounts SET closed_ms = $1 WHERE id = $2 AND closed_ms IS NULL";

/// Records a seat (a seat recorded already is kept as it was).
pub(crate) const INSERT_SEAT: &str = "INSERT INTO account_seats (account, game, side, at_ms)
    VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";

/// The seat the account holds in a game (at most one: a connection of the
/// account joining its game gets that seat back).
pub(crate) const SEAT_OF_ACCOUNT: &str =
    "SELECT side FROM account_seats WHERE account = $1 AND game = $2 ORDER BY at_ms LIMIT 1";

/// The games that go on with a seat of the account: id, side, plies,
/// both seats taken, the opponent's name, last change, then the time
/// columns (`columns.rs`, `TIMING_COLUMNS`).
pub(crate) const ONGOING_GAMES: &str = "SELECT s.game, s.side,
        (SELECT count(*) FROM moves m WHERE m.game = g.id),
        g.white_token IS NOT NULL AND g.black_token IS NOT NULL,
        CASE WHEN s.side = 'white' THEN g.black_name ELSE g.white_name END,
        g.updated_ms,
        g.initial_ms, g.increment_ms, g.white_ms, g.black_ms, g.days, g.deadline_ms
    FROM account_seats s JOIN games g ON g.id = s.game
    WHERE s.account = $1 AND g.termination IS NULL
    ORDER BY g.updated_ms DESC, s.game
    LIMIT 200";

/// The conflict of a sign-up whose name is taken.
pub(crate) fn name_taken() -> StoreError {
    StoreError::Conflict("the username is taken".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of `$N` in the order of their first appearance.
    fn first_uses(sql: &str) -> Vec<u32> {
        let mut seen = Vec::new();
        let mut rest = sql;
        while let Some(at) = rest.find('$') {
            rest = &rest[at + 1..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse::<u32>() {
                if !seen.contains(&n) {
                    seen.push(n);
                }
            }
        }
        seen
    }

    #[test]
    fn parameters_are_first_used_in_their_order() {
        // SQLite numbers `$N` by first appearance: `$2` before `$1` would
        // bind the values the other way round there, and not in PostgreSQL.
        assert_eq!(first_uses("x = $2 AND y = $1"), [2, 1]);
        for sql in [
            INSERT_ACCOUNT,
            &account_by_key_sql(),
            &account_by_session_sql(),
            INSERT_SESSION,
            DELETE_SESSION,
            DELETE_OTHER_SESSIONS,
            DELETE_ALL_SESSIONS,
            SET_PASSWORD,
            CLOSE_ACCOUNT,
            INSERT_SEAT,
            SEAT_OF_ACCOUNT,
            ONGOING_GAMES,
        ] {
            let uses = first_uses(sql);
            let ordered: Vec<u32> = (1..=u32::try_from(uses.len()).unwrap()).collect();
            assert_eq!(uses, ordered, "{sql}");
        }
    }
}
