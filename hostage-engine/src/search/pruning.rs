//! Pruning: the decisions that cut a node or skip a move without a full
//! search, each a function of its inputs only.
//!
//! Before the move loop, at non-PV nodes not in check and not in a
//! singular test:
//!
//! - reverse futility (static null-move pruning): at depth ≤ 6, a static
//!   evaluation more than 90 centipawns a ply (a ply fewer when improving)
//!   above beta returns the evaluation;
//! - null-move pruning: at depth ≥ 3 with the evaluation at or above beta,
//!   the side to move passes and a search 3 + depth/4 plies shallower
//!   still reaches beta. Hostage Chess has few zugzwangs, since a side with
//!   an airfield or prisoners can always drop or exchange; a side with only
//!   pawns and king and nothing in hand does not try it.
//!
//! In the move loop, near the leaves, for quiet moves that do not give
//! check (drop mates are the game's sharpest tactic) once a move has been
//! searched and no mate is against us, and, with
//! [`Options::king_zone_drops`], that do not drop or exchange a man next
//! to either king (an attack on the enemy's, a guard for ours):
//!
//! - late-move pruning: a node tries only so many quiet moves, fewer when
//!   the side is not improving;
//! - futility pruning: at shallow depth, a quiet move is skipped when the
//!   evaluation plus a margin cannot reach alpha.
//!
//! - static-exchange pruning ([`Options::see_pruning`], on by default):
//!   at depth ≤ 8, a
//!   quiet move that does not give check and loses more than 30·depth²
//!   centipawns by static exchange (a drop where it simply hangs, a man
//!   moved where it is taken) is skipped; a capture, promotion or check
//!   that loses more than 185·depth is skipped at depth ≤ 6. Stockfish
//!   prunes the same way (its thresholds: 26·d² and 185·d on a
//!   lmr-reduced depth); a checking drop sacrifice is still tried deeper
//!   in the tree, where the margin is wider.
//!
//! With [`Options::reduced_depth_pruning`] (off by default: against
//! Fairy-Stockfish it scored far below the search without it) the stages
//! near the leaves read the depth a late-move reduction would search the
//! move to (`lmr_depth`, Stockfish's `lmrDepth`) instead of the node's,
//! with Stockfish's margins, as Fairy-Stockfish keeps them for drop games:
//!
//! - late-move pruning at every depth: (3 + d²)/2 quiet moves, twice that
//!   when improving (with men in hand a node has a hundred quiet drops at
//!   any depth);
//! - futility pruning while `lmr_depth` < 7, with the margin
//!   174 + 157·`lmr_depth`;
//! - static-exchange pruning of quiet moves with the threshold
//!   −(30 − min(`lmr_depth`, 18))·`lmr_depth`², at every depth: a quiet move
//!   that loses anything by exchange is skipped where the reduced search
//!   would have reached quiescence.
//!
//! With [`Options::far_drop_pruning`] (off by default) the long tail of
//! quiet drops and exchanges far from both kings (more than two squares
//! from each, giving no check) is cut by a move count at every depth:
//! once (3 + d²)/2 quiet moves were tried, twice that when improving
//! (Stockfish's count, which Fairy-Stockfish applies to a drop as to any
//! quiet move). With men in hand most of a node's hundred quiet moves are
//! such drops, and the search never prunes them at depth 9 and above.
//!
//! With [`Options::history_pruning`] (off by default) a quiet move whose
//! history is below 0 is skipped where its late-move-reduced search would
//! be under 3 plies deep (Stockfish 11 prunes by continuation history at
//! a reduced depth under 3).
//!
//! "Improving" (the static evaluation above the one at our previous turn)
//! makes both stages prune harder when it is false.

use hostage_core::{attacks, Color, Move, Position, Role, Square};

use super::{
    facts::{Candidate, Node},
    Options,
};
use crate::score::{INFINITE, MATE_BOUND};

/// Whether the side to move is improving: its static evaluation `eval`
/// (at ply `evals_before.len()`) is better than at its last turn, or at
/// the turn before when it was in check then (`-INFINITE`); none known
/// counts as improving. Never in check, nor with the switch off.
pub(super) fn improving(
    options: &Options,
    in_check: bool,
    eval: i32,
    evals_before: &[i32],
) -> bool {
    let ply = evals_before.len();
    options.improving
        && !in_check
        && match ply {
            0 | 1 => true,
            _ if evals_before[ply - 2] != -INFINITE => eval > evals_before[ply - 2],
            2 | 3 => true,
            _ => evals_before[ply - 4] == -INFINITE || eval > evals_before[ply - 4],
        }
}

/// Reverse futility: the value the node returns when its static
/// evaluation is so far above `beta` that a search is not needed.
pub(super) fn reverse_futility(options: &Options, node: &Node, beta: i32) -> Option<i32> {
    let prunes = options.reverse_futility
        && node.depth <= 6
        && node.eval.abs() < MATE_BOUND
        && node.eval - 90 * (node.depth - i32::from(node.improving)) >= beta;
    prunes.then_some(node.eval)
}

/// Null-move pruning: the reduction of the null move's search when the
/// node tries one (the position `pos` must also allow passing).
pub(super) fn null_move(options: &Options, node: &Node, beta: i32, pos: &Position) -> Option<i32> {
    let tries = options.null_move
        && node.depth >= 3
        && node.eval >= beta
        && beta.abs() < MATE_BOUND
        && has_men_to_move(pos);
    tries.then_some(3 + node.depth / 4)
}

/// What a null-move search's `value` at or above `beta` returns: not a
/// mate, which passing cannot prove.
pub(super) fn null_move_value(value: i32, beta: i32) -> i32 {
    if value > MATE_BOUND {
        beta
    } else {
        value
    }
}

/// Whether null-move pruning is safe enough: the side to move has a piece
/// on the board or anything to drop or exchange (pawn-and-king-only sides
/// are the zugzwang cases of chess).
fn has_men_to_move(pos: &Position) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let pieces = board.by_color(us) & !board.pawns() & !board.by_role(Role::King);
    pieces.any() || !pos.airfield(us).is_empty() || !pos.prison(us).is_empty()
}

/// How far a node prunes near the leaves, set once per node.
pub(super) struct LeafPruning {
    /// Late-move pruning: how many quiet moves the node tries.
    pub lmp_limit: usize,
    /// Futility pruning: the deepest depth it applies at.
    pub futility_depth: i32,
    /// With [`Options::far_drop_pruning`]: how many quiet moves the node
    /// tries before it skips the drops and exchanges far from both kings.
    pub far_drop_limit: usize,
}

impl LeafPruning {
    /// The limits at `node`: with [`Options::reduced_depth_pruning`],
    /// (3 + d²)/2 quiet moves at every depth, twice that when improving,
    /// and futility while the reduced depth is under 7. Else 4 + d² + 3d
    /// quiet moves up to depth 8 (8, 14, 22, 32, … 92) with deep pruning,
    /// else 8, 14, 24 up to depth 3; a third fewer when the side is not
    /// improving; futility to depth 6 with deep pruning, else 2.
    pub(super) fn new(options: &Options, node: &Node) -> LeafPruning {
        let depth = node.depth;
        let count = (3 + depth.clamp(0, 64).pow(2)) as usize;
        let stockfish_count = if node.improving { count } else { count / 2 };
        let far_drop_limit = if options.far_drop_pruning {
            stockfish_count
        } else {
            usize::MAX
        };
        if options.reduced_depth_pruning {
            return LeafPruning {
                lmp_limit: stockfish_count,
                futility_depth: 6,
                far_drop_limit,
            };
        }
        let lmp_limit = match depth {
            1..=8 if options.deep_pruning => (4 + depth * depth + 3 * depth) as usize,
            1 => 8,
            2 => 14,
            3 => 24,
            _ => usize::MAX,
        };
        let lmp_limit = if options.improving && !node.improving {
            lmp_limit - lmp_limit / 3
        } else {
            lmp_limit
        };
        let futility_depth = if options.deep_pruning { 6 } else { 2 };
        LeafPruning {
            lmp_limit,
            futility_depth,
            far_drop_limit,
        }
    }
}

/// Whether `mv` puts a man from a reserve next to either king: a drop
/// (R6) or an exchange (R5) onto a square a king attacks.
pub(super) fn near_king(options: &Options, pos: &Position, mv: &Move) -> bool {
    let to = match *mv {
        Move::Drop { to, .. } | Move::Exchange { to, .. } if options.king_zone_drops => to,
        _ => return false,
    };
    Color::ALL.into_iter().any(|c| {
        pos.board()
            .king_of(c)
            .is_some_and(|k| attacks::king_attacks(k).contains(to))
    })
}

/// Whether `mv` puts a man from a reserve (a drop, R6, or an exchange, R5)
/// more than two squares (king steps) from both kings, with
/// [`Options::far_drop_pruning`].
pub(super) fn far_drop(options: &Options, pos: &Position, mv: &Move) -> bool {
    let to = match *mv {
        Move::Drop { to, .. } | Move::Exchange { to, .. } if options.far_drop_pruning => to,
        _ => return false,
    };
    let distance = |a: Square, b: Square| {
        let (a, b) = (a.index() as i32, b.index() as i32);
        ((a & 7) - (b & 7)).abs().max(((a >> 3) - (b >> 3)).abs())
    };
    Color::ALL
        .into_iter()
        .all(|c| pos.board().king_of(c).is_none_or(|k| distance(k, to) > 2))
}

/// The depth a late-move reduction would search the move after `searched`
/// others of `node` to: one ply less than the node, less the base
/// reduction ([`super::reduction::base`]), a ply more when not improving;
/// at least 0.
pub(super) fn lmr_depth(node: &Node, searched: usize) -> i32 {
    let r = super::reduction::base(node.depth, searched + 1) + i32::from(!node.improving);
    (node.depth - 1 - r).max(0)
}

/// Whether the move `m` is skipped by late-move or futility pruning, with
/// the node's `best` value and `alpha` so far.
pub(super) fn prunes_late_move(
    options: &Options,
    node: &Node,
    leaf: &LeafPruning,
    m: &Candidate,
    best: i32,
    alpha: i32,
) -> bool {
    if node.pv()
        || node.in_check
        || !m.quiet
        || m.gives_check
        || m.near_king
        || m.searched == 0
        || best <= -MATE_BOUND
        || !options.leaf_pruning
    {
        return false;
    }
    if m.quiets_tried >= leaf.lmp_limit
        || (m.far_drop && m.quiets_tried >= leaf.far_drop_limit)
        || (m.bad_history && m.lmr_depth < 3)
    {
        return true;
    }
    if options.reduced_depth_pruning {
        m.lmr_depth < 7 && node.eval + 174 + 157 * m.lmr_depth <= alpha
    } else {
        node.depth <= leaf.futility_depth && node.eval + 100 + 120 * node.depth <= alpha
    }
}

/// The static-exchange threshold under which move `m` of `node` is
/// skipped, if it may be ([`Options::see_pruning`]): with the node's
/// `best` value so far, never in check, never the first move, never once
/// a mate is against us. Never above 0 (the search relies on it: a move
/// that keeps its man by exchange passes every threshold).
pub(super) fn see_threshold(
    options: &Options,
    node: &Node,
    m: &Candidate,
    best: i32,
) -> Option<i32> {
    if !options.see_pruning || node.in_check || m.searched == 0 || best <= -MATE_BOUND {
        return None;
    }
    let d = node.depth;
    if m.quiet && !m.gives_check {
        if options.reduced_depth_pruning {
            let r = m.lmr_depth;
            return Some(-(30 - r.min(18)) * r * r);
        }
        (d <= 8).then_some(-30 * d * d)
    } else {
        (d <= 6).then_some(-185 * d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::facts::Kind;

    fn node(depth: i32, in_check: bool) -> Node {
        Node {
            depth,
            ply: 3,
            kind: Kind::All,
            in_check,
            hash: 0,
            raw_eval: 0,
            eval: 0,
            keys: None,
            improving: true,
            tt_move: None,
            excluded: None,
        }
    }

    fn candidate(quiet: bool, gives_check: bool, searched: usize) -> Candidate {
        Candidate {
            quiet,
            gives_check,
            safe_check: false,
            searched,
            quiets_tried: 0,
            lmr_depth: 0,
            near_king: false,
            far_drop: false,
            bad_history: false,
        }
    }

    #[test]
    fn see_thresholds_scale_with_depth_and_spare_what_must_be_searched() {
        let on = Options {
            see_pruning: true,
            reduced_depth_pruning: false,
            ..Options::default()
        };
        let quiet = candidate(true, false, 3);
        let check = candidate(true, true, 3);
        let capture = candidate(false, false, 3);
        // Quiet moves: 30·d² up to depth 8; checks and captures: 185·d up
        // to depth 6.
        assert_eq!(see_threshold(&on, &node(1, false), &quiet, 0), Some(-30));
        assert_eq!(see_threshold(&on, &node(4, false), &quiet, 0), Some(-480));
        assert_eq!(see_threshold(&on, &node(8, false), &quiet, 0), Some(-1920));
        assert_eq!(see_threshold(&on, &node(9, false), &quiet, 0), None);
        assert_eq!(see_threshold(&on, &node(2, false), &check, 0), Some(-370));
        assert_eq!(
            see_threshold(&on, &node(6, false), &capture, 0),
            Some(-1110)
        );
        assert_eq!(see_threshold(&on, &node(7, false), &capture, 0), None);
        // Never in check, never the first move, never once mated, never
        // with the switch off.
        assert_eq!(see_threshold(&on, &node(2, true), &quiet, 0), None);
        assert_eq!(
            see_threshold(&on, &node(2, false), &candidate(true, false, 0), 0),
            None
        );
        assert_eq!(
            see_threshold(&on, &node(2, false), &quiet, -MATE_BOUND),
            None
        );
        let off = Options {
            see_pruning: false,
            ..Options::default()
        };
        assert_eq!(see_threshold(&off, &node(2, false), &quiet, 0), None);
    }

    #[test]
    fn reduced_depth_pruning_reads_the_depth_the_move_would_be_searched_to() {
        let on = Options {
            reduced_depth_pruning: true,
            see_pruning: true,
            ..Options::default()
        };
        // Depth 10, the 17th move: the base reduction is
        // (77 + 20·3·4)/100 = 3, so 10 − 1 − 3 = 6; a ply less when not
        // improving.
        let mut n = node(10, false);
        assert_eq!(lmr_depth(&n, 16), 6);
        n.improving = false;
        assert_eq!(lmr_depth(&n, 16), 5);
        // Never below 0.
        assert_eq!(lmr_depth(&node(1, false), 40), 0);
        // Quiet moves: −(30 − min(r, 18))·r²; at 0 a quiet move that loses
        // anything is skipped. Captures and checks keep 185·d up to depth 6.
        let quiet = |r| Candidate {
            lmr_depth: r,
            ..candidate(true, false, 3)
        };
        assert_eq!(see_threshold(&on, &node(12, false), &quiet(0), 0), Some(0));
        assert_eq!(
            see_threshold(&on, &node(12, false), &quiet(4), 0),
            Some(-416)
        );
        assert_eq!(
            see_threshold(&on, &node(30, false), &quiet(20), 0),
            Some(-4800)
        );
        let capture = Candidate {
            lmr_depth: 2,
            ..candidate(false, false, 3)
        };
        assert_eq!(see_threshold(&on, &node(3, false), &capture, 0), Some(-555));
        // Move counts: (3 + d²)/2, twice when improving, at every depth.
        let mut n = node(12, false);
        assert_eq!(LeafPruning::new(&on, &n).lmp_limit, 147);
        n.improving = false;
        assert_eq!(LeafPruning::new(&on, &n).lmp_limit, 73);
        // Futility on the reduced depth: margin 174 + 157·r while r < 7.
        let leaf = LeafPruning::new(&on, &node(12, false));
        let late = |r| Candidate {
            lmr_depth: r,
            ..candidate(true, false, 3)
        };
        let at = node(12, false); // eval 0
        assert!(prunes_late_move(&on, &at, &leaf, &late(2), 0, 488));
        assert!(!prunes_late_move(&on, &at, &leaf, &late(2), 0, 487));
        assert!(!prunes_late_move(&on, &at, &leaf, &late(7), 0, 10_000));
        // A check is never pruned here.
        let check = Candidate {
            lmr_depth: 0,
            ..candidate(true, true, 3)
        };
        assert!(!prunes_late_move(&on, &at, &leaf, &check, 0, 10_000));
    }

    #[test]
    fn far_drops_are_those_more_than_two_squares_from_both_kings() {
        // Kings on e1 and e8; White holds a knight to drop and may buy
        // back nothing.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[N#] w - - 0 30").expect("fen");
        let on = Options {
            far_drop_pruning: true,
            ..Options::default()
        };
        let drop = |to: &str| {
            let mut moves = hostage_core::MoveList::new();
            pos.legal_moves_into(&mut moves);
            *moves
                .iter()
                .find(|m| m.to_string() == format!("N@{to}"))
                .expect("legal drop")
        };
        // a4: four files from e1 and e8, three ranks from e1.
        assert!(far_drop(&on, &pos, &drop("a4")));
        // e4 is three ranks from e1 and four from e8; e3, two from e1, and
        // c6, two from e8, are near one king.
        assert!(far_drop(&on, &pos, &drop("e4")));
        assert!(!far_drop(&on, &pos, &drop("e3")));
        assert!(!far_drop(&on, &pos, &drop("c6")));
        // A board move is never a far drop, and the switch off finds none.
        let step = {
            let mut moves = hostage_core::MoveList::new();
            pos.legal_moves_into(&mut moves);
            *moves
                .iter()
                .find(|m| m.to_string() == "e1d1")
                .expect("legal step")
        };
        assert!(!far_drop(&on, &pos, &step));
        assert!(!far_drop(&Options::default(), &pos, &drop("a4")));
    }

    #[test]
    fn far_drops_are_cut_by_stockfish_s_move_count_at_every_depth() {
        let on = Options {
            far_drop_pruning: true,
            ..Options::default()
        };
        // (3 + d²)/2 quiet moves, twice that when improving: at depth 12,
        // 147 improving and 73 not; at depth 4, 19 and 9.
        let mut n = node(12, false);
        assert_eq!(LeafPruning::new(&on, &n).far_drop_limit, 147);
        n.improving = false;
        assert_eq!(LeafPruning::new(&on, &n).far_drop_limit, 73);
        assert_eq!(LeafPruning::new(&on, &node(4, false)).far_drop_limit, 19);
        assert_eq!(
            LeafPruning::new(&Options::default(), &node(4, false)).far_drop_limit,
            usize::MAX
        );
        // Depth 12 has no other late-move pruning: only the far drop goes.
        let at = node(12, false);
        let leaf = LeafPruning::new(&on, &at);
        let late = |far_drop, quiets_tried| Candidate {
            far_drop,
            quiets_tried,
            ..candidate(true, false, 3)
        };
        assert!(prunes_late_move(&on, &at, &leaf, &late(true, 147), 0, 0));
        assert!(!prunes_late_move(&on, &at, &leaf, &late(true, 146), 0, 0));
        assert!(!prunes_late_move(&on, &at, &leaf, &late(false, 500), 0, 0));
        // Never a check, never at a PV node.
        let check = Candidate {
            far_drop: true,
            quiets_tried: 500,
            ..candidate(true, true, 3)
        };
        assert!(!prunes_late_move(&on, &at, &leaf, &check, 0, 0));
        let pv = Node {
            kind: Kind::Pv,
            ..node(12, false)
        };
        assert!(!prunes_late_move(&on, &pv, &leaf, &late(true, 500), 0, 0));
    }

    #[test]
    fn a_move_history_dislikes_is_skipped_only_where_its_reduced_search_is_shallow() {
        let at = node(12, false);
        let leaf = LeafPruning::new(&Options::default(), &at);
        let late = |bad_history, lmr_depth| Candidate {
            bad_history,
            lmr_depth,
            ..candidate(true, false, 3)
        };
        let on = Options::default();
        assert!(prunes_late_move(&on, &at, &leaf, &late(true, 2), 0, 0));
        assert!(!prunes_late_move(&on, &at, &leaf, &late(true, 3), 0, 0));
        assert!(!prunes_late_move(&on, &at, &leaf, &late(false, 0), 0, 0));
    }
}
