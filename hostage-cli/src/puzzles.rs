//! `hostage puzzles`: generate, select, verify, simulate and train.
//!
//! Only argument handling and output live here; the work is done by the
//! `hostage-puzzles` crate.

use std::{
    collections::{HashMap, HashSet},
    fs,
    io::{BufRead, Write},
    path::{Path, PathBuf},
    time::Instant,
};

use hostage_puzzles::{
    generate::{generate, Config},
    record::{parse_puzzles, position_key, Puzzle},
    selection::{Difficulty, ParseDifficultyError},
    verify::verify_set,
};

use crate::error::CliError;

/// The subcommands of `hostage puzzles`.
#[derive(clap::Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Find puzzles in bot games; one record a line (docs/puzzles.md).
    Generate(GenerateArgs),
    /// Merge candidate files and select a set that meets the composition.
    Select(SelectArgs),
    /// Verify every puzzle of a file; exit 1 if any fails.
    Verify(VerifyArgs),
    /// Simulate players of known strength training on the built-in set.
    Simulate(SimulateArgs),
    /// Solve puzzles at this terminal; the rating is updated after each.
    Train(TrainArgs),
}

/// The arguments of `hostage puzzles generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games in the whole run (all shards).
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// This shard, I/N: games g with g mod N = I.
    #[arg(long, default_value = "0/1", value_parser = parse_shard)]
    pub shard: (u64, u64),
    /// The levels that play the games, comma-separated (default
    /// novice,beginner,casual).
    #[arg(long, value_delimiter = ',')]
    pub players: Vec<hostage_engine::Level>,
    /// Append the records to this file instead of printing them.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The arguments of `hostage puzzles select`.
#[derive(clap::Args, Debug)]
pub struct SelectArgs {
    /// Candidate files (from `generate`).
    pub files: Vec<PathBuf>,
    /// How many puzzles to select (the committed set's size by default).
    #[arg(long, default_value_t = 1150)]
    pub count: usize,
    /// Write the set here instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The arguments of `hostage puzzles verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The puzzle file.
    pub file: PathBuf,
    /// Also write the puzzles that pass to this file.
    #[arg(long)]
    pub passing: Option<PathBuf>,
}

/// The arguments of `hostage puzzles simulate`.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// Players (strengths 800..2000 in turn).
    #[arg(long, default_value_t = 260)]
    pub players: u32,
    /// Puzzles per player.
    #[arg(long, default_value_t = 30)]
    pub attempts: u32,
    /// A puzzle file instead of the built-in set.
    #[arg(long)]
    pub file: Option<PathBuf>,
}

/// The arguments of `hostage puzzles train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Keep the rating and the puzzles seen in this file.
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// easiest, easier, normal, harder or hardest.
    #[arg(long, default_value = "normal", value_parser = parse_difficulty)]
    pub difficulty: Difficulty,
}

fn parse_difficulty(s: &str) -> Result<Difficulty, String> {
    s.parse().map_err(|e: ParseDifficultyError| e.to_string())
}

/// Runs `command`: one-shot subcommands write to a buffered stdout,
/// `train` talks to the terminal.
///
/// # Errors
///
/// A bad file, a failed verification, or i/o failing.
pub fn run(command: PuzzlesCommand) -> Result<(), CliError> {
    match command {
        PuzzlesCommand::Generate(args) => crate::print(|out| run_generate(&args, out)),
        PuzzlesCommand::Select(args) => crate::print(|out| run_select(&args, out)),
        PuzzlesCommand::Verify(args) => crate::print(|out| run_verify(&args, out)),
        PuzzlesCommand::Simulate(args) => crate::print(|out| run_simulate(&args, out)),
        PuzzlesCommand::Train(args) => {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            run_train(&args, &mut input, &mut std::io::stdout())
        }
    }
}

fn read_set(path: &Path) -> Result<Vec<Puzzle>, CliError> {
    let text =
        fs::read_to_string(path).map_err(|e| CliError::new(format!("{}: {e}", path.display())))?;
    parse_puzzles(&text).map_err(|e| CliError::new(format!("{}: {e}", path.display())))
}

/// Parses `i/n`.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| format!("expected I/N, got {s:?}"))?;
    let i: u64 = i
        .trim()
        .parse()
        .map_err(|_| format!("bad shard index {i:?}"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("bad shard count {n:?}"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: need 0 <= I < N"));
    }
    Ok((i, n))
}

/// `hostage puzzles generate`: appends each puzzle found to `out` (or
/// prints it), a progress line per game on stderr.
fn run_generate(args: &GenerateArgs, stdout: &mut dyn Write) -> Result<(), CliError> {
    let mut config = Config::new(args.seed, args.games);
    (config.shard, config.shards) = args.shard;
    config.players.clone_from(&args.players);
    let config = &config;
    let out = args.out.as_deref();
    let mut file = match out {
        Some(path) => Some(
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    let start = Instant::now();
    let mut failure = None;
    generate(
        config,
        &mut |p| {
            let line = format!("{p}\n");
            let written = match file.as_mut() {
                Some(f) => f.write_all(line.as_bytes()).and_then(|()| f.flush()),
                None => stdout
                    .write_all(line.as_bytes())
                    .and_then(|()| stdout.flush()),
            };
            if let Err(e) = written {
                failure.get_or_insert(e);
            }
        },
        &mut |g, found| {
            eprintln!(
                "game {g}: {found} puzzles, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        },
    );
    match failure {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// `hostage puzzles verify`: every puzzle, a summary, exit 1 on failure.
fn run_verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (path, passing) = (args.file.as_path(), args.passing.as_deref());
    let set = read_set(path)?;
    let start = Instant::now();
    let results = verify_set(&set, &mut |i, r| {
        if let Err(e) = r {
            eprintln!("{}: {} ({})", set[i].id, e, e.code());
        }
        if (i + 1) % 50 == 0 {
            eprintln!("{} verified, {:.0} s", i + 1, start.elapsed().as_secs_f64());
        }
    });
    let failed = results.iter().filter(|r| r.is_err()).count();
    let mates = set.iter().filter(|p| p.is_mate()).count();
    let prover: u64 = results.iter().flatten().map(|c| c.prover_nodes).sum();
    let search: u64 = results.iter().flatten().map(|c| c.search_nodes).sum();
    writeln!(
        out,
        "{} puzzles, {} passed, {} failed; {mates} mates proved with {prover} prover nodes, \
         {search} search nodes; {:.1} s",
        set.len(),
        set.len() - failed,
        failed,
        start.elapsed().as_secs_f64()
    )?;
    if let Some(passing) = passing {
        let text: String = set
            .iter()
            .zip(&results)
            .filter(|(_, r)| r.is_ok())
            .map(|(p, _)| format!("{p}\n"))
            .collect();
        fs::write(passing, text)?;
    }
    if failed > 0 {
        return Err(CliError::new(format!(
            "{failed} puzzles failed verification"
        )));
    }
    Ok(())
}

/// `hostage puzzles select`: merges candidate files (duplicates dropped,
/// sorted by id) and selects a set that meets the composition rules.
fn run_select(args: &SelectArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (files, count, out_path) = (&args.files, args.count, args.out.as_deref());
    let mut by_key: HashMap<String, Puzzle> = HashMap::new();
    for file in files {
        for mut p in read_set(file)? {
            // The rating is recomputed from the solver profile, so that
            // candidates from any run share the current mapping.
            p.rating = hostage_puzzles::initial::rating_from_effort(p.nodes);
            let key = position_key(&p.position);
            // Deterministic whatever the file order: keep the smaller record.
            match by_key.get(&key) {
                Some(q) if q.to_string() <= p.to_string() => {}
                _ => {
                    by_key.insert(key, p);
                }
            }
        }
    }
    let mut all: Vec<Puzzle> = by_key.into_values().collect();
    all.sort_by(|a, b| a.id.cmp(&b.id));
    let chosen = hostage_puzzles::compose::select(&all, count);
    let report = hostage_puzzles::compose::Composition::of(&chosen);
    let text: String = chosen.iter().map(|p| format!("{p}\n")).collect();
    match out_path {
        Some(path) => fs::write(path, text)?,
        None => out.write_all(text.as_bytes())?,
    }
    eprintln!("{} candidates, {} chosen", all.len(), chosen.len());
    eprintln!("{report}");
    Ok(())
}

/// `hostage puzzles simulate`: the rating-convergence simulation.
fn run_simulate(args: &SimulateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (players, attempts, file) = (args.players, args.attempts, args.file.as_deref());
    let set = match file {
        Some(path) => read_set(path)?,
        None => hostage_puzzles::puzzles().to_vec(),
    };
    let report = hostage_puzzles::simulate::simulate(&set, players, attempts);
    writeln!(out, "{report}")?;
    for strength in hostage_puzzles::simulate::STRENGTHS {
        let mut errors: Vec<f64> = report
            .finals
            .iter()
            .filter(|(s, _)| *s == strength)
            .map(|(s, r)| (r - s).abs())
            .collect();
        errors.sort_by(f64::total_cmp);
        if let Some(median) = errors.get(errors.len() / 2) {
            writeln!(
                out,
                "strength {strength:.0}: median error {median:.1} over {}",
                errors.len()
            )?;
        }
    }
    Ok(())
}

/// `hostage puzzles train`: puzzles at this terminal, the rating updated
/// after each; the rating and the ids seen are kept in `state` if given.
fn run_train(
    args: &TrainArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (state, difficulty) = (args.state.as_deref(), args.difficulty);
    use hostage_puzzles::{glicko, selection::next_puzzle};

    let set = hostage_puzzles::puzzles();
    let (mut rating, mut seen) = load_state(state);
    let mut round: u64 = seen.len() as u64;
    loop {
        let Some(puzzle) = next_puzzle(set, rating.rating, difficulty, &seen, round) else {
            writeln!(out, "You have seen every puzzle.")?;
            return Ok(());
        };
        round += 1;
        writeln!(
            out,
            "\nPuzzle {} (rating {}). Your rating: {:.0}{}.",
            puzzle.id,
            puzzle.rating,
            rating.rating,
            if rating.is_provisional() { "?" } else { "" }
        )?;
        let mut pos = puzzle.position.clone();
        let style = crate::display::Style::Ascii;
        write!(out, "{}", crate::display::board(&pos, style))?;
        write!(out, "{}", crate::display::reserves(&pos, style))?;
        writeln!(
            out,
            "{} to play. Enter moves (SAN or long form), 'hint', 'skip' or 'quit'.",
            pos.turn()
        )?;
        let mut solved = true;
        let mut i = 0;
        while i < puzzle.moves.len() {
            let expected = puzzle.moves[i];
            write!(out, "> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                save_state(state, &rating, &seen)?;
                return Ok(());
            }
            let text = line.trim();
            match text {
                "quit" => {
                    save_state(state, &rating, &seen)?;
                    return Ok(());
                }
                "hint" => {
                    writeln!(out, "The move starts from or goes to {}.", expected.to())?;
                    continue;
                }
                "skip" | "" => {
                    solved = false;
                    break;
                }
                _ => {}
            }
            let Ok(given) = pos.parse_move(text) else {
                writeln!(out, "Not a legal move here: {text}")?;
                continue;
            };
            if !puzzle.accepts(i, &given) {
                solved = false;
                break;
            }
            pos.play_unchecked(given);
            i += 1;
            if let Some(reply) = puzzle.moves.get(i) {
                writeln!(out, "Right. Reply: {reply}")?;
                pos.play_unchecked(*reply);
                i += 1;
            }
        }
        let solution: Vec<String> = puzzle.moves_text();
        if solved {
            writeln!(out, "Solved! Solution: {}", solution.join(" "))?;
        } else {
            writeln!(out, "Wrong. The solution: {}", solution.join(" "))?;
        }
        let puzzle_rating = glicko::Rating {
            rating: f64::from(puzzle.rating),
            deviation: f64::from(puzzle.deviation),
            volatility: glicko::DEFAULT_VOLATILITY,
        };
        let before = rating.rating;
        rating = glicko::update_attempt(rating, puzzle_rating, solved).0;
        writeln!(
            out,
            "Rating: {:.0} ({:+.0})",
            rating.rating,
            rating.rating - before
        )?;
        seen.insert(puzzle.id.clone());
        save_state(state, &rating, &seen)?;
    }
}

/// State file: `rating rd volatility` on the first line, then seen ids.
fn load_state(state: Option<&Path>) -> (hostage_puzzles::glicko::Rating, HashSet<String>) {
    let mut rating = hostage_puzzles::glicko::Rating::new_player();
    let mut seen = HashSet::new();
    if let Some(text) = state.and_then(|p| fs::read_to_string(p).ok()) {
        let mut lines = text.lines();
        if let Some(first) = lines.next() {
            let v: Vec<f64> = first
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            if let [r, d, s] = v[..] {
                rating = hostage_puzzles::glicko::Rating {
                    rating: r,
                    deviation: d,
                    volatility: s,
                };
            }
        }
        seen.extend(
            lines
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from),
        );
    }
    (rating, seen)
}

fn save_state(
    state: Option<&Path>,
    rating: &hostage_puzzles::glicko::Rating,
    seen: &HashSet<String>,
) -> Result<(), CliError> {
    let Some(path) = state else { return Ok(()) };
    let mut ids: Vec<&String> = seen.iter().collect();
    ids.sort();
    let mut text = format!(
        "{} {} {}\n",
        rating.rating, rating.deviation, rating.volatility
    );
    for id in ids {
        text.push_str(id);
        text.push('\n');
    }
    fs::write(path, text)?;
    Ok(())
}
