//! An exact mate prover: full width, every legal move of both sides
//! (board moves, airfield drops, exchanges), with mate-distance bounds.
//!
//! Policy: "`side` mates within `n` moves" is decided by a depth-first
//! search that tries every attacker move (checks first) and every defence
//! (checks, then captures, then the rest, so that refutations come early).
//! It needs no evaluation and shares no code with the engine's search, so
//! a proof here is independent of the engine that found the puzzle. Drops
//! and exchanges are defences like any other (R11: a side is mated only
//! when no move of any kind saves it).
//!
//! The last attacking move must give check, so at one move left only
//! checking moves are tried: that is exact, not a pruning. A position
//! repeated on the current path, or one where the fifty-move rule has
//! already drawn (R12), counts as no mate: this can only make a proof
//! harder, never wrong. There is no transposition table, so no result
//! depends on the path by which a position was reached elsewhere.
//!
//! Every search has a node cap; [`MateProof::Unknown`] says the cap was
//! hit, and the verifier accepts only [`MateProof::Proved`] and
//! [`MateProof::Refuted`] reached below the cap.
//!
//! # Example
//!
//! ```
//! use hostage_core::Position;
//! use hostage_puzzles::mate::{MateProof, MateProver};
//!
//! // A rook from the airfield mates on the back rank (R6).
//! let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1")?;
//! let mut prover = MateProver::new(1_000_000);
//! assert_eq!(prover.mates_within(&pos, 1), MateProof::Proved);
//! assert!(!prover.hit_cap());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use hostage_core::{Move, Position};

/// What the prover concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MateProof {
    /// The mate is forced against every defence.
    Proved,
    /// There is no such forced mate.
    Refuted,
    /// The node cap was hit before a conclusion.
    Unknown,
}

/// The prover: a node cap and the count of positions it has visited.
#[derive(Clone, Debug)]
pub struct MateProver {
    cap: u64,
    nodes: u64,
    capped: bool,
    path: Vec<u64>,
}

impl MateProver {
    /// A prover that gives up after `cap` positions in total.
    #[must_use]
    pub fn new(cap: u64) -> MateProver {
        MateProver {
            cap,
            nodes: 0,
            capped: false,
            path: Vec::new(),
        }
    }

    /// Positions visited so far (over every call).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether any call so far hit the node cap.
    #[must_use]
    pub fn hit_cap(&self) -> bool {
        self.capped
    }

    /// Whether the side to move in `pos` mates within `n` moves whatever
    /// the defence.
    pub fn mates_within(&mut self, pos: &Position, n: u32) -> MateProof {
        self.path.clear();
        to_proof(self.attack(pos, n))
    }

    /// Whether playing `m` in `pos` mates within `n` moves (`m` the first
    /// of them) whatever the defence. An illegal `m` is refuted.
    pub fn move_mates_within(&mut self, pos: &Position, m: &Move, n: u32) -> MateProof {
        if n == 0 || !pos.is_legal(m) {
            return MateProof::Refuted;
        }
        self.path.clear();
        self.path.push(pos.zobrist_hash());
        let mut after = pos.clone();
        after.play_unchecked(*m);
        self.nodes += 1;
        let result = if after.is_checkmate() {
            Some(true)
        } else if n == 1 {
            Some(false)
        } else {
            self.defend(&after, n - 1)
        };
        to_proof(result)
    }

    /// The length of the shortest forced mate for the side to move, if it
    /// is at most `max` moves; `Err(())` when the cap was hit first.
    ///
    /// # Errors
    ///
    /// `Err(())` when the node cap was hit before a conclusion.
    #[allow(clippy::result_unit_err)]
    pub fn shortest_mate(&mut self, pos: &Position, max: u32) -> Result<Option<u32>, ()> {
        for n in 1..=max {
            match self.mates_within(pos, n) {
                MateProof::Proved => return Ok(Some(n)),
                MateProof::Refuted => {}
                MateProof::Unknown => return Err(()),
            }
        }
        Ok(None)
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.cap {
            self.capped = true;
        }
        self.capped
    }

    /// `Some(true)` if the side to move mates within `n`, `None` at the cap.
    fn attack(&mut self, pos: &Position, n: u32) -> Option<bool> {
        if n == 0 || pos.is_fifty_moves() {
            return Some(false);
        }
        let hash = pos.zobrist_hash();
        if self.path.contains(&hash) {
            // R12: a repetition draws at the third occurrence; treating the
            // first return as no mate is stricter, so still sound.
            return Some(false);
        }
        let mut checks = Vec::new();
        let mut quiet = Vec::new();
        for m in pos.legal_moves() {
            if self.tick() {
                return None;
            }
            let mut after = pos.clone();
            after.play_unchecked(m);
            if after.is_check() {
                if after.is_checkmate() {
                    return Some(true);
                }
                checks.push(after);
            } else if n > 1 {
                quiet.push(after);
            }
        }
        if n == 1 {
            return Some(false);
        }
        self.path.push(hash);
        let mut result = Some(false);
        for after in checks.iter().chain(quiet.iter()) {
            match self.defend(after, n - 1) {
                Some(true) => {
                    result = Some(true);
                    break;
                }
                Some(false) => {}
                None => {
                    result = None;
                    break;
                }
            }
        }
        self.path.pop();
        result
    }

    /// `Some(true)` if every defence of the side to move loses to a mate
    /// within `n` more attacking moves; `None` at the cap.
    fn defend(&mut self, pos: &Position, n: u32) -> Option<bool> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Mate was caught by the caller; no move and no check is
            // stalemate, a draw (R12).
            return Some(pos.is_checkmate());
        }
        let mut replies: Vec<(u8, Position)> = Vec::with_capacity(moves.len());
        for m in moves {
            if self.tick() {
                return None;
            }
            let mut next = pos.clone();
            next.play_unchecked(m);
            // Defences most likely to refute first: checks, then captures.
            let rank = if next.is_check() {
                0
            } else if m.is_capture() {
                1
            } else {
                2
            };
            replies.push((rank, next));
        }
        replies.sort_by_key(|&(rank, _)| rank);
        for (_, next) in &replies {
            match self.attack(next, n) {
                Some(true) => {}
                other => return other,
            }
        }
        Some(true)
    }
}

fn to_proof(result: Option<bool>) -> MateProof {
    match result {
        Some(true) => MateProof::Proved,
        Some(false) => MateProof::Refuted,
        None => MateProof::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostage_core::uci::UciMove;

    fn mv(pos: &Position, s: &str) -> Move {
        UciMove::from_ascii(s.as_bytes())
            .and_then(|u| u.to_move(pos))
            .expect("legal move")
    }

    #[test]
    fn drop_mate_in_one_and_its_alternatives() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1").expect("fen");
        let mut p = MateProver::new(1_000_000);
        assert_eq!(
            p.move_mates_within(&pos, &mv(&pos, "R@a8"), 1),
            MateProof::Proved
        );
        // A rook dropped on the 7th rank gives no mate.
        assert_eq!(
            p.move_mates_within(&pos, &mv(&pos, "R@a7"), 1),
            MateProof::Refuted
        );
        assert_eq!(p.shortest_mate(&pos, 3), Ok(Some(1)));
    }

    #[test]
    fn no_mate_in_the_start_position() {
        let mut p = MateProver::new(10_000_000);
        assert_eq!(p.mates_within(&Position::new(), 1), MateProof::Refuted);
        assert_eq!(p.mates_within(&Position::new(), 2), MateProof::Refuted);
    }

    #[test]
    fn a_defence_by_exchange_refutes_a_mate() {
        // R@a8 would mate, but Black's prison holds a white queen and
        // White's a black knight: Black answers the check by an exchange
        // that rescues the knight onto the back rank (R5).
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R#Qn] w - - 0 1").expect("fen");
        let mut p = MateProver::new(1_000_000);
        assert_eq!(
            p.move_mates_within(&pos, &mv(&pos, "R@a8"), 1),
            MateProof::Refuted
        );
    }

    #[test]
    fn the_cap_is_reported() {
        let mut p = MateProver::new(10);
        assert_eq!(p.mates_within(&Position::new(), 2), MateProof::Unknown);
        assert!(p.hit_cap());
    }
}
