//! Game review, lichess's "computer analysis" for Hostage Chess:
//! [`Engine::review`] searches every position of a game and judges each
//! move by the winning chances it gives away.
//!
//! Policy (every formula is lichess's; `docs/review.md` names the files):
//!
//! - Every position of the game, the start and the last included, is
//!   searched within the same [`Limits`] on a fresh engine state, so a
//!   review under a node limit is reproducible. A position with no legal
//!   move is scored without a search (mated: mate 0; stalemate: 0).
//! - A score becomes White's winning chances on [-1, 1]:
//!   `2 / (1 + exp(-0.00368208 · cp)) - 1`, with centipawns clamped to
//!   ±1000 and a mate counted as ±1000; win percent is `50 + 50 · chances`.
//! - A move is judged by the drop in its mover's winning chances from the
//!   position before it to the one after: at least 0.3 is a blunder (`??`),
//!   0.2 a mistake (`?`), 0.1 an inaccuracy (`?!`). The engine's own best
//!   move is never judged.
//! - A move's accuracy is `103.1668100711649 · exp(-0.04354415386753951 ·
//!   drop%) - 3.166924740191411 + 1` (the drop in win percent; 100 when the
//!   mover's win percent did not fall), clamped to 0..100.
//! - A player's accuracy is the mean of two means of their moves'
//!   accuracies: one weighted by the volatility of the game around the move
//!   (the standard deviation of the win percents in a window of
//!   `clamp(moves / 10, 2, 8)` positions, clamped to 0.5..12), and the
//!   harmonic mean (each accuracy counted as at least 1, so that one 0 does
//!   not make the mean 0). The average centipawn loss is the mean, over the
//!   player's moves, of the fall of their clamped score.

use hostage_core::{pgn::NodeId, pgn::PgnGame, san::San, Color, Game, Move};

use crate::{history_of, Engine, Limits, Score};

/// Centipawns beyond this count as this, and a mate as this (lichess's
/// `Cp.CEILING`).
const CEILING: i32 = 1000;
/// Plies of the engine's best line written as a variation.
pub const VARIATION_PLIES: usize = 6;

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Judgement {
    /// Gave away at least 0.1 of winning chances (`?!`).
    Inaccuracy,
    /// At least 0.2 (`?`).
    Mistake,
    /// At least 0.3 (`??`).
    Blunder,
}

impl Judgement {
    /// `"inaccuracy"`, `"mistake"` or `"blunder"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PGN numeric annotation glyph: `$6` (`?!`), `$2` (`?`), `$4` (`??`).
    #[must_use]
    pub const fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// `?!`, `?` or `??`.
    #[must_use]
    pub const fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The judgement of a drop in winning chances (on [-1, 1]).
    #[must_use]
    pub fn of_drop(drop: f64) -> Option<Judgement> {
        if drop >= 0.3 {
            Some(Judgement::Blunder)
        } else if drop >= 0.2 {
            Some(Judgement::Mistake)
        } else if drop >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct MoveReview {
    /// Its ply in the game, from 1.
    pub ply: usize,
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The move in SAN.
    pub san: String,
    /// The score of the position before it, for White. `Mate(0)` is a
    /// checkmate on the board (the side to move there is mated; `cp_after`
    /// says who won).
    pub before: Score,
    /// The score of the position after it, for White (as `before`).
    pub after: Score,
    /// `before` in centipawns for White, clamped to ±1000, a mate ±1000.
    pub cp_before: i32,
    /// `after` likewise.
    pub cp_after: i32,
    /// The engine's best move in the position before it.
    pub best: Option<Move>,
    /// The engine's best line from there (starting with `best`).
    pub best_line: Vec<Move>,
    /// The mover's win percent before and after the move (0..100).
    pub win_before: f64,
    /// See `win_before`.
    pub win_after: f64,
    /// The move's accuracy, 0..100.
    pub accuracy: f64,
    /// The judgement, if the move gave away enough.
    pub judgement: Option<Judgement>,
}

/// What a review says of one player.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PlayerReview {
    /// Accuracy, 0..100 (`None` without a move).
    pub accuracy: Option<f64>,
    /// Average centipawn loss (`None` without a move).
    pub acpl: Option<u32>,
    /// Moves judged inaccuracies.
    pub inaccuracies: usize,
    /// Moves judged mistakes.
    pub mistakes: usize,
    /// Moves judged blunders.
    pub blunders: usize,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GameReview {
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// White's summary.
    pub white: PlayerReview,
    /// Black's summary.
    pub black: PlayerReview,
}

/// Centipawns for the side the score is for, clamped to ±[`CEILING`],
/// mates at ±[`CEILING`] (`Mate(0)`: that side is mated).
fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CEILING, CEILING),
        Score::Mate(n) if n > 0 => CEILING,
        Score::Mate(_) => -CEILING,
    }
}

/// A score for the side to move as a score for White.
fn for_white(score: Score, turn: Color) -> Score {
    match (turn, score) {
        (Color::White, s) => s,
        (Color::Black, Score::Cp(cp)) => Score::Cp(-cp),
        (Color::Black, Score::Mate(n)) => Score::Mate(-n),
    }
}

/// Winning chances on [-1, 1] of a centipawn score (lichess).
#[must_use]
pub fn winning_chances(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CEILING, CEILING));
    (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// Win percent, 0..100, of a centipawn score (lichess).
#[must_use]
pub fn win_percent(cp: i32) -> f64 {
    50.0 + 50.0 * winning_chances(cp)
}

/// A move's accuracy from its mover's win percent before and after
/// (lichess).
#[must_use]
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Each player's accuracy from White's centipawns at every position
/// (`cps[0]` the start): lichess's `gameAccuracy`. White moves first from
/// `first`.
#[must_use]
pub fn game_accuracy(cps: &[i32], first: Color) -> [Option<f64>; 2] {
    let moves = cps.len().saturating_sub(1);
    if moves == 0 {
        return [None, None];
    }
    let wins: Vec<f64> = cps.iter().map(|&cp| win_percent(cp)).collect();
    let window = (moves / 10).clamp(2, 8).min(wins.len());
    // The first windows repeat the opening one, so there is one per move.
    let mut weights = Vec::with_capacity(moves);
    for _ in 0..window.saturating_sub(2) {
        weights.push(std_dev(&wins[..window]));
    }
    for w in wins.windows(window) {
        weights.push(std_dev(w));
    }
    let mut per: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, pair) in wins.windows(2).enumerate() {
        let white = (i % 2 == 0) == (first == Color::White);
        let acc = if white {
            move_accuracy(pair[0], pair[1])
        } else {
            move_accuracy(100.0 - pair[0], 100.0 - pair[1])
        };
        let weight = weights.get(i).copied().unwrap_or(0.5).clamp(0.5, 12.0);
        per[usize::from(!white)].push((acc, weight));
    }
    per.map(|xs| {
        if xs.is_empty() {
            return None;
        }
        let weighted =
            xs.iter().map(|(a, w)| a * w).sum::<f64>() / xs.iter().map(|(_, w)| w).sum::<f64>();
        let harmonic = xs.len() as f64 / xs.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    })
}

impl Engine {
    /// Reviews `game`: every position searched within `limits` (after
    /// [`Engine::new_game`], so a node-limited review is reproducible),
    /// every move judged. `progress(done, total)` is called after each
    /// position searched.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Game;
    /// use hostage_engine::{Engine, Limits};
    ///
    /// let mut game = Game::new();
    /// for m in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
    ///     game.push_uci(m)?;
    /// }
    /// let review = Engine::new().review(&game, &Limits::nodes(2_000), &mut |_, _| {});
    /// assert_eq!(review.moves.len(), 7);
    /// // 3...Nf6?? allows mate.
    /// assert_eq!(review.moves[5].judgement.map(|j| j.symbol()), Some("??"));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn review(
        &mut self,
        game: &Game,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, usize),
    ) -> GameReview {
        self.new_game();
        let positions = game.positions();
        let total = positions.len();
        let mut scores = Vec::with_capacity(total);
        let mut lines = Vec::with_capacity(total);
        let mut replay = Game::from_position(game.start().clone());
        for (i, pos) in positions.iter().enumerate() {
            if i > 0 {
                // Only replays the game's own moves: each is legal.
                let _ = replay.push(game.moves()[i - 1]);
            }
            let r = self.search(pos, &history_of(&replay), limits);
            let stm = clamped_cp(r.score);
            let white_cp = if pos.turn() == Color::White {
                stm
            } else {
                -stm
            };
            scores.push((for_white(r.score, pos.turn()), white_cp));
            lines.push(r.pv);
            progress(i + 1, total);
        }
        let cps: Vec<i32> = scores.iter().map(|&(_, cp)| cp).collect();
        let mut moves = Vec::with_capacity(game.moves().len());
        for (i, &mv) in game.moves().iter().enumerate() {
            let pos = &positions[i];
            let color = pos.turn();
            let pov = |cp: i32| if color == Color::White { cp } else { -cp };
            let (before, after) = (pov(cps[i]), pov(cps[i + 1]));
            let best = lines[i].first().copied();
            let drop = winning_chances(before) - winning_chances(after);
            let judgement = if best == Some(mv) {
                None
            } else {
                Judgement::of_drop(drop)
            };
            let (win_before, win_after) = (win_percent(before), win_percent(after));
            moves.push(MoveReview {
                ply: i + 1,
                color,
                mv,
                san: San::write(pos, &mv),
                before: scores[i].0,
                after: scores[i + 1].0,
                cp_before: cps[i],
                cp_after: cps[i + 1],
                best,
                best_line: lines[i].clone(),
                win_before,
                win_after,
                accuracy: move_accuracy(win_before, win_after),
                judgement,
            });
        }
        let first = game.start().turn();
        let [white_acc, black_acc] = game_accuracy(&cps, first);
        let summary = |color: Color, accuracy: Option<f64>| {
            let mine: Vec<&MoveReview> = moves.iter().filter(|m| m.color == color).collect();
            let count = |j: Judgement| mine.iter().filter(|m| m.judgement == Some(j)).count();
            let loss: i64 = mine
                .iter()
                .map(|m| {
                    let sign = if color == Color::White { 1 } else { -1 };
                    i64::from((sign * (m.cp_before - m.cp_after)).max(0))
                })
                .sum();
            PlayerReview {
                accuracy,
                acpl: (!mine.is_empty()).then(|| (loss / mine.len() as i64) as u32),
                inaccuracies: count(Judgement::Inaccuracy),
                mistakes: count(Judgement::Mistake),
                blunders: count(Judgement::Blunder),
            }
        };
        GameReview {
            white: summary(Color::White, white_acc),
            black: summary(Color::Black, black_acc),
            moves,
        }
    }
}

/// A score for White as lichess's `[%eval …]` writes it: pawns with two
/// decimals (`0.35`, `-1.20`) or `#3` / `#-2` for a mate; `None` for a
/// checkmate on the board (`Mate(0)`), which has no evaluation.
#[must_use]
pub fn eval_text(white: Score) -> Option<String> {
    match white {
        Score::Cp(cp) => Some(format!("{:.2}", f64::from(cp) / 100.0)),
        Score::Mate(0) => None,
        Score::Mate(n) => Some(format!("#{n}")),
    }
}

impl GameReview {
    /// `pgn` (whose main line is the reviewed game) annotated: after each
    /// move one comment `[%eval …]` (the score after it, for White; none
    /// after a mate on the board) followed, for a judged move, by the
    /// judgement and the better move (`[%eval #1] Blunder. g6 was best.`),
    /// the judgement's NAG, and the engine's best line as a variation. Tags `WhiteAccuracy`,
    /// `BlackAccuracy` and `Annotator` are set.
    ///
    /// Moves of the main line beyond the review are left as they are.
    pub fn annotate(&self, pgn: &mut PgnGame) {
        let main = pgn.mainline();
        for (m, &id) in self.moves.iter().zip(&main) {
            let node = pgn.node_mut(id);
            let eval = eval_text(m.after).map(|e| format!("[%eval {e}]"));
            let Some(j) = m.judgement else {
                node.comments.extend(eval);
                continue;
            };
            node.nags.push(j.nag());
            let best_san = m
                .best
                .map(|b| {
                    let pos = pgn.position_at(pgn.node(id).parent().unwrap_or(NodeId::ROOT));
                    San::write(&pos, &b)
                })
                .unwrap_or_default();
            let words = match j {
                Judgement::Inaccuracy => "Inaccuracy",
                Judgement::Mistake => "Mistake",
                Judgement::Blunder => "Blunder",
            };
            let mut text = eval.map(|e| e + " ").unwrap_or_default();
            text.push_str(words);
            if !best_san.is_empty() {
                text.push_str(&format!(". {best_san} was best."));
            } else {
                text.push('.');
            }
            pgn.node_mut(id).comments.push(text);
            // The best line as a variation beside the move.
            let mut at = pgn.node(id).parent().unwrap_or(NodeId::ROOT);
            for &mv in m.best_line.iter().take(VARIATION_PLIES) {
                match pgn.add_move(at, mv) {
                    Ok(next) => at = next,
                    Err(_) => break,
                }
            }
        }
        let fmt = |p: &PlayerReview| p.accuracy.map(|a| format!("{a:.1}"));
        if let Some(a) = fmt(&self.white) {
            pgn.set_tag("WhiteAccuracy", &a);
        }
        if let Some(a) = fmt(&self.black) {
            pgn.set_tag("BlackAccuracy", &a);
        }
        pgn.set_tag("Annotator", concat!("hostage ", env!("CARGO_PKG_VERSION")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_formulas_at_known_points() {
        // Even: 50%; the curve is symmetric; 1000 cp is the ceiling.
        assert!((win_percent(0) - 50.0).abs() < 1e-12);
        assert!((win_percent(300) + win_percent(-300) - 100.0).abs() < 1e-9);
        assert_eq!(win_percent(5_000), win_percent(1_000));
        // 100 cp: 50 + 50 (2 / (1 + e^-0.368208) - 1) = 59.10 (by hand).
        assert!((win_percent(100) - 59.10).abs() < 0.01);
        // No loss: 100; a 50-point loss of win percent: 103.17 e^-2.177 - 2.17 = 9.52.
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        assert!((move_accuracy(75.0, 25.0) - 9.52).abs() < 0.05);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn thresholds_are_lichess_drops() {
        assert_eq!(Judgement::of_drop(0.09), None);
        assert_eq!(Judgement::of_drop(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_drop(0.25), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_drop(0.3), Some(Judgement::Blunder));
        assert_eq!(
            [
                Judgement::Inaccuracy,
                Judgement::Mistake,
                Judgement::Blunder
            ]
            .map(Judgement::nag),
            [6, 2, 4]
        );
    }

    #[test]
    fn game_accuracy_of_a_perfect_and_a_losing_player() {
        // White keeps +0.15; Black gives a pawn a move.
        let cps = [15, 15, 115, 115, 215, 215, 315, 315, 415, 415, 515];
        let [white, black] = game_accuracy(&cps, Color::White);
        assert!((white.expect("moves") - 100.0).abs() < 1e-9);
        let black = black.expect("moves");
        assert!(black < 90.0 && black > 0.0, "{black}");
        assert_eq!(game_accuracy(&[15], Color::White), [None, None]);
    }

    #[test]
    fn eval_comments_in_pawns_or_mates() {
        assert_eq!(eval_text(Score::Cp(35)).as_deref(), Some("0.35"));
        assert_eq!(eval_text(Score::Cp(-120)).as_deref(), Some("-1.20"));
        assert_eq!(eval_text(Score::Mate(-2)).as_deref(), Some("#-2"));
        assert_eq!(eval_text(Score::Mate(0)), None);
    }
}
