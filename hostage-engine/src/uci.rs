//! The UCI protocol: text commands in, text answers out, over any reader
//! and writer, so that a GUI, a match runner or a test can drive the engine.
//!
//! Policy:
//!
//! - Positions are Hostage FEN (`position fen <fen> [moves ...]`) or
//!   `position startpos`, and moves are the library's long form: `e2e4`,
//!   `e7e8q`, drops `P@e4`, exchanges `N#B@c7` (rescued role, `#`, released
//!   role, `@` square), the strings Fairy-Stockfish's hostage build uses.
//!   The positions before the current one feed repetition detection (R12).
//! - `go` searches on a thread, so `stop`, `isready` and `quit` are read and
//!   answered while it runs. `go nodes|depth|movetime` and the clock
//!   (`wtime`/`btime`/`winc`/`binc`/`movestogo`, a fraction of the time
//!   left, see [`time_budget`]) search at full strength; `go infinite`
//!   searches until `stop`. With the `Level` option set to a bot level, a
//!   `go` without `nodes`, `depth`, `movetime` or `infinite` plays that
//!   level's move with the `Seed` option (its own node budget; the clock is
//!   not read). A bare `go` at `Level full` searches
//!   [`DEFAULT_FULL_NODES`] nodes.
//! - Every bad line (unknown command, bad FEN, illegal move, bad option or
//!   limit) is answered with `info string error: <what> (code: <code>)`; a
//!   bad `position` leaves the previous position in force. Nothing a client
//!   sends makes the engine panic.
//! - At the end of input a running search is finished (an infinite one is
//!   stopped) and its `bestmove` written, so `echo "go depth 5" | hostage
//!   uci` prints a move. `d` (as in other engines) prints the current
//!   Hostage FEN as `info string fen <fen>`.
//!
//! # Example
//!
//! ```
//! // At the end of input a finite search runs to its end (`quit` would
//! // stop it after its first iteration).
//! let script = "uci\nposition startpos moves e2e4 e7e5\ngo depth 2\n";
//! let mut out = Vec::new();
//! hostage_engine::uci::run(script.as_bytes(), &mut out)?;
//! let text = String::from_utf8(out).expect("the engine writes UTF-8");
//! assert!(text.lines().any(|l| l == "uciok"));
//! assert!(text.lines().any(|l| l.starts_with("info depth 2 ")));
//! assert!(text.lines().last().is_some_and(|l| l.starts_with("bestmove ")));
//! # Ok::<_, std::io::Error>(())
//! ```

use core::fmt;
use std::{
    io::{self, BufRead, Write},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    thread::{self, Scope, ScopedJoinHandle},
    time::{Duration, Instant},
};

use hostage_core::{Game, Position};

use crate::{
    history_of, search::Info, shorten, Engine, Level, Limits, SearchResult, DEFAULT_FULL_NODES,
    DEFAULT_HASH_MB,
};

/// The largest `Hash` value accepted, in MiB.
pub const MAX_HASH_MB: usize = 4096;
/// The largest `MultiPV` value accepted.
pub const MAX_MULTIPV: usize = 256;
/// The largest `Seed` value accepted: the largest 32-bit signed integer,
/// because some GUIs keep spin values in one.
pub const MAX_SEED: u64 = i32::MAX as u64;
/// Lines longer than this (bytes) are rejected unread.
pub const MAX_LINE: usize = 1 << 20;

/// Why a command line was rejected. The engine's state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no UCI command.
    UnknownCommand {
        /// The word (shortened).
        given: String,
    },
    /// `position` without `startpos` or `fen`, or with something other than
    /// `moves` after the position.
    InvalidPosition {
        /// What was there instead (shortened).
        given: String,
    },
    /// The FEN of `position fen` was rejected.
    InvalidFen {
        /// The FEN (shortened).
        fen: String,
        /// The FEN parser's reason.
        reason: String,
        /// The FEN parser's code (`invalid_board`, `missing_king`, …).
        cause: &'static str,
    },
    /// A move of `position … moves` does not parse or is illegal.
    InvalidMove {
        /// The move as written (shortened).
        mv: String,
        /// Its ply in the move list, from 1.
        ply: usize,
        /// The reason.
        reason: String,
        /// The move parser's code (`invalid_uci`, `illegal_uci`).
        cause: &'static str,
    },
    /// `setoption` named no option this engine has.
    UnknownOption {
        /// The name (shortened).
        name: String,
    },
    /// `setoption` gave a value the option does not take.
    InvalidOptionValue {
        /// The option.
        name: &'static str,
        /// The value (shortened).
        value: String,
        /// What the option takes.
        expected: String,
    },
    /// A `go` word or number is not understood.
    InvalidGo {
        /// The word (shortened).
        given: String,
    },
    /// The command needs the engine, which is searching.
    Busy {
        /// The command.
        command: String,
    },
    /// The line is longer than [`MAX_LINE`] bytes.
    LineTooLong,
}

impl CommandError {
    /// A stable code: `unknown_command`, `invalid_position`, `invalid_fen`,
    /// `invalid_move`, `unknown_option`, `invalid_option_value`,
    /// `invalid_go`, `search_running` or `line_too_long`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            CommandError::UnknownCommand { .. } => "unknown_command",
            CommandError::InvalidPosition { .. } => "invalid_position",
            CommandError::InvalidFen { .. } => "invalid_fen",
            CommandError::InvalidMove { .. } => "invalid_move",
            CommandError::UnknownOption { .. } => "unknown_option",
            CommandError::InvalidOptionValue { .. } => "invalid_option_value",
            CommandError::InvalidGo { .. } => "invalid_go",
            CommandError::Busy { .. } => "search_running",
            CommandError::LineTooLong => "line_too_long",
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::UnknownCommand { given } => write!(f, "unknown command {given:?}"),
            CommandError::InvalidPosition { given } => write!(
                f,
                "invalid position command at {given:?} (expected `position startpos|fen <fen> [moves ...]`)"
            ),
            CommandError::InvalidFen { fen, reason, cause } => {
                write!(f, "invalid fen {fen:?}: {reason} ({cause}); position unchanged")
            }
            CommandError::InvalidMove {
                mv,
                ply,
                reason,
                cause,
            } => write!(
                f,
                "cannot play move {mv:?} at ply {ply}: {reason} ({cause}); position unchanged"
            ),
            CommandError::UnknownOption { name } => write!(f, "unknown option {name:?}"),
            CommandError::InvalidOptionValue {
                name,
                value,
                expected,
            } => write!(f, "invalid value {value:?} for option {name} (expected {expected})"),
            CommandError::InvalidGo { given } => write!(
                f,
                "invalid go argument {given:?} (expected nodes, depth, movetime, wtime, btime, winc, binc, movestogo with a number, or infinite)"
            ),
            CommandError::Busy { command } => {
                write!(f, "{command} is not possible while searching (send stop first)")
            }
            CommandError::LineTooLong => write!(f, "line longer than {MAX_LINE} bytes ignored"),
        }
    }
}

impl std::error::Error for CommandError {}

/// The numbers of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `depth D`.
    pub depth: Option<u32>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `wtime MS` (negative values, which some GUIs send, count as 0).
    pub wtime: Option<u64>,
    /// `btime MS`.
    pub btime: Option<u64>,
    /// `winc MS`.
    pub winc: Option<u64>,
    /// `binc MS`.
    pub binc: Option<u64>,
    /// `movestogo N`.
    pub movestogo: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
}

impl Go {
    /// Reads the words after `go`.
    ///
    /// # Errors
    ///
    /// [`CommandError::InvalidGo`] for an unknown word or a missing or bad
    /// number.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_engine::uci::Go;
    ///
    /// let go = Go::parse("wtime 60000 btime -5 movestogo 20")?;
    /// assert_eq!((go.wtime, go.btime, go.movestogo), (Some(60_000), Some(0), Some(20)));
    /// assert_eq!(Go::parse("depth x").map_err(|e| e.code()), Err("invalid_go"));
    /// # Ok::<_, hostage_engine::uci::CommandError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Go, CommandError> {
        let mut go = Go::default();
        let mut words = text.split_whitespace();
        while let Some(word) = words.next() {
            let bad = |w: &str| CommandError::InvalidGo { given: shorten(w) };
            if word == "infinite" {
                go.infinite = true;
                continue;
            }
            let slot = match word {
                "nodes" => &mut go.nodes,
                "movetime" => &mut go.movetime,
                "wtime" => &mut go.wtime,
                "btime" => &mut go.btime,
                "winc" => &mut go.winc,
                "binc" => &mut go.binc,
                "movestogo" => &mut go.movestogo,
                "depth" => {
                    let n = words.next().ok_or_else(|| bad(word))?;
                    let d: u32 = n.parse().map_err(|_| bad(n))?;
                    go.depth = Some(d.max(1));
                    continue;
                }
                _ => return Err(bad(word)),
            };
            let n = words.next().ok_or_else(|| bad(word))?;
            // Clocks may be negative when a GUI's flag fell; they mean no time.
            let v: i64 = n.parse().map_err(|_| bad(n))?;
            *slot = Some(u64::try_from(v).unwrap_or(0));
        }
        Ok(go)
    }

    /// Whether the command fixes the effort itself (`nodes`, `depth`,
    /// `movetime` or `infinite`), which makes a level search at full
    /// strength.
    #[must_use]
    pub fn has_explicit_limit(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some() || self.movetime.is_some() || self.infinite
    }
}

/// The time to spend on a move with `remaining` on the clock, `increment`
/// per move and `movestogo` moves to the next time control: the remaining
/// time shared over the moves to go (30 when not given), plus three
/// quarters of the increment, never more than the remaining time less a
/// reserve of 5% and 20 ms, and at least 1 ms.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use hostage_engine::uci::time_budget;
///
/// let ms = |n| Duration::from_millis(n);
/// // 60 s, no increment, 30 moves assumed: 2 s.
/// assert_eq!(time_budget(ms(60_000), ms(0), None), ms(2_000));
/// // The last move before the control keeps a reserve: 1000 - 50 - 20.
/// assert_eq!(time_budget(ms(1_000), ms(0), Some(1)), ms(930));
/// ```
#[must_use]
pub fn time_budget(remaining: Duration, increment: Duration, movestogo: Option<u64>) -> Duration {
    let moves = movestogo.unwrap_or(30).clamp(1, 100);
    let share = remaining / moves as u32 + increment * 3 / 4;
    let reserve = remaining / 20 + Duration::from_millis(20);
    share
        .min(remaining.saturating_sub(reserve))
        .max(Duration::from_millis(1))
}

/// What a `go` runs on the search thread.
enum Task {
    Search { limits: Limits, infinite: bool },
    Level { level: Level, seed: u64 },
}

/// A search in progress: its thread (which hands the engine back) and the
/// flag that asks it to stop.
struct Running<'scope> {
    handle: ScopedJoinHandle<'scope, Engine>,
    /// Set once `bestmove` is written: the thread is about to end.
    done: Arc<AtomicBool>,
    requested: Arc<AtomicBool>,
    engine_stop: Arc<AtomicBool>,
    infinite: bool,
}

impl Running<'_> {
    fn stop(&self) {
        self.requested.store(true, Ordering::Relaxed);
        self.engine_stop.store(true, Ordering::Relaxed);
    }
}

/// The options and the position a session keeps between commands.
struct Session {
    /// `None` while a search thread holds it.
    engine: Option<Engine>,
    hash_mb: usize,
    multipv: usize,
    level: Option<Level>,
    seed: u64,
    game: Game,
}

impl Session {
    fn new() -> Session {
        Session {
            engine: Some(Engine::new()),
            hash_mb: DEFAULT_HASH_MB,
            multipv: 1,
            level: None,
            seed: 0,
            game: Game::new(),
        }
    }

    fn identify(&self, out: &Mutex<impl Write>) -> io::Result<()> {
        let levels: String = Level::ALL
            .iter()
            .map(|l| format!(" var {}", l.name()))
            .collect();
        let text = format!(
            "id name hostage {version}\n\
             id author hostage developers\n\
             option name UCI_Variant type combo default hostage var hostage\n\
             option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}\n\
             option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}\n\
             option name Level type combo default full{levels} var full\n\
             option name Seed type spin default 0 min 0 max {MAX_SEED}\n\
             uciok",
            version = env!("CARGO_PKG_VERSION"),
        );
        say(out, &text)
    }

    /// `setoption name <name> [value <value>]`.
    fn set_option(&mut self, rest: &str) -> Result<(), CommandError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let value_at = words.iter().position(|&w| w == "value");
        let name_words = match words.first() {
            Some(&"name") => &words[1..value_at.unwrap_or(words.len())],
            _ => {
                return Err(CommandError::UnknownOption {
                    name: shorten(rest.trim()),
                })
            }
        };
        let name = name_words.join(" ");
        let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
        let bad = |name: &'static str, expected: String| CommandError::InvalidOptionValue {
            name,
            value: shorten(&value),
            expected,
        };
        let number = |name: &'static str, max: u64, min: u64| {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| bad(name, format!("a number from {min} to {max}")))
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                if !value.eq_ignore_ascii_case("hostage") {
                    return Err(bad("UCI_Variant", "hostage".into()));
                }
            }
            "hash" => {
                let mb = number("Hash", MAX_HASH_MB as u64, 1)? as usize;
                let engine = self.engine.as_mut().ok_or(CommandError::Busy {
                    command: "setoption name Hash".into(),
                })?;
                engine.set_hash_mb(mb);
                self.hash_mb = mb;
            }
            "multipv" => self.multipv = number("MultiPV", MAX_MULTIPV as u64, 1)? as usize,
            "seed" => self.seed = number("Seed", MAX_SEED, 0)?,
            "level" => {
                self.level = if value.eq_ignore_ascii_case("full") {
                    None
                } else {
                    Some(value.parse::<Level>().map_err(|_| {
                        bad(
                            "Level",
                            "novice, beginner, casual, intermediate, club or full".into(),
                        )
                    })?)
                };
            }
            _ => {
                return Err(CommandError::UnknownOption {
                    name: shorten(&name),
                })
            }
        }
        Ok(())
    }

    /// `position startpos|fen <fen> [moves ...]`: the new game, or an error
    /// with the old one kept.
    fn set_position(&mut self, rest: &str) -> Result<(), CommandError> {
        let mut words = rest.split_whitespace().peekable();
        let start = match words.next() {
            Some("startpos") => Position::new(),
            Some("fen") => {
                let mut fields = Vec::new();
                while let Some(&w) = words.peek() {
                    if w == "moves" {
                        break;
                    }
                    fields.push(w);
                    words.next();
                }
                let fen = fields.join(" ");
                Position::from_fen(&fen).map_err(|e| CommandError::InvalidFen {
                    fen: shorten(&fen),
                    reason: e.to_string(),
                    cause: e.code(),
                })?
            }
            other => {
                return Err(CommandError::InvalidPosition {
                    given: shorten(other.unwrap_or("")),
                })
            }
        };
        let mut game = Game::from_position(start);
        match words.next() {
            None => {}
            Some("moves") => {
                for (i, mv) in words.enumerate() {
                    game.push_uci(mv).map_err(|e| CommandError::InvalidMove {
                        mv: shorten(mv),
                        ply: i + 1,
                        reason: e.to_string(),
                        cause: e.code(),
                    })?;
                }
            }
            Some(other) => {
                return Err(CommandError::InvalidPosition {
                    given: shorten(other),
                })
            }
        }
        self.game = game;
        Ok(())
    }

    /// The task a `go` asks for.
    fn task(&self, go: &Go) -> Task {
        if let (Some(level), false) = (self.level, go.has_explicit_limit()) {
            return Task::Level {
                level,
                seed: self.seed,
            };
        }
        let mut limits = Limits::infinite().with_multipv(self.multipv);
        limits.nodes = go.nodes;
        limits.depth = go.depth;
        limits.movetime = go.movetime.map(Duration::from_millis);
        let white = self.game.position().turn() == hostage_core::Color::White;
        let (clock, inc) = if white {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        if let (Some(clock), None) = (clock, limits.movetime) {
            let budget = time_budget(
                Duration::from_millis(clock),
                Duration::from_millis(inc.unwrap_or(0)),
                go.movestogo,
            );
            limits.movetime = Some(budget);
        }
        let unlimited =
            limits.nodes.is_none() && limits.depth.is_none() && limits.movetime.is_none();
        if unlimited && !go.infinite {
            limits.nodes = Some(DEFAULT_FULL_NODES);
        }
        Task::Search {
            limits,
            infinite: go.infinite,
        }
    }
}

/// Runs a UCI session: reads commands from `input` until `quit` or the end
/// of input, and writes the answers to `output` (flushed after each line).
///
/// # Errors
///
/// Reading `input` or writing `output` failed.
pub fn run<R: BufRead, W: Write + Send>(mut input: R, output: W) -> io::Result<()> {
    let out = Mutex::new(output);
    let mut session = Session::new();
    thread::scope(|scope| -> io::Result<()> {
        let mut running: Option<Running<'_>> = None;
        let mut quit = false;
        loop {
            let line = match read_line(&mut input)? {
                None => break,
                Some(Ok(line)) => line,
                Some(Err(e)) => {
                    report(&out, &e)?;
                    continue;
                }
            };
            // A search that has answered gives its engine back. Its thread
            // may still be returning: a client that sends the next `go` as
            // soon as it reads `bestmove` must not find the engine busy.
            if running
                .as_ref()
                .is_some_and(|r| r.done.load(Ordering::Acquire) || r.handle.is_finished())
            {
                finish(&mut session, running.take(), false, &out)?;
            }
            let line = line.trim();
            let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let busy = |command: &str| CommandError::Busy {
                command: command.into(),
            };
            let outcome = match command {
                "" => Ok(()),
                "uci" => session.identify(&out).map(Ok)?,
                "isready" => say(&out, "readyok").map(Ok)?,
                // Accepted and ignored: the engine has no debug output.
                "debug" => Ok(()),
                "d" => say(
                    &out,
                    &format!("info string fen {}", session.game.position().fen()),
                )
                .map(Ok)?,
                "setoption" => session.set_option(rest),
                "ucinewgame" => match session.engine.as_mut() {
                    Some(engine) => {
                        engine.new_game();
                        session.game = Game::new();
                        Ok(())
                    }
                    None => Err(busy("ucinewgame")),
                },
                "position" => session.set_position(rest),
                "go" => match (Go::parse(rest), session.engine.take()) {
                    (Err(e), engine) => {
                        session.engine = engine;
                        Err(e)
                    }
                    (Ok(_), None) => Err(busy("go")),
                    (Ok(go), Some(engine)) => {
                        let task = session.task(&go);
                        running = Some(start(scope, engine, &session.game, task, &out));
                        Ok(())
                    }
                },
                "stop" => finish(&mut session, running.take(), true, &out).map(Ok)?,
                "quit" => {
                    quit = true;
                    break;
                }
                _ => Err(CommandError::UnknownCommand {
                    given: shorten(command),
                }),
            };
            if let Err(e) = outcome {
                report(&out, &e)?;
            }
        }
        // `quit` stops a search; the end of input lets a finite one end.
        let stop = quit || running.as_ref().is_some_and(|r| r.infinite);
        finish(&mut session, running.take(), stop, &out)
    })
}

/// Starts `task` on a thread of `scope`.
fn start<'scope, W: Write + Send>(
    scope: &'scope Scope<'scope, '_>,
    mut engine: Engine,
    game: &Game,
    task: Task,
    out: &'scope Mutex<W>,
) -> Running<'scope> {
    let requested = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let engine_stop = engine.stop_flag();
    let infinite = matches!(task, Task::Search { infinite: true, .. });
    let pos = game.position().clone();
    let history = history_of(game);
    let handle = {
        let requested = Arc::clone(&requested);
        let done = Arc::clone(&done);
        scope.spawn(move || {
            let started = Instant::now();
            let result = match task {
                Task::Search { limits, .. } => {
                    engine.search_with_info(&pos, &history, &limits, &mut |info| {
                        let _ = say(out, &info_lines(info, started.elapsed()));
                    })
                }
                Task::Level { level, seed } => {
                    let result = engine.play_level_at(&pos, &history, level, seed);
                    let _ = say(out, &result_line(&result, started.elapsed()));
                    result
                }
            };
            // UCI: after `go infinite` the best move waits for `stop`.
            while infinite && !requested.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(2));
            }
            let best = result
                .best_move
                .map_or_else(|| "0000".to_string(), |m| m.to_string());
            // Set before the line is written, so that a client's next
            // command always finds it.
            done.store(true, Ordering::Release);
            let _ = say(out, &format!("bestmove {best}"));
            engine
        })
    };
    Running {
        handle,
        done,
        requested,
        engine_stop,
        infinite,
    }
}

/// Waits for `running` (stopping it first if `stop`), which writes its
/// `bestmove`, and takes its engine back.
fn finish(
    session: &mut Session,
    running: Option<Running<'_>>,
    stop: bool,
    out: &Mutex<impl Write>,
) -> io::Result<()> {
    let Some(running) = running else {
        return Ok(());
    };
    if stop {
        running.stop();
    }
    match running.handle.join() {
        Ok(engine) => session.engine = Some(engine),
        Err(_) => {
            say(
                out,
                "info string error: the search failed; a new engine takes over",
            )?;
            session.engine = Some(Engine::with_hash_mb(session.hash_mb));
        }
    }
    Ok(())
}

/// `info …` for each line of an iteration.
fn info_lines(info: &Info, elapsed: Duration) -> String {
    let ms = elapsed.as_millis().max(1);
    let nps = u128::from(info.nodes) * 1000 / ms;
    let mut text = String::new();
    for (k, line) in info.lines.iter().enumerate() {
        if k > 0 {
            text.push('\n');
        }
        let pv: Vec<String> = line.pv.iter().map(ToString::to_string).collect();
        text.push_str(&format!(
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {nps} hashfull {} time {ms} pv {}",
            info.depth,
            info.seldepth,
            k + 1,
            line.score,
            info.nodes,
            info.hashfull,
            pv.join(" ")
        ));
    }
    text
}

/// The one `info` line of a level's move.
fn result_line(result: &SearchResult, elapsed: Duration) -> String {
    let ms = elapsed.as_millis().max(1);
    let nps = u128::from(result.nodes) * 1000 / ms;
    let pv: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
    let mut text = format!(
        "info depth {} seldepth {} score {} nodes {} nps {nps} time {ms}",
        result.depth, result.seldepth, result.score, result.nodes
    );
    if !pv.is_empty() {
        text.push_str(" pv ");
        text.push_str(&pv.join(" "));
    }
    text
}

/// Writes `text` and a newline, and flushes.
fn say(out: &Mutex<impl Write>, text: &str) -> io::Result<()> {
    // A writer poisoned by a panicking search thread is still usable.
    let mut out = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    writeln!(out, "{text}")?;
    out.flush()
}

fn report(out: &Mutex<impl Write>, e: &CommandError) -> io::Result<()> {
    say(out, &format!("info string error: {e} (code: {})", e.code()))
}

/// The next line (invalid UTF-8 replaced), `Some(Err)` for one longer than
/// [`MAX_LINE`] (skipped), `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Result<String, CommandError>>> {
    let mut bytes = Vec::new();
    let n = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes)?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.len() > MAX_LINE && bytes.last() != Some(&b'\n') {
        // Skip the rest of the line without holding it in memory.
        loop {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            if let Some(i) = buf.iter().position(|&b| b == b'\n') {
                input.consume(i + 1);
                break;
            }
            let len = buf.len();
            input.consume(len);
        }
        return Ok(Some(Err(CommandError::LineTooLong)));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&bytes).into_owned())))
}

#[cfg(test)]
mod tests;
