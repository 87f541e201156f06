//! The players of a match: a bot [`Level`], the full engine at a node
//! budget, `random` (a uniformly drawn legal move) and `greedy` (mate in
//! one, else the most valuable capture, else random), behind one
//! [`Player`] trait that other players implement too (an external UCI
//! engine, [`crate::uci_player`]; the terminal game of the CLI).
//!
//! Every built-in player is deterministic given the game and the seed it is
//! handed. A player that gives no move says why ([`NoMove`]): one that has
//! nothing to play loses the game; one that broke down (an external engine
//! that exited or hung) forfeits it, and is asked to recover before the
//! next game ([`Player::new_game`]).

use core::{fmt, str::FromStr};

use hostage_core::{Excerpt, Game, Move, Position};
use hostage_engine::{eval::value, Engine, Level, Limits, Rng, DEFAULT_FULL_NODES};

/// Why a player gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoMove {
    /// It had nothing to play (no legal move) or gave up.
    GaveUp,
    /// It broke down: an external engine that exited or stopped
    /// answering. The referee restarts it once a game
    /// ([`Player::new_game`]) and asks again; a second breakdown in the same
    /// game is a forfeit, with this reason in the record.
    Failed(String),
    /// It answered a move the rules refuse, or text that is no move: a
    /// forfeit at once, with this reason in the record.
    Illegal(String),
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::GaveUp => f.write_str("gave no move"),
            NoMove::Failed(why) => write!(f, "forfeits: {why}"),
            NoMove::Illegal(why) => write!(f, "forfeits: {why}"),
        }
    }
}

/// Something that chooses moves.
pub trait Player: Send {
    /// A short name for tables and PGN headers.
    fn name(&self) -> String;
    /// The move to play in the current position of `game`. `seed` makes
    /// random choices reproducible.
    ///
    /// # Errors
    ///
    /// [`NoMove`] when the player has no move to give, and why.
    fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, NoMove>;
    /// The move to play on a clock: `clocks` are both sides' time left as
    /// the referee books it ([`crate::clock`]). By default the clocks are
    /// ignored ([`Player::choose`]); an external engine hears them as `go
    /// wtime btime winc binc`.
    ///
    /// # Errors
    ///
    /// As [`Player::choose`].
    fn choose_on_clock(
        &mut self,
        game: &Game,
        seed: u64,
        clocks: &crate::clock::Clocks,
    ) -> Result<Move, NoMove> {
        let _ = clocks;
        self.choose(game, seed)
    }
    /// The score the player gave its last move, from its own side (an
    /// external engine's last `info … score`), if it reports one. The
    /// referee keeps it for the record and to adjudicate forfeits
    /// ([`crate::adjudication`]).
    fn last_score(&self) -> Option<hostage_engine::Score> {
        None
    }
    /// Called before each new game, and after a breakdown before the
    /// referee asks again: a player that broke down (see
    /// [`NoMove::Failed`]) recovers here if it can.
    fn new_game(&mut self) {}
}

/// Which built-in player: the text forms are `random`, `greedy`, a level
/// name (`novice` … `club`), and `full` or `full:NODES` (the full engine
/// at a node budget; [`DEFAULT_FULL_NODES`] by default).
///
/// # Examples
///
/// ```
/// use hostage_engine::Level;
/// use hostage_match::players::PlayerSpec;
///
/// assert_eq!("greedy".parse(), Ok(PlayerSpec::Greedy));
/// assert_eq!("club".parse(), Ok(PlayerSpec::Level(Level::Club)));
/// assert_eq!("full:50000".parse(), Ok(PlayerSpec::Full { nodes: 50_000 }));
/// assert!("full:lots".parse::<PlayerSpec>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayerSpec {
    /// A uniformly drawn legal move.
    Random,
    /// Mate in one, else the most valuable capture, else random.
    Greedy,
    /// A bot level.
    Level(Level),
    /// The full engine on a node budget per move.
    Full {
        /// Nodes per move.
        nodes: u64,
    },
}

impl PlayerSpec {
    /// The player this describes.
    #[must_use]
    pub fn build(self) -> Box<dyn Player> {
        match self {
            PlayerSpec::Random => Box::new(RandomPlayer),
            PlayerSpec::Greedy => Box::new(GreedyPlayer),
            PlayerSpec::Level(level) => Box::new(LevelPlayer::new(level)),
            PlayerSpec::Full { nodes } => Box::new(FullPlayer::new(nodes)),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Level(level) => f.write_str(level.name()),
            PlayerSpec::Full { nodes } => write!(f, "full:{nodes}"),
        }
    }
}

/// A player name that is not one of the built-in players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError {
    given: String,
}

impl ParsePlayerError {
    /// `"invalid_player"`, the stable code shared with the bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "invalid_player"
    }
}

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid player: {} (expected random, greedy, novice, beginner, casual, intermediate, club, full or full:NODES)",
            Excerpt::new(self.given.as_bytes())
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for PlayerSpec {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, ParsePlayerError> {
        let err = || ParsePlayerError { given: s.into() };
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            "full" => Ok(PlayerSpec::Full {
                nodes: DEFAULT_FULL_NODES,
            }),
            _ => {
                if let Some(n) = t.strip_prefix("full:") {
                    let nodes: u64 = n.parse().map_err(|_| err())?;
                    if nodes == 0 {
                        return Err(err());
                    }
                    Ok(PlayerSpec::Full { nodes })
                } else {
                    t.parse::<Level>().map(PlayerSpec::Level).map_err(|_| err())
                }
            }
        }
    }
}

/// Plays a uniformly drawn legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, NoMove> {
        let moves = game.position().legal_moves();
        let mut rng = Rng::new(seed ^ game.position().zobrist_hash());
        let i = rng.below(moves.len() as u64) as usize;
        moves.get(i).copied().ok_or(NoMove::GaveUp)
    }
}

/// Mate in one if there is one, else the capture of the most valuable man
/// (ties drawn at random), else a random move.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyPlayer;

impl GreedyPlayer {
    /// The greedy choice in `pos`.
    #[must_use]
    pub fn choose_at(pos: &Position, seed: u64) -> Option<Move> {
        let moves = pos.legal_moves();
        let mut rng = Rng::new(seed ^ pos.zobrist_hash());
        if let Some(mate) = moves.iter().copied().find(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_checkmate()
        }) {
            return Some(mate);
        }
        let best = moves.iter().filter_map(|m| m.capture()).map(value).max();
        let pool: Vec<Move> = match best {
            Some(v) => moves
                .iter()
                .copied()
                .filter(|m| m.capture().map(value) == Some(v))
                .collect(),
            None => moves.to_vec(),
        };
        let i = rng.below(pool.len() as u64) as usize;
        pool.get(i).copied()
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, NoMove> {
        GreedyPlayer::choose_at(game.position(), seed).ok_or(NoMove::GaveUp)
    }
}

/// A bot level.
pub struct LevelPlayer {
    engine: Engine,
    level: Level,
}

impl LevelPlayer {
    /// The bot of `level`.
    #[must_use]
    pub fn new(level: Level) -> LevelPlayer {
        LevelPlayer {
            // The level sizes its own table; this one stays minimal.
            engine: Engine::with_hash_mb(1),
            level,
        }
    }
}

impl Player for LevelPlayer {
    fn name(&self) -> String {
        self.level.name().into()
    }
    fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, NoMove> {
        self.engine
            .play_level(game, self.level, seed)
            .ok_or(NoMove::GaveUp)
    }
}

/// The full engine on a node budget per move (deterministic: the table is
/// cleared before each game, and kept between moves as in a real game).
pub struct FullPlayer {
    engine: Engine,
    nodes: u64,
}

impl FullPlayer {
    /// The full engine with `nodes` per move.
    #[must_use]
    pub fn new(nodes: u64) -> FullPlayer {
        FullPlayer {
            engine: Engine::new(),
            nodes,
        }
    }

    /// The engine, to change its weights or switches for a tuning match.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }
}

impl Player for FullPlayer {
    fn name(&self) -> String {
        format!("full:{}", self.nodes)
    }
    fn choose(&mut self, game: &Game, _seed: u64) -> Result<Move, NoMove> {
        self.engine
            .search_game(game, &Limits::nodes(self.nodes))
            .best_move
            .ok_or(NoMove::GaveUp)
    }
    fn new_game(&mut self) {
        self.engine.new_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_queen_and_mates_when_it_can() {
        // The rook on a1 can take the rook on a5; nothing reaches the queen.
        let pos = Position::from_fen("4k3/8/8/r6q/8/8/8/R3K3[] w - - 0 1").expect("fen");
        // Ra5 takes the rook; nothing takes the queen: greedy takes the rook.
        let m = GreedyPlayer::choose_at(&pos, 1).expect("a move");
        assert_eq!(m.capture(), Some(hostage_core::Role::Rook));
        // A rook drop on b8..e8 mates (the queen guards a8); with no capture
        // on offer, anything but a mate would be a random move.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/q7/6K1[R] w - - 0 1").expect("fen");
        for seed in 0..20 {
            let m = GreedyPlayer::choose_at(&pos, seed).expect("a move");
            assert!(pos.clone().play(m).expect("legal").is_checkmate(), "{m}");
        }
    }

    #[test]
    fn specs_round_trip() {
        for text in ["random", "greedy", "novice", "club", "full:1234"] {
            let spec: PlayerSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "full".parse::<PlayerSpec>().map(|s| s.to_string()),
            Ok("full:1000000".into())
        );
        let err = "full:0".parse::<PlayerSpec>().expect_err("zero nodes");
        assert_eq!(err.code(), "invalid_player");
    }
}
