//! `hostage fen`: the canonical Hostage FEN after `--fen` and `--moves`.

use std::io::Write;

use crate::{error::CliError, position::PositionArgs};

/// The arguments of `hostage fen`.
#[derive(clap::Args, Debug)]
pub struct FenArgs {
    #[command(flatten)]
    pub at: PositionArgs,
}

/// Writes the FEN.
///
/// # Errors
///
/// A bad FEN or move, or output failing.
pub fn run(args: &FenArgs, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(out, "{}", args.at.position()?.fen())?;
    Ok(())
}
