//! `hostage divide`: perft split by first move, `<uci> <count>` per move
//! sorted by the UCI text, a blank line, then the total (the form perft
//! debugging tools compare).

use std::io::Write;

use hostage_core::divide;

use crate::{error::CliError, position::PositionArgs};

/// The arguments of `hostage divide`.
#[derive(clap::Args, Debug)]
pub struct DivideArgs {
    /// Plies to search, the first move included.
    #[arg(value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: u32,
    #[command(flatten)]
    pub at: PositionArgs,
}

/// Writes the count of each first move, then the total.
///
/// # Errors
///
/// A bad FEN or move, or output failing.
pub fn run(args: &DivideArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos = args.at.position()?;
    let mut lines: Vec<(String, u64)> = divide(&pos, args.depth)
        .into_iter()
        .map(|(m, n)| (m.to_uci().to_string(), n))
        .collect();
    lines.sort();
    let mut total = 0;
    for (uci, n) in &lines {
        writeln!(out, "{uci} {n}")?;
        total += n;
    }
    writeln!(out)?;
    writeln!(out, "{total}")?;
    Ok(())
}
