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
//! - This module only reads and writes: every command becomes a call on
//!   [`Engine`] ([`Engine::go`], [`Engine::stop`], [`Engine::ponderhit`],
//!   [`Engine::wait`]), which owns the search thread and the time manager
//!   (`timeman.rs`). Answers are written by one writer thread in the order
//!   they are made, so `stop`, `isready` and `quit` are read and answered
//!   while a search runs.
//! - `go nodes|depth|movetime` search at full strength; the clock
//!   (`wtime`/`btime`/`winc`/`binc`/`movestogo`) hands the side to move's
//!   time to the time manager ([`TimeControl::budget`]); `go infinite`
//!   searches until `stop`; `go ponder …` searches on the opponent's time
//!   until `ponderhit` (the clock starts then) or `stop`; with the `Ponder`
//!   option on, `bestmove` names the expected reply (`ponder <move>`). With the `Level`
//!   option set to a bot level, a `go` without `nodes`, `depth`, `movetime`
//!   or `infinite` plays that level's move with the `Seed` option (its own
//!   node budget; the clock is not read). A bare `go` at `Level full`
//!   searches [`DEFAULT_FULL_NODES`] nodes. `Threads` sets the threads of
//!   searches without a node limit (Lazy SMP); node-limited searches and
//!   levels stay on one thread and reproducible. `Use NNUE` evaluates
//!   with the network (on by default; off, the hand-written evaluation),
//!   `EvalFile` reads another network
//!   file than the embedded one (`<embedded>` goes back to it); a file that
//!   cannot be read or is not a network is refused and changes nothing.
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
        mpsc, Arc,
    },
    thread,
    time::{Duration, Instant},
};

use hostage_core::{Color, Excerpt, Game, MoveTextError, Position};

use crate::{
    history_of,
    nnue::{self, Network},
    search::Info,
    Engine, Level, Limits, SearchRequest, SearchResult, TimeControl, DEFAULT_FULL_NODES,
    DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS,
};

/// The first bytes of the file at `path`, one more than a network file has
/// (so that a longer file is refused by its length), never more: a path
/// such as `/dev/zero` must not fill the memory.
fn read_network_file(path: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(nnue::FILE_LEN as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `s` shortened for an error message (the core's one excerpt rule).
fn excerpt(s: &str) -> String {
    Excerpt::new(s.as_bytes()).as_str().to_string()
}

/// The largest `MultiPV` value accepted.
pub const MAX_MULTIPV: usize = 256;
/// The largest `Seed` value accepted: the largest 32-bit signed integer,
/// because some GUIs keep spin values in one.
pub const MAX_SEED: u64 = i32::MAX as u64;
/// The `EvalFile` value that names the network embedded in the engine.
pub const EMBEDDED: &str = "<embedded>";
/// Lines longer than this (bytes) are rejected unread.
pub const MAX_LINE: usize = 1 << 20;

/// Why a command line was rejected. The engine's state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// A move of `position … moves` does not parse or is illegal: the
    /// core's move-list error (the move, its place, the position), worded
    /// as every tool words it.
    InvalidMove(MoveTextError),
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
            CommandError::InvalidMove(_) => "invalid_move",
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
            CommandError::InvalidMove(e) => {
                write!(f, "{e} ({}); position unchanged", e.code())
            }
            CommandError::UnknownOption { name } => write!(f, "unknown option {name:?}"),
            CommandError::InvalidOptionValue {
                name,
                value,
                expected,
            } => write!(f, "invalid value {value:?} for option {name} (expected {expected})"),
            CommandError::InvalidGo { given } => write!(
                f,
                "invalid go argument {given:?} (expected nodes, depth, movetime, wtime, btime, winc, binc, movestogo with a number, infinite or ponder)"
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
#[non_exhaustive]
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
    /// `ponder`: search on the opponent's time until `ponderhit`.
    pub ponder: bool,
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
            let bad = |w: &str| CommandError::InvalidGo { given: excerpt(w) };
            if word == "infinite" {
                go.infinite = true;
                continue;
            }
            if word == "ponder" {
                go.ponder = true;
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

/// The options and the position a session keeps between commands.
struct Session {
    engine: Engine,
    multipv: usize,
    level: Option<Level>,
    seed: u64,
    game: Game,
    /// Set by the running search's `on_bestmove`, before it writes: the
    /// search is over even if its thread has not returned yet.
    answered: Arc<AtomicBool>,
    /// Whether the running search waits for `stop` (`go infinite`, or
    /// `go ponder` before `ponderhit`).
    open_ended: bool,
    /// The `Ponder` option: `bestmove` names the expected reply only when
    /// the GUI said it ponders (some clients read the whole line as a move).
    ponder: bool,
}

impl Session {
    fn new() -> Session {
        Session {
            engine: Engine::new(),
            multipv: 1,
            level: None,
            seed: 0,
            game: Game::new(),
            answered: Arc::new(AtomicBool::new(true)),
            open_ended: false,
            ponder: false,
        }
    }

    /// Whether a search is running and has not answered yet.
    fn searching(&self) -> bool {
        self.engine.is_searching() && !self.answered.load(Ordering::Acquire)
    }

    fn busy(&self, command: &str) -> Result<(), CommandError> {
        if self.searching() {
            Err(CommandError::Busy {
                command: command.into(),
            })
        } else {
            Ok(())
        }
    }

    fn identify(&self) -> String {
        let levels: String = Level::ALL
            .iter()
            .map(|l| format!(" var {}", l.name()))
            .collect();
        format!(
            "id name hostage {version}\n\
             id author hostage developers\n\
             option name UCI_Variant type combo default hostage var hostage\n\
             option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}\n\
             option name Threads type spin default 1 min 1 max {MAX_THREADS}\n\
             option name Ponder type check default false\n\
             option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}\n\
             option name Level type combo default full{levels} var full\n\
             option name Seed type spin default 0 min 0 max {MAX_SEED}\n\
             option name Use NNUE type check default true\n\
             option name EvalFile type string default {EMBEDDED}\n\
             uciok",
            version = env!("CARGO_PKG_VERSION"),
        )
    }

    /// `setoption name <name> [value <value>]`.
    fn set_option(&mut self, rest: &str) -> Result<(), CommandError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let value_at = words.iter().position(|&w| w == "value");
        let name_words = match words.first() {
            Some(&"name") => &words[1..value_at.unwrap_or(words.len())],
            _ => {
                return Err(CommandError::UnknownOption {
                    name: excerpt(rest.trim()),
                })
            }
        };
        let name = name_words.join(" ");
        let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
        let bad = |name: &'static str, expected: String| CommandError::InvalidOptionValue {
            name,
            value: excerpt(&value),
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
                self.busy("setoption name Hash")?;
                self.engine.set_hash_mb(mb);
            }
            "threads" => {
                let n = number("Threads", MAX_THREADS as u64, 1)? as usize;
                self.busy("setoption name Threads")?;
                self.engine.set_threads(n);
            }
            // The GUI says whether it will send `go ponder`.
            "ponder" => {
                self.ponder = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("Ponder", "true or false".into())),
                };
            }
            "use nnue" => self
                .engine
                .set_nnue(match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("Use NNUE", "true or false".into())),
                }),
            "evalfile" => {
                let network = if value.is_empty() || value == EMBEDDED {
                    None
                } else {
                    let bytes = read_network_file(&value)
                        .map_err(|e| bad("EvalFile", format!("a readable network file ({e})")))?;
                    let network = Network::from_bytes(&bytes)
                        .map_err(|e| bad("EvalFile", format!("a network file ({e})")))?;
                    Some(network)
                };
                self.engine.set_network(network);
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
                    name: excerpt(&name),
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
                    fen: excerpt(&fen),
                    reason: e.to_string(),
                    cause: e.code(),
                })?
            }
            other => {
                return Err(CommandError::InvalidPosition {
                    given: excerpt(other.unwrap_or("")),
                })
            }
        };
        let game = match words.next() {
            None => Game::from_position(start),
            // One move per word, SAN or long form: the core's move lists.
            Some("moves") => Game::from_moves(start, words).map_err(CommandError::InvalidMove)?,
            Some(other) => {
                return Err(CommandError::InvalidPosition {
                    given: excerpt(other),
                })
            }
        };
        self.game = game;
        Ok(())
    }

    /// The request a `go` makes of the engine.
    fn request(&self, go: &Go) -> SearchRequest {
        let mut request = SearchRequest {
            infinite: go.infinite,
            ponder: go.ponder,
            ..SearchRequest::default()
        };
        if let (Some(level), false) = (self.level, go.has_explicit_limit()) {
            request.level = Some((level, self.seed));
            return request;
        }
        let mut limits = Limits::infinite().with_multipv(self.multipv);
        limits.nodes = go.nodes;
        limits.depth = go.depth;
        limits.movetime = go.movetime.map(Duration::from_millis);
        let white = self.game.position().turn() == Color::White;
        let (clock, inc) = if white {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        if let (Some(clock), None) = (clock, limits.movetime) {
            request.clock = Some(TimeControl {
                remaining: Duration::from_millis(clock),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                movestogo: go.movestogo.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
            });
        }
        let unlimited = limits.nodes.is_none()
            && limits.depth.is_none()
            && limits.movetime.is_none()
            && request.clock.is_none();
        if unlimited && !go.infinite && !go.ponder {
            limits.nodes = Some(DEFAULT_FULL_NODES);
        }
        request.limits = limits;
        request
    }

    /// `go`: starts the search; its callbacks write `info` and `bestmove`.
    fn go(&mut self, rest: &str, out: &mpsc::Sender<String>) -> Result<(), CommandError> {
        let go = Go::parse(rest)?;
        if self.searching() && self.open_ended {
            return Err(CommandError::Busy {
                command: "go".into(),
            });
        }
        let request = self.request(&go);
        let level = request.level.is_some();
        let ponder = self.ponder;
        self.open_ended = go.infinite || go.ponder;
        // A new flag per search: a late answer of the last one cannot set it.
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        let started = Instant::now();
        let info_out = out.clone();
        let best_out = out.clone();
        let game = &self.game;
        self.engine.go(
            game.position(),
            &history_of(game),
            request,
            move |info| {
                let _ = info_out.send(info_lines(info, started.elapsed()));
            },
            move |result| {
                if level {
                    let _ = best_out.send(result_line(result, started.elapsed()));
                }
                answered.store(true, Ordering::Release);
                let _ = best_out.send(bestmove_line(result, ponder));
            },
        );
        Ok(())
    }

    /// Stops the running search and waits for its answer.
    fn stop(&mut self) {
        self.engine.stop();
        let _ = self.engine.wait();
        self.open_ended = false;
    }
}

/// `bestmove <move>`, with ` ponder <reply>` if `ponder` and the line has
/// one; `0000` when there is no legal move.
fn bestmove_line(result: &SearchResult, ponder: bool) -> String {
    let best = result
        .best_move
        .map_or_else(|| "0000".to_string(), |m| m.to_string());
    match result.pv.get(1) {
        Some(reply) if ponder && result.pv.first() == result.best_move.as_ref() => {
            format!("bestmove {best} ponder {reply}")
        }
        _ => format!("bestmove {best}"),
    }
}

/// Runs a UCI session: reads commands from `input` until `quit` or the end
/// of input, and writes the answers to `output` (flushed after each line).
///
/// # Errors
///
/// Reading `input` or writing `output` failed.
pub fn run<R: BufRead, W: Write + Send>(mut input: R, mut output: W) -> io::Result<()> {
    let (tx, rx) = mpsc::channel::<String>();
    thread::scope(|scope| -> io::Result<()> {
        // The one writer: answers from this loop and from the search
        // thread's callbacks, in the order they were made.
        let writer = scope.spawn(move || -> io::Result<()> {
            for text in rx {
                writeln!(output, "{text}")?;
                output.flush()?;
            }
            Ok(())
        });
        let read = read_loop(&mut input, &tx);
        drop(tx);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread failed")));
        read.and(written)
    })
}

/// Reads and answers commands; returns once the input ends or `quit` came
/// and the last search has answered.
fn read_loop<R: BufRead>(input: &mut R, out: &mpsc::Sender<String>) -> io::Result<()> {
    let say = |text: String| {
        out.send(text)
            .map_err(|_| io::Error::other("the writer thread stopped"))
    };
    let mut session = Session::new();
    let mut quit = false;
    loop {
        let line = match read_line(input) {
            Err(e) => {
                session.stop();
                return Err(e);
            }
            Ok(None) => break,
            Ok(Some(Ok(line))) => line,
            Ok(Some(Err(e))) => {
                say(report(&e))?;
                continue;
            }
        };
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let outcome = match command {
            "" => Ok(()),
            "uci" => say(session.identify()).map(Ok)?,
            "isready" => say("readyok".into()).map(Ok)?,
            // Accepted and ignored: the engine has no debug output.
            "debug" => Ok(()),
            "d" => say(format!("info string fen {}", session.game.position().fen())).map(Ok)?,
            "setoption" => session.set_option(rest),
            "ucinewgame" => session.busy("ucinewgame").map(|()| {
                session.engine.new_game();
                session.game = Game::new();
            }),
            "position" => session.set_position(rest),
            "go" => session.go(rest, out),
            "stop" => {
                session.stop();
                Ok(())
            }
            "ponderhit" => {
                session.engine.ponderhit();
                session.open_ended = false;
                Ok(())
            }
            "quit" => {
                quit = true;
                break;
            }
            _ => Err(CommandError::UnknownCommand {
                given: excerpt(command),
            }),
        };
        if let Err(e) = outcome {
            say(report(&e))?;
        }
    }
    // `quit` stops a search; the end of input lets a finite one end.
    if quit || session.open_ended {
        session.stop();
    } else {
        let _ = session.engine.wait();
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

fn report(e: &CommandError) -> String {
    format!("info string error: {e} (code: {})", e.code())
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
