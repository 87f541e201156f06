//! Who decides each side's turn in `hostage play`: the [`Player`] trait and
//! [`Human`] at the keyboard (the computer players are in `bot.rs`).
//!
//! The game loop (`play.rs`) asks the side to move's player for an
//! [`Action`] and knows nothing about where it came from, so a computer
//! opponent is one more `impl Player` with no change to the loop. Both
//! humans share one [`Console`], as two people share one keyboard.

use std::io::{self, BufRead, Write};

use hostage_core::{san::San, Position};

use crate::replay;

/// What a player wants done on its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play this move. It is checked again before being played.
    Play(hostage_core::Move),
    /// Take back the last move.
    Undo,
    /// Stop the game at the player's request.
    Quit,
    /// Stop the game: the input ended.
    EndOfInput,
}

/// Chooses the actions of one side.
pub trait Player {
    /// Decides what to do in the current position of `game`, where it is
    /// this player's turn (the earlier positions count for repetition,
    /// R12). The player may talk to the people at the console.
    ///
    /// # Errors
    ///
    /// Reading or writing the console failed.
    fn act(&mut self, game: &hostage_core::Game, console: &mut Console) -> io::Result<Action>;

    /// Whether the computer plays this side: `undo` then takes back the
    /// computer's reply too, so that the person gets their turn back.
    fn is_bot(&self) -> bool {
        false
    }
}

/// The terminal the game is played at: lines in, text out.
pub struct Console {
    input: Box<dyn BufRead>,
    output: Box<dyn Write>,
    echo: bool,
}

impl Console {
    /// A console reading `input` and writing `output`. With `echo`, each line
    /// read is written back after the prompt, so that a game piped in from a
    /// file reads like one typed at a terminal.
    pub fn new(input: Box<dyn BufRead>, output: Box<dyn Write>, echo: bool) -> Console {
        Console {
            input,
            output,
            echo,
        }
    }

    /// The next line without its line ending, or `None` at the end of input.
    /// Bytes that are not UTF-8 are replaced rather than rejected.
    pub fn read_line(&mut self) -> io::Result<Option<String>> {
        let mut bytes = Vec::new();
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes)
            .trim_end_matches(['\n', '\r'])
            .to_owned();
        if self.echo {
            writeln!(self.output, "{line}")?;
        }
        Ok(Some(line))
    }

    /// Where to write.
    pub fn out(&mut self) -> &mut dyn Write {
        &mut *self.output
    }
}

/// The help shown by the `help` command.
pub const HELP: &str = "\
Type a move in SAN or UCI form:
  e4  Nf3  exd5  O-O  e8=Q        board moves (promotion fetches a man from the prison)
  N*c7  *c7                       drop from your airfield (*c7 drops a pawn)
  (B-N)N*c7  (R-P)*c7             exchange: release a prisoner, rescue one of yours, drop it
  e2e4  e7e8q  N@c7  N#B@c7       the same in UCI form
Commands:
  moves   list the legal moves
  fen     print the position as Hostage FEN
  undo    take back the last move
  help    show this help
  quit    leave the game";

/// A person at the console, typing moves and commands.
#[derive(Copy, Clone, Debug, Default)]
pub struct Human;

impl Player for Human {
    fn act(&mut self, game: &hostage_core::Game, console: &mut Console) -> io::Result<Action> {
        let pos = game.position();
        loop {
            write!(
                console.out(),
                "{} to move> ",
                crate::display::title(pos.turn())
            )?;
            console.out().flush()?;
            let Some(line) = console.read_line()? else {
                return Ok(Action::EndOfInput);
            };
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" => return Ok(Action::Quit),
                "undo" => return Ok(Action::Undo),
                "help" | "?" => writeln!(console.out(), "{HELP}")?,
                "fen" => writeln!(console.out(), "{}", pos.fen())?,
                "moves" => write_moves(pos, console.out())?,
                _ => {
                    let text = replay::strip_move_number(text);
                    if text.is_empty() {
                        continue;
                    }
                    match pos.parse_move(text) {
                        Ok(m) => return Ok(Action::Play(m)),
                        Err(e) => writeln!(
                            console.out(),
                            "\"{text}\" is not a move here: {e} ({}). Type `moves` for the legal \
                             moves, `help` for the commands.",
                            e.code()
                        )?,
                    }
                }
            }
        }
    }
}

/// The legal moves in SAN, wrapped to fit a terminal.
fn write_moves(pos: &Position, out: &mut dyn Write) -> io::Result<()> {
    let moves = pos.legal_moves();
    writeln!(out, "{} legal moves:", moves.len())?;
    let mut line = String::new();
    for m in &moves {
        let san = San::write(pos, m);
        if !line.is_empty() && line.len() + 1 + san.len() > 78 {
            writeln!(out, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&san);
    }
    if !line.is_empty() {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
