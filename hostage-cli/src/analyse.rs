//! `hostage analyse`: the full-strength search of one position, iteration
//! by iteration, then its best lines in SAN and in long form.
//!
//! The position is `--fen` then `--moves`, replayed as a game so that its
//! earlier positions count for repetition (R12). The search stops at the
//! first of `--nodes`, `--depth` and `--movetime`; with none of them it
//! searches [`DEFAULT_NODES`] nodes. Each completed iteration prints one
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
use hostage_engine::{history_of, Engine, Limits};

use crate::{error::CliError, replay};

/// The node budget when no limit is given.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// What to analyse and how long.
pub struct Request<'a> {
    /// `--fen`.
    pub fen: Option<&'a str>,
    /// `--moves`.
    pub moves: Option<&'a str>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--movetime`, in milliseconds.
    pub movetime: Option<u64>,
    /// `--multipv`.
    pub multipv: usize,
}

/// Runs the analysis, writing to `out`.
///
/// # Errors
///
/// A bad FEN or move, or output failing.
pub fn run(request: &Request<'_>, out: &mut dyn Write) -> Result<(), CliError> {
    let game = replay::game(request.fen, request.moves)?;
    let pos = game.position();
    let mut limits = Limits::infinite().with_multipv(request.multipv);
    limits.nodes = request.nodes;
    limits.depth = request.depth;
    limits.movetime = request.movetime.map(std::time::Duration::from_millis);
    if limits.nodes.is_none() && limits.depth.is_none() && limits.movetime.is_none() {
        limits.nodes = Some(DEFAULT_NODES);
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

/// `pv` in SAN with move numbers, from `pos`; stops at a move that is not
/// legal (a search line always is, but the text must never lie).
pub fn san_line(pos: &Position, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (i, m) in pv.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        if pos.turn().is_white() {
            words.push(format!("{}.", pos.fullmoves()));
        } else if i == 0 {
            words.push(format!("{}...", pos.fullmoves()));
        }
        words.push(San::write(&pos, m));
        pos.play_unchecked(*m);
    }
    words.join(" ")
}

/// `pv` in long form.
pub fn long_line(pv: &[Move]) -> String {
    pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_from_the_side_to_move() -> Result<(), CliError> {
        let pos = replay::position(None, Some("e4"))?;
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
        // An illegal move ends the line rather than printing nonsense.
        assert_eq!(san_line(&Position::new(), &pv), "");
        Ok(())
    }
}
