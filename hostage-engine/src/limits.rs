//! [`Limits`]: when a search stops.
//!
//! Node and depth limits make a search reproducible: the same position,
//! history, limits and table size give the same result on every platform.
//! A move time is offered natively only: WebAssembly in a browser has no
//! clock the engine may read without the host's help, and a time limit makes
//! results depend on the machine.

use core::time::Duration;

/// The most plies a search goes (iterative deepening stops there).
pub const MAX_DEPTH: u32 = 64;

/// The node budget of a full-strength search given no limit: UCI's `Level
/// full` with a bare `go`, `hostage analyse` without `--nodes`, `--depth`
/// or `--movetime`, and the `full` match player.
pub const DEFAULT_FULL_NODES: u64 = 1_000_000;

/// When a search stops; the first limit reached ends it. With no limit at
/// all the search runs to [`MAX_DEPTH`] or until it is stopped.
///
/// # Examples
///
/// ```
/// use hostage_engine::Limits;
///
/// let limits = Limits::nodes(20_000).with_multipv(3);
/// assert_eq!(limits.nodes, Some(20_000));
/// assert_eq!(limits.multipv, 3);
/// assert_eq!(Limits::depth(4).depth, Some(4));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Stop after about this many nodes (a node is a position reached by a
    /// move; checked between moves, so the count may exceed it slightly).
    pub nodes: Option<u64>,
    /// Complete at most this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after this much time (native targets only; ignored where no
    /// clock is available).
    pub movetime: Option<Duration>,
    /// How many best lines to report (1 = only the best; at least 1).
    pub multipv: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nodes: None,
            depth: None,
            movetime: None,
            multipv: 1,
        }
    }
}

impl Limits {
    /// No limit but those set later (and [`MAX_DEPTH`]).
    #[must_use]
    pub fn infinite() -> Limits {
        Limits::default()
    }

    /// At most `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// At most `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// At most `movetime` (native only).
    #[must_use]
    pub fn movetime(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
    }

    /// The same limits reporting `multipv` lines (at least 1).
    #[must_use]
    pub fn with_multipv(mut self, multipv: usize) -> Limits {
        self.multipv = multipv.max(1);
        self
    }

    /// The same limits with a node cap too.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// The same limits with a depth cap too.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// The deepest iteration allowed.
    /// The same limits with a move time (natively only: see the module
    /// documentation).
    ///
    /// ```
    /// # use core::time::Duration;
    /// # use hostage_engine::Limits;
    /// let limits = Limits::nodes(50_000).with_movetime(Duration::from_millis(300));
    /// assert_eq!(limits.movetime, Some(Duration::from_millis(300)));
    /// ```
    #[must_use]
    pub fn with_movetime(mut self, movetime: Duration) -> Limits {
        self.movetime = Some(movetime);
        self
    }

    pub(crate) fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// Reads elapsed time where the platform has a clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    #[cfg(not(target_family = "wasm"))]
    start: std::time::Instant,
}

impl Clock {
    pub(crate) fn start() -> Clock {
        Clock {
            #[cfg(not(target_family = "wasm"))]
            start: std::time::Instant::now(),
        }
    }

    /// Time since the start; `None` where there is no clock.
    pub(crate) fn elapsed(&self) -> Option<Duration> {
        #[cfg(not(target_family = "wasm"))]
        {
            Some(self.start.elapsed())
        }
        #[cfg(target_family = "wasm")]
        {
            None
        }
    }
}
