//! Clock play over UCI: two engine sessions (in this process, each behind
//! its own `uci::run` as a GUI would see it) play a game at 1 s + 0.1 s a
//! side, refereed by a driver that keeps both clocks with the wall clock,
//! the way a GUI does: the time from `go` to `bestmove` is taken off the
//! mover's clock and the increment added. No side may lose on time.

use std::{
    io::{self, BufRead, Read, Write},
    sync::mpsc::{self, Receiver, Sender},
    thread,
    time::{Duration, Instant},
};

use hostage_core::{Color, Game};

/// The engine's input: the lines the driver sends.
struct LineReader {
    lines: Receiver<String>,
    buf: Vec<u8>,
    at: usize,
}

impl Read for LineReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.len().min(out.len());
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for LineReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.buf.len() {
            // A closed channel is the end of input.
            if let Ok(line) = self.lines.recv() {
                self.buf = format!("{line}\n").into_bytes();
                self.at = 0;
            }
        }
        Ok(&self.buf[self.at..])
    }
    fn consume(&mut self, n: usize) {
        self.at += n;
    }
}

/// The engine's output, line by line to the driver.
struct LineWriter {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                // The driver may have stopped listening; that is its business.
                let _ = self.lines.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Player {
    to_engine: Sender<String>,
    from_engine: Receiver<String>,
    session: thread::JoinHandle<io::Result<()>>,
}

impl Player {
    fn start() -> Player {
        let (to_engine, input) = mpsc::channel();
        let (output, from_engine) = mpsc::channel();
        let session = thread::spawn(move || {
            let reader = LineReader {
                lines: input,
                buf: Vec::new(),
                at: 0,
            };
            let writer = LineWriter {
                lines: output,
                partial: Vec::new(),
            };
            hostage_engine::uci::run(reader, writer)
        });
        Player {
            to_engine,
            from_engine,
            session,
        }
    }

    fn send(&self, line: &str) {
        self.to_engine.send(line.to_string()).expect("engine reads");
    }

    /// Lines until one starting with `prefix` (returned).
    fn until(&self, prefix: &str) -> String {
        loop {
            let line = self
                .from_engine
                .recv_timeout(Duration::from_secs(30))
                .expect("the engine answers");
            assert!(!line.contains("info string error"), "{line}");
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

#[test]
fn a_game_at_one_second_plus_a_tenth_loses_no_time() {
    let players = [Player::start(), Player::start()];
    for p in &players {
        p.send("uci");
        p.until("uciok");
        p.send("ucinewgame");
        p.send("isready");
        p.until("readyok");
    }
    let inc = Duration::from_millis(100);
    let mut clocks = [Duration::from_secs(1); 2];
    let mut game = Game::new();
    let mut moves: Vec<String> = Vec::new();
    // 40 plies: about 20 moves a side, more than the time manager's first
    // moves, enough for a clock that is mismanaged to run out.
    while moves.len() < 40 && game.outcome().is_none() {
        let side = usize::from(game.position().turn() == Color::Black);
        let p = &players[side];
        p.send(&format!("position startpos moves {}", moves.join(" ")));
        let started = Instant::now();
        p.send(&format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks[0].as_millis(),
            clocks[1].as_millis(),
            inc.as_millis(),
            inc.as_millis()
        ));
        let line = p.until("bestmove ");
        let spent = started.elapsed();
        assert!(
            spent < clocks[side],
            "ply {}: {spent:?} spent with {:?} on the clock",
            moves.len() + 1,
            clocks[side]
        );
        clocks[side] = clocks[side] - spent + inc;
        let mv = line.split(' ').nth(1).expect("a move").to_string();
        game.push_uci(&mv).expect("a legal move");
        moves.push(mv);
    }
    assert!(moves.len() >= 10, "a game, not a quick mate: {moves:?}");
    for p in players {
        p.send("quit");
        p.session.join().expect("no panic").expect("i/o");
    }
}
