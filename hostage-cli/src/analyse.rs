//! `hostage analyse`: the full-strength search of one position, iteration
//! by iteration, then its best lines in SAN and in long form.
//!
//! The position is `--fen` then `--moves`, replayed as a game so that its
//! earlier positions count for repetition (R12). The search stops at the
//! first of `--nodes`, `--depth` and `--movetime`; with none of them it
//! searches [`DEFAULT_FULL_NODES`] nodes, the engine's default. Each completed iteration prints one
//! line per MultiPV line:
//!
//! ```text
//! depth 3 seldepth 9 nodes 2315 time 4 ms | 1: cp 35  1. e4 e5 2. Nf3
//! ```
//!
//! and the end prints each final line as `<k>. <score>  <SAN line>` with
//! the long form under it, then `bestmove <SAN> (<long>)`. Scores are for
//! the side to move, as in UCI.

use std::{io::Write, time::Instant};

use hostage_core::{san::San, Move, Position, Termination};
use hostage_engine::{history_of, Engine, Limits, DEFAULT_FULL_NODES};

use crate::{error::CliError, position::PositionArgs};

/// The arguments of `hostage analyse`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub at: PositionArgs,
    /// Stop after about this many nodes.
    #[arg(
        long,
        value_parser = clap::value_parser!(u64).range(1..),
        help = format!("Stop after about this many nodes ({DEFAULT_FULL_NODES} if no limit is given)")
    )]
    pub nodes: Option<u64>,
    /// Stop after this many plies of iterative deepening.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Stop after this many milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// How many best lines to show.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub multipv: u64,
}

/// Runs the analysis, writing to `out`.
///
/// # Errors
///
/// A bad FEN or move, or output failing.
pub fn run(args: &AnalyseArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let game = args.at.game()?;
    let pos = game.position();
    let mut limits = Limits::infinite().with_multipv(args.multipv as usize);
    limits.nodes = args.nodes;
    limits.depth = args.depth;
    limits.movetime = args.movetime.map(std::time::Duration::from_millis);
    if limits.nodes.is_none() && limits.depth.is_none() && limits.movetime.is_none() {
        limits.nodes = Some(DEFAULT_FULL_NODES);
    }
    writeln!(out, "position {}", pos.fen())?;
    let mut engine = Engine::new();
    let started = Instant::now();
    let mut failed = None;
    let result = engine.search_with_info(pos, &history_of(&game), &limits, &mut |info| {
        let ms = started.elapsed().as_millis();
        for (k, line) in info.lines.iter().enumerate() {
            let written = writeln!(
                out,
                "depth {} seldepth {} nodes {} time {ms} ms | {}: {}  {}",
                info.depth,
                info.seldepth,
                info.nodes,
                k + 1,
                line.score,
                san_line(pos, &line.pv)
            );
            if let Err(e) = written {
                failed.get_or_insert(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    writeln!(out)?;
    let Some(best) = result.best_move else {
        let why = match pos.outcome().map(|o| o.termination) {
            Some(Termination::Checkmate) => "checkmate",
            _ => "stalemate",
        };
        writeln!(out, "no legal move: {why}")?;
        writeln!(out, "bestmove (none)")?;
        return Ok(());
    };
    writeln!(
        out,
        "final: depth {}, {} nodes, {} ms",
        result.depth,
        result.nodes,
        started.elapsed().as_millis()
    )?;
    for (k, line) in result.lines.iter().enumerate() {
        writeln!(
            out,
            "{}. {}  {}",
            k + 1,
            line.score,
            san_line(pos, &line.pv)
        )?;
        writeln!(out, "   {}", long_line(&line.pv))?;
    }
    writeln!(out, "bestmove {} ({best})", San::write(pos, &best))?;
    Ok(())
}

/// `pv` in SAN with move numbers, from `pos` (the core's
/// [`Position::variation_san`]); a line the search gives is always legal,
/// but if one were not, the text says so rather than print a wrong move.
fn san_line(pos: &Position, pv: &[Move]) -> String {
    pos.variation_san(pv)
        .unwrap_or_else(|e| format!("(not a legal line: {e})"))
}

/// `pv` in long form.
fn long_line(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_from_the_side_to_move() -> Result<(), CliError> {
        let pos = PositionArgs {
            fen: None,
            moves: Some("e4".into()),
        }
        .position()?;
        let pv: Vec<Move> = ["e7e5", "g1f3", "b8c6"]
            .iter()
            .scan(pos.clone(), |p, t| {
                let m = p.parse_move(t).ok()?;
                p.play_unchecked(m);
                Some(m)
            })
            .collect();
        assert_eq!(san_line(&pos, &pv), "1... e5 2. Nf3 Nc6");
        assert_eq!(long_line(&pv), "e7e5 g1f3 b8c6");
        // An illegal line is not printed as if it were one.
        assert!(san_line(&Position::new(), &pv).starts_with("(not a legal line: "));
        Ok(())
    }
}
