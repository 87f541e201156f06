//! `hostage perft`: the leaves of the legal move tree, the count alone on
//! the last line of stdout (time and speed go to stderr, so that scripts
//! read the bare number).

use std::{io::Write, time::Instant};

use hostage_core::perft;

use crate::{error::CliError, position::PositionArgs};

/// The arguments of `hostage perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Plies to search.
    pub depth: u32,
    #[command(flatten)]
    pub at: PositionArgs,
}

/// Counts and writes the leaves.
///
/// # Errors
///
/// A bad FEN or move, or output failing.
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos = args.at.position()?;
    let started = Instant::now();
    let nodes = perft(&pos, args.depth);
    let seconds = started.elapsed().as_secs_f64();
    // Timing goes to stderr so that stdout stays exactly the count.
    if seconds > 0.0 {
        eprintln!(
            "perft {}: {nodes} nodes in {seconds:.3} s ({:.0} nodes/s)",
            args.depth,
            nodes as f64 / seconds
        );
    }
    writeln!(out, "{nodes}")?;
    Ok(())
}
