//! [`CliError`]: every way a command can fail, as one message and one exit code.
//!
//! A user mistake (bad FEN, bad move) becomes a one-line message on stderr
//! and exit code 1; usage mistakes never get here (clap exits with 2). A
//! closed output pipe (`hostage moves | head -1`) is not an error worth a
//! message, so it is kept apart and ends the program quietly.

use std::io;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A user error, already worded for stderr (without the `error: ` prefix).
    #[error("{0}")]
    Message(String),
    /// Reading stdin or writing stdout failed.
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

impl CliError {
    /// A user error with this message.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError::Message(message.into())
    }

    /// Whether the reader of our output went away; that ends the program
    /// quietly and successfully, as `head` expects.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}
