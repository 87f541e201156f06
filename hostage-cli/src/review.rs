//! `hostage review GAME.pgn [--nodes N] [--output FILE]`: lichess's
//! "computer analysis" for each game of a PGN file, on
//! [`hostage_engine::Engine::review`].
//!
//! Policy: every game of the file is read with the core's reader and
//! reviewed at a node budget per position (reproducible: the same file and
//! budget give the same output on every machine). The annotated PGN (the
//! game's own tags, comments and variations kept; `[%eval …]` after every
//! move, `?!`/`?`/`??` as NAGs with a comment naming the better move, and
//! the engine's best line as a variation; `WhiteAccuracy`/`BlackAccuracy`
//! tags) goes to stdout, or to `--output`. The summary per player
//! (accuracy, average centipawn loss, inaccuracies, mistakes, blunders) goes
//! to stderr, or to stdout when the PGN goes to a file. A game that cannot
//! be read is reported as `hostage pgn check` reports it and skipped; the
//! command then exits 1 at the end.

use std::{
    fs::File,
    io::{self, BufReader, Write},
    path::PathBuf,
};

use hostage_core::pgn::Reader;
use hostage_engine::{Engine, Limits, PlayerReview};

use crate::error::CliError;

/// The node budget per position when `--nodes` is not given: a review of a
/// 40-move game takes a few seconds.
pub const DEFAULT_REVIEW_NODES: u64 = 100_000;

/// The arguments of `hostage review`.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The PGN file to review (every game in it).
    pub game: PathBuf,
    /// Nodes searched per position.
    #[arg(long, default_value_t = DEFAULT_REVIEW_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Write the annotated PGN here instead of to stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Runs `hostage review`.
///
/// # Errors
///
/// The file cannot be opened or written, or a game could not be read.
pub fn run(args: &ReviewArgs) -> Result<(), CliError> {
    let file = File::open(&args.game)
        .map_err(|e| CliError::new(format!("cannot open {}: {e}", args.game.display())))?;
    let mut pgn_out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(io::BufWriter::new(File::create(path).map_err(|e| {
            CliError::new(format!("cannot create {}: {e}", path.display()))
        })?)),
        None => Box::new(io::stdout().lock()),
    };
    let mut summary_out: Box<dyn Write> = if args.output.is_some() {
        Box::new(io::stdout())
    } else {
        Box::new(io::stderr())
    };
    let limits = Limits::nodes(args.nodes);
    let mut engine = Engine::new();
    let mut bad = 0usize;
    for (n, game) in Reader::new(BufReader::new(file)).enumerate() {
        let mut pgn = match game {
            Ok(pgn) => pgn,
            Err(e) => {
                bad += 1;
                eprintln!("{}: {e} (code: {})", args.game.display(), e.code());
                continue;
            }
        };
        let game = pgn.mainline_game();
        let review = engine.review(&game, &limits, &mut |_, _| {});
        review.annotate(&mut pgn);
        writeln!(pgn_out, "{}", pgn.write())?;
        let name = |tag: &str, side: &str| {
            pgn.tag(tag)
                .filter(|v| !v.is_empty() && *v != "?")
                .map_or_else(|| side.to_string(), |v| format!("{side} ({v})"))
        };
        writeln!(summary_out, "game {}:", n + 1)?;
        writeln!(
            summary_out,
            "  {}",
            line(&name("White", "White"), &review.white)
        )?;
        writeln!(
            summary_out,
            "  {}",
            line(&name("Black", "Black"), &review.black)
        )?;
    }
    pgn_out.flush()?;
    summary_out.flush()?;
    if bad > 0 {
        return Err(CliError::new(format!(
            "{}: {bad} game(s) could not be read",
            args.game.display()
        )));
    }
    Ok(())
}

/// `White (Alice): accuracy 87.3%, acpl 24, 1 inaccuracy, 0 mistakes, 1 blunder`.
fn line(who: &str, p: &PlayerReview) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let accuracy = p
        .accuracy
        .map_or_else(|| "-".to_string(), |a| format!("{a:.1}%"));
    let acpl = p.acpl.map_or_else(|| "-".to_string(), |a| a.to_string());
    format!(
        "{who}: accuracy {accuracy}, acpl {acpl}, {}, {}, {}",
        plural(p.inaccuracies, "inaccuracy").replace("inaccuracys", "inaccuracies"),
        plural(p.mistakes, "mistake"),
        plural(p.blunders, "blunder"),
    )
}
