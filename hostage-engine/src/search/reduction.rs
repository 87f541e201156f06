//! Late-move reductions (LMR): a quiet move late in a node's order is
//! searched shallower with a null window first, and again at full depth
//! only when it beats alpha there.
//!
//! A move is reduced at depth ≥ 3 once 2 moves (3 at PV nodes, the root
//! included) were searched before it, unless it is a capture or promotion,
//! answers a check, or gives one (with [`Options::see_pruning`], on by
//! default: gives one and keeps the checking man by static exchange, so
//! that a sacrificial checking drop, the man taken at once, is reduced like
//! a quiet move, since with men in hand such drops are many and few of
//! them lead anywhere). With [`Options::check_reductions`] (off by
//! default) below the root neither a check nor an evasion is spared:
//! Stockfish and Fairy-Stockfish reduce them like any move, and with men
//! in hand a node in check has dozens of interposing drops and a node
//! dozens of safe checking drops. By how much: the logarithmic base of
//! [`base`], one ply less at PV nodes and one more when the side is not
//! improving (not at the root), two more at a cut node with
//! [`Options::cut_node_reduction`], one less for a drop or exchange next to
//! either king with [`Options::king_zone_drops`], and, with
//! [`Options::history_lmr`], less for a move history likes and more for
//! one it dislikes. A reduction never drops the search into quiescence.

use super::{
    facts::{Candidate, Kind, Node},
    Options,
};

/// The base reduction for a move at `index` of a node of `depth`:
/// 0.77 + 0.25·⌊log2 depth⌋·⌊log2 index⌋, about 0.77 + ln d · ln i / 1.9,
/// the logarithmic shape common to modern engines (Ethereal publishes
/// 0.75 + ln d · ln i / 2.25, Stockfish 11's comes to about
/// 0.51 · ln d · ln i); in integers so every platform agrees. The factor
/// 0.25 scored better against Fairy-Stockfish than 0.2 at both time
/// controls, and 0.3 no better than 0.25 (`docs/engine-record.md`).
pub(super) fn base(depth: i32, index: usize) -> i32 {
    let lg = |x: u64| 63 - x.max(1).leading_zeros() as i32;
    (77 + 25 * lg(depth.max(1) as u64) * lg(index as u64)) / 100
}

/// Whether a move is reduced: `index` moves were searched before it at a
/// node of `depth` (`pv`: a PV node), it is `quiet` (not a capture or
/// promotion), and not `checks` (it answers a check, or gives one that
/// keeps its man: see the module docs).
pub(super) fn reduces(
    options: &Options,
    depth: i32,
    pv: bool,
    index: usize,
    quiet: bool,
    checks: bool,
) -> bool {
    options.lmr && depth >= 3 && index >= 2 + usize::from(pv) && quiet && !checks
}

/// The reduction of a root move at `index` (see [`reduces`]) of an
/// iteration of `depth`, whose full search would be `new_depth` deep.
pub(super) fn at_root(depth: i32, index: usize, new_depth: i32) -> i32 {
    base(depth, index).clamp(0, (new_depth - 1).max(0))
}

/// The reduction of move `m` (see [`reduces`]) of `node`, whose full
/// search would be `new_depth` deep; `history` is the move's quiet history
/// score when [`Options::history_lmr`] is on (within ±3·2^14).
pub(super) fn at_node(
    options: &Options,
    node: &Node,
    m: &Candidate,
    new_depth: i32,
    history: Option<i32>,
) -> i32 {
    let mut r = base(node.depth, m.searched);
    if m.near_king {
        r -= 1;
    }
    if node.pv() {
        r -= 1;
    }
    if !node.improving && options.improving {
        r += 1;
    }
    if node.kind == Kind::Cut && options.cut_node_reduction {
        r += 2;
    }
    if let Some(history) = history {
        // A move history likes is reduced less, one it dislikes more.
        r -= history / 12_000;
    }
    r.clamp(0, new_depth - 1)
}

#[cfg(test)]
mod tests {
    use super::base;

    #[test]
    fn the_base_follows_its_documented_formula() {
        // 0.77 + 0.25·⌊log2 d⌋·⌊log2 i⌋, rounded down, worked by hand.
        assert_eq!(base(1, 40), 0); // 0.77
        assert_eq!(base(2, 3), 1); // 0.77 + 0.25 = 1.02
        assert_eq!(base(4, 4), 1); // 0.77 + 1.00 = 1.77
        assert_eq!(base(8, 8), 3); // 0.77 + 2.25 = 3.02
        assert_eq!(base(16, 16), 4); // 0.77 + 4.00 = 4.77
        assert_eq!(base(20, 63), 5); // ⌊log2⌋ 4 and 5: 0.77 + 5.00 = 5.77
    }
}
