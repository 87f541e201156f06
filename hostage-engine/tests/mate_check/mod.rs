//! An exhaustive mate check that shares no code with the engine's search:
//! full width, every legal move of both sides (drops and exchanges
//! included), straight from the core's move generator. Used to prove the
//! mate test set and to judge the moves the engine and the levels play.

#![allow(dead_code)]

use hostage_core::{uci::UciMove, Move, Position};

/// The legal moves of `pos` that mate at once (R11).
pub fn mates_in_one(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
        })
        .collect()
}

/// Whether playing `m` in `pos` forces mate within `n` moves of the side
/// to move (`m` being the first), against every defence.
pub fn is_mate_in(pos: &Position, m: &Move, n: u32) -> bool {
    if n == 0 || !pos.is_legal(m) {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        return true;
    }
    if n == 1 {
        return false;
    }
    let replies = after.legal_moves();
    // No reply and no mate: stalemate, a draw (R12).
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut next = after.clone();
            next.play_unchecked(r);
            next.legal_moves()
                .iter()
                .any(|m2| is_mate_in(&next, m2, n - 1))
        })
}

/// One position of the set.
pub struct MatePosition {
    pub fen: String,
    pub position: Position,
    /// The length of the forced mate, in moves.
    pub n: u32,
    /// The kind of the mating move for mates in one.
    pub kind: String,
    /// Every first move that mates in `n`.
    pub solutions: Vec<Move>,
}

/// The mate test set (`data/mates.txt`).
pub struct MateSet {
    pub positions: Vec<MatePosition>,
}

impl MateSet {
    /// Reads `FEN ; N ; kind ; moves…` lines (`#` comments skipped).
    pub fn load(text: &str) -> Result<MateSet, String> {
        let mut positions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let [fen, n, kind, moves] = fields[..] else {
                return Err(format!("line {}: expected 4 fields", i + 1));
            };
            let position = Position::from_fen(fen).map_err(|e| format!("line {}: {e}", i + 1))?;
            let n: u32 = n.parse().map_err(|e| format!("line {}: {e}", i + 1))?;
            let solutions = moves
                .split_whitespace()
                .map(|t| {
                    UciMove::from_ascii(t.as_bytes())
                        .and_then(|u| u.to_move(&position))
                        .map_err(|e| format!("line {}: {t}: {e}", i + 1))
                })
                .collect::<Result<Vec<Move>, String>>()?;
            positions.push(MatePosition {
                fen: fen.to_string(),
                position,
                n,
                kind: kind.to_string(),
                solutions,
            });
        }
        Ok(MateSet { positions })
    }
}
