//! `hostage book generate`: writes an opening book for `hostage match`
//! with the engine's generator (`hostage_engine::book::generate`), the
//! way `hostage-match/data/openings.txt` was made.
//!
//! The book goes to `--out FILE` (or stdout), with a header naming the
//! command and the statistics (count, score spread, openings with
//! prisoners); progress goes to stderr. The same arguments give the same
//! book.

use std::{io::Write, path::PathBuf};

use hostage_engine::book::{generate, write_book, BookConfig};

use crate::error::CliError;

/// The subcommands of `hostage book`.
#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Draw balanced openings with the engine and write them as a book.
    Generate(GenerateArgs),
}

/// The arguments of `hostage book generate`; the defaults are those of the
/// built-in book ([`BookConfig::default`], checked by a test).
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// How many openings.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// The seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies per opening, MIN..MAX.
    #[arg(long, default_value = "6..10", value_parser = parse_plies)]
    pub plies: (usize, usize),
    /// The node budget of the search that judges an opening.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(100..))]
    pub nodes: u64,
    /// Keep openings scored within this many centipawns either way.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub max_eval: u32,
    /// Write the book here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl GenerateArgs {
    /// The generator's settings.
    fn config(&self) -> BookConfig {
        let mut config = BookConfig::default();
        config.count = self.count as usize;
        config.seed = self.seed;
        (config.min_plies, config.max_plies) = self.plies;
        config.nodes = self.nodes;
        config.max_eval = self.max_eval as i32;
        config
    }
}

/// Reads `--plies A..B` (or a single number).
///
/// # Errors
///
/// A message for clap when the text is not `A..B` with `1 <= A <= B`.
fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected MIN..MAX with 1 <= MIN <= MAX (e.g. 6..10), got {s:?}");
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let min: usize = a.trim().parse().map_err(|_| bad())?;
    let max: usize = b.trim().parse().map_err(|_| bad())?;
    if min == 0 || min > max || max > 100 {
        return Err(bad());
    }
    Ok((min, max))
}

/// Runs `command`.
///
/// # Errors
///
/// Writing failed.
pub fn run(command: BookCommand, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        BookCommand::Generate(args) => run_generate(&args, out),
    }
}

/// Generates the book and writes it to `--out` or `out`.
fn run_generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let config = &args.config();
    let entries = generate(config, &mut |entry, attempts| {
        eprintln!(
            "kept after {attempts} attempts: {} ({:+} cp for White)",
            entry.opening.moves.join(" "),
            entry.white_cp
        );
    });
    if entries.len() < config.count {
        eprintln!(
            "only {} of {} openings found within the limits",
            entries.len(),
            config.count
        );
    }
    let text = write_book(config, &entries);
    match &args.out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?,
        None => out.write_all(text.as_bytes())?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_read_as_a_range() {
        assert_eq!(parse_plies("6..10"), Ok((6, 10)));
        assert_eq!(parse_plies("8"), Ok((8, 8)));
        for bad in ["0..4", "9..3", "x..2", "1..1000"] {
            assert!(parse_plies(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_defaults_are_those_of_the_built_in_book() {
        use clap::Parser;

        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: GenerateArgs,
        }
        let cli = Cli::try_parse_from(["book"]).expect("no argument needed");
        assert_eq!(cli.args.config(), BookConfig::default());
    }
}
