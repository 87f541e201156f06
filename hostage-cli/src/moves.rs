//! `hostage moves`: each legal move as `<SAN>\t<UCI>`, in generator order.

use std::io::Write;

use hostage_core::san::San;

use crate::{error::CliError, position::PositionArgs};

/// The arguments of `hostage moves`.
#[derive(clap::Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub at: PositionArgs,
}

/// Writes the legal moves.
///
/// # Errors
///
/// A bad FEN or move, or output failing.
pub fn run(args: &MovesArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let pos = args.at.position()?;
    for m in pos.legal_moves() {
        writeln!(out, "{}\t{}", San::write(&pos, &m), m.to_uci())?;
    }
    Ok(())
}
