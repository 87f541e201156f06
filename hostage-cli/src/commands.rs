//! The one-shot commands: `perft`, `divide`, `moves` and `fen`.
//!
//! Each takes a ready [`Position`] and writes machine-friendly text to
//! `out`: results that scripts read go to stdout, timings to stderr, so the
//! last line of `perft` is always the bare node count.

use std::{io::Write, time::Instant};

use hostage_core::{divide, perft, san::San, Position};

use crate::error::CliError;

/// `hostage perft`: the node count on the last line, time and speed on stderr.
pub fn run_perft(pos: &Position, depth: u32, out: &mut dyn Write) -> Result<(), CliError> {
    let started = Instant::now();
    let nodes = perft(pos, depth);
    let seconds = started.elapsed().as_secs_f64();
    // Timing goes to stderr so that stdout stays exactly the count.
    if seconds > 0.0 {
        eprintln!(
            "perft {depth}: {nodes} nodes in {seconds:.3} s ({:.0} nodes/s)",
            nodes as f64 / seconds
        );
    }
    writeln!(out, "{nodes}")?;
    Ok(())
}

/// `hostage divide`: `<uci> <count>` per first move sorted by the UCI text,
/// a blank line, then the total.
pub fn run_divide(pos: &Position, depth: u32, out: &mut dyn Write) -> Result<(), CliError> {
    let mut lines: Vec<(String, u64)> = divide(pos, depth)
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

/// `hostage moves`: each legal move as `<SAN>\t<UCI>`, in generator order.
pub fn run_moves(pos: &Position, out: &mut dyn Write) -> Result<(), CliError> {
    for m in pos.legal_moves() {
        writeln!(out, "{}\t{}", San::write(pos, &m), m.to_uci())?;
    }
    Ok(())
}

/// `hostage fen`: the canonical Hostage FEN.
pub fn run_fen(pos: &Position, out: &mut dyn Write) -> Result<(), CliError> {
    writeln!(out, "{}", pos.fen())?;
    Ok(())
}
