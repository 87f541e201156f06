//! Quiet positions from self-play, labelled with the game's result: the
//! data of the Texel tuner (`examples/texel.rs`, driven by `scripts/texel`).
//!
//! ```text
//! cargo run --release -p hostage-match --example texel_data -- \
//!     --games G --shard I/N [--seed S] [--nodes N] [--random-plies R] \
//!     [--skip-plies P] [--max-plies M] [--eval nnue|hand]
//! ```
//!
//! Game `g` (0 ≤ g < G) belongs to shard `g mod N`; shard `I` plays its
//! games in order and prints one line per position kept,
//! `FEN;RESULT;GAME;SCORE` (RESULT 1, 0.5 or 0 from White's point of view;
//! SCORE the search's score of the position in centipawns, also from
//! White's point of view: the Texel tuner reads the first three fields, the
//! network trainer, `examples/nnue_train.rs`, all four), so the shards'
//! outputs together are the same set whatever the number of shards. Every
//! game is deterministic: it starts from opening `g mod 120` of the
//! built-in book, then `R` uniformly drawn legal plies from
//! `Rng::new(S ^ g·φ)` (so the games differ), then the full engine plays
//! both sides at `N` nodes a move from a fresh table ([`Engine::new_game`]),
//! evaluating with the network or the hand-written evaluation as `--eval`
//! says (the engine's default without it).
//! A game that reaches `M` plies counts as drawn.
//!
//! A position is kept when it is quiet and past the opening: at least `P`
//! plies into the game; the side to move is not in check; the move the
//! search chose is not a capture or a promotion; no capture of the side to
//! move wins material by static exchange ([`hostage_engine::see::see_ge`]
//! at 1 cp); and the search's score is not a mate. (The engine's own
//! quiescence search is private to the search; these tests ask the same
//! question, "would a capture change the static value?", of the search
//! that was run anyway.)

use hostage_core::Color;
use hostage_engine::{history_of, see::see_ge, Engine, Limits, Rng, Score};
use hostage_match::book::default_book;
use hostage_match::book::Opening;

/// The generator's settings, from the command line.
struct Config {
    games: u64,
    shard: u64,
    shards: u64,
    seed: u64,
    nodes: u64,
    random_plies: usize,
    skip_plies: usize,
    max_plies: usize,
    /// `Some(true)` for the network, `Some(false)` for the hand-written
    /// evaluation, `None` for the engine's default.
    nnue: Option<bool>,
}

fn parse_args() -> Config {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut c = Config {
        games: 1000,
        shard: 0,
        shards: 1,
        seed: 1,
        nodes: 3000,
        random_plies: 2,
        skip_plies: 16,
        max_plies: 300,
        nnue: None,
    };
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).expect("a value after each option");
        match args[i].as_str() {
            "--games" => c.games = v.parse().expect("--games N"),
            "--shard" => {
                let (a, b) = v.split_once('/').expect("--shard I/N");
                c.shard = a.parse().expect("shard index");
                c.shards = b.parse().expect("shard count");
                assert!(c.shard < c.shards, "--shard I/N needs I < N");
            }
            "--seed" => c.seed = v.parse().expect("--seed S"),
            "--nodes" => c.nodes = v.parse().expect("--nodes N"),
            "--random-plies" => c.random_plies = v.parse().expect("--random-plies R"),
            "--skip-plies" => c.skip_plies = v.parse().expect("--skip-plies P"),
            "--max-plies" => c.max_plies = v.parse().expect("--max-plies M"),
            "--eval" => {
                c.nnue = Some(match v.as_str() {
                    "nnue" => true,
                    "hand" => false,
                    _ => panic!("--eval nnue|hand"),
                });
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    c
}

/// Plays game `g` and returns its quiet positions (FENs, with the search's
/// score from White's point of view) and its result from White's point of
/// view.
fn play(c: &Config, book: &[Opening], g: u64, engine: &mut Engine) -> (Vec<(String, i32)>, f64) {
    let mut game = book[(g % book.len() as u64) as usize]
        .game()
        .expect("the built-in book is tested to load");
    let mut rng = Rng::new(c.seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for _ in 0..c.random_plies {
        let legal = game.position().legal_moves();
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        game.push(m).expect("a legal move");
    }
    engine.new_game();
    let mut quiet = Vec::new();
    let limits = Limits::nodes(c.nodes);
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.ply() >= c.max_plies {
            break 0.5;
        }
        let pos = game.position().clone();
        let found = engine.search(&pos, &history_of(&game), &limits);
        let Some(best) = found.best_move else {
            // No legal move yet no outcome cannot happen; stop rather than loop.
            break 0.5;
        };
        let cp = match found.score {
            Score::Cp(cp) => Some(cp),
            Score::Mate(_) => None,
        };
        if let Some(cp) = cp.filter(|_| {
            game.ply() >= c.skip_plies
                && !pos.is_check()
                && !best.is_capture()
                && best.promotion().is_none()
                && !pos
                    .legal_moves()
                    .iter()
                    .any(|m| m.is_capture() && see_ge(&pos, m, 1))
        }) {
            let white = match pos.turn() {
                Color::White => cp,
                Color::Black => -cp,
            };
            quiet.push((pos.fen(), white));
        }
        game.push(best).expect("the engine's move is legal");
    };
    if std::env::var_os("TEXEL_DATA_TRACE").is_some() {
        eprintln!(
            "game {g}: {} plies, {} kept, result {result}",
            game.ply(),
            quiet.len()
        );
    }
    (quiet, result)
}

fn main() {
    let c = parse_args();
    let book = default_book();
    let mut engine = Engine::with_hash_mb(16);
    if let Some(on) = c.nnue {
        engine.set_nnue(on);
    }
    let start = std::time::Instant::now();
    let mut positions = 0usize;
    let mut played = 0u64;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for g in (c.shard..c.games).step_by(c.shards as usize) {
        let (quiet, result) = play(&c, &book, g, &mut engine);
        for (fen, score) in &quiet {
            use std::io::Write;
            writeln!(out, "{fen};{result};{g};{score}").expect("write to stdout");
        }
        // A stopped run keeps every game it finished.
        std::io::Write::flush(&mut out).expect("write to stdout");
        positions += quiet.len();
        played += 1;
        if played % 20 == 0 {
            eprintln!(
                "shard {}/{}: {played} games, {positions} positions, {:.0} s",
                c.shard,
                c.shards,
                start.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "shard {}/{} done: {played} games, {positions} positions, {:.0} s",
        c.shard,
        c.shards,
        start.elapsed().as_secs_f64()
    );
}
