//! Where our evaluation and another engine's disagree, and who turned out
//! right: reads a `hostage match --pgn` file whose engine moves carry their
//! scores (`{+0.35}`, `{-M3}`, from the mover's side) and compares, after
//! each move, the score of the engine that played it with the score of the
//! engine that answered it, both turned to our side.
//!
//! ```text
//! cargo run --release -p hostage-match --example disagree -- GAMES.pgn [--ours NAME] [--top N] [--data OUT] [--label result|theirs]
//! ```
//!
//! `--ours` names our engine (by default the player whose name starts with
//! `hostage`). The report: how often we were the optimist by 3 pawns or
//! more and what those games scored for us (a low score says our
//! evaluation believed in positions that were lost), the same for the
//! other engine, and the `--top` positions of largest disagreement with
//! both scores and the game's result. `--data OUT` writes the quiet
//! positions of these games (past ply 16, not in check, the move played
//! from them not a capture or promotion) as `FEN;RESULT;GAME` lines, RESULT
//! from White's side, the format of the Texel tuner (`examples/texel.rs`),
//! so that the fit can learn from games against another engine as well as
//! from self-play. With `--label theirs` it writes instead the quiet
//! positions where the other engine was to move, each labelled with that
//! engine's own score of it as an expected result, `1 / (1 + 10^(−cp/400))`
//! from White's side: a fit to those labels learns the other engine's
//! judgement of a position, where the games' results say mostly which
//! engine was the stronger.

use std::fmt::Write as _;

use hostage_core::{
    pgn::{PgnGame, Reader},
    Color,
};

/// Disagreements of this many centipawns or more are counted apart.
const LARGE: i32 = 300;
/// A mate as centipawns, for sorting.
const MATE_CP: i32 = 10_000;

/// A score comment as centipawns from the mover's side.
fn score_of(comment: &str) -> Option<i32> {
    let c = comment.trim();
    let (sign, rest) = match c.as_bytes().first()? {
        b'+' => (1, &c[1..]),
        b'-' => (-1, &c[1..]),
        _ => return None,
    };
    if let Some(moves) = rest.strip_prefix('M') {
        let n: i32 = moves.parse().ok()?;
        return Some(sign * (MATE_CP - n));
    }
    let pawns: f64 = rest.parse().ok()?;
    Some(sign * (pawns * 100.0).round() as i32)
}

/// One position after a move, scored by both engines from our side.
struct Seen {
    fen: String,
    ours: i32,
    theirs: i32,
    /// The game's result for us: 1, ½ or 0.
    result: f64,
    game: usize,
    ply: usize,
}

struct Args {
    path: String,
    ours: Option<String>,
    top: usize,
    data: Option<String>,
    /// Label the data with the other engine's scores, not the results.
    theirs: bool,
}

/// A score in centipawns as an expected result for its side.
fn expected(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(cp) / 400.0))
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut parsed = Args {
        path: String::new(),
        ours: None,
        top: 20,
        data: None,
        theirs: false,
    };
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--ours" => parsed.ours = Some(value()?),
            "--top" => parsed.top = value()?.parse().map_err(|e| format!("--top: {e}"))?,
            "--data" => parsed.data = Some(value()?),
            "--label" => {
                parsed.theirs = match value()?.as_str() {
                    "result" => false,
                    "theirs" => true,
                    other => return Err(format!("--label: {other:?} is not result or theirs")),
                }
            }
            _ if parsed.path.is_empty() && !a.starts_with("--") => parsed.path = a,
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    if parsed.path.is_empty() {
        return Err(
            "usage: disagree GAMES.pgn [--ours NAME] [--top N] [--data OUT] [--label result|theirs]"
                .into(),
        );
    }
    Ok(parsed)
}

/// Our colour in `game`, if one of its players is `ours` (or, without a
/// name, starts with `hostage`).
fn our_colour(game: &PgnGame, ours: Option<&str>) -> Option<Color> {
    let is_ours = |name: &str| ours.map_or(name.starts_with("hostage"), |o| name == o);
    match (game.tag("White"), game.tag("Black")) {
        (Some(w), _) if is_ours(w) => Some(Color::White),
        (_, Some(b)) if is_ours(b) => Some(Color::Black),
        _ => None,
    }
}

/// The game's result for `us`, if decided.
fn result_for(game: &PgnGame, us: Color) -> Option<f64> {
    let white = match game.tag("Result")? {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return None,
    };
    Some(if us.is_white() { white } else { 1.0 - white })
}

/// The positions of `game` scored by both engines, and its quiet
/// positions as tuner lines.
fn read_game(
    game: &PgnGame,
    index: usize,
    us: Color,
    result: f64,
    theirs: bool,
) -> (Vec<Seen>, Vec<String>) {
    let line = game.mainline();
    let moves = game.mainline_moves();
    let mut replay = hostage_core::Game::new();
    let mut seen = Vec::new();
    let mut data = Vec::new();
    let white_result = if us.is_white() { result } else { 1.0 - result };
    for (i, (&node, m)) in line.iter().zip(&moves).enumerate() {
        let before = replay.position().clone();
        let mover = before.turn();
        let score = |n| game.node(n).comments.iter().find_map(|c| score_of(c));
        if i >= 16 && !before.is_check() && !m.is_capture() && m.promotion().is_none() {
            if !theirs {
                data.push(format!("{};{white_result};{index}", before.fen()));
            } else if let Some(cp) = score(node).filter(|_| mover != us) {
                // The other engine's score of the position it moved from.
                let white_cp = if mover.is_white() { cp } else { -cp };
                let label = expected(white_cp);
                data.push(format!("{};{label:.4};{index}", before.fen()));
            }
        }
        if replay.push(*m).is_err() {
            break;
        }
        let (Some(a), Some(b)) = (score(node), line.get(i + 1).and_then(|&n| score(n))) else {
            continue;
        };
        // `a` is the mover's, `b` the answerer's, each from its own side.
        let (ours, theirs) = if mover == us { (a, -b) } else { (b, -a) };
        seen.push(Seen {
            fen: replay.position().fen(),
            ours,
            theirs,
            result,
            game: index,
            ply: i + 1,
        });
    }
    (seen, data)
}

fn main() -> Result<(), String> {
    let args = parse_args()?;
    let text = std::fs::read_to_string(&args.path).map_err(|e| format!("{}: {e}", args.path))?;
    let mut all = Vec::new();
    let mut data = Vec::new();
    for (index, game) in Reader::from_str(&text).enumerate() {
        let game = game.map_err(|e| format!("game {}: {e}", index + 1))?;
        let Some(us) = our_colour(&game, args.ours.as_deref()) else {
            continue;
        };
        let Some(result) = result_for(&game, us) else {
            continue;
        };
        let (seen, lines) = read_game(&game, index + 1, us, result, args.theirs);
        all.extend(seen);
        data.extend(lines);
    }
    let mut report = String::new();
    for (who, optimist) in [
        (
            "we",
            Box::new(|s: &Seen| s.ours - s.theirs >= LARGE) as Box<dyn Fn(&Seen) -> bool>,
        ),
        ("they", Box::new(|s: &Seen| s.theirs - s.ours >= LARGE)),
    ] {
        let picked: Vec<&Seen> = all.iter().filter(|s| optimist(s)).collect();
        let mean = picked.iter().map(|s| s.result).sum::<f64>() / picked.len().max(1) as f64;
        let _ = writeln!(
            report,
            "positions where {who} were more optimistic by {LARGE}+ cp: {} of {}, our score in those games {:.0}%",
            picked.len(),
            all.len(),
            100.0 * mean
        );
    }
    all.sort_by_key(|s| std::cmp::Reverse((s.ours - s.theirs).abs()));
    let _ = writeln!(
        report,
        "\nlargest disagreements (ours, theirs, our result):"
    );
    for s in all.iter().take(args.top) {
        let _ = writeln!(
            report,
            "game {:>3} ply {:>3}: ours {:>+6} theirs {:>+6} result {:.1}  {}",
            s.game, s.ply, s.ours, s.theirs, s.result, s.fen
        );
    }
    print!("{report}");
    if let Some(out) = &args.data {
        let mut text = data.join("\n");
        text.push('\n');
        std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
        println!("{} quiet positions written to {out}", data.len());
    }
    Ok(())
}
