//! Replays the game of every puzzle of a puzzle file (the generator's
//! games are a function of their seed: levels, opening and every bot move,
//! each bot search on a node budget from an empty table) and prints
//! `id,before_fen,move` for each puzzle whose replay reaches exactly the
//! recorded FEN at the recorded ply; every other puzzle is named on stderr.
//!
//! Runs at the commit whose engine played the games (README.md): built as
//! it is at af35f98, and with `RUSTFLAGS="--cfg engine_book"` at c025127,
//! whose generator read its openings from another book.
use std::collections::BTreeMap;

use hostage_core::Game;
use hostage_engine::{Engine, Level, Rng};
use hostage_puzzles::generate::{MAX_PLIES, PLAYERS};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: lead_in_replay PUZZLES.csv");
    let text = std::fs::read_to_string(path).expect("a readable file");
    let mut by_seed: BTreeMap<u64, Vec<(String, String, usize)>> = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let seed: u64 = f[6].parse().expect("a seed");
        let ply: usize = f[7].parse().expect("a ply");
        by_seed
            .entry(seed)
            .or_default()
            .push((f[0].to_string(), f[1].to_string(), ply));
    }
    let mut engine = Engine::new();
    let (mut found, mut missed) = (0, 0);
    for (seed, list) in by_seed {
        let last = list.iter().map(|p| p.2).max().unwrap_or(0);
        let (levels, mut game) = start(seed);
        while game.ply() < last && game.ply() < MAX_PLIES && game.outcome().is_none() {
            let ply = game.ply();
            let Some(m) = engine.play_level(&game, levels[ply % 2], seed ^ ply as u64) else {
                break;
            };
            if game.push(m).is_err() {
                break;
            }
        }
        for (id, fen, ply) in list {
            let before = ply.checked_sub(1).and_then(|p| game.position_at(p));
            let mv = ply.checked_sub(1).and_then(|p| game.moves().get(p));
            match (before, mv, game.position_at(ply)) {
                (Some(before), Some(mv), Some(at)) if at.fen() == fen => {
                    found += 1;
                    println!("{id},{},{mv}", before.fen());
                }
                (_, _, at) => {
                    missed += 1;
                    let reached =
                        at.map_or_else(|| "the game ended first".to_string(), |p| p.fen());
                    eprintln!(
                        "{id}: seed {seed} ply {ply}: replay reached {reached}, recorded {fen}"
                    );
                }
            }
        }
    }
    eprintln!("recovered {found}, not recovered {missed}");
}

/// The levels and the opening of the game with this seed, drawn as the
/// generator of this commit draws them.
fn start(seed: u64) -> ([Level; 2], Game) {
    let book = book();
    let players: &[Level] = &PLAYERS;
    let mut rng = Rng::new(seed);
    let levels = [
        players[rng.below(players.len() as u64) as usize],
        players[rng.below(players.len() as u64) as usize],
    ];
    (levels, opening(&book, &mut rng))
}

// How each commit's generator read an opening. At c025127 the book is
// hostage_engine::book and an opening is a list of long-form moves, played
// until one fails; at af35f98 it is hostage_match::book and an opening
// replays itself. Either draws the opening only from a non-empty book.
#[cfg(engine_book)]
type Opening = hostage_engine::matches::Opening;
#[cfg(not(engine_book))]
type Opening = hostage_match::opening::Opening;

#[cfg(engine_book)]
fn book() -> Vec<Opening> {
    hostage_engine::book::default_book()
}

#[cfg(not(engine_book))]
fn book() -> Vec<Opening> {
    hostage_match::book::default_book()
}

fn opening(book: &[Opening], rng: &mut Rng) -> Game {
    if book.is_empty() {
        return Game::new();
    }
    let opening = &book[rng.below(book.len() as u64) as usize];
    play_opening(opening)
}

#[cfg(engine_book)]
fn play_opening(opening: &Opening) -> Game {
    let mut game = Game::new();
    for m in &opening.moves {
        if game.push_uci(m).is_err() {
            break;
        }
    }
    game
}

#[cfg(not(engine_book))]
fn play_opening(opening: &Opening) -> Game {
    opening.game().unwrap_or_default()
}
