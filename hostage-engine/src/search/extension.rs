//! Extensions: the moves searched a ply deeper than the others.
//!
//! A move that gives check is extended one ply ([`Options::check_extension`])
//! only when the checking man is not simply lost by static exchange
//! ([`crate::see`]): sacrificial checking drops (a man dropped next to the
//! king where it is taken) chained into long extended lines and a
//! selective depth of 30 plies. With [`Options::deep_check_extension`]
//! (off by default) a check is extended only at depth > 6 and when the
//! static evaluation is more than a pawn from 0 (or the side to move is in
//! check), as Fairy-Stockfish extends checks in every variant: with men in
//! hand a node has dozens of safe checking drops, and extending each at
//! every depth kept the prison position's tree 6 plies shallower than
//! Fairy-Stockfish's. With [`Options::shallow_check_extension`] (off by
//! default) a check is extended only at depth ≤ 3, the other way round:
//! near the horizon, where quiescence (captures only) cannot see a drop
//! mate the check prepares, and not higher in the tree, where the
//! full-width search below sees the answers anyway. The table's move, when the singular test
//! found it singular and it is searched first, is extended too. With
//! [`Options::extension_ply_limit`] (off by default) no check is extended
//! from twice the iteration's depth on, as Stockfish bounds its extensions:
//! a line of checking drops then ends where the iteration's depth says.
//! The table's move, when the singular test
//! found it singular and it is searched first, is extended too
//! ([`super::singular`]). Neither past two thirds of [`MAX_PLY`], so that a
//! path always ends; a move is extended at most one ply.

use hostage_core::{Move, Position};

use super::{Options, MAX_PLY};

/// The extension of move `m` of `pos` at `ply` of an iteration of
/// `root_depth`: `gives_check` when it does, `singular` the singular
/// test's extension when `m` is the table's move searched first (0
/// otherwise), at a node of `depth` whose static evaluation is `eval`
/// (`-INFINITE` in check).
pub(super) fn extension(
    options: &Options,
    pos: &Position,
    m: &Move,
    gives_check: bool,
    (ply, root_depth): (usize, i32),
    singular: i32,
    (depth, eval): (i32, i32),
) -> i32 {
    let check = i32::from(
        options.check_extension
            && gives_check
            && extends_checks_at(options, depth, eval)
            && within_ply_limit(options, ply, root_depth)
            && ply < 2 * MAX_PLY / 3
            && crate::see::see_ge(pos, m, 0),
    );
    if ply < 2 * MAX_PLY / 3 {
        check.max(singular)
    } else {
        check
    }
}

/// The deepest node whose checks [`Options::shallow_check_extension`]
/// extends.
const SHALLOW_CHECK_DEPTH: i32 = 3;

/// Whether checks may be extended at a node of `depth` whose static
/// evaluation is `eval`: always, unless [`Options::deep_check_extension`]
/// asks for depth > 6 and an evaluation more than a pawn from 0
/// (Fairy-Stockfish's condition) or [`Options::shallow_check_extension`]
/// for depth ≤ 3.
fn extends_checks_at(options: &Options, depth: i32, eval: i32) -> bool {
    (!options.deep_check_extension || (depth > 6 && eval.abs() > 100))
        && (!options.shallow_check_extension || depth <= SHALLOW_CHECK_DEPTH)
}

/// Whether a check at `ply` of an iteration of `root_depth` may still be
/// extended: always, unless [`Options::extension_ply_limit`] asks for a
/// ply under twice the root depth (Stockfish's limit on extensions,
/// `ss->ply < 2 * rootDepth`).
fn within_ply_limit(options: &Options, ply: usize, root_depth: i32) -> bool {
    !options.extension_ply_limit || (ply as i32) < 2 * root_depth
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::INFINITE;

    #[test]
    fn deep_check_extension_extends_only_deep_and_away_from_equality() {
        let plain = Options::default();
        assert!(extends_checks_at(&plain, 1, 0));
        let on = Options {
            deep_check_extension: true,
            ..Options::default()
        };
        assert!(!extends_checks_at(&on, 6, 500));
        assert!(extends_checks_at(&on, 7, 101));
        assert!(extends_checks_at(&on, 7, -101));
        assert!(!extends_checks_at(&on, 7, 100));
        assert!(!extends_checks_at(&on, 12, -40));
        // In check the evaluation is -INFINITE: deep enough is enough.
        assert!(extends_checks_at(&on, 7, -INFINITE));
    }

    #[test]
    fn shallow_check_extension_extends_only_near_the_horizon() {
        let on = Options {
            shallow_check_extension: true,
            ..Options::default()
        };
        assert!(extends_checks_at(&on, 1, 0));
        assert!(extends_checks_at(&on, 3, 900));
        assert!(!extends_checks_at(&on, 4, 0));
        assert!(!extends_checks_at(&on, 12, -INFINITE));
    }

    #[test]
    fn the_ply_limit_stops_extensions_at_twice_the_root_depth() {
        assert!(within_ply_limit(&Options::default(), 40, 3));
        let on = Options {
            extension_ply_limit: true,
            ..Options::default()
        };
        assert!(within_ply_limit(&on, 1, 1));
        assert!(!within_ply_limit(&on, 2, 1));
        assert!(within_ply_limit(&on, 19, 10));
        assert!(!within_ply_limit(&on, 20, 10));
    }
}
