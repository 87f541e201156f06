//! `hostage serve`: online games of Hostage Chess over WebSocket.
//!
//! The server is the authority. It checks every move with `hostage-core`,
//! keeps the clocks, and stores every accepted change before anyone hears of
//! it, so that a killed server loses nothing: started again on the same
//! database, every game resumes at the same position, history and clocks.
//! The protocol is `docs/protocol.md`; how this grows past one machine is
//! `docs/server.md`.
//!
//! The server is in layers, one folder each; a module imports only its own
//! layer and the layers below it (`scripts/check-imports` checks the order
//! declared there, `docs/architecture.md`):
//!
//! | layer | concern |
//! | --- | --- |
//! | `domain/` | what a game, a seat, a clock, a name, a chat are, and every decision about them (the room): pure, no i/o |
//! | `store/` | persistence of games, chat and the lobby behind one set of traits; `store/sqlite/` and `store/postgres/` each implement all of it |
//! | `wire/` | the protocol's messages and the mapping from domain events to them |
//! | `service/` | the hub of games, the lobby and presence: runs the domain's decisions, stores them, then tells the followers |
//! | the edges | `ws.rs` (the socket loop), `http.rs` (routes: socket, JSON and PGN read-outs, health, static files), `account_http.rs` (the account endpoints and the session cookie), `puzzle_http.rs` (an account's puzzle rating and attempts), `origin.rs` (the origin policy), `ratelimit.rs` (flood control per connection), `caps.rs` (open connections per address and in total), `lib.rs` (configuration, wiring a `Server`, the accept loop) |
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

/// This crate's README examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod account_http;
pub mod caps;
pub mod domain;
pub mod http;
mod json_body;
pub mod origin;
mod pgn_site;
pub mod players_http;
pub mod puzzle_http;
pub mod ratelimit;
pub mod service;
pub mod store;
pub mod wire;
pub mod ws;

use std::{fmt, future::Future, io, net::SocketAddr, path::PathBuf, sync::Arc};

use hyper_util::rt::{TokioIo, TokioTimer};
use tower::ServiceExt;

use crate::{
    caps::ConnCaps,
    http::AppState,
    service::accounts::Accounts,
    service::games::Hub,
    service::lobby::Lobby,
    store::{accounts::AccountStore, lobby::LobbyStore, sqlite::MemoryLobby, Store, StoreError},
};

pub use crate::domain::time::{now_ms, pgn_date, pgn_time};
pub use crate::service::accounts::AccountOptions;
pub use crate::service::limits::ServerLimits;

/// What `hostage serve` needs to start.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// The address to listen on (`127.0.0.1` by default).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The database.
    pub db: StoreUrl,
    /// The app's directory, served as static files.
    pub static_dir: Option<PathBuf>,
    /// Timeouts, caps and the rest (`limits.rs`).
    pub limits: ServerLimits,
    /// Sessions, cookies, the origin policy and the login throttle.
    pub accounts: AccountOptions,
}

impl Config {
    /// Listens on 127.0.0.1, a free port, with the database `db` and no
    /// static files.
    #[must_use]
    pub fn new(db: impl Into<PathBuf>) -> Config {
        Config::with_store(StoreUrl::Sqlite(db.into()))
    }

    /// Listens on 127.0.0.1, a free port, with the store `db` (SQLite or
    /// PostgreSQL) and no static files.
    #[must_use]
    pub fn with_store(db: StoreUrl) -> Config {
        Config {
            host: "127.0.0.1".into(),
            port: 0,
            db,
            static_dir: None,
            limits: ServerLimits::default(),
            accounts: AccountOptions::default(),
        }
    }
}

/// Where games are stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreUrl {
    /// A SQLite file (created if missing).
    Sqlite(PathBuf),
    /// A PostgreSQL database, `postgres://USER@HOST:PORT/DB` (or
    /// `postgresql://`); several servers may share it.
    Postgres(String),
}

impl StoreUrl {
    /// A `postgres://` or `postgresql://` URL, else a SQLite file path.
    #[must_use]
    pub fn parse(text: &str) -> StoreUrl {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            StoreUrl::Postgres(text.to_string())
        } else {
            StoreUrl::Sqlite(PathBuf::from(text))
        }
    }
}

impl fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreUrl::Sqlite(path) => write!(f, "{}", path.display()),
            // The URL may carry a password: show only what follows the '@'.
            StoreUrl::Postgres(url) => {
                let host = url.rsplit_once('@').map_or(url.as_str(), |(_, h)| h);
                write!(f, "postgres://…@{host}")
            }
        }
    }
}

/// Sends the server's logs (`tracing`) to stderr, filtered by `RUST_LOG`
/// (`info` by default). Calling it again does nothing.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

/// One line of information for the operator, in the server's log.
pub fn log_info(line: &str) {
    tracing::info!("{line}");
}

/// Why the server could not start or stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServerError {
    /// The socket could not be bound, or serving failed.
    Io(io::Error),
    /// The database could not be opened or read.
    Store(StoreError),
    /// A limit would make the server unusable ([`ServerLimits::check`]).
    Limits(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Io(e) => write!(f, "{e}"),
            ServerError::Store(e) => write!(f, "{e}"),
            ServerError::Limits(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServerError {}

/// A bound server, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: axum::Router,
    addr: SocketAddr,
    limits: ServerLimits,
}

impl Server {
    /// Opens the database, resumes its unfinished games, and binds the socket.
    ///
    /// # Errors
    ///
    /// [`ServerError`]; [`ServerError::Limits`] before anything is opened.
    pub async fn bind(config: &Config) -> Result<Server, ServerError> {
        config.limits.check().map_err(ServerError::Limits)?;
        let stores = match &config.db {
            StoreUrl::Sqlite(path) => store::sqlite::open_stores(path),
            StoreUrl::Postgres(url) => store::postgres::open_stores(url).await,
        }
        .map_err(ServerError::Store)?;
        Server::bind_all(config, stores.games, stores.lobby, Some(stores.accounts)).await
    }

    /// As [`Server::bind`], on any [`Store`] (`config.db` is not used), with
    /// the lobby in memory (this server's alone).
    ///
    /// # Errors
    ///
    /// [`ServerError`].
    pub async fn bind_with_store(
        config: &Config,
        store: Arc<dyn Store>,
    ) -> Result<Server, ServerError> {
        Server::bind_with_stores(config, store, MemoryLobby::new()).await
    }

    /// As [`Server::bind_with_store`], with the lobby's challenges in `lobby`.
    ///
    /// # Errors
    ///
    /// [`ServerError`].
    pub async fn bind_with_stores(
        config: &Config,
        store: Arc<dyn Store>,
        lobby: Arc<dyn LobbyStore>,
    ) -> Result<Server, ServerError> {
        Server::bind_all(config, store, lobby, None).await
    }

    /// As [`Server::bind_with_stores`], with the accounts in `accounts`
    /// (`None`: the account endpoints answer that this server keeps none).
    ///
    /// # Errors
    ///
    /// [`ServerError`].
    pub async fn bind_all(
        config: &Config,
        store: Arc<dyn Store>,
        lobby: Arc<dyn LobbyStore>,
        accounts: Option<Arc<dyn AccountStore>>,
    ) -> Result<Server, ServerError> {
        let limits = config.limits;
        limits.check().map_err(ServerError::Limits)?;
        let hub = Hub::start(store, limits)
            .await
            .map_err(ServerError::Store)?;
        let lobby = Lobby::start(Arc::clone(&hub), lobby, limits)
            .await
            .map_err(ServerError::Store)?;
        let listener = listen(&config.host, config.port)
            .await
            .map_err(ServerError::Io)?;
        let addr = listener.local_addr().map_err(ServerError::Io)?;
        if let Some(accounts) = &accounts {
            hub.list_seats_in(Arc::clone(accounts));
        }
        let accounts =
            accounts.map(|store| Arc::new(Accounts::new(store, config.accounts.clone())));
        let state = AppState {
            hub,
            lobby,
            caps: ConnCaps::new(limits.max_connections_per_address, limits.max_connections),
            limits,
            accounts,
        };
        Ok(Server {
            listener,
            router: http::router(state, config.static_dir.clone()),
            addr,
            limits,
        })
    }

    /// The address bound (with the port picked if 0 was asked).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` completes, then lets open requests finish
    /// (for at most [`SHUTDOWN_GRACE`]).
    ///
    /// The accept loop is this server's own, so that the header phase has
    /// one deadline: the first request's headers must be in within
    /// `header_read_timeout` of the connect (a client that sends nothing, or
    /// trickles a line every few seconds, is closed then), and each later
    /// request's within `header_read_timeout` of the previous response
    /// (hyper's timer, which also closes a kept-alive connection left idle).
    ///
    /// # Errors
    ///
    /// [`ServerError::Io`].
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let mut open = tokio::task::JoinSet::new();
        let timeout = self.limits.header_read_timeout;
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                () = &mut shutdown => break,
                accepted = self.listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors and the like: pause, go on.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let router = self.router.clone();
            let mut stop = stop_rx.clone();
            while open.try_join_next().is_some() {}
            let deadline = tokio::time::Instant::now() + timeout;
            open.spawn(async move {
                // The first request's headers must be in by `deadline`,
                // counted from the connect: hyper's own timer starts when it
                // first polls (about now) and restarts after each response,
                // so it bounds the requests that follow on a kept-alive
                // connection, while this guard makes sure that no reading
                // of hyper's (or a later version's) can stretch the first
                // beyond the one timeout.
                let headers_in = Arc::new(tokio::sync::Notify::new());
                let seen = Arc::clone(&headers_in);
                let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
                    seen.notify_one();
                    request
                        .extensions_mut()
                        .insert(axum::extract::ConnectInfo(peer));
                    router.clone().oneshot(request.map(axum::body::Body::new))
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(timeout)
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades();
                tokio::pin!(conn);
                let guard = async {
                    tokio::select! {
                        () = tokio::time::sleep_until(deadline) => {}
                        // Headers in: the guard has done its work.
                        () = headers_in.notified() => std::future::pending::<()>().await,
                    }
                };
                let result = tokio::select! {
                    result = conn.as_mut() => result,
                    // Dropping the connection closes the socket.
                    () = guard => return,
                    _ = stop.changed() => {
                        conn.as_mut().graceful_shutdown();
                        conn.await
                    }
                };
                if let Err(e) = result {
                    tracing::debug!(%peer, error = %e, "connection ended with an error");
                }
            });
        }
        drop(self.listener);
        let _ = stop_tx.send(true);
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while open.join_next().await.is_some() {}
        })
        .await;
        Ok(())
    }
}

/// How long open requests may take to finish after a shutdown signal.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

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

/// Connections the kernel may queue for the server before it accepts them
/// (the `listen(2)` backlog, which Linux caps at `net.core.somaxconn`:
/// 4096 by default). The runtime's own is 128: a burst of connections
/// (every player of a stopped instance reconnecting at once) overflows
/// that, and each connection the kernel drops waits a second or more for
/// its SYN to be sent again.
const LISTEN_BACKLOG: u32 = 4096;

/// A listener on `host`:`port` with [`LISTEN_BACKLOG`]: the first of the
/// host's addresses that binds, as `tokio::net::TcpListener::bind` tries
/// them.
async fn listen(host: &str, port: u16) -> io::Result<tokio::net::TcpListener> {
    let mut last = None;
    for addr in tokio::net::lookup_host((host, port)).await? {
        let socket = if addr.is_ipv4() {
            tokio::net::TcpSocket::new_v4()
        } else {
            tokio::net::TcpSocket::new_v6()
        };
        let bound = socket.and_then(|socket| {
            // As the runtime's own bind: a restarted server can bind the
            // port while connections of the last one linger in TIME_WAIT.
            #[cfg(not(windows))]
            socket.set_reuseaddr(true)?;
            socket.bind(addr)?;
            socket.listen(LISTEN_BACKLOG)
        });
        match bound {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{host}:{port} names no address"),
        )
    }))
}
