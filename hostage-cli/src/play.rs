//! `hostage play`: a game at one terminal, people at one keyboard, bots
//! (any [`hostage_match::players`] player), or both, on a
//! [`hostage_core::Game`], which keeps the history for `undo` and judges
//! every ending.
//!
//! Each turn shows the board, the prisons and airfields and the state of
//! the game (check, pseudo-check, frozen pawns), then the side to move's
//! seat acts: a person types a move or a command at the [`Console`]; a bot
//! announces that it is thinking, chooses with the game's history (so it
//! sees repetitions, R12) and a seed derived from `--seed` and the ply, and
//! its move is printed in SAN. With the same seed and the same moves by
//! the people, a bot plays the same game again. The game ends by itself at
//! checkmate, stalemate, the fifty-move draw, threefold repetition and
//! perpetual check ([`Game::outcome`], R11/R12).

use std::{
    fmt,
    io::{self, BufRead, IsTerminal, Write},
    str::FromStr,
};

use hostage_core::{
    san::San, Bitboard, ByColor, Color, Game, Move, Position, Rank, Role, Termination,
};
use hostage_match::players::{ParsePlayerError, Player, PlayerSpec};

use crate::{
    display::{self, title, Style},
    error::CliError,
    position::start,
};

/// The arguments of `hostage play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Who plays White: human, a level (novice, beginner, casual,
    /// intermediate, club), full, full:NODES, random or greedy.
    #[arg(long, default_value = "human", value_parser = parse_seat)]
    pub white: Seat,
    /// Who plays Black (as for --white).
    #[arg(long, default_value = "human", value_parser = parse_seat)]
    pub black: Seat,
    /// The bots' seed (the same seed and moves give the same game);
    /// drawn from the clock when not given.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from this Hostage FEN instead of the initial position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Draw the men as chess figurines instead of letters.
    #[arg(long)]
    pub unicode: bool,
}

/// Who plays a side: `human` or one of the built-in players.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// The computer.
    Bot(PlayerSpec),
}

impl FromStr for Seat {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Seat, ParsePlayerError> {
        if s.trim().eq_ignore_ascii_case("human") {
            Ok(Seat::Human)
        } else {
            s.parse().map(Seat::Bot)
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Bot(spec) => write!(f, "{spec}"),
        }
    }
}

fn parse_seat(s: &str) -> Result<Seat, String> {
    s.parse().map_err(|e| format!("{e}, or human"))
}

/// Plays the game at this terminal.
///
/// # Errors
///
/// A bad `--fen`, or reading or writing the console failed.
pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let start = start(args.fen.as_deref())?;
    let style = if args.unicode {
        Style::Unicode
    } else {
        Style::Ascii
    };
    let stdin = io::stdin();
    // Piped input is echoed so that the transcript shows what was played.
    let echo = !stdin.is_terminal();
    let mut console = Console::new(Box::new(stdin.lock()), Box::new(io::stdout().lock()), echo);
    let seats = ByColor::new(args.white, args.black);
    let seed = args.seed.unwrap_or_else(clock_seed);
    if seats.iter().any(|(_, seat)| *seat != Seat::Human) {
        writeln!(
            console.out(),
            "White: {}, Black: {}; bots' seed {seed} (--seed {seed} replays their choices).",
            seats.get(Color::White),
            seats.get(Color::Black)
        )?;
    }
    let mut table = Table {
        game: Game::from_position(start),
        style,
        bots: seats.map(|seat| match seat {
            Seat::Human => None,
            Seat::Bot(spec) => Some(Bot {
                player: spec.build(),
                label: spec.to_string(),
            }),
        }),
        seed,
    };
    table.play(&mut console)
}

/// A seed for bots when none is given: the clock's nanoseconds.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos().into())
}

/// What the side to move wants done on its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Action {
    /// Play this move. It is checked again before being played.
    Play(Move),
    /// Take back the last move.
    Undo,
    /// Stop the game at the player's request.
    Quit,
    /// Stop the game: the input ended.
    EndOfInput,
}

/// A computer player in its seat.
struct Bot {
    player: Box<dyn Player>,
    label: String,
}

/// The game in progress, who sits where, and how it is drawn.
struct Table {
    game: Game,
    style: Style,
    /// The bot of each side; `None` for a person.
    bots: ByColor<Option<Bot>>,
    seed: u64,
}

impl Table {
    /// Plays until the game ends, a player quits or the input ends.
    fn play(&mut self, console: &mut Console) -> Result<(), CliError> {
        loop {
            self.show(console.out())?;
            if let Some(end) = self.ending() {
                writeln!(console.out(), "{end}")?;
                return Ok(());
            }
            match self.act(console)? {
                Action::Play(m) => {
                    if self.game.push(m).is_err() {
                        writeln!(console.out(), "Illegal move {m}: not played.")?;
                    }
                }
                Action::Undo => {
                    if self.game.pop().is_none() {
                        writeln!(console.out(), "Nothing to undo.")?;
                    } else if self.bots.get(self.game.position().turn()).is_some() {
                        // The computer's reply goes too, or it would replay at once.
                        self.game.pop();
                    }
                }
                Action::Quit => {
                    writeln!(console.out(), "Game stopped.")?;
                    return Ok(());
                }
                Action::EndOfInput => {
                    writeln!(console.out(), "\nEnd of input: game stopped.")?;
                    return Ok(());
                }
            }
        }
    }

    /// The side to move's action: the bot's move, or what the person typed.
    fn act(&mut self, console: &mut Console) -> io::Result<Action> {
        let turn = self.game.position().turn();
        match self.bots.get_mut(turn) {
            Some(bot) => bot_move(bot, &self.game, self.seed, console),
            None => human_action(self.game.position(), console),
        }
    }

    /// The last move as `12. Nf3` or `12... Nf6`.
    fn last_move(&self) -> Option<String> {
        let ply = self.game.ply().checked_sub(1)?;
        let before = self.game.position_at(ply)?;
        let dots = before.turn().fold(".", "...");
        Some(format!(
            "{}{dots} {}",
            before.fullmoves(),
            self.game.san(ply)?
        ))
    }

    /// Board, reserves and the state of play.
    fn show(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let pos = self.game.position();
        writeln!(out)?;
        write!(out, "{}", display::board(pos, self.style))?;
        write!(out, "{}", display::reserves(pos, self.style))?;
        if let Some(last) = self.last_move() {
            writeln!(out, "Last move: {last}")?;
        }
        for color in Color::ALL {
            if let Some(note) = frozen_note(pos, color) {
                writeln!(out, "{note}")?;
            }
        }
        let side = title(pos.turn());
        writeln!(out, "Move {}, {side} to move.", pos.fullmoves())?;
        if pos.is_check() {
            writeln!(out, "{side} is in check.")?;
        } else if pos.is_pseudo_check() {
            writeln!(
                out,
                "{side} is in pseudo-check (king attacked only by a frozen pawn): not check, but \
                 no capture may unfreeze that pawn."
            )?;
        }
        Ok(())
    }

    /// The announcement that ends the game, if it is over.
    fn ending(&self) -> Option<String> {
        let outcome = self.game.outcome()?;
        let pos = self.game.position();
        Some(match (outcome.termination, outcome.winner) {
            (Termination::Checkmate, Some(winner)) => format!("Checkmate: {} wins.", title(winner)),
            (Termination::Stalemate, _) => format!(
                "Stalemate: {} has no legal move and is not in check. The game is drawn.",
                title(pos.turn())
            ),
            (Termination::FiftyMoves, _) => "Draw by the fifty-move rule: 100 plies without a \
                                             capture, a pawn move or a pawn drop."
                .to_owned(),
            (Termination::ThreefoldRepetition, _) => {
                "Draw by threefold repetition: this position has occurred three times.".to_owned()
            }
            (Termination::PerpetualCheck, _) => "Draw by threefold repetition: this position has \
                                                 occurred three times (perpetual check)."
                .to_owned(),
            (termination, _) => format!("Game over: {}.", termination.name()),
        })
    }
}

/// A bot's turn: it announces itself, chooses, and says what it plays.
fn bot_move(bot: &mut Bot, game: &Game, seed: u64, console: &mut Console) -> io::Result<Action> {
    let pos = game.position();
    let side = title(pos.turn());
    writeln!(console.out(), "{side} ({}) is thinking...", bot.label)?;
    console.out().flush()?;
    // The same seed at every ply would repeat the same kind of choice.
    let seed = seed ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    match bot.player.choose(game, seed) {
        Ok(m) => {
            writeln!(
                console.out(),
                "{side} ({}) plays {}.",
                bot.label,
                San::write(pos, &m)
            )?;
            Ok(Action::Play(m))
        }
        Err(_) => {
            writeln!(console.out(), "{side} ({}) has no move.", bot.label)?;
            Ok(Action::Quit)
        }
    }
}

/// A note when `color` has pawns on its 7th rank that cannot promote (R8).
fn frozen_note(pos: &Position, color: Color) -> Option<String> {
    let seventh = Bitboard::from_rank(Rank::SEVENTH.relative_to(color));
    let pawns = pos.board().by_piece(Role::Pawn.of(color)) & seventh;
    if pawns.is_empty() || pos.can_promote(color) {
        return None;
    }
    let squares: Vec<String> = pawns.into_iter().map(|sq| sq.to_string()).collect();
    Some(format!(
        "Frozen: {}'s pawn(s) on {} cannot promote ({} has no {} queen, rook, bishop or knight \
         in prison), so they attack nothing on the last rank.",
        title(color),
        squares.join(", "),
        title(!color),
        color.name()
    ))
}

/// The terminal the game is played at: lines in, text out. Both people
/// share it, as two people share one keyboard.
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

/// The help shown by the `help` command at the prompt.
const HELP: &str = "\
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

/// A person's turn: reads lines until one is a legal move or a command
/// that ends the turn.
fn human_action(pos: &Position, console: &mut Console) -> io::Result<Action> {
    loop {
        write!(console.out(), "{} to move> ", title(pos.turn()))?;
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
            // Read as move text, so that `12...Qxd5` and the inventor's `O O`
            // are understood as on a score sheet.
            _ => match Game::from_move_text(pos.clone(), text) {
                Ok(typed) => match typed.moves() {
                    [] => {}
                    [m] => return Ok(Action::Play(*m)),
                    _ => writeln!(console.out(), "One move at a time, please.")?,
                },
                Err(e) => writeln!(
                    console.out(),
                    "\"{text}\" is not a move here: {e} ({}). Type `moves` for the legal \
                     moves, `help` for the commands.",
                    e.code()
                )?,
            },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_humans_and_bots() {
        assert_eq!("Human".parse(), Ok(Seat::Human));
        assert_eq!(
            "casual".parse(),
            Ok(Seat::Bot(PlayerSpec::Level(hostage_engine::Level::Casual)))
        );
        assert_eq!(
            "full:500".parse(),
            Ok(Seat::Bot(PlayerSpec::Full { nodes: 500 }))
        );
        assert!("robot".parse::<Seat>().is_err());
    }
}
