//! `hostage play`: a game at one terminal, on a [`hostage_core::Game`],
//! which keeps the history for `undo` and judges every ending.
//!
//! Each turn shows the board, the prisons and airfields and the state of
//! the game (check, pseudo-check, frozen pawns), then asks the side to
//! move's [`Player`] for an action. The game ends by itself at checkmate,
//! stalemate, the fifty-move draw, threefold repetition and perpetual check
//! ([`hostage_core::Game::outcome`], R11/R12).

use std::io::Write;

use hostage_core::{Bitboard, ByColor, Color, Position, Rank, Role, Termination};

use crate::{
    display::{self, title, Style},
    error::CliError,
    player::{Action, Console, Player},
};

/// A game in progress at the terminal.
pub struct Game {
    game: hostage_core::Game,
    style: Style,
}

impl Game {
    /// A game starting from `start`, drawn in `style`.
    pub fn new(start: Position, style: Style) -> Game {
        Game {
            game: hostage_core::Game::from_position(start),
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
            let turn = self.current().turn();
            match players.get_mut(turn).act(&self.game, console)? {
                Action::Play(m) => {
                    if self.game.push(m).is_err() {
                        writeln!(console.out(), "Illegal move {m}: not played.")?;
                    }
                }
                Action::Undo => {
                    if self.game.pop().is_none() {
                        writeln!(console.out(), "Nothing to undo.")?;
                    } else if players.get(self.current().turn()).is_bot() {
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

    /// The position now.
    pub fn current(&self) -> &Position {
        self.game.position()
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
        let pos = self.current();
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
        let pos = self.current();
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
