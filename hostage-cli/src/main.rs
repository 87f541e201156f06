//! `hostage`: the command line of the Hostage Chess rules library.
//!
//! ```text
//! hostage perft <depth> [--fen FEN] [--moves "e4 e5 ..."]   leaf count (last line)
//! hostage divide <depth> [--fen FEN] [--moves ...]          <uci> <count> per move, total
//! hostage moves [--fen FEN] [--moves ...]                   <SAN>\t<UCI> per legal move
//! hostage fen [--fen FEN] [--moves ...]                     the resulting Hostage FEN
//! hostage play [--fen FEN] [--unicode]                      a game for two at one keyboard
//! hostage pgn check FILE                                    validate every game of a PGN file
//! hostage pgn fen FILE                                      the final FEN of each game
//! hostage svg [--fen FEN] [--moves ...] [--flip] [--size N] an SVG diagram on stdout
//! hostage course build --out DIR                            the rules course pages
//! ```
//!
//! This file only parses arguments and dispatches. Exit codes: 0 success,
//! 1 a bad FEN, move or i/o failure (one line on stderr), 2 a usage error
//! (from clap).

mod commands;
mod course;
mod display;
mod error;
mod pgn;
mod play;
mod player;
mod replay;
mod svg;

use std::{
    io::{self, BufWriter, IsTerminal, Write},
    process::ExitCode,
};

use clap::{Args, Parser, Subcommand};
use hostage_core::ByColor;

use crate::{
    display::Style,
    error::CliError,
    play::Game,
    player::{Console, Human, Player},
};

/// Hostage Chess from the command line: move generation checks, notation
/// and a game for two people.
#[derive(Parser)]
#[command(name = "hostage", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (the count is the last line).
    Perft {
        /// Plies to search.
        depth: u32,
        #[command(flatten)]
        at: At,
    },
    /// Perft split by first move: `<uci> <count>` lines, a blank line, the total.
    Divide {
        /// Plies to search, the first move included.
        #[arg(value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        #[command(flatten)]
        at: At,
    },
    /// List the legal moves, one `<SAN>\t<UCI>` per line.
    Moves {
        #[command(flatten)]
        at: At,
    },
    /// Play moves and print the resulting Hostage FEN.
    Fen {
        #[command(flatten)]
        at: At,
    },
    /// Play a game at this terminal, two people at one keyboard.
    Play {
        /// Start from this Hostage FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Draw the men as chess figurines instead of letters.
        #[arg(long)]
        unicode: bool,
    },
    /// Read PGN files: validate them or print their final positions.
    Pgn {
        #[command(subcommand)]
        command: PgnCommand,
    },
    /// Draw the position as an SVG diagram (prisons and airfields included).
    Svg {
        #[command(flatten)]
        at: At,
        /// Black at the bottom.
        #[arg(long)]
        flip: bool,
        /// Image width in pixels.
        #[arg(long)]
        size: Option<u32>,
        /// Leave out the file letters and rank digits.
        #[arg(long)]
        no_coordinates: bool,
        /// Draw an arrow, e.g. `--arrow e2e4` (repeatable; `e4e4` is a circle).
        #[arg(long)]
        arrow: Vec<String>,
    },
    /// The rules course (docs/course): build its pages from its data.
    Course {
        #[command(subcommand)]
        command: CourseCommand,
    },
}

#[derive(Subcommand)]
enum CourseCommand {
    /// Write README.md, one page per lesson and the diagrams into a folder.
    Build {
        /// The folder to write (docs/course in the repository).
        #[arg(long)]
        out: std::path::PathBuf,
        /// The course data; by default the course.json built into this program.
        #[arg(long)]
        data: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum PgnCommand {
    /// Check every game; report each unreadable or illegal move with its game,
    /// line and ply; exit 1 if any game fails.
    Check {
        /// The PGN file.
        file: std::path::PathBuf,
    },
    /// Print the final Hostage FEN of the main line of each game, one a line.
    Fen {
        /// The PGN file.
        file: std::path::PathBuf,
    },
}

/// The position a one-shot command works on.
#[derive(Args)]
struct At {
    /// Start from this Hostage FEN instead of the initial position.
    #[arg(long)]
    fen: Option<String>,
    /// Then play these moves (SAN or UCI, whitespace-separated; move numbers are skipped).
    #[arg(long)]
    moves: Option<String>,
}

impl At {
    fn position(&self) -> Result<hostage_core::Position, CliError> {
        replay::position(self.fen.as_deref(), self.moves.as_deref())
    }
}

fn main() -> ExitCode {
    // Usage errors, --help and --version exit here, with clap's codes.
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Perft { depth, at } => {
            print(|out| commands::run_perft(&at.position()?, depth, out))
        }
        Command::Divide { depth, at } => {
            print(|out| commands::run_divide(&at.position()?, depth, out))
        }
        Command::Moves { at } => print(|out| commands::run_moves(&at.position()?, out)),
        Command::Fen { at } => print(|out| commands::run_fen(&at.position()?, out)),
        Command::Play { fen, unicode } => play(fen.as_deref(), unicode),
        Command::Pgn { command } => match command {
            PgnCommand::Check { file } => print(|out| pgn::run(&file, pgn::Report::Check, out)),
            PgnCommand::Fen { file } => print(|out| pgn::run(&file, pgn::Report::Fen, out)),
        },
        Command::Svg {
            at,
            flip,
            size,
            no_coordinates,
            arrow,
        } => {
            let request = svg::Request {
                fen: at.fen.as_deref(),
                moves: at.moves.as_deref(),
                flip,
                size,
                coordinates: !no_coordinates,
                arrows: &arrow,
            };
            print(|out| svg::run(&request, out))
        }
        Command::Course {
            command: CourseCommand::Build { out, data },
        } => print(|log| course::build(data.as_deref(), &out, log)),
    }
}

/// Runs a one-shot command writing to a buffered stdout.
fn print(command: impl FnOnce(&mut dyn Write) -> Result<(), CliError>) -> Result<(), CliError> {
    let mut out = BufWriter::new(io::stdout().lock());
    command(&mut out)?;
    out.flush()?;
    Ok(())
}

/// `hostage play`: two humans at this terminal.
fn play(fen: Option<&str>, unicode: bool) -> Result<(), CliError> {
    let start = replay::start(fen)?;
    let style = if unicode {
        Style::Unicode
    } else {
        Style::Ascii
    };
    let mut players: ByColor<Box<dyn Player>> = ByColor::new(Box::new(Human), Box::new(Human));
    let stdin = io::stdin();
    // Piped input is echoed so that the transcript shows what was played.
    let echo = !stdin.is_terminal();
    let mut console = Console::new(Box::new(stdin.lock()), Box::new(io::stdout().lock()), echo);
    Game::new(start, style).run(&mut players, &mut console)
}
