//! `hostage serve`: the online game server (`hostage-server`) with the app.
//!
//! This file only declares the options, picks the defaults and prints where
//! the server listens; the server itself is the `hostage-server` crate
//! (`docs/protocol.md`, `docs/server.md`). Logs go to stderr through
//! `tracing` (`RUST_LOG` filters them, `info` by default).

use std::{
    io::Write,
    path::{Path, PathBuf},
    time::Duration,
};

use hostage_server::{Config, ServerLimits, StoreUrl};

use crate::error::CliError;

/// The options of `hostage serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The database: a SQLite file (created if missing), or
    /// `postgres://USER@HOST:PORT/DB` (several servers may share it).
    #[arg(long, default_value = "hostage.db")]
    pub db: String,
    /// The app's directory; by default app/, else hostage-wasm/www.
    #[arg(long = "static")]
    pub static_dir: Option<PathBuf>,
    /// Close a connection whose request headers are not in within this time
    /// of the connect, or of the previous response (at least 1).
    #[arg(long, value_name = "MS", default_value_t = ms(ServerLimits::default().header_read_timeout))]
    pub header_timeout_ms: u64,
    /// Close a WebSocket that follows no game and sends nothing this long
    /// (at least 1).
    #[arg(long, value_name = "MS", default_value_t = ms(ServerLimits::default().idle_timeout))]
    pub idle_timeout_ms: u64,
    /// Open WebSocket connections allowed from one address (at least 1).
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().max_connections_per_address)]
    pub max_connections_per_address: usize,
    /// Open WebSocket connections allowed in total (at least 1).
    #[arg(long, value_name = "N", default_value_t = ServerLimits::default().max_connections)]
    pub max_connections: usize,
    /// Bytes queued for a client that does not read before it is dropped
    /// (at least 1).
    #[arg(long, value_name = "BYTES", default_value_t = ServerLimits::default().max_queued_bytes)]
    pub max_queued_bytes: usize,
    /// Drop a game nobody follows from memory after this long unchanged.
    #[arg(long, value_name = "MS", default_value_t = ms(ServerLimits::default().evict_after))]
    pub evict_after_ms: u64,
    /// A player may claim the win or a draw once the opponent is gone this long.
    #[arg(long, value_name = "MS", default_value_t = ms(ServerLimits::default().abandon_after))]
    pub abandon_after_ms: u64,
    /// In a timed game, each side must make its first move within this
    /// long, or the game is aborted (at least 1).
    #[arg(long, value_name = "MS", default_value_t = ms(ServerLimits::default().first_move))]
    pub first_move_ms: u64,
    /// The length of a day in a correspondence game (days per move), for
    /// tests; 86,400,000 (a day) unless set (at least 1).
    #[arg(long, value_name = "MS", default_value_t = ms(ServerLimits::default().correspondence_day))]
    pub correspondence_day_ms: u64,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `app/` if it exists, else `hostage-wasm/www`, looked for in the current
/// directory first and then in the repository this program was built from.
fn default_static_dir() -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let roots = [PathBuf::from("."), repo];
    for candidate in ["app", "hostage-wasm/www"] {
        for root in &roots {
            let dir = root.join(candidate);
            if dir.join("index.html").is_file() {
                return Some(dir);
            }
        }
    }
    None
}

/// Runs the server until SIGINT or SIGTERM. The first line on stdout is
/// `hostage serve: listening on http://ADDR`, flushed, for scripts and tests.
pub fn run(args: Args) -> Result<(), CliError> {
    hostage_server::init_logging();
    let static_dir = match args.static_dir {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::new(format!(
                "--static {}: not a directory",
                dir.display()
            )))
        }
        Some(dir) => Some(dir),
        None => default_static_dir(),
    };
    // A zero timeout, cap or queue is refused by the server itself
    // (`ServerLimits::check`), with the option's name, before it opens the
    // database.
    let limits = ServerLimits::default()
        .with_header_read_timeout(Duration::from_millis(args.header_timeout_ms))
        .with_idle_timeout(Duration::from_millis(args.idle_timeout_ms))
        .with_max_connections_per_address(args.max_connections_per_address)
        .with_max_connections(args.max_connections)
        .with_max_queued_bytes(args.max_queued_bytes)
        .with_evict_after(Duration::from_millis(args.evict_after_ms))
        .with_abandon_after(Duration::from_millis(args.abandon_after_ms))
        .with_first_move(Duration::from_millis(args.first_move_ms))
        .with_correspondence_day(Duration::from_millis(args.correspondence_day_ms));
    let db = StoreUrl::parse(&args.db);
    let mut config = Config::with_store(db.clone());
    config.host = args.host;
    config.port = args.port;
    config.static_dir.clone_from(&static_dir);
    config.limits = limits;
    hostage_server::run_blocking(&config, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "hostage serve: listening on http://{addr}");
        let _ = out.flush();
        match &static_dir {
            Some(dir) => {
                tracing_log(&format!("database {db}, app from {}", dir.display()));
                // The app loads the npm package from app/vendor, which
                // app/build.sh makes; without it the page cannot start.
                if dir.ends_with("app") && !dir.join("vendor/hostage-chess/index.js").is_file() {
                    tracing_log(&format!(
                        "{} has no vendor/hostage-chess: run app/build.sh (or scripts/serve)",
                        dir.display()
                    ));
                }
            }
            None => tracing_log(&format!(
                "database {db}, no app directory found (--static DIR)"
            )),
        }
    })
    .map_err(|e| CliError::new(format!("hostage serve: {e}")))
}

/// One line for the operator, through the server's log.
fn tracing_log(line: &str) {
    hostage_server::log_info(line);
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: super::Args,
    }

    #[test]
    fn a_zero_limit_is_refused_by_name_before_anything_opens() {
        let dir = std::env::temp_dir().join(format!("hostage-serve-zero-{}", std::process::id()));
        let db = dir.join("never.db");
        for option in [
            "--idle-timeout-ms",
            "--header-timeout-ms",
            "--max-connections",
            "--max-queued-bytes",
        ] {
            let cli = Cli::try_parse_from([
                "serve",
                "--port",
                "0",
                "--db",
                db.to_str().expect("path"),
                option,
                "0",
            ])
            .expect("options");
            // Without the check the server would start and serve until a
            // signal: a thread and a time limit make that a failure.
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(super::run(cli.args).map_err(|e| e.to_string()));
            });
            let e = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("the server started with a limit of 0")
                .expect_err("0 accepted");
            assert!(e.contains(&format!("({option})")), "{e}");
            assert!(!db.exists(), "the database was opened");
        }
    }
}
