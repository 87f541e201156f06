//! The search's switches: each selective technique can be turned off, so
//! that a match can show what it is worth (`docs/engine.md` has the
//! figures). On by default are those a match showed to help.

/// Switches for the search's selective techniques, so each can be measured
/// against the search without it. On by default are those a match showed
/// to help (`docs/engine.md`, "Measured" and "Strength work").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning and futility pruning near the leaves.
    pub leaf_pruning: bool,
    /// Reverse futility pruning (static null-move pruning).
    pub reverse_futility: bool,
    /// Aspiration windows at the root.
    pub aspiration: bool,
    /// One ply more for moves that give check.
    pub check_extension: bool,
    /// Counter-moves and continuation histories (by the opponent's last
    /// move and by our own move before it) in the order of quiet moves.
    /// Off by default: a match did not show it helps (`docs/engine.md`).
    pub continuation: bool,
    /// Late-move reductions shortened or lengthened by the move's history.
    /// Off by default: a match did not show it helps.
    pub history_lmr: bool,
    /// The "improving" flag (static evaluation above that of two plies
    /// before) in the pruning margins and reductions.
    pub improving: bool,
    /// Internal iterative reduction: one ply less where the table has no
    /// move. Off by default: a match did not show it helps.
    pub iir: bool,
    /// Correction history (`correction.rs`): the static evaluation plus
    /// what searches of positions with the same pawns or the same reserves
    /// found it got wrong.
    pub correction: bool,
    /// Quiescence stores its results in the transposition table (depth 0,
    /// never over a deeper entry of the same position).
    pub qs_store: bool,
    /// Capture history: captures and promotions that refuted before are
    /// tried earlier among those of equal material gain.
    pub capture_history: bool,
    /// Late-move pruning up to depth 8 (not only 3) and futility pruning
    /// up to depth 6 (not only 2).
    pub deep_pruning: bool,
    /// Singular extensions: the table's move is searched a ply deeper when
    /// a shallower search without it shows every other move is clearly
    /// worse; when even the others reach beta, the node is cut ("multi-cut").
    /// Off by default: a match showed it costs strength here.
    pub singular: bool,
    /// Static exchange in the pruning: near the leaves a move that loses
    /// more than a depth-scaled margin by static exchange is skipped
    /// (`pruning.rs`), and a check that loses its checking man is reduced
    /// like a quiet move (`reduction.rs`). On by default: against
    /// Fairy-Stockfish it scored better than the search without it in
    /// each of two pairs of matches (42.2% against 38.0% over both), and
    /// +61 Elo in self-play (`docs/engine-record.md`).
    pub see_pruning: bool,
    /// Pruning near the leaves on the depth a late-move reduction would
    /// search the move to (Stockfish's `lmrDepth`), not the node's, and
    /// late-move pruning at every depth with Stockfish's counts,
    /// (3 + d²)/2 quiet moves, twice that when improving
    /// (`pruning.rs`). Off by default: against Fairy-Stockfish it scored
    /// 29.7% where the search without it scored 45% over the same openings
    /// (`docs/engine-record.md`).
    pub reduced_depth_pruning: bool,
    /// Late-move reductions two plies longer at cut nodes (null-window
    /// nodes expected to fail high, Stockfish's `cutNode`), where one
    /// refutation is enough and the later moves are least likely to be
    /// it (`reduction.rs`). Off by default: against Fairy-Stockfish it
    /// scored 40.3% where the search without it scored 41.3%.
    pub cut_node_reduction: bool,
    /// Drops and exchanges next to either king (an attack on the enemy's,
    /// a guard for ours) are never skipped by late-move or futility
    /// pruning, and are reduced a ply less (`pruning.rs`, `reduction.rs`).
    /// Off by default: against Fairy-Stockfish it scored 41.1% where the
    /// search without it scored 41.3%.
    pub king_zone_drops: bool,
    /// Lazy SMP as Stockfish's versions 9 to 11 had it (`smp.rs`): each
    /// helper thread skips some depths, so that it is usually a ply ahead
    /// of the main thread, and the threads that completed the deepest
    /// iteration vote on the move played. On by default: without it
    /// (every thread at every depth, the main thread's move) the second
    /// thread reached a depth only 1.25 times as fast and two threads lost
    /// to one at 1 s a move; with it 1.51 times as fast, and two threads
    /// gain at 200 ms and at 1 s (`docs/engine-record.md`).
    pub smp_vote: bool,
    /// In quiescence, once an evasion of a check has shown the side is not
    /// mated, the other quiet evasions (king steps, interpositions by
    /// move, drop or exchange) are skipped after the first, and so is one
    /// that loses material by static exchange (Stockfish's quiescence
    /// prunes its evasions alike). With men in hand a check has dozens of
    /// interposing drops (`quiescence.rs`). Off by default: depth 9 of the
    /// prison position took 19% fewer nodes, but against Fairy-Stockfish it
    /// scored 39.1% where the search without it scored 39.3%, side by
    /// side (`docs/engine-record.md`).
    pub qs_evasion_pruning: bool,
    /// Evaluate with the network (`crate::nnue`, its weights embedded)
    /// instead of the hand-written evaluation. On by default natively:
    /// against Fairy-Stockfish it scored 49.5% where the hand-written
    /// evaluation scored 38.5% beside it (`docs/engine.md`). The
    /// WebAssembly build embeds no network (the module's size): off there
    /// until one is loaded (`Engine::load_network`).
    pub nnue: bool,
    /// Quiet moves that may give check (a drop, exchange or move whose
    /// man attacks the enemy king from where it lands, or that uncovers a
    /// slider) are tried right after the killers, before the other quiet
    /// moves by history: Stockfish gives its quiet checks a bonus in the
    /// move picker, and with men in hand the checking drops are the
    /// moves most likely to refute (`ordering.rs`). Off by default: no
    /// match against Fairy-Stockfish has shown it helps
    /// (`docs/engine-record.md`, "Search in drop positions").
    pub checks_first: bool,
    /// Late-move pruning of the long tail of quiet drops and exchanges far
    /// from both kings (more than two squares from each, giving no
    /// check), at non-PV nodes of every depth, once (3 + d²)/2 quiet
    /// moves were tried, twice that when improving (Stockfish's move
    /// count, which Fairy-Stockfish applies to drops as to any quiet
    /// move; `pruning.rs`). Off by default, as above.
    pub far_drop_pruning: bool,
    /// A bounded quiescence: from five plies below the horizon on (not in
    /// check), only recaptures on the square of the move before are
    /// tried, as Stockfish's quiescence did before version 12
    /// (`DEPTH_QS_RECAPTURES`, `quiescence.rs`). Off by default, as above.
    pub qs_recaptures: bool,
    /// History pruning: at non-PV nodes a quiet move that gives no check,
    /// whose history is below 0 (it was tried and failed, and never
    /// refuted since) and whose late-move-reduced search would be under 3
    /// plies deep, is skipped (Stockfish 11 prunes a quiet move by its
    /// continuation history at a reduced depth under 3 alike;
    /// `pruning.rs`). With men in hand the drops a side tried in vain are
    /// many. Off by default, as above.
    pub history_pruning: bool,
    /// The check extension only at depth > 6 and with the static
    /// evaluation more than a pawn from 0 (or in check), as
    /// Fairy-Stockfish extends checks in every variant
    /// (`extension.rs`). With men in hand a third of the moves searched
    /// can be safe checking drops, each extended at every depth. Off by
    /// default: with [`Options::check_reductions`] it lost its self-play
    /// match against that switch alone (`docs/engine-record.md`, "Checks
    /// in drop positions").
    pub deep_check_extension: bool,
    /// Late-move reductions also for moves that give a check keeping the
    /// checking man and for the evasions of a check, as Stockfish and
    /// Fairy-Stockfish reduce them (`reduction.rs`): with men in hand an
    /// evasion has dozens of interposing drops. Off by default: even in
    /// self-play (`docs/engine-record.md`, "Checks in drop positions").
    pub check_reductions: bool,
    /// The check extension only at depth ≤ 3, near the horizon, where
    /// quiescence (captures only) cannot see the drop mate a check
    /// prepares; higher in the tree the search below a check is deep
    /// enough without it (`extension.rs`). Off by default, as above.
    pub shallow_check_extension: bool,
    /// No check extension from twice the iteration's depth on (the ply
    /// from the root at least 2 × the root depth), as Stockfish extends
    /// only while `ply < 2 * rootDepth` (`extension.rs`): with men in hand
    /// a line of safe checking drops, each extended, runs far past the
    /// iteration's depth. Off by default (`docs/engine-record.md`,
    /// "Checks in drop positions").
    pub extension_ply_limit: bool,
    /// Late-move reductions also for the evasions of a check (not for the
    /// checks themselves), as Stockfish and Fairy-Stockfish reduce them
    /// (`reduction.rs`): with men in hand a check has dozens of
    /// interposing drops. Off by default, as above.
    pub evasion_reductions: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            null_move: true,
            lmr: true,
            leaf_pruning: true,
            reverse_futility: true,
            aspiration: true,
            check_extension: true,
            continuation: false,
            history_lmr: false,
            improving: true,
            iir: false,
            correction: true,
            qs_store: true,
            capture_history: true,
            deep_pruning: true,
            singular: false,
            see_pruning: true,
            reduced_depth_pruning: false,
            cut_node_reduction: false,
            king_zone_drops: false,
            smp_vote: true,
            qs_evasion_pruning: false,
            nnue: !cfg!(target_family = "wasm"),
            checks_first: false,
            far_drop_pruning: false,
            qs_recaptures: false,
            history_pruning: false,
            deep_check_extension: false,
            check_reductions: false,
            shallow_check_extension: false,
            extension_ply_limit: false,
            evasion_reductions: false,
        }
    }
}
