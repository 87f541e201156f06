//! `hostage serve`: the online game server (`hostage-server`) with the app.
//!
//! This file only picks the defaults and prints where the server listens;
//! the server itself is the `hostage-server` crate (`docs/protocol.md`,
//! `docs/server.md`).

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use crate::error::CliError;

/// The options of `hostage serve`.
pub struct Request {
    /// Address to listen on.
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// SQLite database file.
    pub db: PathBuf,
    /// The app's directory; found by [`default_static_dir`] when not given.
    pub static_dir: Option<PathBuf>,
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
pub fn run(request: Request) -> Result<(), CliError> {
    let static_dir = match request.static_dir {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::new(format!(
                "--static {}: not a directory",
                dir.display()
            )))
        }
        Some(dir) => Some(dir),
        None => default_static_dir(),
    };
    let config = hostage_server::Config {
        host: request.host,
        port: request.port,
        db: request.db,
        static_dir: static_dir.clone(),
    };
    hostage_server::run_blocking(&config, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "hostage serve: listening on http://{addr}");
        let _ = out.flush();
        match &static_dir {
            Some(dir) => {
                eprintln!(
                    "hostage serve: database {}, app from {}",
                    config.db.display(),
                    dir.display()
                );
                // The app loads the npm package from app/vendor, which
                // app/build.sh makes; without it the page cannot start.
                if dir.ends_with("app") && !dir.join("vendor/hostage-chess/index.js").is_file() {
                    eprintln!(
                        "hostage serve: {} has no vendor/hostage-chess: run app/build.sh (or scripts/serve)",
                        dir.display()
                    );
                }
            }
            None => eprintln!(
                "hostage serve: database {}, no app directory found (--static DIR)",
                config.db.display()
            ),
        }
    })
    .map_err(|e| CliError::new(format!("hostage serve: {e}")))
}
