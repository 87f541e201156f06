//! `Puzzles` (`JsPuzzles` here): the built-in verified puzzle set,
//! selection near a rating, the solution check and Glicko-2, as static
//! methods. The library keeps no storage: the page passes the player's
//! rating and the ids already seen, and keeps what comes back (e.g. in
//! `localStorage`). Each method reads its arguments, makes one call into
//! `hostage-puzzles` and converts the result or the error.

use std::collections::HashSet;

use hostage_puzzles::{
    glicko::{self, Rating},
    record::{parse_puzzles, ParsePuzzleError, Puzzle},
    selection::{next_puzzle, Difficulty, ParseDifficultyError},
};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::{
    convert::{set, string_arg},
    errors::{type_error, Throw},
};

fn js_error(name: &str, code: &str, message: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    e.set_name(name);
    let _ = Reflect::set(&e, &"code".into(), &code.into());
    e.into()
}

impl Throw for ParsePuzzleError {
    fn throw(&self) -> JsValue {
        js_error("PuzzleError", self.code(), &self.to_string())
    }
}

impl Throw for ParseDifficultyError {
    fn throw(&self) -> JsValue {
        js_error("DifficultyError", self.code(), &self.to_string())
    }
}

fn puzzle_object(p: &Puzzle) -> JsValue {
    let obj = Object::new();
    set(&obj, "id", p.id.as_str());
    set(&obj, "fen", p.fen());
    let moves: Array = p.moves_text().into_iter().map(JsValue::from).collect();
    set(&obj, "moves", moves);
    set(&obj, "rating", p.rating);
    set(&obj, "deviation", p.deviation);
    let themes: Array = p.themes.iter().map(|t| JsValue::from(t.name())).collect();
    set(&obj, "themes", themes);
    // A u64 does not fit a JavaScript number: the seed is a decimal string.
    set(&obj, "seed", p.seed.to_string());
    set(&obj, "ply", p.ply);
    let solvers: String = p.solvers.iter().map(|d| char::from(b'0' + d)).collect();
    set(&obj, "solvers", solvers);
    set(&obj, "depth", p.depth);
    set(&obj, "nodes", p.nodes as f64);
    set(&obj, "mate", p.is_mate());
    let lead_in = p.lead_in.as_ref();
    set(
        &obj,
        "leadInFen",
        lead_in.map_or(JsValue::NULL, |l| l.position.fen().into()),
    );
    set(
        &obj,
        "leadIn",
        lead_in.map_or(JsValue::NULL, |l| l.mv.to_string().into()),
    );
    obj.into()
}

fn rating_object(r: Rating) -> JsValue {
    let obj = Object::new();
    set(&obj, "rating", r.rating);
    set(&obj, "deviation", r.deviation);
    set(&obj, "volatility", r.volatility);
    obj.into()
}

fn number_field(value: &JsValue, key: &str, what: &str) -> Result<f64, JsValue> {
    Reflect::get(value, &key.into())
        .ok()
        .and_then(|v| v.as_f64())
        .filter(|n| n.is_finite())
        .ok_or_else(|| type_error(&format!("{what}.{key} must be a finite number")))
}

fn rating_arg(value: &JsValue, what: &str) -> Result<Rating, JsValue> {
    if !value.is_object() {
        return Err(type_error(&format!(
            "{what} must be {{ rating, deviation, volatility }}"
        )));
    }
    Ok(Rating {
        rating: number_field(value, "rating", what)?,
        deviation: number_field(value, "deviation", what)?,
        volatility: number_field(value, "volatility", what)?,
    })
}

fn find(id: &str) -> Result<&'static Puzzle, JsValue> {
    hostage_puzzles::find(id).ok_or_else(|| {
        let shown: String = id.chars().take(40).collect();
        js_error(
            "PuzzleError",
            "unknown_puzzle",
            &format!("unknown puzzle id: {shown:?}"),
        )
    })
}

/// The built-in puzzle set and the rating functions (static methods only).
#[wasm_bindgen(js_name = Puzzles)]
pub struct JsPuzzles;

#[wasm_bindgen(js_class = Puzzles)]
impl JsPuzzles {
    /// How many puzzles the built-in set has.
    pub fn count() -> usize {
        hostage_puzzles::puzzles().len()
    }

    /// Every built-in puzzle.
    #[wasm_bindgen(unchecked_return_type = "Puzzle[]")]
    pub fn all() -> Array {
        hostage_puzzles::puzzles()
            .iter()
            .map(puzzle_object)
            .collect()
    }

    /// The built-in puzzle with this id; throws `PuzzleError`
    /// (`unknown_puzzle`).
    #[wasm_bindgen(unchecked_return_type = "Puzzle")]
    pub fn get(id: &JsValue) -> Result<JsValue, JsValue> {
        Ok(puzzle_object(find(&string_arg(id, "id")?)?))
    }

    /// Puzzles read from record text (`data/puzzles.csv` format); throws
    /// `PuzzleError` with the line and an `invalid_puzzle_*` code.
    #[wasm_bindgen(unchecked_return_type = "Puzzle[]")]
    pub fn parse(text: &JsValue) -> Result<Array, JsValue> {
        let set = parse_puzzles(&string_arg(text, "text")?).map_err(|e| e.throw())?;
        Ok(set.iter().map(puzzle_object).collect())
    }

    /// The next unseen built-in puzzle for a player rated `rating`, or
    /// `null` once every puzzle was seen.
    #[wasm_bindgen(unchecked_return_type = "Puzzle | null")]
    pub fn next(
        rating: f64,
        #[wasm_bindgen(unchecked_param_type = "NextPuzzleOptions")] options: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let get = |key: &str| -> JsValue {
            if options.is_object() {
                Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            }
        };
        let difficulty = match get("difficulty") {
            v if v.is_undefined() || v.is_null() => Difficulty::Normal,
            v => string_arg(&v, "difficulty")?
                .parse()
                .map_err(|e: ParseDifficultyError| e.throw())?,
        };
        let seen_value = get("seen");
        let mut seen = HashSet::new();
        if !seen_value.is_undefined() && !seen_value.is_null() {
            if !Array::is_array(&seen_value) {
                return Err(type_error("seen must be an array of puzzle ids"));
            }
            for id in Array::from(&seen_value).iter() {
                seen.insert(string_arg(&id, "seen[i]")?);
            }
        }
        let seed_value = get("seed");
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let seed = match seed_value.as_f64() {
            Some(n) if n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&n) => n as u64,
            None if seed_value.is_undefined() || seed_value.is_null() => 0,
            _ => return Err(type_error("seed must be a non-negative safe integer")),
        };
        Ok(
            next_puzzle(hostage_puzzles::puzzles(), rating, difficulty, &seen, seed)
                .map_or(JsValue::NULL, puzzle_object),
        )
    }

    /// Whether `move` (SAN or long form) is right as move `index` of
    /// built-in puzzle `id`: the solution's move, or any mate on the last
    /// move of a mate; `false` past the solution or for a reply. Throws
    /// `InvalidMoveError` / `IllegalMoveError` for text that is not a
    /// legal move where the puzzle stands.
    pub fn accepts(id: &JsValue, index: usize, uci: &JsValue) -> Result<bool, JsValue> {
        let puzzle = find(&string_arg(id, "id")?)?;
        let text = string_arg(uci, "move")?;
        puzzle.accepts_text(index, &text).map_err(|e| e.throw())
    }

    /// A new player's rating: 1500 / 500 / 0.09.
    #[wasm_bindgen(js_name = newRating, unchecked_return_type = "Rating")]
    pub fn new_rating() -> JsValue {
        rating_object(Rating::new_player())
    }

    /// Both ratings after one attempt (Glicko-2 with lichess's puzzle
    /// parameters): `{ player, puzzle }`.
    #[wasm_bindgen(unchecked_return_type = "RatingUpdate")]
    pub fn update(
        #[wasm_bindgen(unchecked_param_type = "Rating")] player: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Rating")] puzzle: &JsValue,
        solved: bool,
    ) -> Result<JsValue, JsValue> {
        let (p, z) = glicko::update_attempt(
            rating_arg(player, "player")?,
            rating_arg(puzzle, "puzzle")?,
            solved,
        );
        let obj = Object::new();
        set(&obj, "player", rating_object(p));
        set(&obj, "puzzle", rating_object(z));
        Ok(obj.into())
    }

    /// Glicko-2 for one rating period (Glickman's algorithm, no clamping):
    /// `games` are `{ opponent: Rating, score }`.
    #[wasm_bindgen(unchecked_return_type = "Rating")]
    pub fn rate(
        #[wasm_bindgen(unchecked_param_type = "Rating")] player: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "RatedGame[]")] games: &JsValue,
        tau: f64,
    ) -> Result<JsValue, JsValue> {
        if !Array::is_array(games) {
            return Err(type_error("games must be an array of { opponent, score }"));
        }
        let mut list = Vec::new();
        for g in Array::from(games).iter() {
            let opponent = Reflect::get(&g, &"opponent".into()).unwrap_or(JsValue::UNDEFINED);
            list.push(glicko::Game {
                opponent: rating_arg(&opponent, "game.opponent")?,
                score: number_field(&g, "score", "game")?,
            });
        }
        Ok(rating_object(glicko::rate(
            rating_arg(player, "player")?,
            &list,
            tau,
        )))
    }
}

#[wasm_bindgen(typescript_custom_section)]
const TS_PUZZLE_TYPES: &'static str = r#"
/** One verified puzzle (a line of `data/puzzles.csv`; docs/puzzles.md). */
export interface Puzzle {
  /** 10 hex digits, stable. */
  id: string;
  /** Hostage FEN; the solver is to move. */
  fen: string;
  /** Long form: solver's move, reply, solver's move, …; ends with a solver's move. */
  moves: string[];
  /** Initial rating. */
  rating: number;
  /** Initial rating deviation. */
  deviation: number;
  /** Theme names (`mateIn2`, `fork`, `dropMate`, `rescue`, …). */
  themes: string[];
  /** The generator's game seed (a u64, as a decimal string). */
  seed: string;
  /** The ply of that game at which the puzzle starts. */
  ply: number;
  /** Per bot level (Novice … Club), how many of 3 seeds solved it, e.g. `"03333"`. */
  solvers: string;
  /** The deepest iteration at which the engine settled on a solver move. */
  depth: number;
  /** The nodes the engine needed (the source of the initial rating). */
  nodes: number;
  /** Whether the solution ends in checkmate. */
  mate: boolean;
  /**
   * The position before the lead-in move, the opponent to move: where a
   * trainer opens the puzzle. `null` when the lead-in is not known.
   */
  leadInFen: string | null;
  /**
   * The opponent's move that led to the puzzle (long form), played in
   * `leadInFen` it gives `fen`. `null` when not known.
   */
  leadIn: string | null;
}

/** How hard a puzzle to serve, relative to the player: −600, −300, 0, +300, +600. */
export type Difficulty = 'easiest' | 'easier' | 'normal' | 'harder' | 'hardest';

/** Options of `Puzzles.next()`. */
export interface NextPuzzleOptions {
  difficulty?: Difficulty;
  /** Ids of the puzzles already seen. */
  seen?: string[];
  /** Picks among the puzzles of the window (a safe integer; default 0). */
  seed?: number;
}

/** A Glicko-2 rating. */
export interface Rating { rating: number; deviation: number; volatility: number }

/** The two ratings after an attempt. */
export interface RatingUpdate { player: Rating; puzzle: Rating }

/** One game of a rating period (score 1 win, 0.5 draw, 0 loss). */
export interface RatedGame { opponent: Rating; score: number }
"#;
