//! The engine's own search thread: [`Engine::go`], [`Engine::stop`],
//! [`Engine::ponderhit`] and [`Engine::wait`], the shape of Stockfish's
//! `Engine` class, so that a protocol (UCI), a binding or a GUI only turns
//! its requests into these calls.
//!
//! Policy:
//!
//! - `go` hands the engine's tables to a new thread and returns at once;
//!   the search reports each completed iteration to the `on_info` callback
//!   and its result to `on_bestmove`, both on that thread. A search still
//!   running when `go` is called is waited for first (stop it first to cut
//!   it short).
//! - `stop` and `ponderhit` take `&self` and only set flags; a
//!   [`Stopper`] does the same from any thread without the engine.
//! - After `go` with [`SearchRequest::infinite`] or [`SearchRequest::ponder`],
//!   `on_bestmove` waits for `stop` (or `ponderhit`, for a ponder search that
//!   is not infinite), as UCI requires, even when the search ends by itself
//!   (a depth limit, a mate found).
//! - Any synchronous call (`search`, `play_level_at`, `new_game`, ...) waits
//!   for the running search first. A search that panics loses the tables:
//!   the next call starts with fresh ones.
//!
//! Native only: WebAssembly has no threads, and its callers use the
//! synchronous calls (in a Web Worker).

use std::{
    sync::{atomic::AtomicBool, atomic::Ordering, Arc},
    thread,
    time::Duration,
};

use hostage_core::Position;

use crate::{
    engine::{full_search, recipe_search},
    timeman::{TimeControl, TimeManager},
    Engine, Info, Level, Limits, SearchResult,
};

/// What a `go` asks for.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use hostage_engine::{Limits, SearchRequest, TimeControl};
///
/// // `go wtime 1000 btime 1000 winc 100 binc 100` for White.
/// let ms = Duration::from_millis;
/// let request = SearchRequest::clock(TimeControl::new(ms(1_000), ms(100)));
/// assert_eq!(request.limits, Limits::infinite());
/// assert!(!request.infinite && !request.ponder);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchRequest {
    /// Node, depth, move time and MultiPV limits (with a clock, the first
    /// limit reached still ends the search).
    pub limits: Limits,
    /// The clock of the side to move: the time manager
    /// ([`TimeControl::budget`]) decides when to stop.
    pub clock: Option<TimeControl>,
    /// Ponder: the search runs on the opponent's time; no time limit counts
    /// until [`Engine::ponderhit`], and the clock starts then.
    pub ponder: bool,
    /// UCI `go infinite`: the result waits for [`Engine::stop`].
    pub infinite: bool,
    /// Play the move of this bot level with this seed instead (the other
    /// fields are ignored but `infinite` and `ponder`).
    pub level: Option<(Level, u64)>,
}

impl SearchRequest {
    /// A full-strength search within `limits`.
    #[must_use]
    pub fn limits(limits: Limits) -> SearchRequest {
        SearchRequest {
            limits,
            ..SearchRequest::default()
        }
    }

    /// A full-strength search on a clock.
    #[must_use]
    pub fn clock(clock: TimeControl) -> SearchRequest {
        SearchRequest {
            clock: Some(clock),
            ..SearchRequest::default()
        }
    }

    /// The bot of `level`'s move with `seed`.
    #[must_use]
    pub fn level(level: Level, seed: u64) -> SearchRequest {
        SearchRequest {
            level: Some((level, seed)),
            ..SearchRequest::default()
        }
    }
}

/// Stops or releases the engine's running search from any thread, without
/// the engine ([`Engine::stopper`]).
#[derive(Clone, Debug)]
pub struct Stopper {
    stop: Arc<AtomicBool>,
    ponder: Arc<AtomicBool>,
}

impl Stopper {
    /// As [`Engine::stop`].
    pub fn stop(&self) {
        self.ponder.store(false, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// As [`Engine::ponderhit`].
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::Relaxed);
    }
}

impl Engine {
    /// Starts a search of `pos` (with `history`, as for
    /// [`Engine::search`]) on the engine's thread and returns at once.
    /// `on_info` sees each completed iteration, `on_bestmove` the result.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use hostage_core::Position;
    /// use hostage_engine::{Engine, Limits, SearchRequest};
    ///
    /// let mut engine = Engine::new();
    /// let (tx, rx) = mpsc::channel();
    /// engine.go(&Position::new(), &[], SearchRequest::limits(Limits::depth(3)), |_| {}, move |r| {
    ///     let _ = tx.send(r.best_move);
    /// });
    /// let best = rx.recv().expect("the search answers");
    /// assert!(best.is_some());
    /// // The result comes back from `wait` too.
    /// assert_eq!(engine.wait().map(|r| r.best_move), Some(best));
    /// ```
    pub fn go<I, B>(
        &mut self,
        pos: &Position,
        history: &[u64],
        request: SearchRequest,
        mut on_info: I,
        on_bestmove: B,
    ) where
        I: FnMut(&Info) + Send + 'static,
        B: FnOnce(&SearchResult) + Send + 'static,
    {
        let _ = self.wait();
        let mut core = self.core.take().unwrap_or_else(|| {
            // Only after a panicked search; `core()` rebuilds.
            Box::new(crate::engine::Core::new(self.hash_mb()))
        });
        let settings = self.settings();
        let stop = Arc::clone(&self.stop);
        let ponder = Arc::clone(&self.ponder);
        // A stop sent before this `go` was for an earlier search.
        stop.store(false, Ordering::Relaxed);
        ponder.store(request.ponder, Ordering::Relaxed);
        let pos = pos.clone();
        let history = history.to_vec();
        let handle = thread::spawn(move || {
            let result = match request.level {
                Some((level, seed)) => {
                    recipe_search(settings, &pos, &history, &level.recipe(), seed, &stop)
                }
                None => {
                    let time = request.clock.map(|clock| TimeManager::new(clock.budget()));
                    full_search(
                        &mut core,
                        settings,
                        &pos,
                        &history,
                        &request.limits,
                        time,
                        &stop,
                        request.ponder.then_some(&*ponder),
                        &mut on_info,
                    )
                }
            };
            // UCI: after `go infinite` or `go ponder` the best move waits
            // for `stop` (or, pondering, `ponderhit`).
            while !stop.load(Ordering::Relaxed)
                && (request.infinite || ponder.load(Ordering::Relaxed))
            {
                thread::sleep(Duration::from_millis(1));
            }
            stop.store(false, Ordering::Relaxed);
            ponder.store(false, Ordering::Relaxed);
            on_bestmove(&result);
            (core, result)
        });
        self.running = Some(handle);
    }

    /// Stops the running search (it still completes its first iteration,
    /// so it has a move); its `on_bestmove` follows. A ponder search stops
    /// too. Without a running search, nothing happens but that a
    /// synchronous search started next stops after its first iteration
    /// (see [`Engine::stop_flag`]).
    pub fn stop(&self) {
        self.stopper().stop();
    }

    /// The opponent played the move the engine ponders on: the search goes
    /// on as a normal one, its clock starting now.
    pub fn ponderhit(&self) {
        self.stopper().ponderhit();
    }

    /// A handle that stops the engine's searches from any thread.
    #[must_use]
    pub fn stopper(&self) -> Stopper {
        Stopper {
            stop: Arc::clone(&self.stop),
            ponder: Arc::clone(&self.ponder),
        }
    }

    /// Whether a search started by [`Engine::go`] is still running (its
    /// `on_bestmove` not yet returned).
    #[must_use]
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Waits for the search started by [`Engine::go`] to end (after its
    /// `on_bestmove`) and returns its result; `None` when there was none,
    /// or when the search panicked (the next search starts with fresh
    /// tables).
    pub fn wait(&mut self) -> Option<SearchResult> {
        let handle = self.running.take()?;
        match handle.join() {
            Ok((core, result)) => {
                self.core = Some(core);
                Some(result)
            }
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    /// Starts a depth-1 search of the start position with `request`'s
    /// flags; the receiver gets its best move when it answers.
    fn go_depth_one(
        engine: &mut Engine,
        request: SearchRequest,
    ) -> mpsc::Receiver<Option<hostage_core::Move>> {
        let (tx, rx) = mpsc::channel();
        let request = SearchRequest {
            limits: Limits::depth(1),
            ..request
        };
        engine.go(
            &Position::new(),
            &[],
            request,
            |_| {},
            move |r| {
                let _ = tx.send(r.best_move);
            },
        );
        rx
    }

    #[test]
    fn an_infinite_search_answers_only_after_stop() {
        let mut engine = Engine::with_hash_mb(1);
        let request = SearchRequest {
            infinite: true,
            ..SearchRequest::default()
        };
        let rx = go_depth_one(&mut engine, request);
        // Depth 1 ends at once, but the answer waits for `stop`.
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        assert!(engine.is_searching());
        engine.stop();
        assert!(rx.recv().expect("answers after stop").is_some());
        assert!(engine.wait().is_some());
        assert!(!engine.is_searching());
    }

    #[test]
    fn ponderhit_releases_a_ponder_search_that_ended() {
        let mut engine = Engine::with_hash_mb(1);
        let request = SearchRequest {
            ponder: true,
            ..SearchRequest::default()
        };
        let rx = go_depth_one(&mut engine, request);
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        engine.ponderhit();
        assert!(rx.recv().expect("answers after ponderhit").is_some());
    }

    #[test]
    fn stop_ends_a_search_without_limits_and_the_engine_is_reusable() {
        let mut engine = Engine::with_hash_mb(1);
        let (tx, rx) = mpsc::channel();
        engine.go(
            &Position::new(),
            &[],
            SearchRequest::limits(Limits::infinite()),
            |_| {},
            move |r| {
                let _ = tx.send(r.depth);
            },
        );
        thread::sleep(Duration::from_millis(50));
        engine.stopper().stop();
        assert!(rx.recv().expect("answers") >= 1);
        // A synchronous search afterwards is not stopped by that stop.
        let r = engine.search(&Position::new(), &[], &Limits::depth(3));
        assert_eq!(r.depth, 3);
    }
}
