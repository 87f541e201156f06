//! Building the position a command works on: a start (`--fen` or the
//! initial position) and a list of moves played from it (`--moves`).
//!
//! Moves are separated by whitespace and read by
//! [`Position::parse_move`]: lenient SAN first, then the long (UCI) form.
//! Move numbers (`1`, `1.`, `1...`, `12.`) are skipped, also when glued to the
//! move (`1.e4`), so a game copied from a score sheet can be pasted as is.

use hostage_core::Position;

use crate::error::CliError;

/// The position given by `--fen`, or the starting position.
///
/// # Errors
///
/// A message naming the FEN, the reason and the error code.
pub fn start(fen: Option<&str>) -> Result<Position, CliError> {
    match fen {
        None => Ok(Position::new()),
        Some(text) => Position::from_fen(text.trim()).map_err(|e| {
            CliError::new(format!("invalid fen \"{text}\": {e} (code: {})", e.code()))
        }),
    }
}

/// Plays the whitespace-separated `moves` from `pos`.
///
/// # Errors
///
/// A message naming the first bad move, its ply (1-based, counting only
/// moves, not move numbers), the reason and the error code.
pub fn play_moves(mut pos: Position, moves: &str) -> Result<Position, CliError> {
    for (index, text) in move_tokens(moves).enumerate() {
        let ply = index + 1;
        let m = pos.parse_move(&text).map_err(|e| {
            CliError::new(format!(
                "cannot play move \"{text}\" at ply {ply} ({}): {e} (code: {})",
                ply_label(&pos),
                e.code()
            ))
        })?;
        pos.play_unchecked(m);
    }
    Ok(pos)
}

/// `--fen` then `--moves`: the position every one-shot command starts from.
///
/// # Errors
///
/// See [`start`] and [`play_moves`].
pub fn position(fen: Option<&str>, moves: Option<&str>) -> Result<Position, CliError> {
    let pos = start(fen)?;
    match moves {
        None => Ok(pos),
        Some(moves) => play_moves(pos, moves),
    }
}

/// `--fen` then `--moves` as a [`hostage_core::Game`], whose earlier
/// positions count for repetition (R12) in a search.
///
/// # Errors
///
/// See [`start`] and [`play_moves`]; the messages are the same.
pub fn game(fen: Option<&str>, moves: Option<&str>) -> Result<hostage_core::Game, CliError> {
    let mut game = hostage_core::Game::from_position(start(fen)?);
    // The same text replayed by `play_moves` gives the same message on error.
    if let Some(moves) = moves {
        play_moves(game.position().clone(), moves)?;
        for text in move_tokens(moves) {
            let m = game
                .position()
                .parse_move(&text)
                .map_err(|e| CliError::new(format!("cannot play move \"{text}\": {e}")))?;
            game.push(m)
                .map_err(|e| CliError::new(format!("cannot play move \"{text}\": {e}")))?;
        }
    }
    Ok(game)
}

/// The move texts in `moves`, move numbers dropped, and the inventor's
/// spaced castling `O O` / `O O O` joined into one move.
fn move_tokens(moves: &str) -> impl Iterator<Item = String> + '_ {
    let mut tokens = moves
        .split_whitespace()
        .map(strip_move_number)
        .filter(|t| !t.is_empty())
        .peekable();
    core::iter::from_fn(move || {
        let first = tokens.next()?;
        if first != "O" {
            return Some(first.to_owned());
        }
        let mut castle = String::from("O");
        for _ in 0..2 {
            if tokens.peek().is_some_and(|t| t.starts_with('O')) {
                let next = tokens.next().unwrap_or_default();
                castle.push('-');
                castle.push_str(next);
                if next != "O" {
                    break;
                }
            }
        }
        Some(castle)
    })
}

/// `"12...Qxd5"` → `"Qxd5"`, `"1."` and the inventor's bare `"1"` → `""`;
/// anything else unchanged. Only digits alone or followed by dots count, so
/// `0-0` stays castling.
pub fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    if digits > 0 && rest.is_empty() {
        rest
    } else if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    }
}

/// `"white's move 3"` or `"black's move 3"`: where in the game a move failed.
fn ply_label(pos: &Position) -> String {
    format!("{}'s move {}", pos.turn().name(), pos.fullmoves())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_skipped() {
        let tokens: Vec<_> = move_tokens("1. e4 d5 2.exd5 2... Qxd5 0-0 O-O 12...").collect();
        assert_eq!(tokens, ["e4", "d5", "exd5", "Qxd5", "0-0", "O-O"]);
        // The inventor's records number moves without dots.
        let tokens: Vec<_> = move_tokens("1 d4 d5 2 c4 dxc4 10 Nd5").collect();
        assert_eq!(tokens, ["d4", "d5", "c4", "dxc4", "Nd5"]);
        let tokens: Vec<_> = move_tokens("5 d3 O O 6 Bg5 c6 11 O O O (B-N)N*g4 O O+").collect();
        assert_eq!(
            tokens,
            ["d3", "O-O", "Bg5", "c6", "O-O-O", "(B-N)N*g4", "O-O+"]
        );
    }

    #[test]
    fn rules_md_example() -> Result<(), CliError> {
        let pos = position(None, Some("1. e4 d5 2. exd5 Qxd5"))?;
        assert_eq!(
            pos.fen(),
            "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"
        );
        Ok(())
    }

    #[test]
    fn bad_move_names_its_ply() {
        let err = position(None, Some("e4 e5 Ke3"))
            .err()
            .map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(err.contains("\"Ke3\""), "{err}");
        assert!(err.contains("ply 3"), "{err}");
        assert!(err.contains("illegal_san"), "{err}");
    }
}
