//! `hostage svg`: the position as an SVG diagram on stdout.
//!
//! The position is built as for every one-shot command (`--fen`, then
//! `--moves`); the last of the moves is highlighted. The drawing itself is
//! [`hostage_core::svg::board`].

use std::io::Write;

use hostage_core::{
    svg::{self, Arrow, SvgOptions},
    Excerpt, Move, Square,
};

use crate::{error::CliError, position::PositionArgs};

/// The arguments of `hostage svg`.
#[derive(clap::Args, Debug)]
pub struct SvgArgs {
    #[command(flatten)]
    pub at: PositionArgs,
    /// Black at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// Image width in pixels.
    #[arg(long)]
    pub size: Option<u32>,
    /// Leave out the file letters and rank digits.
    #[arg(long)]
    pub no_coordinates: bool,
    /// Draw an arrow, e.g. `--arrow e2e4` (repeatable; `e4e4` is a circle).
    #[arg(long)]
    pub arrow: Vec<String>,
}

/// Parses `e2e4` into an arrow (also for the course's diagrams).
///
/// # Errors
///
/// A message naming the text (shortened) when it is not two squares.
pub fn arrow(text: &str) -> Result<Arrow, CliError> {
    let bytes = text.as_bytes();
    let bad = || {
        CliError::new(format!(
            "invalid arrow {} (expected e.g. e2e4)",
            Excerpt::new(bytes)
        ))
    };
    if bytes.len() != 4 {
        return Err(bad());
    }
    let from = Square::from_ascii(&bytes[..2]).map_err(|_| bad())?;
    let to = Square::from_ascii(&bytes[2..]).map_err(|_| bad())?;
    Ok(Arrow::new(from, to))
}

/// `hostage svg`: writes the diagram.
pub fn run(args: &SvgArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let game = args.at.game()?;
    let mut options = SvgOptions::default();
    options.flipped = args.flip;
    options.size = args.size;
    options.coordinates = !args.no_coordinates;
    options.last_move = game.moves().last().map(Move::to_uci);
    options.arrows = args
        .arrow
        .iter()
        .map(|a| arrow(a))
        .collect::<Result<_, _>>()?;
    out.write_all(svg::board(game.position(), &options).as_bytes())?;
    Ok(())
}
