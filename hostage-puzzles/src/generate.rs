//! The puzzle generator: positions from bot games, kept when the side to
//! move has exactly one winning move (or a forced mate), followed while
//! that holds.
//!
//! Policy (the lichess puzzle generator's rules, see [`crate::judge`]):
//!
//! - Games: game `g` of a run with seed `S` has its own seed
//!   `mix(S, g)`; it starts from an opening of the default match book (`hostage_engine::book`)
//!   and is played by two levels drawn from the game seed among the run's
//!   players (weak ones: Novice, Beginner or Casual by default), which
//!   supply the mistakes. Game `g` belongs to
//!   shard `i/n` when `g mod n = i`, so shards split a run exactly and
//!   their outputs, merged and sorted by id, equal the unsharded run.
//! - Screening: every position after the opening is searched on
//!   [`SCREEN_NODES`] with two lines; one that looks like a puzzle is
//!   searched again on [`GENERATION_NODES`].
//! - Mates: when the best line is a mate in at most [`MAX_MATE`] moves, the
//!   exact prover ([`crate::mate`]) finds the shortest mate and builds the
//!   line: each solver move but the last must be the only move that mates
//!   that fast, and the second line of the engine must not be a mate as
//!   well; each reply is the engine's best defence if it does not shorten
//!   the mate, else the first reply that does not.
//! - Other puzzles: each solver move must be the only winning move; the
//!   opponent replies with the engine's best move; the line ends with the
//!   last solver move that still passes (at most [`MAX_SOLVER_MOVES`]).
//! - Every search starts from an empty table (`Engine::new_game`), so a
//!   puzzle depends only on its game, never on what was searched before.

use hostage_core::{Move, Position};
use hostage_engine::{history_of, Engine, Level, Limits, Rng, Score, SearchResult};

use crate::{
    initial::{rating_from_effort, solve_effort, solver_profile, INITIAL_DEVIATION},
    judge::{is_only_winning_move, win_chance, GENERATION_NODES, MAX_MATE, PROVER_CAP},
    mate::{MateProof, MateProver},
    record::{puzzle_id, Puzzle},
    replay::{bot_move, last_move, start},
    themes::detect,
};

/// The node budget of the screening search at every position.
pub const SCREEN_NODES: u64 = 12_000;
/// The longest non-mate solution, in solver moves.
pub const MAX_SOLVER_MOVES: usize = 3;
pub use crate::replay::{MAX_PLIES, PLAYERS};

/// A generation run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The run's seed.
    pub seed: u64,
    /// Games in the whole run (all shards together).
    pub games: u64,
    /// This shard's index, `0..shards`.
    pub shard: u64,
    /// How many shards the run is split into (at least 1).
    pub shards: u64,
    /// The levels that play the games (each side drawn among them;
    /// [`PLAYERS`] when empty).
    pub players: Vec<Level>,
}

impl Config {
    /// A run of `games` games from `seed`, in one shard, played by
    /// [`PLAYERS`].
    ///
    /// ```
    /// let config = hostage_puzzles::generate::Config::new(7, 100);
    /// assert_eq!((config.shard, config.shards), (0, 1));
    /// ```
    #[must_use]
    pub fn new(seed: u64, games: u64) -> Config {
        Config {
            seed,
            games,
            shard: 0,
            shards: 1,
            players: Vec::new(),
        }
    }
}

/// The seed of game `g` of a run with seed `seed`.
#[must_use]
pub fn game_seed(seed: u64, g: u64) -> u64 {
    Rng::new(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

fn analyse(engine: &mut Engine, pos: &Position, history: &[u64], nodes: u64) -> SearchResult {
    engine.new_game();
    engine.search(pos, history, &Limits::nodes(nodes).with_multipv(2))
}

fn top_two(r: &SearchResult) -> Option<(Move, Score, Option<Score>)> {
    let first = r.lines.first()?;
    Some((first.mv, first.score, r.lines.get(1).map(|l| l.score)))
}

/// Runs the games of this shard, calling `emit` for every puzzle found
/// (with its lead-in, the game's move before the puzzle) and
/// `progress(game, puzzles so far)` after each game. The games are those
/// of [`crate::replay`].
pub fn generate(
    config: &Config,
    emit: &mut dyn FnMut(&Puzzle),
    progress: &mut dyn FnMut(u64, usize),
) {
    let mut engine = Engine::with_hash_mb(16);
    let shards = config.shards.max(1);
    let mut found = 0;
    for g in (0..config.games).filter(|g| g % shards == config.shard) {
        let seed = game_seed(config.seed, g);
        let (levels, mut game) = start(seed, &config.players);
        // No puzzle starts inside the line of the previous one (the same
        // combination, a move later).
        let mut next_start = game.ply() + 1;
        while game.ply() < MAX_PLIES && game.outcome().is_none() {
            let ply = game.ply();
            if ply >= next_start {
                let history = history_of(&game);
                if let Some(mut p) = puzzle_at(&mut engine, game.position(), &history, seed, ply) {
                    p.lead_in = last_move(&game);
                    found += 1;
                    next_start = ply + p.moves.len() + 1;
                    emit(&p);
                }
            }
            let Some(m) = bot_move(&mut engine, &game, levels, seed) else {
                break;
            };
            if game.push(m).is_err() {
                break;
            }
        }
        progress(g, found);
    }
}

/// The puzzle starting at `pos` (reached with `history`), if there is one;
/// its [`Puzzle::lead_in`] is left for the caller, who knows the game.
pub fn puzzle_at(
    engine: &mut Engine,
    pos: &Position,
    history: &[u64],
    seed: u64,
    ply: usize,
) -> Option<Puzzle> {
    let screen = analyse(engine, pos, history, SCREEN_NODES);
    let (_, best, second) = top_two(&screen)?;
    let promising = match best {
        Score::Mate(n) => n > 0 && n <= MAX_MATE as i32 + 1,
        Score::Cp(cp) => {
            cp >= 150 && second.is_some_and(|s| win_chance(best) - win_chance(s) > 0.5)
        }
    };
    if !promising {
        return None;
    }
    let full = analyse(engine, pos, history, GENERATION_NODES);
    let (first, best, second) = top_two(&full)?;
    let moves = match best {
        Score::Mate(n) if n > 0 && n <= MAX_MATE as i32 => {
            if n > 1 && second.is_some_and(|s| matches!(s, Score::Mate(k) if k > 0)) {
                return None;
            }
            mate_line(engine, pos, first)?
        }
        Score::Mate(_) => return None,
        Score::Cp(_) => {
            if !is_only_winning_move(best, second) {
                return None;
            }
            winning_line(engine, pos, first)
        }
    };
    let themes = detect(pos, &moves);
    let mate = themes
        .iter()
        .any(|t| matches!(t, crate::themes::Theme::MateIn(_)));
    let solvers = solver_profile(engine, pos, &moves, mate);
    let effort = solve_effort(engine, pos, &moves, mate);
    Some(Puzzle {
        depth: effort.depth,
        nodes: effort.nodes,
        id: puzzle_id(pos),
        position: pos.clone(),
        moves,
        rating: rating_from_effort(effort.nodes),
        deviation: INITIAL_DEVIATION,
        themes,
        seed,
        ply: ply as u32,
        solvers,
        lead_in: None,
    })
}

/// The non-mate line from `pos` starting with `first`.
fn winning_line(engine: &mut Engine, pos: &Position, first: Move) -> Vec<Move> {
    let mut moves = vec![first];
    let mut p = pos.clone();
    p.play_unchecked(first);
    while moves.len() < 2 * MAX_SOLVER_MOVES - 1 {
        if p.outcome().is_some() {
            break;
        }
        let reply = analyse(engine, &p, &[], GENERATION_NODES);
        let Some(r) = reply.best_move else { break };
        let mut next = p.clone();
        next.play_unchecked(r);
        let res = analyse(engine, &next, &[], GENERATION_NODES);
        let Some((m, best, second)) = top_two(&res) else {
            break;
        };
        if best.is_mate() || !is_only_winning_move(best, second) {
            break;
        }
        moves.push(r);
        moves.push(m);
        next.play_unchecked(m);
        p = next;
    }
    moves
}

/// The proved mate line from `pos`, if the mate is unique at every solver
/// move but the last; `engine_first` is preferred for the last move.
fn mate_line(engine: &mut Engine, pos: &Position, engine_first: Move) -> Option<Vec<Move>> {
    let mut prover = MateProver::new(PROVER_CAP);
    let mut k = prover.shortest_mate(pos, MAX_MATE).ok()??;
    let mut moves = Vec::new();
    let mut p = pos.clone();
    let mut preferred = Some(engine_first);
    loop {
        let m = unique_mating_move(&mut prover, &p, k, preferred)?;
        moves.push(m);
        p.play_unchecked(m);
        if k == 1 {
            return p.is_checkmate().then_some(moves);
        }
        // The best defence: the engine's reply if it keeps the mate at
        // full length, else the first reply that does.
        let engine_reply = analyse(engine, &p, &[], GENERATION_NODES).best_move;
        let replies = p.legal_moves();
        let keeps_length = |prover: &mut MateProver, r: &Move| {
            let mut next = p.clone();
            next.play_unchecked(*r);
            k == 2 || prover.mates_within(&next, k - 2) == MateProof::Refuted
        };
        let reply = engine_reply
            .filter(|r| keeps_length(&mut prover, r))
            .or_else(|| replies.into_iter().find(|r| keeps_length(&mut prover, r)))?;
        if prover.hit_cap() {
            return None;
        }
        moves.push(reply);
        p.play_unchecked(reply);
        k -= 1;
        preferred = analyse(engine, &p, &[], GENERATION_NODES).best_move;
    }
}

/// The move that mates within `k` from `p`: for `k > 1` it must be the
/// only one; for `k == 1` the preferred one if it mates, else the first.
pub(crate) fn unique_mating_move(
    prover: &mut MateProver,
    p: &Position,
    k: u32,
    preferred: Option<Move>,
) -> Option<Move> {
    let mut mating = Vec::new();
    let mut candidates: Vec<Move> = preferred.into_iter().collect();
    candidates.extend(
        p.legal_moves()
            .into_iter()
            .filter(|m| Some(*m) != preferred),
    );
    for m in candidates {
        match prover.move_mates_within(p, &m, k) {
            MateProof::Proved => {
                mating.push(m);
                if k == 1 || mating.len() > 1 {
                    break;
                }
            }
            MateProof::Refuted => {}
            MateProof::Unknown => return None,
        }
    }
    match mating[..] {
        [m] => Some(m),
        [m, ..] if k == 1 => Some(m),
        _ => None,
    }
}
