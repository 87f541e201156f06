//! `hostage serve`: online games of Hostage Chess over WebSocket.
//!
//! The server is the authority. It checks every move with `hostage-core`,
//! keeps the clocks, and stores every accepted change before anyone hears of
//! it, so that a killed server loses nothing: started again on the same
//! database, every game resumes at the same position, history and clocks.
//! The protocol is `docs/protocol.md`; how this grows past one machine is
//! `docs/server.md`.
//!
//! | file | concern |
//! | --- | --- |
//! | `protocol.rs` | message types, parsing, error codes, limits |
//! | `room.rs` | one game's rules, seats, clocks, draws and endings (no i/o) |
//! | `clock.rs` | Fischer clocks against a monotonic instant |
//! | `games.rs` | the game service: rooms, followers, store-then-broadcast |
//! | `store.rs` | the `Store` trait and its records |
//! | `sqlite.rs` | the SQLite store (group commit, WAL, fsync) |
//! | `ratelimit.rs` | flood control per connection |
//! | `ids.rs` | game ids and seat tokens |
//! | `ws.rs` | the socket loop |
//! | `http.rs` | routes: socket, JSON and PGN read-outs, health, static files |
//!
//! ```no_run
//! # async fn run() -> Result<(), hostage_server::ServerError> {
//! let config = hostage_server::Config::new("hostage.db");
//! let server = hostage_server::Server::bind(&config).await?;
//! println!("listening on http://{}", server.local_addr());
//! server.run(std::future::pending()).await
//! # }
//! ```

#![forbid(unsafe_code)]

pub mod clock;
pub mod games;
pub mod http;
pub mod ids;
pub mod protocol;
pub mod ratelimit;
pub mod room;
pub mod sqlite;
pub mod store;
pub mod ws;

use std::{
    fmt,
    future::Future,
    io,
    net::SocketAddr,
    path::PathBuf,
    sync::Arc,
    time::{SystemTime, UNIX_EPOCH},
};

use crate::{
    games::Hub,
    sqlite::SqliteStore,
    store::{Store, StoreError},
};

/// What `hostage serve` needs to start.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (`127.0.0.1` by default).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The SQLite database file (created if missing).
    pub db: PathBuf,
    /// The app's directory, served as static files.
    pub static_dir: Option<PathBuf>,
}

impl Config {
    /// Listens on 127.0.0.1, a free port, with the database `db` and no
    /// static files.
    #[must_use]
    pub fn new(db: impl Into<PathBuf>) -> Config {
        Config {
            host: "127.0.0.1".into(),
            port: 0,
            db: db.into(),
            static_dir: None,
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServerError {
    /// The socket could not be bound, or serving failed.
    Io(io::Error),
    /// The database could not be opened or read.
    Store(StoreError),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Io(e) => write!(f, "{e}"),
            ServerError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServerError {}

/// A bound server, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: axum::Router,
    addr: SocketAddr,
}

impl Server {
    /// Opens the database, resumes its unfinished games, and binds the socket.
    ///
    /// # Errors
    ///
    /// [`ServerError`].
    pub async fn bind(config: &Config) -> Result<Server, ServerError> {
        let store = SqliteStore::open(&config.db).map_err(ServerError::Store)?;
        Server::bind_with_store(config, Arc::new(store)).await
    }

    /// As [`Server::bind`], on any [`Store`] (`config.db` is not used).
    ///
    /// # Errors
    ///
    /// [`ServerError`].
    pub async fn bind_with_store(
        config: &Config,
        store: Arc<dyn Store>,
    ) -> Result<Server, ServerError> {
        let hub = Hub::start(store).await.map_err(ServerError::Store)?;
        let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port))
            .await
            .map_err(ServerError::Io)?;
        let addr = listener.local_addr().map_err(ServerError::Io)?;
        Ok(Server {
            listener,
            router: http::router(hub, config.static_dir.clone()),
            addr,
        })
    }

    /// The address bound (with the port picked if 0 was asked).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` completes.
    ///
    /// # Errors
    ///
    /// [`ServerError::Io`].
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(ServerError::Io)
    }
}

/// Starts the server on a runtime of its own and serves until SIGINT or
/// SIGTERM; `ready` is called with the bound address once it listens (and
/// every unfinished game has been resumed).
///
/// # Errors
///
/// [`ServerError`].
pub fn run_blocking(config: &Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("hostage-serve")
        .build()
        .map_err(ServerError::Io)?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        ready(server.local_addr());
        server.run(shutdown_signal()).await
    })
}

/// Completes on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
#[must_use]
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A PGN date (`YYYY.MM.DD`, UTC) from milliseconds since the Unix epoch.
#[must_use]
pub fn pgn_date(ms: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = i64::try_from(ms / 86_400_000).unwrap_or(0);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn pgn_dates() {
        assert_eq!(super::pgn_date(0), "1970.01.01");
        // 2024-02-29T12:00:00Z
        assert_eq!(super::pgn_date(1_709_208_000_000), "2024.02.29");
    }
}
