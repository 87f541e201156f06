//! Extensions: the moves searched a ply deeper than the others.
//!
//! A move that gives check is extended one ply ([`Options::check_extension`])
//! only when the checking man is not simply lost by static exchange
//! ([`crate::see`]): sacrificial checking drops (a man dropped next to the
//! king where it is taken) chained into long extended lines and a
//! selective depth of 30 plies. The table's move, when the singular test
//! found it singular and it is searched first, is extended too
//! ([`super::singular`]). Neither past two thirds of [`MAX_PLY`], so that a
//! path always ends; a move is extended at most one ply.

use hostage_core::{Move, Position};

use super::{Options, MAX_PLY};

/// The extension of move `m` of `pos` at `ply`: `gives_check` when it
/// does, `singular` the singular test's extension when `m` is the table's
/// move searched first (0 otherwise).
pub(super) fn extension(
    options: &Options,
    pos: &Position,
    m: &Move,
    gives_check: bool,
    ply: usize,
    singular: i32,
) -> i32 {
    let check = i32::from(
        options.check_extension
            && gives_check
            && ply < 2 * MAX_PLY / 3
            && crate::see::see_ge(pos, m, 0),
    );
    if ply < 2 * MAX_PLY / 3 {
        check.max(singular)
    } else {
        check
    }
}
