//! `hostage pgn check FILE` and `hostage pgn fen FILE`: PGN files, streamed
//! game by game with the core's reader and its limits.
//!
//! Both read every game. An unreadable game is reported on stderr as
//! `game N, line L, column C: <reason> (code: <code>)`, where an illegal move
//! names its ply; the reader then resumes at the next game, and the command
//! exits 1 at the end if any game failed.

use std::{
    fs::File,
    io::{BufReader, Write},
    path::{Path, PathBuf},
};

use hostage_core::pgn::{PgnError, Reader};

use crate::error::CliError;

/// The subcommands of `hostage pgn`.
#[derive(clap::Subcommand, Debug)]
pub enum PgnCommand {
    /// Check every game; report each unreadable or illegal move with its game,
    /// line and ply; exit 1 if any game fails.
    Check(FileArgs),
    /// Print the final Hostage FEN of the main line of each game, one a line.
    Fen(FileArgs),
}

/// The argument of `hostage pgn check` and `hostage pgn fen`.
#[derive(clap::Args, Debug)]
pub struct FileArgs {
    /// The PGN file.
    pub file: PathBuf,
}

/// What to print for each game read.
#[derive(Copy, Clone)]
enum Report {
    /// Nothing per game; a summary at the end.
    Check,
    /// The final Hostage FEN of the main line of each game.
    Fen,
}

/// Runs `command`.
///
/// # Errors
///
/// The file cannot be opened, output fails, or some game failed (after all
/// games were read).
pub fn run(command: &PgnCommand, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        PgnCommand::Check(args) => read(&args.file, Report::Check, out),
        PgnCommand::Fen(args) => read(&args.file, Report::Fen, out),
    }
}

/// Reads every game of `path`, printing per `report`.
fn read(path: &Path, report: Report, out: &mut dyn Write) -> Result<(), CliError> {
    let file = File::open(path)
        .map_err(|e| CliError::new(format!("cannot open {}: {e}", path.display())))?;
    let (mut good, mut bad) = (0usize, 0usize);
    for game in Reader::new(BufReader::new(file)) {
        match game {
            Ok(game) => {
                good += 1;
                if let Report::Fen = report {
                    writeln!(out, "{}", game.mainline_game().position().fen())?;
                }
            }
            Err(e) => {
                bad += 1;
                report_error(path, &e);
            }
        }
    }
    if let Report::Check = report {
        writeln!(
            out,
            "{}: {good} game(s) legal, {bad} with errors",
            path.display()
        )?;
    }
    if bad > 0 {
        return Err(CliError::new(format!(
            "{}: {bad} game(s) with errors",
            path.display()
        )));
    }
    Ok(())
}

fn report_error(path: &Path, e: &PgnError) {
    eprintln!("{}: {e} (code: {})", path.display(), e.code());
}
