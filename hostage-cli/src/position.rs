//! The position a one-shot command works on: [`PositionArgs`], a start
//! (`--fen` or the initial position) and moves played from it (`--moves`).
//!
//! The moves are read by the core's move-text layer
//! ([`Game::from_move_text`]): SAN (lenient) or the long (UCI) form,
//! whitespace-separated, with move numbers (`1.`, `1...`, `12`, glued
//! `1.e4`), a trailing result and the inventor's spaced castling `O O` /
//! `O O O` accepted, so a game copied from a score sheet can be pasted as
//! is, and a bad move is reported in the same words as everywhere else in
//! the workspace. The moves are replayed as a [`Game`], whose earlier
//! positions count for repetition (R12).

use hostage_core::{Game, Position};

use crate::error::CliError;

/// `--fen` and `--moves`, shared by the commands that work on a position.
#[derive(clap::Args, Debug, Default)]
pub struct PositionArgs {
    /// Start from this Hostage FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Then play these moves (SAN or UCI, whitespace-separated; move numbers,
    /// a result and the inventor's `O O` castling are accepted).
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The position after `--fen` and `--moves`.
    ///
    /// # Errors
    ///
    /// See [`PositionArgs::game`].
    pub fn position(&self) -> Result<Position, CliError> {
        Ok(self.game()?.position().clone())
    }

    /// `--fen` then `--moves` as a game.
    ///
    /// # Errors
    ///
    /// A message naming the FEN, or the first bad move with its ply
    /// (1-based, counting only moves, not move numbers), the reason and
    /// the error code.
    pub fn game(&self) -> Result<Game, CliError> {
        let start = start(self.fen.as_deref())?;
        Game::from_move_text(start, self.moves.as_deref().unwrap_or(""))
            .map_err(|e| CliError::new(format!("{e} (code: {})", e.code())))
    }
}

/// The position given by `--fen`, or the starting position.
///
/// # Errors
///
/// The core's message (the reason and the FEN), then the error code.
pub fn start(fen: Option<&str>) -> Result<Position, CliError> {
    match fen {
        None => Ok(Position::new()),
        // The core's message names the FEN, shortened if long.
        Some(text) => Position::from_fen(text.trim())
            .map_err(|e| CliError::new(format!("{e} (code: {})", e.code()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(moves: &str) -> PositionArgs {
        PositionArgs {
            fen: None,
            moves: Some(moves.into()),
        }
    }

    #[test]
    fn rules_md_example() -> Result<(), CliError> {
        let pos = at("1. e4 d5 2. exd5 Qxd5").position()?;
        assert_eq!(
            pos.fen(),
            "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"
        );
        Ok(())
    }

    #[test]
    fn the_inventors_notation_reads() -> Result<(), CliError> {
        // Bare move numbers and spaced castling, as in the inventor's records.
        let game = at("1 e4 e5 2 Nf3 Nc6 3 Bc4 Bc5 4 O O Nf6").game()?;
        assert_eq!(game.san(6), Some("O-O".into()));
        Ok(())
    }

    #[test]
    fn bad_move_reads_as_the_cores_error() {
        let err = at("1. e4 e5 2. Ke3")
            .position()
            .err()
            .map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(
            err.starts_with("cannot play move 3 'Ke3' (white's move 2): illegal san: 'Ke3' in "),
            "{err}"
        );
        assert!(err.ends_with("(code: illegal_san)"), "{err}");
    }
}
