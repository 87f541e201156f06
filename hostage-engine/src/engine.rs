//! [`Engine`]: the search with its tables, for analysis at full strength
//! and for the bot levels.

use std::sync::{
    atomic::{AtomicBool, AtomicU64, Ordering},
    Arc,
};

use hostage_core::{Game, Move, Position};

use crate::{
    eval::Params,
    level::{weight, Level, Recipe},
    limits::Limits,
    nnue::{self, Network},
    ordering::Heuristics,
    rng::Rng,
    score::{Score, MATE_BOUND},
    search::{Info, Line, Options, RootMove, Searcher},
    smp,
    timeman::TimeManager,
    tt::{Table, DEFAULT_HASH_MB},
};

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The tables; `None` while a search thread holds them ([`Engine::go`]).
    pub(crate) core: Option<Box<Core>>,
    hash_mb: usize,
    threads: usize,
    params: Params,
    options: Options,
    /// The network [`Engine::set_network`] gave (`None`: the embedded one).
    network: Option<Arc<Network>>,
    pub(crate) stop: Arc<AtomicBool>,
    // Read by `go` and `ponderhit` (native only).
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    pub(crate) ponder: Arc<AtomicBool>,
    /// The search thread of [`Engine::go`], which hands the tables back.
    #[cfg(not(target_family = "wasm"))]
    pub(crate) running: Option<std::thread::JoinHandle<(Box<Core>, SearchResult)>>,
}

/// What the engine learns from search to search: the shared transposition
/// table and each thread's move-ordering heuristics (the first is the main
/// thread's).
pub(crate) struct Core {
    tt: Table,
    heuristics: Vec<Heuristics>,
}

impl Core {
    pub(crate) fn new(hash_mb: usize) -> Core {
        Core {
            tt: Table::new(hash_mb),
            heuristics: vec![Heuristics::new()],
        }
    }
}

/// The most search threads accepted ([`Engine::set_threads`]).
pub const MAX_THREADS: usize = 256;

/// The settings a search reads from the engine (copied onto its thread).
#[derive(Clone)]
pub(crate) struct Settings {
    pub params: Params,
    pub options: Options,
    pub threads: usize,
    /// The network the search evaluates with ([`Options::nnue`]), if any.
    pub network: Option<Arc<Network>>,
}

impl Settings {
    /// The network a search evaluates with: none unless [`Options::nnue`]
    /// is on; then the one set, else the embedded one.
    fn network(&self) -> Option<&Network> {
        if !self.options.nnue {
            return None;
        }
        match self.network.as_deref() {
            Some(network) => Some(network),
            None => nnue::embedded(),
        }
    }
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

    /// An engine with a transposition table of `mb` MiB, clamped to 1 ..=
    /// [`MAX_HASH_MB`](crate::MAX_HASH_MB).
    #[must_use]
    pub fn with_hash_mb(mb: usize) -> Engine {
        let mb = mb.clamp(1, crate::MAX_HASH_MB);
        Engine {
            core: Some(Box::new(Core::new(mb))),
            hash_mb: mb,
            threads: 1,
            params: Params::default(),
            options: Options::default(),
            network: None,
            stop: Arc::new(AtomicBool::new(false)),
            ponder: Arc::new(AtomicBool::new(false)),
            #[cfg(not(target_family = "wasm"))]
            running: None,
        }
    }

    /// The tables, once a search running on the engine's thread has ended
    /// (waited for; a search that panicked leaves fresh tables).
    pub(crate) fn core(&mut self) -> &mut Core {
        #[cfg(not(target_family = "wasm"))]
        let _ = self.wait();
        let mb = self.hash_mb;
        self.core.get_or_insert_with(|| Box::new(Core::new(mb)))
    }

    pub(crate) fn settings(&self) -> Settings {
        Settings {
            params: self.params,
            options: self.options,
            threads: self.threads,
            network: self.network.clone(),
        }
    }

    /// The table size in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.max(1);
        let core = self.core();
        core.tt = Table::new(mb);
        for h in &mut core.heuristics {
            h.clear();
        }
        self.hash_mb = mb;
    }

    /// The number of search threads (1 unless set).
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches with `n` threads (1 to [`MAX_THREADS`]; 1 in WebAssembly,
    /// which has none) sharing the transposition table: Lazy SMP. The
    /// helpers skip some depths, and the threads that completed the
    /// deepest iteration vote on the move played (the switch
    /// `Options::smp_vote` of the `tuning` feature, on by default; off,
    /// the main thread's move is played). Only searches
    /// without a node limit use them: node-limited searches and the bot
    /// levels run on one thread, so they stay reproducible.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = if cfg!(target_family = "wasm") {
            1
        } else {
            n.clamp(1, MAX_THREADS)
        };
    }

    /// Forgets what earlier searches learned (a new game, or UCI
    /// `ucinewgame`).
    pub fn new_game(&mut self) {
        let core = self.core();
        core.tt.clear();
        for h in &mut core.heuristics {
            h.clear();
        }
    }

    /// The evaluation weights in use.
    #[cfg(feature = "tuning")]
    #[must_use]
    pub fn params(&self) -> Params {
        self.params
    }

    /// Sets the evaluation weights (for tuning matches).
    #[cfg(feature = "tuning")]
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
    }

    /// Whether the full-strength search evaluates with the network (the
    /// weights embedded in the engine, [`nnue`], or those of
    /// [`Engine::set_network`]) rather than the hand-written evaluation: on
    /// by default natively. The WebAssembly build embeds no network: there
    /// it is off by default, and on without a network given it still
    /// evaluates by hand ([`Engine::load_network`] gives it one). The
    /// levels keep the hand-written evaluation either way: their strength
    /// was set with it.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    /// use hostage_engine::{Engine, Limits};
    ///
    /// let mut engine = Engine::new();
    /// assert!(engine.nnue());
    /// engine.set_nnue(false);
    /// assert!(!engine.nnue());
    /// let found = engine.search(&Position::new(), &[], &Limits::nodes(2_000));
    /// assert!(found.best_move.is_some());
    /// ```
    pub fn set_nnue(&mut self, on: bool) {
        self.options.nnue = on;
    }

    /// Whether the search evaluates with the network ([`Engine::set_nnue`]).
    #[must_use]
    pub fn nnue(&self) -> bool {
        self.options.nnue
    }

    /// The network the search evaluates with when [`Engine::set_nnue`] is
    /// on: `network`, or the one embedded in the engine for `None`. A
    /// network file is read with [`Network::from_bytes`].
    pub fn set_network(&mut self, network: Option<Network>) {
        self.network = network.map(Arc::new);
    }

    /// Reads a network file ([`Network::from_bytes`]) and evaluates with it
    /// from the next search on: the network is set and
    /// [`Engine::set_nnue`] turned on. This is how a build without an
    /// embedded network (WebAssembly) gets one at run time. On an error
    /// the engine is left as it was.
    ///
    /// # Errors
    ///
    /// [`NetworkError`](crate::nnue::NetworkError) (with a stable
    /// [`code`](crate::nnue::NetworkError::code): `nnue_magic`,
    /// `nnue_shape`, `nnue_length`) when the bytes are not a network file
    /// of this build's shape, a truncated one included.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_engine::{nnue::Network, Engine};
    ///
    /// let mut engine = Engine::new();
    /// let file = Network::zero().to_bytes();
    /// assert_eq!(engine.load_network(&file[..100]).map_err(|e| e.code()), Err("nnue_length"));
    /// engine.load_network(&file)?;
    /// assert!(engine.uses_network());
    /// # Ok::<_, hostage_engine::nnue::NetworkError>(())
    /// ```
    pub fn load_network(&mut self, bytes: &[u8]) -> Result<(), nnue::NetworkError> {
        let network = Network::from_bytes(bytes)?;
        self.set_network(Some(network));
        self.set_nnue(true);
        Ok(())
    }

    /// Whether the full-strength search evaluates with a network: the
    /// network is on ([`Engine::set_nnue`]) and there is one, given
    /// ([`Engine::set_network`], [`Engine::load_network`]) or embedded.
    /// Natively true by default; in WebAssembly false until a network is
    /// loaded.
    #[must_use]
    pub fn uses_network(&self) -> bool {
        self.settings().network().is_some()
    }

    /// The search switches in use.
    #[cfg(feature = "tuning")]
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Sets the search switches (for matches that measure a technique).
    #[cfg(feature = "tuning")]
    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// A flag that stops the running search when set (from another thread,
    /// e.g. UCI `stop`); the search still completes its first iteration, so
    /// it always has a move. The flag is cleared when a search ends, so a
    /// stop sent just before a synchronous search starts is not lost
    /// ([`Engine::go`] clears it as it starts; [`Engine::stopper`] is the
    /// handle for its searches).
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
    /// of the main thread (what UCI prints as `info depth …`), and once more
    /// at the end with the line played when the threads' vote
    /// (`Options::smp_vote`, on by default) chose a helper's move.
    pub fn search_with_info(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let settings = self.settings();
        let stop = Arc::clone(&self.stop);
        let core = self.core();
        let res = full_search(
            core, settings, pos, history, limits, None, &stop, None, info,
        );
        // The stop request is used up by this search; one that came before
        // it started has stopped it after its first iteration.
        stop.store(false, Ordering::Relaxed);
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
    /// let mut recipe: Recipe = Level::Casual.recipe();
    /// recipe.halving *= 2;
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
        #[cfg(not(target_family = "wasm"))]
        let _ = self.wait();
        let res = recipe_search(self.settings(), pos, history, recipe, seed, &self.stop);
        self.stop.store(false, Ordering::Relaxed);
        res
    }
}

/// A full-strength search of `pos` on `core`'s tables: on one thread, or
/// with Lazy SMP helpers when `settings.threads > 1` and `limits` has no
/// node limit. `time` plays on a clock; `ponder`, while set, holds the
/// clock back (UCI `go ponder`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn full_search(
    core: &mut Core,
    settings: Settings,
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    time: Option<TimeManager>,
    stop: &AtomicBool,
    ponder: Option<&AtomicBool>,
    info: &mut dyn FnMut(&Info),
) -> SearchResult {
    // Borrowed by every thread's closure.
    let settings = &settings;
    // A node limit promises a reproducible result: one thread.
    let threads = if limits.nodes.is_some() {
        1
    } else {
        settings.threads.max(1)
    };
    let Core { tt, heuristics } = core;
    while heuristics.len() < threads {
        heuristics.push(Heuristics::new());
    }
    let (main, helpers) = heuristics.split_at_mut(1);
    let main = &mut main[0];
    let helper_nodes = AtomicU64::new(0);
    let mut searcher = |heuristics: &'_ mut Heuristics| {
        let mut s = Searcher::new(
            tt,
            heuristics,
            settings.params,
            settings.options,
            settings.network(),
            limits,
            stop,
            0,
            history,
        )
        .with_time(time.clone())
        .with_shared_nodes(&helper_nodes, 0);
        if let Some(flag) = ponder {
            s = s.with_ponder(flag);
        }
        let depth = s.run(pos, info);
        (result(pos, &s, depth, limits.multipv), s.nodes)
    };
    if threads == 1 {
        return searcher(main).0;
    }
    // Lazy SMP: the helpers search the same root with the shared table
    // until the main thread is done; only the main thread's result counts,
    // unless the threads vote (`Options::smp_vote`, `smp.rs`).
    let done = AtomicBool::new(false);
    let helper_limits = Limits {
        nodes: None,
        movetime: None,
        multipv: 1,
        ..limits.clone()
    };
    let (main, found) = std::thread::scope(|scope| {
        let running: Vec<_> = helpers
            .iter_mut()
            .take(threads - 1)
            .enumerate()
            .map(|(k, h)| {
                let (tt, done, helper_limits, helper_nodes) =
                    (&*tt, &done, &helper_limits, &helper_nodes);
                scope.spawn(move || {
                    let mut s = Searcher::new(
                        tt,
                        h,
                        settings.params,
                        settings.options,
                        settings.network(),
                        helper_limits,
                        done,
                        0,
                        history,
                    )
                    .with_shared_nodes(helper_nodes, k + 1);
                    let depth = s.run(pos, &mut |_| {});
                    // A helper's result matters only to the vote.
                    (settings.options.smp_vote && depth > 0).then(|| result(pos, &s, depth, 1))
                })
            })
            .collect();
        let main = searcher(main);
        done.store(true, Ordering::Relaxed);
        // A helper that panicked (it cannot: the search has no panicking
        // path) would only lose its vote.
        let found: Vec<SearchResult> = running
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .collect();
        (main, found)
    });
    let (mut res, main_nodes) = main;
    // The helpers have ended and reported all their nodes.
    let nodes = main_nodes + helper_nodes.load(Ordering::Relaxed);
    if settings.options.smp_vote && limits.multipv <= 1 && res.best_move.is_some() {
        let mut all = Vec::with_capacity(found.len() + 1);
        all.push(res);
        all.extend(found);
        let candidates: Vec<smp::Candidate<Option<Move>>> = all
            .iter()
            .map(|r| smp::Candidate {
                depth: r.depth,
                value: r.score.to_value(),
                mv: r.best_move,
            })
            .collect();
        let chosen = smp::vote(&candidates, MATE_BOUND + 1);
        res = all.swap_remove(chosen);
        if chosen != 0 {
            // The last `info` was the main thread's: report the line played.
            info(&Info {
                depth: res.depth,
                seldepth: res.seldepth,
                nodes,
                lines: res.lines.clone(),
                hashfull: tt.hashfull(),
            });
        }
    }
    res.nodes = nodes;
    res
}

/// The bot of `recipe`: a fresh table, one thread, and a seeded draw among
/// the root moves within the recipe's margin.
pub(crate) fn recipe_search(
    settings: Settings,
    pos: &Position,
    history: &[u64],
    recipe: &Recipe,
    seed: u64,
    stop: &AtomicBool,
) -> SearchResult {
    let recipe = *recipe;
    // A table of the recipe's size, empty: the move must not depend on
    // what was searched before, nor on the engine's own table size.
    let tt = Table::new(recipe.hash_mb);
    let mut heuristics = Heuristics::new();
    let limits = Limits::nodes(recipe.nodes).with_depth(recipe.depth);
    let mut searcher = Searcher::new(
        &tt,
        &mut heuristics,
        settings.params,
        // The levels' strength was set with the hand-written evaluation.
        Options {
            nnue: false,
            ..settings.options
        },
        None,
        &limits,
        stop,
        recipe.margin,
        history,
    );
    let depth = searcher.run(pos, &mut |_| {});
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
            nodes: searcher.total_nodes(),
            lines: Vec::new(),
        };
    };
    SearchResult {
        best_move: Some(best.mv),
        score: Score::from_value(best.prev),
        pv: best.pv.clone(),
        depth,
        seldepth: searcher.seldepth(depth),
        nodes: searcher.total_nodes(),
        lines: searcher.lines(multipv.max(1)),
    }
}
