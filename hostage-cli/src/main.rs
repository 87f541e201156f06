//! `hostage`: the command line of the Hostage Chess rules library.
//!
//! This file only declares the commands and dispatches; `hostage --help`
//! and `hostage COMMAND --help` are the usage (clap writes them from the
//! argument structs). Each command lives in the file named for it, with its
//! arguments as one `clap::Args` struct that its `run` takes as is.
//!
//! Exit codes: 0 success, 1 a bad FEN, move or i/o failure (one line on
//! stderr), 2 a usage error (from clap).

mod analyse;
mod book;
mod course;
mod display;
mod divide;
mod error;
mod fen;
mod r#match;
mod moves;
mod perft;
mod pgn;
mod play;
mod position;
mod puzzles;
mod review;
mod serve;
mod svg;

use std::{
    io::{self, BufWriter, Write},
    process::ExitCode,
};

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Hostage Chess from the command line: move generation checks, notation,
/// a game against people or bots, UCI, analysis and engine matches.
#[derive(Parser)]
#[command(name = "hostage", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (the count is the last line).
    Perft(perft::PerftArgs),
    /// Perft split by first move: `<uci> <count>` lines, a blank line, the total.
    Divide(divide::DivideArgs),
    /// List the legal moves, one `<SAN>\t<UCI>` per line.
    Moves(moves::MovesArgs),
    /// Play moves and print the resulting Hostage FEN.
    Fen(fen::FenArgs),
    /// Play a game at this terminal: people at one keyboard, bots, or both.
    Play(play::PlayArgs),
    /// Speak the UCI protocol on stdin and stdout (for GUIs and match runners).
    Uci,
    /// Review the games of a PGN file: evaluations, ?!/?/?? and accuracy per player.
    Review(review::ReviewArgs),
    /// Search a position at full strength: each iteration, then the best lines.
    Analyse(analyse::AnalyseArgs),
    /// Play a match between two players over an opening book.
    Match(r#match::MatchArgs),
    /// Opening books for `hostage match`.
    Book {
        #[command(subcommand)]
        command: book::BookCommand,
    },
    /// Read PGN files: validate them or print their final positions.
    Pgn {
        #[command(subcommand)]
        command: pgn::PgnCommand,
    },
    /// Draw the position as an SVG diagram (prisons and airfields included).
    Svg(svg::SvgArgs),
    /// The rules course (docs/course): build its pages from its data.
    Course {
        #[command(subcommand)]
        command: course::CourseCommand,
    },
    /// Serve the app and host online games over WebSocket (docs/protocol.md).
    /// Prints `hostage serve: listening on http://ADDR` once it listens.
    Serve(serve::Args),
    /// Puzzles: generate, select, verify, simulate ratings, train.
    Puzzles {
        #[command(subcommand)]
        command: puzzles::PuzzlesCommand,
    },
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
        Command::Perft(args) => print(|out| perft::run(&args, out)),
        Command::Divide(args) => print(|out| divide::run(&args, out)),
        Command::Moves(args) => print(|out| moves::run(&args, out)),
        Command::Fen(args) => print(|out| fen::run(&args, out)),
        Command::Play(args) => play::run(args),
        Command::Uci => Ok(hostage_engine::uci::run(io::stdin().lock(), io::stdout())?),
        Command::Review(args) => review::run(&args),
        Command::Analyse(args) => print(|out| analyse::run(&args, out)),
        Command::Match(args) => r#match::run(&args, &mut io::stdout()),
        Command::Book { command } => print(|out| book::run(command, out)),
        Command::Pgn { command } => print(|out| pgn::run(&command, out)),
        Command::Svg(args) => print(|out| svg::run(&args, out)),
        Command::Course { command } => print(|log| course::run(&command, log)),
        Command::Serve(args) => serve::run(args),
        Command::Puzzles { command } => puzzles::run(command),
    }
}

/// Runs a one-shot command writing to a buffered stdout.
fn print(command: impl FnOnce(&mut dyn Write) -> Result<(), CliError>) -> Result<(), CliError> {
    let mut out = BufWriter::new(io::stdout().lock());
    command(&mut out)?;
    out.flush()?;
    Ok(())
}
