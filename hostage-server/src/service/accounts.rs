//! The account service: sign-up, login, sessions, password changes and
//! closing, on the domain's rules (`domain/account.rs`) and the account
//! store (`store/accounts.rs`).
//!
//! Policy:
//! - Passwords are hashed (Argon2id, `domain/account/password.rs`) on the
//!   blocking threads, at most [`HASHING_AT_ONCE`] at a time (each takes
//!   19 MiB and tens of milliseconds); a request waits its turn.
//! - A login whose name has no account verifies the password against a
//!   dummy hash made once with the same parameters, so that an unknown
//!   name and a wrong password take the same work and get the same answer
//!   (`invalid_credentials`); a closed account answers so too.
//! - The throttle (`domain/account/throttle.rs`) is asked before any
//!   hashing: a refused attempt costs no hash and stores nothing.
//! - A session is 32 random bytes (64 hex characters) given once, in the
//!   cookie; the store keeps its SHA-256 digest. It lasts
//!   [`AccountOptions::session_ms`] (30 days) from the login.

use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::Semaphore;

use crate::{
    domain::account::{
        check_password, password,
        throttle::{Throttle, ThrottleRules},
        AccountError, AccountRefusal, SeatOwner, Username,
    },
    domain::names::DisplayName,
    domain::time::now_ms,
    domain::TokenHash,
    store::accounts::{AccountGame, AccountRecord, AccountStore, NewAccount},
    store::{ids, StoreError},
};

/// Password hashes computed at once, at most.
pub const HASHING_AT_ONCE: usize = 4;

/// The length of a session token: 32 random bytes in hex.
pub const SESSION_TOKEN_LEN: usize = 64;

/// A session's life: 30 days, in milliseconds.
pub const SESSION_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// What an operator may set about accounts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AccountOptions {
    /// The server is reached over TLS (directly or behind a proxy): the
    /// session cookie is `Secure`, and the server's own origin is
    /// `https://` + the `Host` header.
    pub behind_tls: bool,
    /// The server's own origin (`https://hostage.example`), if set: the
    /// only `Origin` a WebSocket or a state-changing request may carry.
    /// Unset, it is the scheme (by `behind_tls`) and the `Host` header.
    pub public_origin: Option<String>,
    /// How long a session lasts, in milliseconds.
    pub session_ms: u64,
    /// The login throttle's numbers.
    pub throttle: ThrottleRules,
}

impl Default for AccountOptions {
    fn default() -> AccountOptions {
        AccountOptions {
            behind_tls: false,
            public_origin: None,
            session_ms: SESSION_MS,
            throttle: ThrottleRules::default(),
        }
    }
}

/// A session made: the account and the token for the cookie.
#[derive(Clone, Debug)]
pub struct LoggedIn {
    /// The account.
    pub account: AccountRecord,
    /// The session's token, in clear: for the cookie only.
    pub token: String,
}

/// The account service.
pub struct Accounts {
    pub(super) store: Arc<dyn AccountStore>,
    throttle: Mutex<Throttle>,
    hashing: Semaphore,
    dummy: OnceLock<String>,
    options: AccountOptions,
}

pub(super) fn storage(e: &StoreError) -> AccountError {
    AccountError::new(
        AccountRefusal::StorageFailed,
        format!("the database failed ({e}); nothing was changed"),
    )
}

fn random_failed() -> AccountError {
    AccountError::new(AccountRefusal::InternalError, "the random source failed")
}

fn too_many(seconds: u64) -> AccountError {
    AccountError {
        retry_after_s: Some(seconds),
        ..AccountError::new(
            AccountRefusal::TooManyAttempts,
            format!("too many attempts: try again in {seconds} s"),
        )
    }
}

fn random_hex(bytes: usize) -> Result<String, AccountError> {
    let mut buf = vec![0u8; bytes];
    getrandom::getrandom(&mut buf).map_err(|_| random_failed())?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `token` has the shape of a session token (checked before any
/// look-up).
#[must_use]
pub fn is_session_token(token: &str) -> bool {
    token.len() == SESSION_TOKEN_LEN && token.bytes().all(|b| b.is_ascii_hexdigit())
}

impl Accounts {
    /// The service on `store`.
    #[must_use]
    pub fn new(store: Arc<dyn AccountStore>, options: AccountOptions) -> Accounts {
        Accounts {
            store,
            throttle: Mutex::new(Throttle::new(options.throttle)),
            hashing: Semaphore::new(HASHING_AT_ONCE),
            dummy: OnceLock::new(),
            options,
        }
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &AccountOptions {
        &self.options
    }

    fn throttle(&self) -> std::sync::MutexGuard<'_, Throttle> {
        // A poisoned lock only means a panic elsewhere: the counts are sound.
        self.throttle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `f` (a hash or a check) on a blocking thread, in turn.
    async fn hashing<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AccountError> {
        let _turn = self.hashing.acquire().await.map_err(|_| random_failed())?;
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|_| AccountError::new(AccountRefusal::InternalError, "hashing failed"))
    }

    async fn hash(&self, password: &str) -> Result<String, AccountError> {
        let mut salt = [0u8; password::SALT_BYTES];
        getrandom::getrandom(&mut salt).map_err(|_| random_failed())?;
        let password = password.to_owned();
        self.hashing(move || password::hash(&password, &salt))
            .await?
            .ok_or_else(|| AccountError::new(AccountRefusal::InternalError, "hashing failed"))
    }

    /// Whether `password` is the one of `phc`; with `None`, checks it
    /// against the dummy hash and answers false: the same work either way.
    async fn verify(&self, phc: Option<String>, password: &str) -> Result<bool, AccountError> {
        let known = phc.is_some();
        let phc = match phc {
            Some(phc) => phc,
            None => self.dummy().await?,
        };
        let password = password.to_owned();
        let ok = self
            .hashing(move || password::verify(&phc, &password))
            .await?;
        Ok(ok && known)
    }

    async fn dummy(&self) -> Result<String, AccountError> {
        if let Some(phc) = self.dummy.get() {
            return Ok(phc.clone());
        }
        let phc = self.hash("hostage: no such account").await?;
        Ok(self.dummy.get_or_init(|| phc).clone())
    }

    async fn open_session(&self, account: AccountRecord) -> Result<LoggedIn, AccountError> {
        let token = random_hex(SESSION_TOKEN_LEN / 2)?;
        let now = now_ms();
        self.store
            .create_session(
                TokenHash::of(&token),
                &account.id,
                now,
                now.saturating_add(self.options.session_ms),
            )
            .await
            .map_err(|e| storage(&e))?;
        Ok(LoggedIn { account, token })
    }

    /// Makes an account and its first session.
    ///
    /// # Errors
    ///
    /// `invalid_username`, `invalid_password`, `username_taken`,
    /// `too_many_attempts` (sign-ups from `address`), `storage_failed`.
    pub async fn sign_up(
        &self,
        username: &str,
        password: &str,
        address: &str,
    ) -> Result<LoggedIn, AccountError> {
        let name = Username::parse(username)?;
        check_password(password)?;
        self.throttle()
            .check_signup(address, now_ms())
            .map_err(too_many)?;
        let taken = || AccountError::new(AccountRefusal::UsernameTaken, "the username is taken");
        if self
            .store
            .account_by_key(name.key())
            .await
            .map_err(|e| storage(&e))?
            .is_some()
        {
            return Err(taken());
        }
        let account = AccountRecord {
            id: ids::game_id().map_err(|_| random_failed())?,
            username: name.as_str().to_owned(),
            password: self.hash(password).await?,
            created_ms: now_ms(),
            closed_ms: None,
        };
        let new = NewAccount {
            account: account.clone(),
            key: name.key().to_owned(),
        };
        match self.store.create_account(new).await {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => return Err(taken()),
            Err(e) => return Err(storage(&e)),
        }
        self.throttle().signed_up(address, now_ms());
        self.open_session(account).await
    }

    /// Logs in: a new session of the account named `username`.
    ///
    /// # Errors
    ///
    /// `invalid_credentials` (no such account, a closed one, or a wrong
    /// password, alike), `too_many_attempts`, `storage_failed`.
    pub async fn log_in(
        &self,
        username: &str,
        password: &str,
        address: &str,
    ) -> Result<LoggedIn, AccountError> {
        let valid = Username::parse(username).is_ok();
        // A name that breaks the rule has no account: all such names share
        // one entry of the throttle, so long junk names cost no memory.
        let key = if valid {
            Username::key_of(username)
        } else {
            "\0invalid".to_owned()
        };
        self.throttle()
            .check_login(&key, address, now_ms())
            .map_err(too_many)?;
        let account = if valid {
            self.store
                .account_by_key(&key)
                .await
                .map_err(|e| storage(&e))?
        } else {
            None
        };
        let account = account.filter(|a| a.closed_ms.is_none());
        let ok = self
            .verify(account.as_ref().map(|a| a.password.clone()), password)
            .await?;
        match account {
            Some(account) if ok => {
                self.throttle().login_succeeded(&key);
                self.open_session(account).await
            }
            _ => {
                self.throttle().login_failed(&key, address, now_ms());
                Err(AccountError::invalid_credentials())
            }
        }
    }

    /// The account of the session `token`, if it is open and not expired.
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn session(&self, token: &str) -> Result<Option<AccountRecord>, AccountError> {
        if !is_session_token(token) {
            return Ok(None);
        }
        self.store
            .account_by_session(TokenHash::of(token), now_ms())
            .await
            .map_err(|e| storage(&e))
    }

    /// The session's account as the game service sees it.
    #[must_use]
    pub fn seat_owner(account: &AccountRecord) -> Option<SeatOwner> {
        Some(SeatOwner {
            account: account.id.clone(),
            name: DisplayName::parse(&account.username).ok()?,
        })
    }

    /// Ends the session `token`.
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn log_out(&self, token: &str) -> Result<(), AccountError> {
        self.store
            .end_session(TokenHash::of(token))
            .await
            .map_err(|e| storage(&e))
    }

    /// Ends every session of `account`; how many.
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn log_out_everywhere(&self, account: &AccountRecord) -> Result<u64, AccountError> {
        self.store
            .end_sessions(&account.id, None)
            .await
            .map_err(|e| storage(&e))
    }

    /// Checks `current` as a login would (throttled, counted on failure).
    async fn check_current(
        &self,
        account: &AccountRecord,
        current: &str,
        address: &str,
    ) -> Result<(), AccountError> {
        let key = Username::key_of(&account.username);
        self.throttle()
            .check_login(&key, address, now_ms())
            .map_err(too_many)?;
        if self.verify(Some(account.password.clone()), current).await? {
            return Ok(());
        }
        self.throttle().login_failed(&key, address, now_ms());
        Err(AccountError::new(
            AccountRefusal::InvalidCredentials,
            "the current password is wrong",
        ))
    }

    /// Changes the password of the session `token`'s account (the current
    /// one checked first) and ends its other sessions.
    ///
    /// # Errors
    ///
    /// `invalid_credentials`, `invalid_password`, `too_many_attempts`,
    /// `storage_failed`.
    pub async fn change_password(
        &self,
        account: &AccountRecord,
        token: &str,
        current: &str,
        new: &str,
        address: &str,
    ) -> Result<(), AccountError> {
        check_password(new)?;
        self.check_current(account, current, address).await?;
        let phc = self.hash(new).await?;
        self.store
            .set_password(&account.id, &phc, TokenHash::of(token))
            .await
            .map_err(|e| storage(&e))
    }

    /// Closes the account (its password checked first): every session
    /// ends, the name stays taken, its games stay.
    ///
    /// # Errors
    ///
    /// `invalid_credentials`, `too_many_attempts`, `storage_failed`.
    pub async fn close(
        &self,
        account: &AccountRecord,
        password: &str,
        address: &str,
    ) -> Result<(), AccountError> {
        self.check_current(account, password, address).await?;
        self.store
            .close_account(&account.id, now_ms())
            .await
            .map_err(|e| storage(&e))
    }

    /// The account's games that go on, the last changed first.
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn ongoing_games(
        &self,
        account: &AccountRecord,
    ) -> Result<Vec<AccountGame>, AccountError> {
        self.store
            .ongoing_games(&account.id)
            .await
            .map_err(|e| storage(&e))
    }

    /// Records that `owner` holds `side` of `game` (for its list of games).
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn add_seat(
        &self,
        owner: &SeatOwner,
        game: &str,
        side: hostage_core::Color,
    ) -> Result<(), AccountError> {
        self.store
            .add_seat(&owner.account, game, side, now_ms())
            .await
            .map_err(|e| storage(&e))
    }

    /// The account named `username` (without regard to case), open or
    /// closed, for its public page.
    ///
    /// # Errors
    ///
    /// `storage_failed`.
    pub async fn find(&self, username: &str) -> Result<Option<AccountRecord>, AccountError> {
        let key = crate::domain::account::Username::key_of(username);
        self.store
            .account_by_key(&key)
            .await
            .map_err(|e| storage(&e))
    }
}
