//! `hostage play`: a game at one terminal, with the history needed for
//! `undo` and for the draw by repetition.
//!
//! Each turn shows the board, the prisons and airfields and the state of
//! the game (check, pseudo-check, frozen pawns), then asks the side to
//! move's [`Player`] for an action. The game ends by itself at checkmate,
//! stalemate, the fifty-move draw ([`Position::outcome`]) and the third
//! occurrence of a position (R12, counted here by [`Position::zobrist_hash`]
//! because only the game knows its history).

use std::{collections::HashMap, io::Write};

use hostage_core::{san::San, Bitboard, ByColor, Color, Position, Rank, Role, Termination};

use crate::{
    display::{self, title, Style},
    error::CliError,
    player::{Action, Console, Player},
};

/// A game in progress: every position so far and how often each occurred.
pub struct Game {
    /// `history[0]` is the start, the last entry the current position.
    history: Vec<Position>,
    /// The SAN of each move played, `sans[i]` leading to `history[i + 1]`.
    sans: Vec<String>,
    /// Occurrences of each position in `history`, by Zobrist hash (R12).
    seen: HashMap<u64, u32>,
    style: Style,
}

impl Game {
    /// A game starting from `start`, drawn in `style`.
    pub fn new(start: Position, style: Style) -> Game {
        let mut seen = HashMap::new();
        seen.insert(start.zobrist_hash(), 1);
        Game {
            history: vec![start],
            sans: Vec::new(),
            seen,
            style,
        }
    }

    /// Plays until the game ends, a player quits or the input ends.
    ///
    /// # Errors
    ///
    /// Reading or writing the console failed.
    pub fn run(
        &mut self,
        players: &mut ByColor<Box<dyn Player>>,
        console: &mut Console,
    ) -> Result<(), CliError> {
        loop {
            self.show(console.out())?;
            if let Some(end) = self.ending() {
                writeln!(console.out(), "{end}")?;
                return Ok(());
            }
            let pos = self.current().clone();
            match players.get_mut(pos.turn()).act(&pos, console)? {
                Action::Play(m) => {
                    if pos.is_legal(&m) {
                        self.push(m);
                    } else {
                        writeln!(console.out(), "Illegal move {m}: not played.")?;
                    }
                }
                Action::Undo => {
                    if !self.undo() {
                        writeln!(console.out(), "Nothing to undo.")?;
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

    /// The position now.
    pub fn current(&self) -> &Position {
        // `history` is never empty: `new` fills it and `undo` keeps the start.
        &self.history[self.history.len() - 1]
    }

    /// Plays the legal move `m`.
    fn push(&mut self, m: hostage_core::Move) {
        let mut next = self.current().clone();
        self.sans
            .push(format!("{}{}", move_number(&next), San::write(&next, &m)));
        next.play_unchecked(m);
        *self.seen.entry(next.zobrist_hash()).or_insert(0) += 1;
        self.history.push(next);
    }

    /// Takes back the last move; `false` at the start.
    fn undo(&mut self) -> bool {
        if self.history.len() < 2 {
            return false;
        }
        if let Some(pos) = self.history.pop() {
            if let Some(n) = self.seen.get_mut(&pos.zobrist_hash()) {
                *n -= 1;
            }
        }
        self.sans.pop();
        true
    }

    /// Board, reserves and the state of play.
    fn show(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let pos = self.current();
        writeln!(out)?;
        write!(out, "{}", display::board(pos, self.style))?;
        write!(out, "{}", display::reserves(pos, self.style))?;
        if let Some(last) = self.sans.last() {
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
        let pos = self.current();
        if let Some(outcome) = pos.outcome() {
            return Some(match (outcome.termination, outcome.winner) {
                (Termination::Checkmate, Some(winner)) => {
                    format!("Checkmate: {} wins.", title(winner))
                }
                (Termination::Stalemate, _) => format!(
                    "Stalemate: {} has no legal move and is not in check. The game is drawn.",
                    title(pos.turn())
                ),
                (Termination::FiftyMoves, _) => "Draw by the fifty-move rule: 100 plies without \
                                                 a capture, a pawn move or a pawn drop."
                    .to_owned(),
                (termination, _) => format!("Game over: {}.", termination.name()),
            });
        }
        let hash = pos.zobrist_hash();
        if self.seen.get(&hash).copied().unwrap_or(0) >= 3 {
            let perpetual = self
                .perpetual_checker(hash)
                .map(|checker| format!(" ({} gave perpetual check.)", title(checker)))
                .unwrap_or_default();
            return Some(format!(
                "Draw by threefold repetition: this position has occurred three times.{perpetual}"
            ));
        }
        None
    }

    /// The side every one of whose moves gave check since the first of the
    /// repeated positions, if any (R12: the draw is then perpetual check).
    fn perpetual_checker(&self, hash: u64) -> Option<Color> {
        let first = self.history.iter().position(|p| p.zobrist_hash() == hash)?;
        let cycle = &self.history[first + 1..];
        Color::ALL.into_iter().find(|&side| {
            // The positions after `side`'s moves are those with the other side to move.
            let mut after = cycle.iter().filter(|p| p.turn() != side).peekable();
            after.peek().is_some() && after.all(Position::is_check)
        })
    }
}

/// `"12. "` before a White move, `"12... "` before a Black one.
fn move_number(pos: &Position) -> String {
    let dots = pos.turn().fold(".", "...");
    format!("{}{dots} ", pos.fullmoves())
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
