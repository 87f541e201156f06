//! `hostage match`: two players over an opening book, each opening played
//! with both colours, on several threads; then W/D/L, score, Elo difference
//! with its 95% interval and, if asked, the SPRT verdict.
//!
//! A player is any engine player (`random`, `greedy`, a level, `full`,
//! `full:NODES`) or `uci:COMMAND LINE`, an external UCI engine (see
//! `uci_engine.rs`), started once per thread. The book is the engine's
//! default (`hostage_engine::book`) unless `--book FILE` names another.
//! Progress (one line per game) and the summary go to stdout; `--pgn OUT`
//! writes every game, in schedule order, with the players, round and
//! termination as tags.

use std::{fmt, io::Write, path::PathBuf, str::FromStr};

use hostage_match::{
    book,
    matches::{run_match, GameRecord, MatchConfig},
    opening::Opening,
    players::{NoMove, ParsePlayerError, Player, PlayerSpec},
    stats::{Sprt, Wdl},
    uci_player::{Effort, UciEngine},
};

use crate::error::CliError;

/// A match player as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// One of the engine's players.
    Builtin(PlayerSpec),
    /// `uci:COMMAND LINE`: an external engine.
    Uci(String),
}

impl FromStr for Spec {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Spec, ParsePlayerError> {
        match s.trim().strip_prefix("uci:") {
            Some(command) if !command.trim().is_empty() => Ok(Spec::Uci(command.trim().into())),
            // `uci:` alone is no engine: let the built-in parser report it.
            _ => s.parse().map(Spec::Builtin),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Builtin(spec) => write!(f, "{spec}"),
            Spec::Uci(command) => write!(f, "uci:{command}"),
        }
    }
}

/// Reads `--sprt elo0,elo1` (5% error rates both ways).
///
/// # Errors
///
/// A message for clap when the text is not two numbers with `elo0 < elo1`.
pub fn parse_sprt(s: &str) -> Result<Sprt, String> {
    let bad = || format!("expected ELO0,ELO1 with ELO0 < ELO1 (e.g. 0,100), got {s:?}");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
    let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(bad());
    }
    Ok(Sprt {
        elo0,
        elo1,
        ..Sprt::default()
    })
}

/// Everything `hostage match` was given.
pub struct Request {
    /// `--first`.
    pub first: Spec,
    /// `--second`.
    pub second: Spec,
    /// `--book`.
    pub book: Option<PathBuf>,
    /// `--games`.
    pub games: Option<usize>,
    /// `--threads`.
    pub threads: usize,
    /// `--seed`.
    pub seed: u64,
    /// `--max-plies`.
    pub max_plies: usize,
    /// `--sprt`.
    pub sprt: Option<Sprt>,
    /// `--pgn`.
    pub pgn: Option<PathBuf>,
    /// `--uci-nodes` / `--uci-movetime`: an external engine's effort.
    pub effort: Effort,
}

/// Plays the match, writing progress and the summary to `out`.
///
/// # Errors
///
/// The book cannot be read or has an illegal move, an external engine does
/// not start, or writing fails.
pub fn run(request: &Request, out: &mut (dyn Write + Send)) -> Result<(), CliError> {
    let openings = match &request.book {
        None => book::default_book(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::new(format!("cannot read book {}: {e}", path.display())))?;
            Opening::parse_book(&text).map_err(|e| {
                CliError::new(format!("{}: {e} (code: {})", path.display(), e.code()))
            })?
        }
    };
    if openings.is_empty() {
        return Err(CliError::new("the opening book has no opening"));
    }
    let first_name = name(&request.first, request.effort)?;
    let second_name = name(&request.second, request.effort)?;
    let config = MatchConfig {
        max_games: request.games,
        max_plies: request.max_plies,
        threads: request.threads,
        seed: request.seed,
        sprt: request.sprt,
        openings,
    };
    let total = (config.openings.len() * 2).min(config.max_games.unwrap_or(usize::MAX));
    writeln!(
        out,
        "{first_name} vs {second_name}: {total} games from {} openings, {} threads, seed {}",
        config.openings.len(),
        config.threads,
        config.seed
    )?;
    let out = std::sync::Mutex::new(out);
    let progress = |record: &GameRecord, wdl: &Wdl| {
        let (white, black) = if record.first_is_white {
            (&first_name, &second_name)
        } else {
            (&second_name, &first_name)
        };
        if let Ok(mut out) = out.lock() {
            // A closed stdout ends the report, not the match.
            let _ = writeln!(
                out,
                "game {:>3}/{total}: {white} - {black} {} ({}, {} plies)  [{wdl}]",
                record.index + 1,
                record.result.as_str(),
                record.termination,
                record.game.ply()
            );
        }
    };
    let first = factory(&request.first, request.effort);
    let second = factory(&request.second, request.effort);
    let result = run_match(&config, &*first, &*second, &progress)
        .map_err(|e| CliError::new(format!("the opening book has an illegal move: {e}")))?;
    let out = out
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let wdl = result.wdl;
    writeln!(out)?;
    writeln!(
        out,
        "{first_name} vs {second_name}: W/D/L {}/{}/{} ({} games)",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.games()
    )?;
    writeln!(out, "score: {:.1}%", 100.0 * wdl.score())?;
    writeln!(out, "elo difference: {} (95% interval)", wdl.elo())?;
    if let (Some(sprt), Some(verdict)) = (request.sprt, result.verdict) {
        let (low, high) = sprt.bounds();
        writeln!(
            out,
            "sprt elo0 {} elo1 {}: llr {:.2} (bounds {low:.2}, {high:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            wdl.llr(sprt.elo0, sprt.elo1)
        )?;
    }
    if let Some(path) = &request.pgn {
        let text: Vec<String> = result
            .games
            .iter()
            .map(|g| g.pgn(&first_name, &second_name, "hostage match"))
            .collect();
        std::fs::write(path, text.join("\n"))
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
        writeln!(
            out,
            "pgn: {} game(s) written to {}",
            result.games.len(),
            path.display()
        )?;
    }
    Ok(())
}

/// The player's name; an external engine is started once to check it
/// works and to learn its `id name`.
fn name(spec: &Spec, effort: Effort) -> Result<String, CliError> {
    match spec {
        Spec::Builtin(spec) => Ok(spec.to_string()),
        Spec::Uci(command) => Ok(UciEngine::start(command, effort, effort.default_timeout())
            .map_err(|e| CliError::new(e.to_string()))?
            .engine_name()
            .to_owned()),
    }
}

type Factory = Box<dyn Fn() -> Box<dyn Player> + Sync>;

/// Builds one player per thread.
fn factory(spec: &Spec, effort: Effort) -> Factory {
    match spec.clone() {
        Spec::Builtin(spec) => Box::new(move || spec.build()),
        Spec::Uci(command) => {
            Box::new(
                move || match UciEngine::start(&command, effort, effort.default_timeout()) {
                    Ok(engine) => Box::new(engine) as Box<dyn Player>,
                    Err(e) => {
                        eprintln!("error: {e}");
                        Box::new(Absent)
                    }
                },
            )
        }
    }
}

/// An external engine that did not start: it gives no move, and so loses.
struct Absent;

impl Player for Absent {
    fn name(&self) -> String {
        "absent".into()
    }
    fn choose(
        &mut self,
        _game: &hostage_core::Game,
        _seed: u64,
    ) -> Result<hostage_core::Move, NoMove> {
        Err(NoMove::GaveUp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_and_sprt_read() {
        assert_eq!(
            "uci:/bin/engine uci".parse(),
            Ok(Spec::Uci("/bin/engine uci".into()))
        );
        assert_eq!("random".parse(), Ok(Spec::Builtin(PlayerSpec::Random)));
        assert!("uci:".parse::<Spec>().is_err());
        assert!("robot".parse::<Spec>().is_err());
        let sprt = parse_sprt("-10,5.5").expect("two numbers");
        assert_eq!((sprt.elo0, sprt.elo1), (-10.0, 5.5));
        for bad in ["10", "5,0", "a,b", "0,inf"] {
            assert!(parse_sprt(bad).is_err(), "{bad}");
        }
    }
}
