//! The draw questions of python-chess and chess.js, answered with Hostage
//! Chess's R12.
//!
//! In Hostage Chess the draws are automatic: a position occurring for the
//! third time, or 100 plies without a capture, pawn move or pawn drop, ends
//! the game at once ([`Game::outcome`]). Nobody claims anything, so a
//! "claim" is possible exactly when the draw has happened, and the
//! five-fold and seventy-five-move thresholds of orthodox chess are only
//! reached in positions that start past them (a FEN with a large clock).
//! The answers keep the names' literal thresholds so that scripts written
//! for python-chess mean what they say.
//!
//! # Examples
//!
//! ```
//! use hostage_core::Game;
//!
//! let mut game = Game::new();
//! for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
//!     game.push_san(san)?;
//! }
//! assert!(game.is_threefold_repetition() && game.can_claim_draw());
//! assert!(!game.is_fivefold_repetition());
//! # Ok::<_, hostage_core::GameError>(())
//! ```

use crate::Game;

impl Game {
    /// Whether the current position has occurred at least `count` times
    /// (R12's notion of equal positions).
    #[must_use]
    pub fn is_repetition(&self, count: u32) -> bool {
        self.repetition_count() >= count
    }

    /// Whether the current position has occurred three times: the automatic
    /// draw of R12 (or perpetual check, when every move of one side in the
    /// cycle gave check).
    #[must_use]
    pub fn is_threefold_repetition(&self) -> bool {
        self.is_repetition(3)
    }

    /// Whether the current position has occurred five times (only possible
    /// by playing on after R12's automatic draw).
    #[must_use]
    pub fn is_fivefold_repetition(&self) -> bool {
        self.is_repetition(5)
    }

    /// Whether 100 plies have passed without a capture, pawn move or pawn
    /// drop: R12's automatic fifty-move draw.
    #[must_use]
    pub fn is_fifty_moves(&self) -> bool {
        self.position().is_fifty_moves()
    }

    /// Whether 150 plies have passed without a capture, pawn move or pawn
    /// drop (only from a FEN with such a clock, or playing on after R12).
    #[must_use]
    pub fn is_seventyfive_moves(&self) -> bool {
        self.halfmove_clock() >= 150
    }

    /// Whether a draw "could be claimed": in Hostage Chess, whether R12's
    /// automatic draw by repetition or by the fifty-move rule has happened.
    #[must_use]
    pub fn can_claim_draw(&self) -> bool {
        self.is_threefold_repetition() || self.is_fifty_moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn clocks_from_a_fen() {
        let game = |fen: &str| Game::from_position(Position::from_fen(fen).expect("test FEN"));
        let at99 = game("4k3/8/8/8/8/8/8/4K3[] w - - 99 80");
        assert!(!at99.is_fifty_moves() && !at99.can_claim_draw());
        let at100 = game("4k3/8/8/8/8/8/8/4K3[] w - - 100 80");
        assert!(at100.is_fifty_moves() && at100.can_claim_draw());
        assert!(!at100.is_seventyfive_moves());
        assert!(game("4k3/8/8/8/8/8/8/4K3[] w - - 150 80").is_seventyfive_moves());
    }

    #[test]
    fn repetition_counts() {
        let mut g = Game::new();
        assert!(g.is_repetition(1) && !g.is_repetition(2));
        for _ in 0..4 {
            for san in ["Nc3", "Nc6", "Nb1", "Nb8"] {
                g.push_san(san).expect("legal");
            }
        }
        // The start position: once at the start, then after each of 4 cycles.
        assert_eq!(g.repetition_count(), 5);
        assert!(g.is_fivefold_repetition() && !g.is_repetition(6));
    }
}
