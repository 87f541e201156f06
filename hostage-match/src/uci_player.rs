//! An external UCI engine as a match player (`uci:/path/to/engine arg …`
//! on the command line).
//!
//! The command line is split at whitespace (no shell, no quoting) and
//! started as a process with piped stdin and stdout; its stderr is
//! discarded. The handshake is `uci` … `uciok` (and `setoption name
//! UCI_Variant value hostage` when the engine offers that option, then
//! `setoption name NAME value VALUE` for each option the match gives it,
//! such as `Threads` or `Hash`: an option the engine does not offer is an
//! error, so a misspelt name never goes unnoticed), then `isready` …
//! `readyok`. Before each game it gets `ucinewgame`; for each
//! move `position startpos moves …` (or `position fen <start> moves …`
//! when the game did not start from the initial position) and `go nodes N`,
//! `go movetime MS`, or on a match clock `go wtime btime winc binc`; its
//! `bestmove` is read in the library's long form, and the score of its
//! last `info … score cp N | mate N` line is kept ([`Player::last_score`]).
//!
//! An engine that exits, or stays silent past the per-move timeout, breaks
//! down: it is killed, its move is [`NoMove::Failed`] with the reason, and
//! it is started again by [`Player::new_game`] (the referee does that
//! once a game and asks again; a second breakdown forfeits the game). An
//! answer that is not a legal move is [`NoMove::Illegal`] (a forfeit), but
//! the process is kept. This player never prints: every reason travels in
//! the [`NoMove`] and from there into the game's record.

use std::{
    fmt,
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    thread,
    time::{Duration, Instant},
};

use hostage_core::{uci::UciMove, Excerpt, Game, Move, Position};
use hostage_engine::Score;

use crate::{
    clock::Clocks,
    players::{NoMove, Player},
};

/// How long the handshake and `isready` may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a `go nodes` may take by default.
const NODES_TIMEOUT: Duration = Duration::from_secs(60);
/// What a `go movetime` may overrun by default before the engine counts as
/// hung.
const MOVETIME_GRACE: Duration = Duration::from_secs(5);

/// How much an external engine searches per move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Effort {
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
}

impl Effort {
    /// The default per-move timeout: 60 s for `go nodes`, the move time
    /// plus 5 s for `go movetime`.
    #[must_use]
    pub fn default_timeout(self) -> Duration {
        match self {
            Effort::Nodes(_) => NODES_TIMEOUT,
            Effort::Movetime(ms) => Duration::from_millis(ms) + MOVETIME_GRACE,
        }
    }

    fn go(self) -> String {
        match self {
            Effort::Nodes(n) => format!("go nodes {n}"),
            Effort::Movetime(ms) => format!("go movetime {ms}"),
        }
    }
}

impl fmt::Display for Effort {
    /// `300 ms a move`, `100000 nodes a move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Effort::Nodes(n) => write!(f, "{n} nodes a move"),
            Effort::Movetime(ms) => write!(f, "{ms} ms a move"),
        }
    }
}

/// An external engine that could not be started or did not complete the
/// handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartError {
    command: Excerpt,
    why: String,
}

impl StartError {
    /// `"uci_engine_start"`, a stable code.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "uci_engine_start"
    }
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "uci engine {}: {}", self.command, self.why)
    }
}

impl std::error::Error for StartError {}

/// A running external UCI engine.
pub struct UciEngine {
    name: String,
    command: String,
    effort: Effort,
    move_timeout: Duration,
    /// `setoption` pairs sent after every handshake, restarts included.
    options: Vec<(String, String)>,
    process: Option<Process>,
    /// Why the process is gone, until it is started again.
    broken: Option<String>,
    /// The score of the last `info` line of the last search.
    score: Option<Score>,
}

/// The name of an `option name NAME type …` line (a name may hold spaces).
fn option_name(words: &[&str]) -> Option<String> {
    let rest = words.strip_prefix(&["option", "name"])?;
    let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
    (end > 0).then(|| rest[..end].join(" "))
}

/// The options an engine offers, for an error message: at most the first
/// 32, each cut to 40 characters (the names come from the engine).
fn offered_list(offered: &[String]) -> String {
    if offered.is_empty() {
        return "none".to_owned();
    }
    let mut names: Vec<String> = offered
        .iter()
        .take(32)
        .map(|n| n.chars().take(40).collect())
        .collect();
    if offered.len() > 32 {
        names.push(format!("and {} more", offered.len() - 32));
    }
    names.join(", ")
}

/// The child process and its pipes.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Why reading a line failed.
enum Silence {
    Exited,
    Timeout,
}

impl UciEngine {
    /// Starts `command` and completes the handshake; each move may take up
    /// to `move_timeout` (see [`Effort::default_timeout`]).
    ///
    /// # Errors
    ///
    /// The program cannot be started, or it does not answer `uciok` and
    /// `readyok` in time.
    pub fn start(
        command: &str,
        effort: Effort,
        move_timeout: Duration,
    ) -> Result<UciEngine, StartError> {
        UciEngine::start_with_options(command, effort, move_timeout, &[])
    }

    /// As [`UciEngine::start`], then sets each `(name, value)` option with
    /// `setoption` (cutechess's `option.NAME=VALUE`), in order, after every
    /// handshake, restarts included.
    ///
    /// # Errors
    ///
    /// As [`UciEngine::start`]; also when the engine does not offer one of
    /// the options (names compared without regard to case, as UCI engines
    /// read them).
    pub fn start_with_options(
        command: &str,
        effort: Effort,
        move_timeout: Duration,
        options: &[(String, String)],
    ) -> Result<UciEngine, StartError> {
        let mut engine = UciEngine {
            name: Excerpt::new(command.as_bytes()).as_str().to_owned(),
            command: command.to_owned(),
            effort,
            move_timeout,
            options: options.to_vec(),
            process: None,
            broken: None,
            score: None,
        };
        engine.spawn()?;
        Ok(engine)
    }

    /// The name the engine gave (`id name`), or its command.
    #[must_use]
    pub fn engine_name(&self) -> &str {
        &self.name
    }

    fn error(&self, why: impl Into<String>) -> StartError {
        StartError {
            command: Excerpt::new(self.command.as_bytes()),
            why: why.into(),
        }
    }

    /// Starts the process and completes the handshake.
    fn spawn(&mut self) -> Result<(), StartError> {
        let mut words = self.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| self.error("empty command (expected uci:PROGRAM ARGS...)"))?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| self.error(format!("cannot start: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(self.error("no pipes"));
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes).trim().to_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        self.process = Some(Process {
            child,
            stdin,
            lines,
        });
        self.broken = None;
        self.send("uci");
        let mut hostage_variant = false;
        let mut offered: Vec<String> = Vec::new();
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let Ok(line) = self.next_line(deadline) else {
                self.kill();
                return Err(self.error("did not answer `uci` with `uciok`"));
            };
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = Excerpt::new(name.trim().as_bytes()).as_str().to_owned();
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.starts_with(&["option", "name", "UCI_Variant"]) && words.contains(&"hostage") {
                hostage_variant = true;
            }
            if let Some(name) = option_name(&words) {
                offered.push(name);
            }
        }
        if hostage_variant {
            self.send("setoption name UCI_Variant value hostage");
        }
        for (name, value) in self.options.clone() {
            if !offered.iter().any(|o| o.eq_ignore_ascii_case(name.trim())) {
                self.kill();
                return Err(self.error(format!(
                    "does not offer the option {} (it offers: {})",
                    Excerpt::new(name.as_bytes()),
                    offered_list(&offered)
                )));
            }
            // A button option (`NAME=`) has no value.
            match value.trim() {
                "" => self.send(&format!("setoption name {}", name.trim())),
                v => self.send(&format!("setoption name {} value {v}", name.trim())),
            }
        }
        if !self.ready() {
            self.kill();
            return Err(self.error("did not answer `isready` with `readyok`"));
        }
        Ok(())
    }

    /// Sends a line; a failure is noticed when the answer does not come.
    fn send(&mut self, line: &str) {
        if let Some(process) = &mut self.process {
            // A closed pipe means the engine exited: the next read says so.
            let _ = writeln!(process.stdin, "{line}").and_then(|()| process.stdin.flush());
        }
    }

    /// The next line before `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<String, Silence> {
        let Some(process) = &self.process else {
            return Err(Silence::Exited);
        };
        let left = deadline.saturating_duration_since(Instant::now());
        match process.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Silence::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Silence::Exited),
        }
    }

    fn ready(&mut self) -> bool {
        self.send("isready");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while let Ok(line) = self.next_line(deadline) {
            if line == "readyok" {
                return true;
            }
        }
        false
    }

    /// Ends the process for good (until [`UciEngine::spawn`]).
    fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.child.kill();
            let _ = process.child.wait();
        }
    }

    /// Marks the engine broken for `why`, kills it, and gives the failure.
    fn break_down(&mut self, why: String) -> NoMove {
        self.kill();
        self.broken = Some(why.clone());
        NoMove::Failed(why)
    }
}

impl Player for UciEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        if self.process.is_some() {
            self.send("ucinewgame");
            if self.ready() {
                return;
            }
            self.kill();
        }
        // Broken in the last game (or just now): start again; if that
        // fails, every move of this game fails with the reason.
        if let Err(e) = self.spawn() {
            self.broken = Some(format!("could not be restarted: {}", e.why));
        }
    }

    fn choose(&mut self, game: &Game, _seed: u64) -> Result<Move, NoMove> {
        let go = self.effort.go();
        self.search(game, &go, self.move_timeout)
    }

    fn choose_on_clock(
        &mut self,
        game: &Game,
        _seed: u64,
        clocks: &Clocks,
    ) -> Result<Move, NoMove> {
        // Hung: past its whole clock and the grace.
        let left = clocks.left(game.position().turn()).max(0).unsigned_abs();
        let timeout = Duration::from_millis(left) + MOVETIME_GRACE;
        self.search(game, &clocks.go(), timeout)
    }

    fn last_score(&self) -> Option<Score> {
        self.score
    }
}

impl UciEngine {
    /// Sends the position and `go`, and reads the answer within `timeout`.
    fn search(&mut self, game: &Game, go: &str, timeout: Duration) -> Result<Move, NoMove> {
        self.score = None;
        if self.process.is_none() {
            let why = self.broken.clone().unwrap_or_else(|| "not running".into());
            return Err(NoMove::Failed(why));
        }
        let start = if *game.start() == Position::new() {
            "startpos".to_owned()
        } else {
            format!("fen {}", game.start().fen())
        };
        let mut position = format!("position {start}");
        if !game.moves().is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                position.push(' ');
                position.push_str(&m.to_string());
            }
        }
        self.send(&position);
        self.send(go);
        let deadline = Instant::now() + timeout;
        let answer = loop {
            match self.next_line(deadline) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        break rest.split_whitespace().next().unwrap_or("").to_owned();
                    }
                    if let Some(score) = info_score(&line) {
                        self.score = Some(score);
                    }
                }
                Err(Silence::Exited) => {
                    return Err(
                        self.break_down(format!("the engine exited at ply {}", game.ply() + 1))
                    )
                }
                Err(Silence::Timeout) => {
                    return Err(self.break_down(format!(
                        "no move within {} ms at ply {} (engine killed)",
                        timeout.as_millis(),
                        game.ply() + 1
                    )))
                }
            }
        };
        let pos = game.position();
        UciMove::from_ascii(answer.as_bytes())
            .ok()
            .and_then(|m| m.to_move(pos).ok())
            .ok_or_else(|| {
                NoMove::Illegal(format!(
                    "answered {}, not a legal move at ply {}",
                    Excerpt::new(format!("bestmove {answer}").as_bytes()),
                    game.ply() + 1
                ))
            })
    }
}

/// The score of an `info` line (`… score cp 35 …`, `… score mate -3 …`),
/// bounds included; `None` for other lines and `info string`.
fn info_score(line: &str) -> Option<Score> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut words = words.skip_while(|&w| w != "score" && w != "string");
    if words.next() != Some("score") {
        return None;
    }
    let kind = words.next()?;
    let value: i32 = words.next()?.parse().ok()?;
    match kind {
        "cp" => Some(Score::Cp(value)),
        "mate" => Some(Score::Mate(value)),
        _ => None,
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if self.process.is_some() {
            self.send("quit");
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                let exited = self
                    .process
                    .as_mut()
                    .is_some_and(|p| matches!(p.child.try_wait(), Ok(Some(_))));
                if exited {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }
}
