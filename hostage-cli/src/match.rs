//! `hostage match`: two players over an opening book, each opening played
//! with both colours, on several threads; then W/D/L, score, Elo difference
//! with its 95% interval, the forfeits and, if asked, the SPRT verdict.
//!
//! A player is any built-in player (`random`, `greedy`, a level, `full`,
//! `full:NODES`) or `uci:COMMAND LINE`, an external UCI engine
//! ([`hostage_match::uci_player`]), started once per thread, with the UCI
//! options of `--first-option NAME=VALUE` / `--second-option` (repeatable,
//! like cutechess's `option.NAME=VALUE`; an option the engine does not
//! offer is an error before the match). External engines search on
//! `--uci-nodes`, `--uci-movetime`, or a clock (`--uci-clock 1+0.1`: `go
//! wtime btime winc binc`, booked by the referee, a flag lost on time).
//! Every move is refereed by the core. An external engine that exits or
//! hangs (no move within `--uci-timeout`) is restarted and asked again; a
//! second breakdown in the same game, or an illegal move, forfeits it. A
//! forfeited game is adjudicated when both engines' last scores agree who
//! is winning (one by 6 pawns or a mate, the other by 1.5), else left out
//! of the score: the progress line, the PGN (`Termination` tag, comments,
//! each engine move's score as cutechess writes it) and the summary say
//! which. The book is the built-in one ([`hostage_engine::book`]) unless
//! `--book FILE` names another. Progress (one line per game) and the
//! summary go to stdout; `--pgn OUT` writes every game, in schedule order,
//! with the players, round and termination as tags.

use std::{fmt, io::Write, path::PathBuf, str::FromStr, time::Duration};

use hostage_match::{
    book,
    book::Opening,
    clock::MatchClock,
    matches::{run_match, GameRecord, MatchConfig, MatchResult},
    players::{NoMove, ParsePlayerError, Player, PlayerSpec},
    stats::{Sprt, Wdl},
    uci_player::{Effort, UciEngine},
};

use crate::error::CliError;

/// The arguments of `hostage match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The first player: random, greedy, a level, full, full:NODES, or
    /// uci:COMMAND LINE (an external UCI engine).
    #[arg(long, value_parser = parse_spec)]
    pub first: Spec,
    /// The second player (as for --first).
    #[arg(long, value_parser = parse_spec)]
    pub second: Spec,
    /// A UCI option of the first player, NAME=VALUE (repeatable; for a
    /// uci: player only), e.g. Threads=2 or Hash=64.
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    pub first_option: Vec<(String, String)>,
    /// A UCI option of the second player (as for --first-option).
    #[arg(long, value_name = "NAME=VALUE", value_parser = parse_option)]
    pub second_option: Vec<(String, String)>,
    /// The opening book (one opening a line, long-form moves); the built-in
    /// book by default.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Stop after this many games (by default every opening twice).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// The match seed (random choices of the bots).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_plies: u64,
    /// Stop when the SPRT of ELO0 against ELO1 decides (5% error rates).
    #[arg(long, value_parser = parse_sprt)]
    pub sprt: Option<Sprt>,
    /// Write every game to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// An external engine's budget: `go nodes N`.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub uci_nodes: u64,
    /// An external engine's budget: `go movetime MS` (instead of --uci-nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub uci_movetime: Option<u64>,
    /// Play on a clock, INITIAL+INCREMENT in seconds (e.g. 1+0.1): external
    /// engines get `go wtime btime winc binc` and lose on time (instead of
    /// --uci-nodes or --uci-movetime; built-in players keep their budgets).
    #[arg(long, value_parser = parse_clock, conflicts_with = "uci_movetime")]
    pub uci_clock: Option<MatchClock>,
    /// With --uci-clock: how many milliseconds below zero a clock may fall
    /// before its side loses on time.
    #[arg(long, default_value_t = 0, requires = "uci_clock")]
    pub time_margin: u64,
    /// How long an external engine may take for one move, in milliseconds,
    /// before it counts as hung, forfeits the game and is restarted
    /// (default: 60000 with --uci-nodes, the move time + 5000 with
    /// --uci-movetime).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub uci_timeout: Option<u64>,
}

impl MatchArgs {
    fn effort(&self) -> Effort {
        match self.uci_movetime {
            Some(ms) => Effort::Movetime(ms),
            None => Effort::Nodes(self.uci_nodes),
        }
    }

    /// On a clock an engine counts as hung past its whole clock plus a
    /// grace (the player works that out per move); otherwise as set.
    fn timeout(&self) -> Duration {
        self.uci_timeout
            .map_or_else(|| self.effort().default_timeout(), Duration::from_millis)
    }
}

/// A match player as written on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// One of the built-in players.
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

/// Reads `NAME=VALUE` (the name may hold spaces; an empty value is a
/// button option).
fn parse_option(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("expected NAME=VALUE, got {s:?}")),
    }
}

fn parse_clock(s: &str) -> Result<MatchClock, String> {
    s.parse()
        .map_err(|e: hostage_match::clock::ParseClockError| e.to_string())
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    s.parse().map_err(|e| format!("{e}, or uci:COMMAND LINE"))
}

/// Reads `--sprt elo0,elo1` (5% error rates both ways).
fn parse_sprt(s: &str) -> Result<Sprt, String> {
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

/// Plays the match, writing progress and the summary to `out`.
///
/// # Errors
///
/// The book cannot be read or has an illegal move, an external engine does
/// not start, or writing fails.
pub fn run(args: &MatchArgs, out: &mut (dyn Write + Send)) -> Result<(), CliError> {
    let openings = match &args.book {
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
    for (spec, options, flag) in [
        (&args.first, &args.first_option, "--first-option"),
        (&args.second, &args.second_option, "--second-option"),
    ] {
        if !options.is_empty() && !matches!(spec, Spec::Uci(_)) {
            return Err(CliError::new(format!(
                "{flag} sets an option of a uci: player, and {spec} is built in"
            )));
        }
    }
    let first_name = name(&args.first, &args.first_option, args)?;
    let second_name = name(&args.second, &args.second_option, args)?;
    let mut config = MatchConfig::default();
    config.max_games = args.games.map(|n| n as usize);
    config.max_plies = args.max_plies as usize;
    config.threads = args.threads as usize;
    config.seed = args.seed;
    config.sprt = args.sprt;
    config.openings = openings;
    if let Some(clock) = args.uci_clock {
        config = config.with_clock(clock, Duration::from_millis(args.time_margin));
    }
    let total = (config.openings.len() * 2).min(config.max_games.unwrap_or(usize::MAX));
    let budget = match args.uci_clock {
        Some(clock) => format!("clock {clock}"),
        None => args.effort().to_string(),
    };
    writeln!(
        out,
        "{first_name} vs {second_name}: {total} games from {} openings, {} threads, seed {}, uci engines on {budget}",
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
    let first = factory(&args.first, &args.first_option, args);
    let second = factory(&args.second, &args.second_option, args);
    let result = run_match(&config, &*first, &*second, &progress)
        .map_err(|e| CliError::new(format!("the opening book has an illegal move: {e}")))?;
    let out = out
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    summary(args, &result, [&first_name, &second_name], out)?;
    if let Some(path) = &args.pgn {
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

/// W/D/L, score, Elo, forfeits and the SPRT verdict.
fn summary(
    args: &MatchArgs,
    result: &MatchResult,
    [first_name, second_name]: [&str; 2],
    out: &mut dyn Write,
) -> Result<(), CliError> {
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
    if result.left_out > 0 {
        writeln!(
            out,
            "left out of the score: {} forfeited game(s) the engines' scores did not settle",
            result.left_out
        )?;
    }
    for (first, name) in [(true, first_name), (false, second_name)] {
        let games: Vec<&GameRecord> = result
            .games
            .iter()
            .filter(|g| g.first_player_forfeited() == Some(first))
            .collect();
        if let Some(last) = games.last() {
            let rounds: Vec<String> = games.iter().map(|g| (g.index + 1).to_string()).collect();
            let adjudicated = games.iter().filter(|g| g.counts()).count();
            let why = last.forfeit.as_ref().map_or("", |f| f.reason.as_str());
            writeln!(
                out,
                "forfeits: {name} {} ({adjudicated} adjudicated; game {}; last: {why})",
                games.len(),
                rounds.join(", ")
            )?;
        }
        let restarts: usize = result
            .games
            .iter()
            .map(|g| {
                g.restarts
                    .iter()
                    .filter(|r| r.side.is_white() == (g.first_is_white == first))
                    .count()
            })
            .sum();
        if restarts > 0 {
            writeln!(out, "restarts: {name} {restarts} (recovered, game went on)")?;
        }
    }
    if let (Some(sprt), Some(verdict)) = (args.sprt, result.verdict) {
        let (low, high) = sprt.bounds();
        writeln!(
            out,
            "sprt elo0 {} elo1 {}: llr {:.2} (bounds {low:.2}, {high:.2}): {verdict}",
            sprt.elo0,
            sprt.elo1,
            wdl.llr(sprt.elo0, sprt.elo1)
        )?;
    }
    Ok(())
}

/// The player's name; an external engine is started once to check it
/// works and to learn its `id name`.
fn name(spec: &Spec, options: &[(String, String)], args: &MatchArgs) -> Result<String, CliError> {
    match spec {
        Spec::Builtin(spec) => Ok(spec.to_string()),
        Spec::Uci(command) => {
            Ok(
                UciEngine::start_with_options(command, args.effort(), args.timeout(), options)
                    .map_err(|e| CliError::new(e.to_string()))?
                    .engine_name()
                    .to_owned(),
            )
        }
    }
}

type Factory = Box<dyn Fn() -> Box<dyn Player> + Sync>;

/// Builds one player per thread.
fn factory(spec: &Spec, options: &[(String, String)], args: &MatchArgs) -> Factory {
    let (effort, timeout, options) = (args.effort(), args.timeout(), options.to_vec());
    match spec.clone() {
        Spec::Builtin(spec) => Box::new(move || spec.build()),
        Spec::Uci(command) => Box::new(move || {
            match UciEngine::start_with_options(&command, effort, timeout, &options) {
                Ok(engine) => Box::new(engine) as Box<dyn Player>,
                Err(e) => Box::new(Absent(e.to_string())),
            }
        }),
    }
}

/// An external engine that did not start (it did once, for its name): it
/// forfeits every game with the reason.
struct Absent(String);

impl Player for Absent {
    fn name(&self) -> String {
        "absent".into()
    }
    fn choose(
        &mut self,
        _game: &hostage_core::Game,
        _seed: u64,
    ) -> Result<hostage_core::Move, NoMove> {
        Err(NoMove::Failed(self.0.clone()))
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
        assert_eq!(
            parse_option("Clear Hash="),
            Ok(("Clear Hash".into(), String::new()))
        );
        assert_eq!(
            parse_option("Threads=2"),
            Ok(("Threads".into(), "2".into()))
        );
        assert!(parse_option("Threads").is_err() && parse_option("=2").is_err());
        let sprt = parse_sprt("-10,5.5").expect("two numbers");
        assert_eq!((sprt.elo0, sprt.elo1), (-10.0, 5.5));
        for bad in ["10", "5,0", "a,b", "0,inf"] {
            assert!(parse_sprt(bad).is_err(), "{bad}");
        }
    }
}
