//! `hostage svg`: the position as an SVG diagram on stdout.
//!
//! The position is built as for every one-shot command (`--fen`, then
//! `--moves`); the last of the moves is highlighted. The drawing itself is
//! [`hostage_core::svg::board`].

use std::io::Write;

use hostage_core::{
    svg::{self, Arrow, SvgOptions},
    Move, Position, Square,
};

use crate::{error::CliError, replay};

/// What `hostage svg` was asked to draw.
pub struct Request<'a> {
    /// `--fen`, or the initial position.
    pub fen: Option<&'a str>,
    /// `--moves`, whitespace-separated.
    pub moves: Option<&'a str>,
    /// `--flip`: Black at the bottom.
    pub flip: bool,
    /// `--size`: width in pixels.
    pub size: Option<u32>,
    /// `--no-coordinates`.
    pub coordinates: bool,
    /// `--arrow e2e4` (repeatable; `e4e4` draws a circle).
    pub arrows: &'a [String],
}

/// Replays the request's moves, keeping the last one for the highlight.
fn position_and_last_move(
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<(Position, Option<Move>), CliError> {
    let start = replay::start(fen)?;
    let tokens: Vec<&str> = moves
        .unwrap_or("")
        .split_whitespace()
        .map(replay::strip_move_number)
        .filter(|t| !t.is_empty())
        .collect();
    let Some((last, before)) = tokens.split_last() else {
        return Ok((start, None));
    };
    let pos = replay::play_moves(start, &before.join(" "))?;
    // play_moves reports a bad last move with its ply; parse only after it.
    let after = replay::play_moves(pos.clone(), last)
        .map_err(|_| CliError::new(format!("cannot play move \"{last}\"")))?;
    let m = pos.parse_move(last).ok();
    Ok((after, m))
}

/// Parses `e2e4` into an arrow.
fn arrow(text: &str) -> Result<Arrow, CliError> {
    let bytes = text.as_bytes();
    let bad = || CliError::new(format!("invalid arrow \"{text}\" (expected e.g. e2e4)"));
    if bytes.len() != 4 {
        return Err(bad());
    }
    let from = Square::from_ascii(&bytes[..2]).map_err(|_| bad())?;
    let to = Square::from_ascii(&bytes[2..]).map_err(|_| bad())?;
    Ok(Arrow::new(from, to))
}

/// `hostage svg`: writes the diagram.
pub fn run(request: &Request<'_>, out: &mut dyn Write) -> Result<(), CliError> {
    let (pos, last_move) = position_and_last_move(request.fen, request.moves)?;
    let mut options = SvgOptions::default();
    options.flipped = request.flip;
    options.size = request.size;
    options.coordinates = request.coordinates;
    options.last_move = last_move.map(|m| m.to_uci());
    options.arrows = request
        .arrows
        .iter()
        .map(|a| arrow(a))
        .collect::<Result<_, _>>()?;
    out.write_all(svg::board(&pos, &options).as_bytes())?;
    Ok(())
}
