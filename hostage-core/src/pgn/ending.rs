//! Results decided off the board (resignation, time forfeit, agreed draw,
//! abandonment), recorded in a [`PgnGame`] by [`PgnGame::set_result`].
//!
//! python-chess and chessops leave the `Result` header to the caller and
//! write whatever it says. Here the header is checked against the board, so
//! that a record cannot claim `1-0` after Black has mated:
//!
//! - the board's own outcome (checkmate, stalemate and R12's automatic
//!   draws, on the main line) wins: such a game takes only its own result,
//!   and no off-board reason ([`ResultError::ContradictsBoard`]);
//! - a game the board has not ended takes any result; with an
//!   [`EndReason`], the result must fit it ([`EndReason::allows`]): a
//!   resignation is a win, an agreement a draw, a time forfeit a win or a
//!   draw (an arbiter's ruling), an abandonment anything, `*` included;
//! - the reason is written as the `Termination` tag, with the values of the
//!   PGN standard (section 9.8.1) as lichess writes them: `Normal` for a
//!   resignation or an agreed draw (the standard has no finer word; with no
//!   board outcome, a decisive result means a resignation and a draw an
//!   agreement), `Time forfeit`, `Abandoned`; [`PgnGame::end_reason`]
//!   reads the reason back from a record, its own or lichess's.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{pgn::{EndReason, PgnGame, PgnResult, ResultError}, Game};
//!
//! let mut game = Game::new();
//! game.push_san("e4")?;
//! let mut record = PgnGame::from_game(&game);
//! // Black resigns after 1. e4.
//! record.set_result(PgnResult::WhiteWins, Some(EndReason::Resignation))?;
//! let text = record.write();
//! assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"Normal\"]"));
//! assert!(text.ends_with("1. e4 1-0\n"));
//!
//! // Fool's mate: the board says 0-1, so 1-0 is refused.
//! let mut mated = Game::new();
//! for san in ["f3", "e5", "g4", "Qh4#"] {
//!     mated.push_san(san)?;
//! }
//! let mut record = PgnGame::from_game(&mated);
//! let err = record.set_result(PgnResult::WhiteWins, None).unwrap_err();
//! assert_eq!(err.code(), "result_contradicts_board");
//! assert_eq!(record.result, PgnResult::BlackWins);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use alloc::string::{String, ToString};
use core::{fmt, str::FromStr};

use super::{PgnGame, PgnResult};
use crate::{Excerpt, Outcome};

/// Why a game ended away from the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndReason {
    /// A player resigned: a win for the other (`1-0` or `0-1`).
    Resignation,
    /// A player's time ran out: a win for the other, or a draw when an
    /// arbiter rules so.
    TimeForfeit,
    /// The players agreed to a draw (`1/2-1/2`).
    Agreement,
    /// A player left the game: any result, `*` included.
    Abandonment,
}

impl EndReason {
    /// Every reason, in the order above.
    pub const ALL: [EndReason; 4] = [
        EndReason::Resignation,
        EndReason::TimeForfeit,
        EndReason::Agreement,
        EndReason::Abandonment,
    ];

    /// `"resignation"`, `"time_forfeit"`, `"agreement"` or `"abandonment"`:
    /// the name the bindings take.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time_forfeit",
            EndReason::Agreement => "agreement",
            EndReason::Abandonment => "abandonment",
        }
    }

    /// The value of the PGN `Termination` tag: `"Normal"`, `"Time
    /// forfeit"` or `"Abandoned"` (see the module docs).
    #[must_use]
    pub const fn termination_tag(self) -> &'static str {
        match self {
            EndReason::Resignation | EndReason::Agreement => "Normal",
            EndReason::TimeForfeit => "Time forfeit",
            EndReason::Abandonment => "Abandoned",
        }
    }

    /// Whether a game ended this way can have `result`.
    #[must_use]
    pub const fn allows(self, result: PgnResult) -> bool {
        let decisive = matches!(result, PgnResult::WhiteWins | PgnResult::BlackWins);
        match self {
            EndReason::Resignation => decisive,
            EndReason::TimeForfeit => decisive || matches!(result, PgnResult::Draw),
            EndReason::Agreement => matches!(result, PgnResult::Draw),
            EndReason::Abandonment => true,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EndReason {
    type Err = ResultError;

    /// Reads a reason by its [`EndReason::name`].
    fn from_str(s: &str) -> Result<EndReason, ResultError> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| ResultError::InvalidReason(s.to_string()))
    }
}

impl FromStr for PgnResult {
    type Err = ResultError;

    /// Reads `1-0`, `0-1`, `1/2-1/2` (or `½-½`) or `*`.
    fn from_str(s: &str) -> Result<PgnResult, ResultError> {
        PgnResult::from_token(s).ok_or_else(|| ResultError::InvalidResult(s.to_string()))
    }
}

/// A result that cannot be recorded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResultError {
    /// The text is not a result (`invalid_result`).
    #[error("invalid result {} (1-0, 0-1, 1/2-1/2 or *)", Excerpt::new(.0.as_bytes()))]
    InvalidResult(String),
    /// The text is not an [`EndReason`] name (`invalid_end_reason`).
    #[error(
        "invalid end reason {} (resignation, time_forfeit, agreement or abandonment)",
        Excerpt::new(.0.as_bytes())
    )]
    InvalidReason(String),
    /// The board has ended the game otherwise (`result_contradicts_board`).
    #[error("{} contradicts the board: {}", claim(*.result, *.reason), ended(*.outcome))]
    ContradictsBoard {
        /// The result given.
        result: PgnResult,
        /// The reason given.
        reason: Option<EndReason>,
        /// How the board ended the game.
        outcome: Outcome,
    },
    /// The result does not fit the reason (`result_mismatch`).
    #[error("a game ended by {reason} cannot have the result {result}")]
    Mismatch {
        /// The result given.
        result: PgnResult,
        /// The reason given.
        reason: EndReason,
    },
}

fn claim(result: PgnResult, reason: Option<EndReason>) -> String {
    match reason {
        Some(reason) => alloc::format!("result {result} by {reason}"),
        None => alloc::format!("result {result}"),
    }
}

fn ended(outcome: Outcome) -> String {
    let result = PgnResult::from_outcome(Some(outcome));
    alloc::format!("{result} by {}", outcome.termination.name())
}

impl ResultError {
    /// `"invalid_result"`, `"invalid_end_reason"`,
    /// `"result_contradicts_board"` or `"result_mismatch"`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            ResultError::InvalidResult(_) => "invalid_result",
            ResultError::InvalidReason(_) => "invalid_end_reason",
            ResultError::ContradictsBoard { .. } => "result_contradicts_board",
            ResultError::Mismatch { .. } => "result_mismatch",
        }
    }
}

impl PgnGame {
    /// Records `result`, decided off the board when `reason` is given, and
    /// writes the reason as the `Termination` tag (see the module docs for
    /// what is accepted). On error the record is unchanged.
    ///
    /// # Errors
    ///
    /// [`ResultError::ContradictsBoard`] when the main line ends in an
    /// outcome of the rules and `result` differs from it or a `reason` is
    /// given; [`ResultError::Mismatch`] when `result` does not fit `reason`.
    pub fn set_result(
        &mut self,
        result: PgnResult,
        reason: Option<EndReason>,
    ) -> Result<(), ResultError> {
        if let Some(outcome) = self.mainline_game().outcome() {
            if reason.is_some() || result != PgnResult::from_outcome(Some(outcome)) {
                return Err(ResultError::ContradictsBoard {
                    result,
                    reason,
                    outcome,
                });
            }
        }
        if let Some(reason) = reason {
            if !reason.allows(result) {
                return Err(ResultError::Mismatch { result, reason });
            }
            self.set_tag("Termination", reason.termination_tag());
        }
        self.result = result;
        Ok(())
    }

    /// The reason recorded for an end away from the board, read back from
    /// the `Termination` tag as [`PgnGame::set_result`] writes it (and as
    /// lichess does): `Time forfeit` and `Abandoned` name theirs; `Normal`
    /// is a resignation with a decisive result and an agreement with a
    /// draw. The tag's value is compared without regard to case.
    ///
    /// `None` when the tag is absent or says anything else (`Rules
    /// infraction`, `Unterminated`, a sentence), when the main line ends in
    /// an outcome of the rules (a mate is `Normal` too, but no off-board
    /// end), or when the result does not fit the reason (`Normal` with `*`).
    ///
    /// ```
    /// use hostage_core::pgn::{EndReason, PgnGame};
    ///
    /// let text = "[Result \"0-1\"]\n[Termination \"Normal\"]\n\n1. e4 0-1\n";
    /// assert_eq!(PgnGame::read(text)?.end_reason(), Some(EndReason::Resignation));
    /// # Ok::<_, hostage_core::pgn::PgnError>(())
    /// ```
    #[must_use]
    pub fn end_reason(&self) -> Option<EndReason> {
        let tag = self.tag("Termination")?.trim();
        let reason = if tag.eq_ignore_ascii_case("normal") {
            match self.result {
                PgnResult::WhiteWins | PgnResult::BlackWins => EndReason::Resignation,
                PgnResult::Draw => EndReason::Agreement,
                PgnResult::Unknown => return None,
            }
        } else if tag.eq_ignore_ascii_case("time forfeit") {
            EndReason::TimeForfeit
        } else if tag.eq_ignore_ascii_case("abandoned") {
            EndReason::Abandonment
        } else {
            return None;
        };
        (reason.allows(self.result) && self.mainline_game().outcome().is_none()).then_some(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{game::Game, Position};

    fn record(fen: &str, moves: &[&str]) -> PgnGame {
        let mut game = Game::from_position(Position::from_fen(fen).expect("test FEN"));
        for m in moves {
            game.push_san(m).expect("legal");
        }
        PgnGame::from_game(&game)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

    #[test]
    fn each_reason_takes_the_results_it_allows() {
        use PgnResult::{BlackWins, Draw, Unknown, WhiteWins};
        let table = [
            (EndReason::Resignation, [true, true, false, false]),
            (EndReason::TimeForfeit, [true, true, true, false]),
            (EndReason::Agreement, [false, false, true, false]),
            (EndReason::Abandonment, [true, true, true, true]),
        ];
        for (reason, allowed) in table {
            for (result, ok) in [WhiteWins, BlackWins, Draw, Unknown]
                .into_iter()
                .zip(allowed)
            {
                let mut r = record(START, &["e4"]);
                let got = r.set_result(result, Some(reason));
                assert_eq!(got.is_ok(), ok, "{reason} {result}");
                if ok {
                    assert_eq!(r.result, result);
                    assert_eq!(r.tag("Termination"), Some(reason.termination_tag()));
                } else {
                    assert_eq!(got.map_err(|e| e.code()), Err("result_mismatch"));
                    assert_eq!((r.result, r.tag("Termination")), (Unknown, None));
                }
            }
        }
    }

    #[test]
    fn the_board_outcome_wins() {
        // Fool's mate: Black has mated.
        let mut r = record(START, &["f3", "e5", "g4", "Qh4#"]);
        let err = r
            .set_result(PgnResult::WhiteWins, None)
            .expect_err("contradiction");
        assert_eq!(err.code(), "result_contradicts_board");
        assert_eq!(
            err.to_string(),
            "result 1-0 contradicts the board: 0-1 by checkmate"
        );
        // The board's own result is accepted; a reason on top is not, even
        // with the right result: the game ended by mate, not resignation.
        assert!(r.set_result(PgnResult::BlackWins, None).is_ok());
        let err = r
            .set_result(PgnResult::BlackWins, Some(EndReason::Resignation))
            .expect_err("contradiction");
        assert_eq!(
            err.to_string(),
            "result 0-1 by resignation contradicts the board: 0-1 by checkmate"
        );
        assert_eq!(r.tag("Termination"), None);
        // A stalemate (Black to move, no legal move, not in check) is a draw.
        let mut s = record("k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1", &[]);
        assert_eq!(s.result, PgnResult::Draw);
        assert!(s.set_result(PgnResult::Unknown, None).is_err());
    }

    #[test]
    fn a_result_without_reason_on_an_open_board() {
        let mut r = record(START, &["e4", "e5"]);
        r.set_result(PgnResult::Draw, None).expect("adjudicated");
        assert_eq!(r.result, PgnResult::Draw);
        assert_eq!(r.tag("Termination"), None);
        assert!(r.write().ends_with("1. e4 e5 1/2-1/2\n"));
    }

    #[test]
    fn every_reason_reads_back_from_the_text() {
        use PgnResult::{BlackWins, Draw, Unknown, WhiteWins};
        for reason in EndReason::ALL {
            for result in [WhiteWins, BlackWins, Draw, Unknown] {
                let mut r = record(START, &["e4"]);
                if r.set_result(result, Some(reason)).is_err() {
                    continue;
                }
                let back = PgnGame::read(&r.write()).expect("own output");
                assert_eq!(back.result, result);
                assert_eq!(back.end_reason(), Some(reason), "{reason} {result}");
            }
        }
    }

    #[test]
    fn termination_tags_that_name_no_off_board_end() {
        let read = |tags: &str, moves: &str| {
            PgnGame::read(&alloc::format!("{tags}\n\n{moves}\n"))
                .expect("valid PGN")
                .end_reason()
        };
        // Lichess's spelling and other cases are read alike.
        assert_eq!(
            read("[Termination \"time forfeit\"]", "1. e4 1-0"),
            Some(EndReason::TimeForfeit)
        );
        assert_eq!(
            read("[Termination \"NORMAL\"]", "1. e4 e5 1/2-1/2"),
            Some(EndReason::Agreement)
        );
        // No tag, an unknown word, or `Normal` with no result.
        assert_eq!(read("[Event \"?\"]", "1. e4 1-0"), None);
        assert_eq!(
            read("[Termination \"Rules infraction\"]", "1. e4 0-1"),
            None
        );
        assert_eq!(read("[Termination \"Normal\"]", "1. e4 *"), None);
        // Fool's mate is `Normal` on lichess, but the board ended it.
        assert_eq!(
            read("[Termination \"Normal\"]", "1. f3 e5 2. g4 Qh4# 0-1"),
            None
        );
    }

    #[test]
    fn names_read_back() {
        for reason in EndReason::ALL {
            assert_eq!(reason.name().parse::<EndReason>(), Ok(reason));
        }
        assert_eq!(
            "resigned".parse::<EndReason>().map_err(|e| e.code()),
            Err("invalid_end_reason")
        );
        assert_eq!("½-½".parse::<PgnResult>(), Ok(PgnResult::Draw));
        let err = "2-0".parse::<PgnResult>().expect_err("not a result");
        assert_eq!(
            err.to_string(),
            "invalid result '2-0' (1-0, 0-1, 1/2-1/2 or *)"
        );
    }
}
