//! Self-play matches for tuning and for the level ladder: the tool behind
//! the figures in `docs/engine.md`.
//!
//! ```text
//! cargo run --release -p hostage-match --example tune -- FIRST SECOND [options]
//!   FIRST, SECOND   random | greedy | novice … club | full:NODES |
//!                   recipe:DEPTH:NODES:MARGIN:HALVING (a level of one's own)
//!   --games N       games (pairs of openings, both colours; default 200)
//!   --threads T     default 2
//!   --sprt E0,E1    stop when SPRT(E0, E1) at 5%/5% decides
//!   --set K=V       an evaluation weight of FIRST (a `Params` weight by
//!                   its name: `tempo`, `open_pct`, `piece_mg.1`, …), or
//!                   `off=NAME` / `on=NAME` to switch a search technique
//!                   of FIRST off or on
//!                   (null_move, lmr, leaf_pruning, reverse_futility,
//!                   aspiration, check_extension, continuation,
//!                   history_lmr, improving, iir, correction,
//!                   qs_store, capture_history, deep_pruning,
//!                   singular, see_pruning, reduced_depth_pruning,
//!                   cut_node_reduction, king_zone_drops, smp_vote,
//!                   qs_evasion_pruning, nnue, checks_first,
//!                   far_drop_pruning, qs_recaptures,
//!                   history_pruning, deep_check_extension,
//!                   check_reductions, shallow_check_extension,
//!                   extension_ply_limit, evasion_reductions);
//!                   FIRST must
//!                   be full:NODES
//!   --set-second K=V  the same for SECOND (full:NODES), so that a change
//!                   is measured against the engine with the changes
//!                   kept before it
//!   --hand          full players (FIRST and SECOND) evaluate with the
//!                   hand-written evaluation, not the network: the
//!                   weights of --set and --params are that evaluation's
//!   --params FILE   evaluation weights of FIRST, `NAME=VALUE` a line (as
//!                   `examples/texel.rs --out` writes them); FIRST must be
//!                   full:NODES
//!   --book FILE     openings (long-form moves a line); default: random
//!                   openings of 6 plies drawn from --seed
//!   --seed S        default 1
//! ```

use std::str::FromStr;

use hostage_core::Game;
use hostage_engine::{eval::Params, Engine, Level, Options, Recipe, Rng};
use hostage_match::{
    book::Opening,
    matches::{run_match, MatchConfig},
    players::{FullPlayer, NoMove, Player, PlayerSpec},
    stats::Sprt,
};

fn random_openings(count: usize, plies: usize, seed: u64) -> Vec<Opening> {
    let mut rng = Rng::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut book = Vec::new();
    while book.len() < count {
        let mut game = Game::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = game.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            moves.push(hostage_core::uci::UciMove::from_move(&m).to_string());
            game.push(m).expect("legal");
        }
        if game.outcome().is_none() && seen.insert(game.position().zobrist_hash()) {
            book.push(Opening { moves });
        }
    }
    book
}

/// The field of `$of` named `$name` (its own name), for the fields listed;
/// `None` for any other name.
macro_rules! field_named {
    ($of:expr, $name:expr, $($field:ident),+ $(,)?) => {
        match $name {
            $(stringify!($field) => Some(&mut $of.$field),)+
            _ => None,
        }
    };
}

/// Applies `--set K=V`: a weight of the evaluation, or `off=SWITCH` to turn
/// a search feature off.
fn set_param(p: &mut Params, o: &mut Options, kv: &str) {
    let (k, v) = kv.split_once('=').expect("--set K=V");
    if k == "off" || k == "on" {
        let switch = field_named!(
            o,
            v,
            null_move,
            lmr,
            leaf_pruning,
            reverse_futility,
            aspiration,
            check_extension,
            continuation,
            history_lmr,
            improving,
            iir,
            correction,
            qs_store,
            capture_history,
            deep_pruning,
            singular,
            see_pruning,
            reduced_depth_pruning,
            cut_node_reduction,
            king_zone_drops,
            smp_vote,
            qs_evasion_pruning,
            nnue,
            checks_first,
            far_drop_pruning,
            qs_recaptures,
            history_pruning,
            deep_check_extension,
            check_reductions,
            shallow_check_extension,
            extension_ply_limit,
            evasion_reductions,
        );
        *switch.unwrap_or_else(|| panic!("unknown option {v}")) = k == "on";
        return;
    }
    let v: i32 = v.parse().expect("integer value");
    p.set(k, v).unwrap_or_else(|e| panic!("{e}"));
}

/// A bot to a recipe given on the command line.
struct RecipePlayer {
    engine: Engine,
    recipe: Recipe,
    name: String,
}

impl Player for RecipePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, game: &Game, seed: u64) -> Result<hostage_core::Move, NoMove> {
        let history = hostage_engine::history_of(game);
        self.engine
            .play_recipe_at(game.position(), &history, &self.recipe, seed)
            .best_move
            .ok_or(NoMove::GaveUp)
    }
}

/// `recipe:D:N:M:H`, or a built-in player (a full player evaluating by
/// hand with `hand`).
fn player(text: &str, hand: bool) -> Box<dyn Fn() -> Box<dyn Player> + Sync> {
    if let Some(rest) = text.strip_prefix("recipe:") {
        let v: Vec<i64> = rest
            .split(':')
            .map(|x| x.parse().expect("number"))
            .collect();
        let mut recipe = Level::Novice.recipe();
        recipe.depth = v[0] as u32;
        recipe.nodes = v[1] as u64;
        recipe.margin = v[2] as i32;
        recipe.halving = v[3] as i32;
        recipe.hash_mb = 2;
        recipe.rating = 0;
        let name = text.to_string();
        return Box::new(move || {
            Box::new(RecipePlayer {
                engine: Engine::with_hash_mb(1),
                recipe,
                name: name.clone(),
            })
        });
    }
    let spec = PlayerSpec::from_str(text).expect("player");
    match spec {
        PlayerSpec::Full { nodes } if hand => Box::new(move || {
            let mut p = FullPlayer::new(nodes);
            p.engine_mut().set_nnue(false);
            Box::new(p)
        }),
        _ => Box::new(move || spec.build()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let first_text = args[0].clone();
    let mut games: usize = 200;
    let mut threads = 2;
    let mut sprt = None;
    let mut seed: u64 = 1;
    let mut book = None;
    let mut params = Params::default();
    let mut options = Options::default();
    let mut changed = false;
    let mut second_params = Params::default();
    let mut second_options = Options::default();
    let mut second_changed = false;
    let mut hand = false;
    let mut i = 2;
    while i < args.len() {
        if args[i] == "--hand" {
            hand = true;
            options.nnue = false;
            second_options.nnue = false;
            i += 1;
            continue;
        }
        let v = &args[i + 1];
        match args[i].as_str() {
            "--games" => games = v.parse().expect("games"),
            "--threads" => threads = v.parse().expect("threads"),
            "--seed" => seed = v.parse().expect("seed"),
            "--book" => book = Some(std::fs::read_to_string(v).expect("book file")),
            "--sprt" => {
                let (a, b) = v.split_once(',').expect("E0,E1");
                sprt = Some(Sprt {
                    elo0: a.parse().expect("elo0"),
                    elo1: b.parse().expect("elo1"),
                    ..Sprt::default()
                });
            }
            "--params" => {
                let text = std::fs::read_to_string(v).expect("params file");
                for line in text.lines().filter(|l| !l.trim().is_empty()) {
                    set_param(&mut params, &mut options, line.trim());
                }
                changed = true;
            }
            "--set" => {
                set_param(&mut params, &mut options, v);
                changed = true;
            }
            "--set-second" => {
                set_param(&mut second_params, &mut second_options, v);
                second_changed = true;
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let openings = match book {
        Some(text) => Opening::parse_book(&text).expect("book"),
        None => random_openings(games.div_ceil(2), 6, seed),
    };
    let mut config = MatchConfig::default();
    config.openings = openings;
    config.max_games = Some(games);
    config.max_plies = 300;
    config.threads = threads;
    config.seed = seed;
    config.sprt = sprt;
    let plain_second = player(&args[1], hand);
    let second_text = args[1].clone();
    let second_player = move || -> Box<dyn Player> {
        match (second_changed, PlayerSpec::from_str(&second_text)) {
            (true, Ok(PlayerSpec::Full { nodes })) => {
                let mut p = FullPlayer::new(nodes);
                p.engine_mut().set_params(second_params);
                p.engine_mut().set_options(second_options);
                Box::new(p)
            }
            (true, _) => panic!("--set-second needs SECOND = full:NODES"),
            (false, _) => plain_second(),
        }
    };
    let plain_first = player(&first_text, hand);
    let make_first = move || -> Box<dyn Player> {
        match (changed, PlayerSpec::from_str(&first_text)) {
            (true, Ok(PlayerSpec::Full { nodes })) => {
                let mut p = FullPlayer::new(nodes);
                p.engine_mut().set_params(params);
                p.engine_mut().set_options(options);
                Box::new(p)
            }
            (true, _) => panic!("--set needs FIRST = full:NODES"),
            (false, _) => plain_first(),
        }
    };
    let start = std::time::Instant::now();
    let result = run_match(&config, &make_first, &second_player, &|g, wdl| {
        eprintln!(
            "game {:>4} {:>7} {:<28} {}",
            g.index + 1,
            g.result.as_str(),
            g.termination,
            wdl
        );
    })
    .expect("match");
    let elo = result.wdl.elo();
    println!(
        "{} vs {}: {} games {} score {:.1}% elo {}{} ({:.0} s)",
        args[0],
        args[1],
        result.wdl.games(),
        result.wdl,
        100.0 * result.wdl.score(),
        elo,
        match (sprt, result.verdict) {
            (Some(s), Some(v)) => format!(
                " SPRT({}, {}) LLR {:.2} {v}",
                s.elo0,
                s.elo1,
                result.wdl.llr(s.elo0, s.elo1)
            ),
            _ => String::new(),
        },
        start.elapsed().as_secs_f64()
    );
}
