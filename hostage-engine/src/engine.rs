//! [`Engine`]: the search with its tables, for analysis at full strength
//! and for the bot levels.

use std::sync::{
    atomic::{AtomicBool, Ordering},
    Arc,
};

use hostage_core::{Game, Move, Position};

use crate::{
    eval::Params,
    level::{weight, Level, Recipe},
    limits::Limits,
    ordering::Heuristics,
    rng::Rng,
    score::{Score, MATE_BOUND},
    search::{Info, Line, Options, RootMove, Searcher},
    tt::{Table, DEFAULT_HASH_MB},
};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move (the game is
    /// over: mate or stalemate).
    pub best_move: Option<Move>,
    /// The score of the best line for the side to move.
    pub score: Score,
    /// The principal variation (starting with `best_move`).
    pub pv: Vec<Move>,
    /// The last iteration completed.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The best lines, best first (one per MultiPV line asked for).
    pub lines: Vec<Line>,
}

/// A Hostage Chess engine: a transposition table, the move-ordering
/// heuristics and the evaluation weights, reused from search to search.
///
/// Under node and depth limits a search is deterministic: a fresh engine
/// (or one after [`Engine::new_game`]) with the same table size gives the
/// same result for the same position, history and limits. Bot moves
/// ([`Engine::play_level`]) are deterministic whatever came before.
///
/// # Examples
///
/// ```
/// use hostage_core::{Game, Position};
/// use hostage_engine::{Engine, Level, Limits, Score};
///
/// // White mates with a rook drop (R6): Ra8#.
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1")?;
/// let mut engine = Engine::new();
/// let result = engine.search(&pos, &[], &Limits::depth(3));
/// assert_eq!(result.score, Score::Mate(1));
/// assert_eq!(result.best_move.map(|m| m.to_string()), Some("R@a8".to_string()));
///
/// // A bot move: the same seed gives the same move.
/// let game = Game::new();
/// let a = engine.play_level(&game, Level::Beginner, 7);
/// let b = Engine::new().play_level(&game, Level::Beginner, 7);
/// assert_eq!(a, b);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    tt: Table,
    hash_mb: usize,
    heuristics: Box<Heuristics>,
    params: Params,
    options: Options,
    stop: Arc<AtomicBool>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with a table of [`DEFAULT_HASH_MB`] MiB.
    #[must_use]
    pub fn new() -> Engine {
        Engine::with_hash_mb(DEFAULT_HASH_MB)
    }

    /// An engine with a transposition table of `mb` MiB (at least 1).
    #[must_use]
    pub fn with_hash_mb(mb: usize) -> Engine {
        let mb = mb.max(1);
        Engine {
            tt: Table::new(mb),
            hash_mb: mb,
            heuristics: Box::new(Heuristics::new()),
            params: Params::default(),
            options: Options::default(),
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The table size in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        *self = Engine {
            params: self.params,
            options: self.options,
            stop: Arc::clone(&self.stop),
            ..Engine::with_hash_mb(mb)
        };
    }

    /// Forgets what earlier searches learned (a new game, or UCI
    /// `ucinewgame`).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    /// The evaluation weights in use.
    #[must_use]
    pub fn params(&self) -> Params {
        self.params
    }

    /// Sets the evaluation weights (for tuning matches).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// The search switches in use.
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Sets the search switches (for matches that measure a technique).
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// A flag that stops the running search when set (from another thread,
    /// e.g. UCI `stop`); the search still completes its first iteration, so
    /// it always has a move. The flag is cleared when a search ends, so a
    /// stop sent just before a search starts is not lost.
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Searches `pos` within `limits`. `history` holds the Zobrist hashes
    /// of the game's earlier positions (oldest first, `pos` excluded), so
    /// that repetitions count (R12); pass `&[]` for none.
    pub fn search(&mut self, pos: &Position, history: &[u64], limits: &Limits) -> SearchResult {
        self.search_with_info(pos, history, limits, &mut |_| {})
    }

    /// [`Engine::search`] from the current position of `game`, its earlier
    /// positions as history.
    pub fn search_game(&mut self, game: &Game, limits: &Limits) -> SearchResult {
        let history = history_of(game);
        self.search(game.position(), &history, limits)
    }

    /// [`Engine::search`], calling `info` after each completed iteration
    /// (what UCI prints as `info depth …`).
    pub fn search_with_info(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let stop = Arc::clone(&self.stop);
        let mut searcher = Searcher::new(
            &mut self.tt,
            &mut self.heuristics,
            self.params,
            self.options,
            limits,
            &stop,
            0,
            history,
        );
        let depth = searcher.run(pos, info);
        let res = result(pos, &searcher, depth, limits.multipv);
        // The stop request is used up by this search; one that came before
        // it started has stopped it after its first iteration.
        self.stop.store(false, Ordering::Relaxed);
        res
    }

    /// The move the bot of `level` plays in the current position of
    /// `game`, drawn with `seed`; `None` when the game has no legal move.
    pub fn play_level(&mut self, game: &Game, level: Level, seed: u64) -> Option<Move> {
        let history = history_of(game);
        self.play_level_at(game.position(), &history, level, seed)
            .best_move
    }

    /// The bot of `level` at `pos` with `history` (as for
    /// [`Engine::search`]): its search result, with `best_move` the move
    /// it chose.
    pub fn play_level_at(
        &mut self,
        pos: &Position,
        history: &[u64],
        level: Level,
        seed: u64,
    ) -> SearchResult {
        self.play_recipe_at(pos, history, &level.recipe(), seed)
    }

    /// A bot made to a recipe of one's own (the levels are
    /// [`Level::recipe`]): its search result, with `best_move` the move it
    /// chose with `seed`.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    /// use hostage_engine::{Engine, Level, Recipe};
    ///
    /// // Casual, but twice as random.
    /// let casual = Level::Casual.recipe();
    /// let recipe = Recipe { halving: casual.halving * 2, ..casual };
    /// let pos = Position::new();
    /// let m = Engine::new().play_recipe_at(&pos, &[], &recipe, 3).best_move;
    /// assert!(m.is_some_and(|m| pos.is_legal(&m)));
    /// ```
    pub fn play_recipe_at(
        &mut self,
        pos: &Position,
        history: &[u64],
        recipe: &Recipe,
        seed: u64,
    ) -> SearchResult {
        let recipe = *recipe;
        // A table of the recipe's size, empty: the move must not depend on
        // what was searched before, nor on the engine's own table size.
        let mut tt = Table::new(recipe.hash_mb);
        let mut heuristics = Box::new(Heuristics::new());
        let limits = Limits::nodes(recipe.nodes).with_depth(recipe.depth);
        let stop = Arc::clone(&self.stop);
        let mut searcher = Searcher::new(
            &mut tt,
            &mut heuristics,
            self.params,
            self.options,
            &limits,
            &stop,
            recipe.margin,
            history,
        );
        let depth = searcher.run(pos, &mut |_| {});
        self.stop.store(false, Ordering::Relaxed);
        let mut res = result(pos, &searcher, depth, 1);
        let roots = &searcher.root_moves;
        if let Some(top) = roots.first() {
            let best = top.prev;
            let candidates: Vec<(&RootMove, u32)> = roots
                .iter()
                .filter(|rm| rm.exact || rm.mv == top.mv)
                .filter(|rm| rm.prev >= best.saturating_sub(recipe.margin))
                // A mate is played by its shortest way.
                .filter(|rm| best <= MATE_BOUND || rm.prev == best)
                .map(|rm| (rm, weight(best - rm.prev, recipe.halving)))
                .collect();
            let total: u64 = candidates.iter().map(|&(_, w)| u64::from(w)).sum();
            let mut rng = Rng::new(seed ^ pos.zobrist_hash().rotate_left(17));
            let mut ticket = rng.below(total);
            for &(rm, w) in &candidates {
                if ticket < u64::from(w) {
                    res.best_move = Some(rm.mv);
                    res.score = Score::from_value(rm.prev);
                    res.pv.clone_from(&rm.pv);
                    break;
                }
                ticket -= u64::from(w);
            }
        }
        res
    }
}

/// The Zobrist hashes of `game`'s positions before the current one.
#[must_use]
pub fn history_of(game: &Game) -> Vec<u64> {
    let positions = game.positions();
    positions[..positions.len().saturating_sub(1)]
        .iter()
        .map(Position::zobrist_hash)
        .collect()
}

fn result(pos: &Position, searcher: &Searcher<'_>, depth: u32, multipv: usize) -> SearchResult {
    let roots = &searcher.root_moves;
    let Some(best) = roots.first() else {
        // No legal move: mated (R11) or stalemated (R12).
        return SearchResult {
            best_move: None,
            score: if pos.is_check() {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            },
            pv: Vec::new(),
            depth: 0,
            seldepth: 0,
            nodes: searcher.nodes,
            lines: Vec::new(),
        };
    };
    SearchResult {
        best_move: Some(best.mv),
        score: Score::from_value(best.prev),
        pv: best.pv.clone(),
        depth,
        seldepth: searcher.seldepth(depth),
        nodes: searcher.nodes,
        lines: searcher.lines(multipv.max(1)),
    }
}
