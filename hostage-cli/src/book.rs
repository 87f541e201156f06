//! `hostage book generate`: writes an opening book for `hostage match`
//! with the engine's generator (`hostage_match::book::generate`), the
//! way `hostage-match/data/openings.txt` was made.
//!
//! The book goes to `--out FILE` (or stdout), with a header naming the
//! command and the statistics (count, score spread, openings with
//! prisoners); progress goes to stderr. The same arguments give the same
//! book.

use std::{io::Write, path::PathBuf};

use hostage_match::book::{generate, write_book, BookConfig};

use crate::error::CliError;

/// Reads `--plies A..B` (or a single number).
///
/// # Errors
///
/// A message for clap when the text is not `A..B` with `1 <= A <= B`.
pub fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected MIN..MAX with 1 <= MIN <= MAX (e.g. 6..10), got {s:?}");
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let min: usize = a.trim().parse().map_err(|_| bad())?;
    let max: usize = b.trim().parse().map_err(|_| bad())?;
    if min == 0 || min > max || max > 100 {
        return Err(bad());
    }
    Ok((min, max))
}

/// Generates the book and writes it to `out_file` or `out`.
///
/// # Errors
///
/// Writing failed.
pub fn run(
    config: &BookConfig,
    out_file: Option<&PathBuf>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
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
    match out_file {
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
}
