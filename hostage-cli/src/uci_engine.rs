//! An external UCI engine as a match player: `hostage match --first
//! "uci:/path/to/engine arg ..."`.
//!
//! The command line is split at whitespace (no shell, no quoting) and
//! started as a process with piped stdin and stdout; its stderr is
//! discarded. The handshake is `uci` … `uciok` (and `setoption name
//! UCI_Variant value hostage` when the engine offers that option), then
//! `isready` … `readyok`. Before each game it gets `ucinewgame`; for each
//! move `position startpos moves …` (or `position fen <start> moves …`
//! when the game did not start from the initial position) and `go nodes N`
//! or `go movetime MS`, and its `bestmove` is read in the library's long
//! form.
//!
//! An engine that exits, stays silent past the timeout, or answers with a
//! move that does not parse or is not legal gives no move, and the match
//! runner scores that as a loss (the reason goes to stderr). A process
//! that dies stays dead for the rest of the match.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    thread,
    time::{Duration, Instant},
};

use hostage_core::{uci::UciMove, Game, Move, Position};

use crate::error::CliError;

/// How long the handshake and `isready` may take.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a `go nodes` may take.
const NODES_TIMEOUT: Duration = Duration::from_secs(60);
/// What a `go movetime` may overrun before the engine counts as lost.
const MOVETIME_GRACE: Duration = Duration::from_secs(5);

/// How much an external engine searches per move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Effort {
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
}

/// A running external UCI engine.
pub struct UciEngine {
    name: String,
    command: String,
    effort: Effort,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    alive: bool,
}

impl UciEngine {
    /// Starts `command` and completes the handshake.
    ///
    /// # Errors
    ///
    /// The program cannot be started, or it does not answer `uciok` and
    /// `readyok` in time.
    pub fn start(command: &str, effort: Effort) -> Result<UciEngine, CliError> {
        let shown = shorten(command);
        let mut words = command.split_whitespace();
        let program = words.next().ok_or_else(|| {
            CliError::new("empty uci engine command (expected uci:PROGRAM ARGS...)")
        })?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| CliError::new(format!("cannot start uci engine \"{shown}\": {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(CliError::new(format!("uci engine \"{shown}\": no pipes")));
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
        let mut engine = UciEngine {
            name: shown.clone(),
            command: shown.clone(),
            effort,
            child,
            stdin,
            lines,
            alive: true,
        };
        engine.send("uci");
        let mut hostage_variant = false;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let Some(line) = engine.next_line(deadline) else {
                return Err(CliError::new(format!(
                    "uci engine \"{shown}\" did not answer `uci` with `uciok`"
                )));
            };
            if line == "uciok" {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_owned();
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.starts_with(&["option", "name", "UCI_Variant"]) && words.contains(&"hostage") {
                hostage_variant = true;
            }
        }
        if hostage_variant {
            engine.send("setoption name UCI_Variant value hostage");
        }
        if !engine.ready() {
            return Err(CliError::new(format!(
                "uci engine \"{shown}\" did not answer `isready` with `readyok`"
            )));
        }
        Ok(engine)
    }

    /// The name the engine gave (`id name`), or its command.
    pub fn engine_name(&self) -> &str {
        &self.name
    }

    /// Sends a line; a failure marks the engine dead.
    fn send(&mut self, line: &str) {
        if self.alive
            && writeln!(self.stdin, "{line}")
                .and_then(|()| self.stdin.flush())
                .is_err()
        {
            self.die("its input closed");
        }
    }

    /// The next line before `deadline`; `None` (and the engine dead) when it
    /// exited or the time ran out.
    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        if !self.alive {
            return None;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => {
                self.die("it did not answer in time");
                None
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.die("it exited");
                None
            }
        }
    }

    fn ready(&mut self) -> bool {
        self.send("isready");
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while let Some(line) = self.next_line(deadline) {
            if line == "readyok" {
                return true;
            }
        }
        false
    }

    fn die(&mut self, why: &str) {
        if self.alive {
            eprintln!("uci engine \"{}\" is out of the match: {why}", self.command);
            self.alive = false;
            let _ = self.child.kill();
        }
    }
}

impl hostage_engine::players::Player for UciEngine {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.send("ucinewgame");
        self.ready();
    }

    fn choose(&mut self, game: &Game, _seed: u64) -> Option<Move> {
        let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
        let start = if *game.start() == Position::new() {
            "startpos".to_owned()
        } else {
            format!("fen {}", game.start().fen())
        };
        let mut position = format!("position {start}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position);
        let (go, timeout) = match self.effort {
            Effort::Nodes(n) => (format!("go nodes {n}"), NODES_TIMEOUT),
            Effort::Movetime(ms) => (
                format!("go movetime {ms}"),
                Duration::from_millis(ms) + MOVETIME_GRACE,
            ),
        };
        self.send(&go);
        let deadline = Instant::now() + timeout;
        let answer = loop {
            let line = self.next_line(deadline)?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                break rest.split_whitespace().next().unwrap_or("").to_owned();
            }
        };
        let pos = game.position();
        let chosen = UciMove::from_ascii(answer.as_bytes())
            .ok()
            .and_then(|m| m.to_move(pos).ok());
        if chosen.is_none() {
            eprintln!(
                "uci engine \"{}\" answered \"bestmove {}\", not a legal move in {}",
                self.command,
                shorten(&answer),
                pos.fen()
            );
        }
        chosen
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if self.alive {
            self.send("quit");
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `s` cut to 60 characters for a message.
fn shorten(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    }
}
