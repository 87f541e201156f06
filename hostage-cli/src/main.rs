//! `hostage`: the command line of the Hostage Chess rules library.
//!
//! ```text
//! hostage perft <depth> [--fen FEN] [--moves "e4 e5 ..."]   leaf count (last line)
//! hostage divide <depth> [--fen FEN] [--moves ...]          <uci> <count> per move, total
//! hostage moves [--fen FEN] [--moves ...]                   <SAN>\t<UCI> per legal move
//! hostage fen [--fen FEN] [--moves ...]                     the resulting Hostage FEN
//! hostage play [--white W] [--black B] [--seed N] [--fen FEN] [--unicode]
//!                                                           a game: W, B = human (default), a level
//!                                                           (novice ... club), full, random, greedy
//! hostage uci                                               the UCI protocol on stdin/stdout
//! hostage analyse [--fen|--moves] [--nodes N|--depth D|--movetime MS] [--multipv K]
//!                                                           the engine's lines, SAN and long form
//! hostage match --first SPEC --second SPEC [--games N] [--threads T] [--book FILE]
//!               [--seed S] [--max-plies P] [--sprt ELO0,ELO1] [--pgn OUT]
//!                                                           an engine match: W/D/L, Elo, SPRT;
//!                                                           SPEC is a player or uci:COMMAND LINE
//! hostage book generate [--count N] [--seed S] [--plies A..B] [--nodes N] [--max-eval CP] [--out F]
//!                                                           an opening book for `match`
//! hostage pgn check FILE                                    validate every game of a PGN file
//! hostage pgn fen FILE                                      the final FEN of each game
//! hostage svg [--fen FEN] [--moves ...] [--flip] [--size N] an SVG diagram on stdout
//! hostage course build --out DIR                            the rules course pages
//! hostage serve [--host H] [--port P] [--db FILE] [--static DIR]
//!                                                           the app and online games (WebSocket)
//! hostage puzzles generate|select|verify|simulate|train     puzzles (docs/puzzles.md)
//! ```
//!
//! This file only parses arguments and dispatches. Exit codes: 0 success,
//! 1 a bad FEN, move or i/o failure (one line on stderr), 2 a usage error
//! (from clap).

mod analyse;
mod arena;
mod book;
mod bot;
mod commands;
mod course;
mod display;
mod error;
mod pgn;
mod play;
mod player;
mod puzzles;
mod replay;
mod review;
mod serve;
mod svg;
mod uci_engine;

use std::{
    io::{self, BufWriter, IsTerminal, Write},
    process::ExitCode,
};

use clap::{Args, Parser, Subcommand};
use hostage_core::ByColor;

use crate::{
    bot::Seat,
    display::Style,
    error::CliError,
    play::Game,
    player::{Console, Player},
};

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
    /// Play a game at this terminal: people at one keyboard, bots, or both.
    Play {
        /// Who plays White: human, a level (novice, beginner, casual,
        /// intermediate, club), full, full:NODES, random or greedy.
        #[arg(long, default_value = "human", value_parser = parse_seat)]
        white: Seat,
        /// Who plays Black (as for --white).
        #[arg(long, default_value = "human", value_parser = parse_seat)]
        black: Seat,
        /// The bots' seed (the same seed and moves give the same game);
        /// drawn from the clock when not given.
        #[arg(long)]
        seed: Option<u64>,
        /// Start from this Hostage FEN instead of the initial position.
        #[arg(long)]
        fen: Option<String>,
        /// Draw the men as chess figurines instead of letters.
        #[arg(long)]
        unicode: bool,
    },
    /// Speak the UCI protocol on stdin and stdout (for GUIs and match runners).
    Uci,
    /// Review the games of a PGN file: evaluations, ?!/?/?? and accuracy per player.
    Review(review::ReviewArgs),
    /// Search a position at full strength: each iteration, then the best lines.
    Analyse {
        #[command(flatten)]
        at: At,
        /// Stop after about this many nodes (1000000 if no limit is given).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Stop after this many plies of iterative deepening.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Stop after this many milliseconds.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        movetime: Option<u64>,
        /// How many best lines to show.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        multipv: u64,
    },
    /// Play a match between two players over an opening book.
    Match(MatchArgs),
    /// Opening books for `hostage match`.
    Book {
        #[command(subcommand)]
        command: BookCommand,
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
    /// Serve the app and host online games over WebSocket (docs/protocol.md).
    /// Prints `hostage serve: listening on http://ADDR` once it listens.
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// The port (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The SQLite database file (created if missing).
        #[arg(long, default_value = "hostage.db")]
        db: std::path::PathBuf,
        /// The app's directory; by default app/, else hostage-wasm/www.
        #[arg(long = "static")]
        static_dir: Option<std::path::PathBuf>,
    },
    /// Puzzles: generate, select, verify, simulate ratings, train.
    Puzzles {
        #[command(subcommand)]
        command: PuzzlesCommand,
    },
}

#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Find puzzles in bot games; one record a line (docs/puzzles.md).
    Generate {
        /// The run's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games in the whole run (all shards).
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// This shard, I/N: games g with g mod N = I.
        #[arg(long, default_value = "0/1", value_parser = puzzles::parse_shard)]
        shard: (u64, u64),
        /// The levels that play the games, comma-separated (default
        /// novice,beginner,casual).
        #[arg(long, value_delimiter = ',')]
        players: Vec<hostage_engine::Level>,
        /// Append the records to this file instead of printing them.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Merge candidate files and select a set that meets the composition.
    Select {
        /// Candidate files (from `generate`).
        files: Vec<std::path::PathBuf>,
        /// How many puzzles to select.
        #[arg(long, default_value_t = 540)]
        count: usize,
        /// Write the set here instead of stdout.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Verify every puzzle of a file; exit 1 if any fails.
    Verify {
        /// The puzzle file.
        file: std::path::PathBuf,
        /// Also write the puzzles that pass to this file.
        #[arg(long)]
        passing: Option<std::path::PathBuf>,
    },
    /// Simulate players of known strength training on the built-in set.
    Simulate {
        /// Players (strengths 800..2000 in turn).
        #[arg(long, default_value_t = 260)]
        players: u32,
        /// Puzzles per player.
        #[arg(long, default_value_t = 30)]
        attempts: u32,
        /// A puzzle file instead of the built-in set.
        #[arg(long)]
        file: Option<std::path::PathBuf>,
    },
    /// Solve puzzles at this terminal; the rating is updated after each.
    Train {
        /// Keep the rating and the puzzles seen in this file.
        #[arg(long)]
        state: Option<std::path::PathBuf>,
        /// easiest, easier, normal, harder or hardest.
        #[arg(long, default_value = "normal", value_parser = parse_difficulty)]
        difficulty: hostage_puzzles::selection::Difficulty,
    },
}

fn parse_difficulty(s: &str) -> Result<hostage_puzzles::selection::Difficulty, String> {
    s.parse()
        .map_err(|e: hostage_puzzles::selection::ParseDifficultyError| e.to_string())
}

/// The arguments of `hostage match`.
#[derive(Args)]
struct MatchArgs {
    /// The first player: random, greedy, a level, full, full:NODES, or
    /// uci:COMMAND LINE (an external UCI engine).
    #[arg(long, value_parser = parse_spec)]
    first: arena::Spec,
    /// The second player (as for --first).
    #[arg(long, value_parser = parse_spec)]
    second: arena::Spec,
    /// The opening book (one opening a line, long-form moves); the built-in
    /// book by default.
    #[arg(long)]
    book: Option<std::path::PathBuf>,
    /// Stop after this many games (by default every opening twice).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// The match seed (random choices of the bots).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..))]
    max_plies: u64,
    /// Stop when the SPRT of ELO0 against ELO1 decides (5% error rates).
    #[arg(long, value_parser = arena::parse_sprt)]
    sprt: Option<hostage_engine::stats::Sprt>,
    /// Write every game to this PGN file.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// An external engine's budget: `go nodes N`.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    uci_nodes: u64,
    /// An external engine's budget: `go movetime MS` (instead of --uci-nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    uci_movetime: Option<u64>,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Draw balanced openings with the engine and write them as a book.
    Generate {
        /// How many openings.
        #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// The seed of the random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies per opening, MIN..MAX.
        #[arg(long, default_value = "6..10", value_parser = book::parse_plies)]
        plies: (usize, usize),
        /// The node budget of the search that judges an opening.
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(100..))]
        nodes: u64,
        /// Keep openings scored within this many centipawns either way.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(0..=10_000))]
        max_eval: u32,
        /// Write the book here instead of stdout.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
}

fn parse_seat(s: &str) -> Result<Seat, String> {
    s.parse().map_err(|e| format!("{e}, or human"))
}

fn parse_spec(s: &str) -> Result<arena::Spec, String> {
    s.parse().map_err(|e| format!("{e}, or uci:COMMAND LINE"))
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
        Command::Play {
            white,
            black,
            seed,
            fen,
            unicode,
        } => play(fen.as_deref(), unicode, ByColor::new(white, black), seed),
        Command::Uci => Ok(hostage_engine::uci::run(io::stdin().lock(), io::stdout())?),
        Command::Review(args) => review::run(&args),
        Command::Analyse {
            at,
            nodes,
            depth,
            movetime,
            multipv,
        } => {
            let request = analyse::Request {
                fen: at.fen.as_deref(),
                moves: at.moves.as_deref(),
                nodes,
                depth,
                movetime,
                multipv: multipv as usize,
            };
            print(|out| analyse::run(&request, out))
        }
        Command::Match(args) => {
            let request = arena::Request {
                first: args.first,
                second: args.second,
                book: args.book,
                games: args.games.map(|n| n as usize),
                threads: args.threads as usize,
                seed: args.seed,
                max_plies: args.max_plies as usize,
                sprt: args.sprt,
                pgn: args.pgn,
                effort: match args.uci_movetime {
                    Some(ms) => uci_engine::Effort::Movetime(ms),
                    None => uci_engine::Effort::Nodes(args.uci_nodes),
                },
            };
            arena::run(&request, &mut io::stdout())
        }
        Command::Book {
            command:
                BookCommand::Generate {
                    count,
                    seed,
                    plies,
                    nodes,
                    max_eval,
                    out,
                },
        } => {
            let config = hostage_engine::book::BookConfig {
                count: count as usize,
                seed,
                min_plies: plies.0,
                max_plies: plies.1,
                nodes,
                max_eval: max_eval as i32,
            };
            print(|stdout| book::run(&config, out.as_ref(), stdout))
        }
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
        Command::Serve {
            host,
            port,
            db,
            static_dir,
        } => serve::run(serve::Request {
            host,
            port,
            db,
            static_dir,
        }),
        Command::Puzzles { command } => run_puzzles(command),
    }
}

fn run_puzzles(command: PuzzlesCommand) -> Result<(), CliError> {
    match command {
        PuzzlesCommand::Generate {
            seed,
            games,
            shard,
            players,
            out,
        } => {
            let config = hostage_puzzles::generate::Config {
                seed,
                games,
                shard: shard.0,
                shards: shard.1,
                players,
            };
            print(|stdout| puzzles::run_generate(&config, out.as_deref(), stdout))
        }
        PuzzlesCommand::Select { files, count, out } => {
            print(|stdout| puzzles::run_select(&files, count, out.as_deref(), stdout))
        }
        PuzzlesCommand::Verify { file, passing } => {
            print(|out| puzzles::run_verify(&file, passing.as_deref(), out))
        }
        PuzzlesCommand::Simulate {
            players,
            attempts,
            file,
        } => print(|out| puzzles::run_simulate(players, attempts, file.as_deref(), out)),
        PuzzlesCommand::Train { state, difficulty } => {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            puzzles::run_train(state.as_deref(), difficulty, &mut input, &mut io::stdout())
        }
    }
}

/// Runs a one-shot command writing to a buffered stdout.
fn print(command: impl FnOnce(&mut dyn Write) -> Result<(), CliError>) -> Result<(), CliError> {
    let mut out = BufWriter::new(io::stdout().lock());
    command(&mut out)?;
    out.flush()?;
    Ok(())
}

/// `hostage play`: people and bots at this terminal.
fn play(
    fen: Option<&str>,
    unicode: bool,
    seats: ByColor<Seat>,
    seed: Option<u64>,
) -> Result<(), CliError> {
    let start = replay::start(fen)?;
    let style = if unicode {
        Style::Unicode
    } else {
        Style::Ascii
    };
    let stdin = io::stdin();
    // Piped input is echoed so that the transcript shows what was played.
    let echo = !stdin.is_terminal();
    let mut console = Console::new(Box::new(stdin.lock()), Box::new(io::stdout().lock()), echo);
    let bots = seats.iter().any(|(_, seat)| *seat != Seat::Human);
    let seed = seed.unwrap_or_else(clock_seed);
    if bots {
        writeln!(
            console.out(),
            "White: {}, Black: {}; bots' seed {seed} (--seed {seed} replays their choices).",
            seats.get(hostage_core::Color::White),
            seats.get(hostage_core::Color::Black)
        )?;
    }
    let mut players: ByColor<Box<dyn Player>> = seats.map(|seat| seat.player(seed));
    Game::new(start, style).run(&mut players, &mut console)
}

/// A seed for bots when none is given: the clock's nanoseconds.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos().into())
}
