//! Nodes to each depth on the three positions of the depth figures (the
//! start, men in every prison and airfield, a quiet opening), with search
//! switches set on the command line:
//!
//! ```text
//! cargo run --release -p hostage-engine --features tuning --example depth_nodes -- \
//!     [DEPTH [MAX_NODES]] [on=SWITCH | off=SWITCH]...
//! ```
//!
//! Node counts are deterministic (one thread, a fresh engine a position),
//! so they compare search variants free of the machine's load; a depth not
//! completed within `MAX_NODES` is left out.

use hostage_core::Position;
use hostage_engine::{Engine, Limits, Options};

/// The start, the prison position and a quiet opening (`docs/engine.md`,
/// "Measured").
const POSITIONS: &[(&str, &str)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    ),
    (
        "prison",
        "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    ),
    (
        "quiet",
        "r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7",
    ),
];

/// The switch of `options` named `name`.
fn switch<'a>(options: &'a mut Options, name: &str) -> &'a mut bool {
    match name {
        "see_pruning" => &mut options.see_pruning,
        "qs_evasion_pruning" => &mut options.qs_evasion_pruning,
        "reduced_depth_pruning" => &mut options.reduced_depth_pruning,
        "king_zone_drops" => &mut options.king_zone_drops,
        "continuation" => &mut options.continuation,
        "checks_first" => &mut options.checks_first,
        "far_drop_pruning" => &mut options.far_drop_pruning,
        "qs_recaptures" => &mut options.qs_recaptures,
        "history_pruning" => &mut options.history_pruning,
        "deep_check_extension" => &mut options.deep_check_extension,
        "check_reductions" => &mut options.check_reductions,
        "shallow_check_extension" => &mut options.shallow_check_extension,
        "extension_ply_limit" => &mut options.extension_ply_limit,
        "evasion_reductions" => &mut options.evasion_reductions,
        "iir" => &mut options.iir,
        "nnue" => &mut options.nnue,
        _ => panic!("unknown switch {name}"),
    }
}

fn main() {
    let mut depth = 12;
    let mut max_nodes = 50_000_000;
    let mut options = Options::default();
    let mut numbers = 0;
    for arg in std::env::args().skip(1) {
        if let Some((state, name)) = arg.split_once('=') {
            *switch(&mut options, name) = match state {
                "on" => true,
                "off" => false,
                _ => panic!("on=SWITCH or off=SWITCH, not {arg}"),
            };
        } else {
            let n: u64 = arg.parse().expect("a number");
            match numbers {
                0 => depth = n as u32,
                _ => max_nodes = n,
            }
            numbers += 1;
        }
    }
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut engine = Engine::new();
        engine.set_options(options);
        let mut line = format!("{name:<7}");
        let limits = Limits::depth(depth).with_nodes(max_nodes);
        let result = engine.search_with_info(&pos, &[], &limits, &mut |info| {
            line.push_str(&format!(" d{}:{}", info.depth, info.nodes));
        });
        println!(
            "{line}  best {} {}",
            result.best_move.map(|m| m.to_string()).unwrap_or_default(),
            result.score
        );
    }
}
