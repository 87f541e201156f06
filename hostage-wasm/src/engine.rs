//! `Engine` (`JsEngine` here): the search and the bots of `hostage-engine`
//! for JavaScript, and `engineLevels()`.
//!
//! A position is given as a `Board` (its start position and the moves
//! played on it, the earlier positions being the history for repetition,
//! R12) or as a FEN with `history`, the moves played from that FEN (as
//! `board.history()` gives them; UCI's `position fen … moves …`). Each
//! method reads its arguments, makes one engine call and converts the
//! result. There is no `movetime`: WebAssembly has no clock the engine
//! reads, and node and depth limits keep results reproducible. For a page
//! that must stay responsive, `web/engine-worker.js` runs an `Engine` in a
//! Web Worker (`hostage-chess/worker`).

use hostage_core::{game::Game, pgn::PgnGame, san::San, Color, Move, Position};
use hostage_engine::{
    history_of, review::Judgement, Engine, Level, Limits, ParseLevelError, PlayerReview, Score,
    DEFAULT_HASH_MB, MAX_HASH_MB,
};
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::{prelude::*, JsCast};

use crate::{
    convert::{self, set, string_arg},
    errors::{type_error, Throw},
};

impl Throw for ParseLevelError {
    fn throw(&self) -> JsValue {
        let e = js_sys::Error::new(&self.to_string());
        e.set_name("LevelError");
        let _ = Reflect::set(&e, &"code".into(), &self.code().into());
        e.into()
    }
}

/// A field of an options object (`undefined` when absent or not an object).
fn field(options: &JsValue, key: &str) -> JsValue {
    if options.is_object() {
        Reflect::get(options, &key.into()).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// An optional non-negative integer field, at most `max`.
fn int_field(options: &JsValue, key: &str, max: f64) -> Result<Option<f64>, JsValue> {
    let v = field(options, key);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    v.as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=max).contains(n))
        .map(Some)
        .ok_or_else(|| type_error(&format!("{key} must be an integer from 0 to {max}")))
}

/// The `nodes` and `depth` fields of a search's options, at least one of
/// them given: WebAssembly has no clock, so a search needs a budget.
fn budget_fields(options: &JsValue, what: &str) -> Result<(Option<u64>, Option<u32>), JsValue> {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let nodes = int_field(options, "nodes", 9_007_199_254_740_991.0)?.map(|n| n as u64);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let depth = int_field(options, "depth", 64.0)?.map(|d| d as u32);
    if nodes.is_none() && depth.is_none() {
        return Err(type_error(&format!(
            "{what} needs nodes or depth (no movetime in WebAssembly)"
        )));
    }
    Ok((nodes, depth))
}

/// The seed: a number (a safe integer) or a bigint, 0 to 2^64 - 1.
fn seed_field(options: &JsValue) -> Result<u64, JsValue> {
    let v = field(options, "seed");
    if v.is_undefined() || v.is_null() {
        return Ok(0);
    }
    if v.is_bigint() {
        return u64::try_from(v).map_err(|_| type_error("seed must be from 0 to 2^64 - 1"));
    }
    // Safe integers convert exactly.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    v.as_f64()
        .filter(|n| n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(n))
        .map(|n| n as u64)
        .ok_or_else(|| type_error("seed must be a non-negative safe integer or a bigint"))
}

/// The game a `Board | string` argument names (with `options.history`
/// for a FEN).
fn game_arg(position: &JsValue, options: &JsValue) -> Result<Game, JsValue> {
    let (fen, history) = if let Some(fen) = position.as_string() {
        (fen, field(options, "history"))
    } else {
        // A Board (or anything with startFen() and history()).
        let call = |name: &str| -> Result<JsValue, JsValue> {
            Reflect::get(position, &name.into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .ok_or_else(|| type_error("position must be a Board or a FEN string"))?
                .call0(position)
        };
        let fen = call("startFen")?
            .as_string()
            .ok_or_else(|| type_error("startFen() must return a string"))?;
        (fen, call("history")?)
    };
    let start = Position::from_fen(&fen).map_err(|e| e.throw())?;
    if history.is_undefined() || history.is_null() {
        return Ok(Game::from_position(start));
    }
    if !Array::is_array(&history) {
        return Err(type_error(
            "history must be an array of moves (SAN or long form)",
        ));
    }
    let moves = Array::from(&history)
        .iter()
        .map(|item| string_arg(&item, "a history move"))
        .collect::<Result<Vec<String>, JsValue>>()?;
    // One move per item: the core's move lists, errors worded as everywhere.
    Game::from_moves(start, &moves).map_err(|e| e.throw())
}

/// `{ cp }` or `{ mate }`.
fn score(s: Score) -> Object {
    let obj = Object::new();
    match s {
        Score::Cp(cp) => set(&obj, "cp", cp),
        Score::Mate(n) => set(&obj, "mate", n),
    }
    obj
}

/// `{ move, score, pv, pvSan }` of a line starting at `pos`.
fn line(pos: &Position, s: Score, pv: &[Move]) -> Object {
    let obj = Object::new();
    let first = pv
        .first()
        .map_or(JsValue::NULL, |m| convert::move_object(pos, m));
    set(&obj, "move", first);
    set(&obj, "score", score(s));
    let uci: Array = pv.iter().map(|m| JsValue::from(m.to_string())).collect();
    set(&obj, "pv", uci);
    let san: Array = San::write_line(pos, pv)
        .into_iter()
        .map(JsValue::from)
        .collect();
    set(&obj, "pvSan", san);
    obj
}

/// A Hostage Chess engine: a transposition table kept from search to
/// search (`newGame()` clears it), the full-strength search and the bots.
#[wasm_bindgen(js_name = Engine)]
pub struct JsEngine {
    pub(crate) engine: Engine,
}

#[wasm_bindgen(js_class = Engine)]
impl JsEngine {
    /// An engine with a table of `hashMb` MiB (default 16), evaluating
    /// with the network of `network` when given (`loadNetwork`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "EngineOptions")] options: Option<Object>,
    ) -> Result<JsEngine, JsValue> {
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        #[allow(clippy::cast_precision_loss)]
        let max = MAX_HASH_MB as f64;
        let mb = int_field(&options, "hashMb", max)?;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let mut engine = Engine::with_hash_mb(mb.map_or(DEFAULT_HASH_MB, |mb| mb as usize));
        crate::network::load(&mut engine, &field(&options, "network"))?;
        Ok(JsEngine { engine })
    }

    /// Searches at full strength within `nodes` and/or `depth` (one of
    /// them is required: there is no clock), reporting `multipv` lines.
    #[wasm_bindgen(unchecked_return_type = "Analysis")]
    pub fn analyse(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Board | string")] position: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "AnalyseOptions")] options: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let game = game_arg(position, options)?;
        let (nodes, depth) = budget_fields(options, "analyse")?;
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let multipv = int_field(options, "multipv", 256.0)?.map_or(1, |k| k as usize);
        let mut limits = Limits::infinite().with_multipv(multipv);
        (limits.nodes, limits.depth) = (nodes, depth);
        let pos = game.position();
        let r = self.engine.search(pos, &history_of(&game), &limits);
        let obj = Object::new();
        set(
            &obj,
            "bestMove",
            r.best_move
                .map_or(JsValue::NULL, |m| convert::move_object(pos, &m)),
        );
        let best = line(pos, r.score, &r.pv);
        set(&obj, "score", score(r.score));
        set(&obj, "pv", Reflect::get(&best, &"pv".into())?);
        set(&obj, "pvSan", Reflect::get(&best, &"pvSan".into())?);
        set(&obj, "depth", r.depth);
        set(&obj, "seldepth", r.seldepth);
        // Node counts stay far below 2^53.
        #[allow(clippy::cast_precision_loss)]
        set(&obj, "nodes", r.nodes as f64);
        let lines: Array = r
            .lines
            .iter()
            .map(|l| JsValue::from(line(pos, l.score, &l.pv)))
            .collect();
        set(&obj, "lines", lines);
        Ok(obj.into())
    }

    /// The move the bot of `level` chooses with `seed` (a move object), or
    /// `null` when the game has no legal move. The same position, history,
    /// level and seed give the same move in Rust, Python and JavaScript.
    #[wasm_bindgen(unchecked_return_type = "Move | null")]
    pub fn play(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Board | string")] position: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "PlayOptions")] options: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let game = game_arg(position, options)?;
        let name = string_arg(&field(options, "level"), "level")?;
        let level: Level = name.parse().map_err(|e: ParseLevelError| e.throw())?;
        let seed = seed_field(options)?;
        let pos = game.position();
        let r = self
            .engine
            .play_level_at(pos, &history_of(&game), level, seed);
        Ok(r.best_move
            .map_or(JsValue::NULL, |m| convert::move_object(pos, &m)))
    }

    /// Reviews the game of `position` (a Board's moves from its start, or a
    /// FEN with `history`): every position searched within `nodes` and/or
    /// `depth` (one is required), every move judged as lichess does.
    /// `onProgress(done, total)` is called after each position searched; an
    /// exception it throws is rethrown once the review ends.
    #[wasm_bindgen(unchecked_return_type = "GameReview")]
    pub fn review(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Board | string")] position: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "ReviewOptions")] options: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let game = game_arg(position, options)?;
        let (nodes, depth) = budget_fields(options, "review")?;
        let progress = field(options, "onProgress");
        let progress = if progress.is_undefined() || progress.is_null() {
            None
        } else {
            Some(
                progress
                    .dyn_into::<Function>()
                    .map_err(|_| type_error("onProgress must be a function"))?,
            )
        };
        let mut limits = Limits::infinite();
        (limits.nodes, limits.depth) = (nodes, depth);
        let mut failure = None;
        let review = self.engine.review(&game, &limits, &mut |done, total| {
            if let (Some(f), None) = (&progress, &failure) {
                #[allow(clippy::cast_precision_loss)]
                if let Err(e) = f.call2(
                    &JsValue::NULL,
                    &(done as f64).into(),
                    &(total as f64).into(),
                ) {
                    failure = Some(e);
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let moves = Array::new();
        let positions = game.positions();
        for m in &review.moves {
            let pos = &positions[m.ply - 1];
            let obj = Object::new();
            set(&obj, "ply", m.ply as f64);
            set(
                &obj,
                "color",
                if m.color == Color::White {
                    "white"
                } else {
                    "black"
                },
            );
            set(&obj, "move", convert::move_object(pos, &m.mv));
            set(&obj, "san", m.san.as_str());
            set(&obj, "before", score(m.before));
            set(&obj, "after", score(m.after));
            let best = m
                .best
                .map_or(JsValue::NULL, |b| convert::move_object(pos, &b));
            set(&obj, "best", best);
            let line: Array = m
                .best_line
                .iter()
                .map(|mv| JsValue::from(mv.to_string()))
                .collect();
            set(&obj, "bestLine", line);
            set(&obj, "winBefore", m.win_before);
            set(&obj, "winAfter", m.win_after);
            set(&obj, "accuracy", m.accuracy);
            set(
                &obj,
                "judgement",
                m.judgement
                    .map_or(JsValue::NULL, |j: Judgement| j.name().into()),
            );
            moves.push(&obj);
        }
        let mut record = PgnGame::from_game(&game);
        review.annotate(&mut record);
        let obj = Object::new();
        set(&obj, "moves", moves);
        set(&obj, "white", player(&review.white));
        set(&obj, "black", player(&review.black));
        set(&obj, "pgn", record.write());
        Ok(obj.into())
    }

    /// Evaluates the full-strength search (`analyse`, `review`) with the
    /// network of `bytes`, the contents of the package's `nnue.bin`
    /// (`null`: the hand-written evaluation again). Throws a
    /// `NetworkError` (code `nnue_magic`, `nnue_shape` or `nnue_length`)
    /// for bytes that are not such a file, a truncated one included, and
    /// then leaves the engine as it was. The bots keep the hand-written
    /// evaluation.
    #[wasm_bindgen(js_name = loadNetwork)]
    pub fn load_network(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | null")] bytes: &JsValue,
    ) -> Result<(), JsValue> {
        crate::network::load(&mut self.engine, bytes)
    }

    /// Whether the full-strength search evaluates with a network (one was
    /// loaded).
    #[wasm_bindgen(getter, js_name = usesNetwork)]
    pub fn uses_network(&self) -> bool {
        self.engine.uses_network()
    }

    /// Forgets what earlier searches learned (bot moves never depend on it).
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }
}

/// `{ accuracy, acpl, inaccuracies, mistakes, blunders }` (`null` figures
/// for a player without a move).
fn player(p: &PlayerReview) -> Object {
    let obj = Object::new();
    set(
        &obj,
        "accuracy",
        p.accuracy.map_or(JsValue::NULL, JsValue::from),
    );
    set(&obj, "acpl", p.acpl.map_or(JsValue::NULL, JsValue::from));
    #[allow(clippy::cast_precision_loss)]
    {
        set(&obj, "inaccuracies", p.inaccuracies as f64);
        set(&obj, "mistakes", p.mistakes as f64);
        set(&obj, "blunders", p.blunders as f64);
    }
    obj
}

/// The bot levels, weakest first: `{ name, rating }` (the rating is a label).
#[wasm_bindgen(js_name = engineLevels, unchecked_return_type = "EngineLevel[]")]
pub fn engine_levels() -> Array {
    Level::ALL
        .iter()
        .map(|l| {
            let obj = Object::new();
            set(&obj, "name", l.name());
            set(&obj, "rating", l.recipe().rating);
            JsValue::from(obj)
        })
        .collect()
}

#[wasm_bindgen(typescript_custom_section)]
const TS_ENGINE_TYPES: &'static str = r#"
/** The bot levels, weakest first. */
export type LevelName = 'novice' | 'beginner' | 'casual' | 'intermediate' | 'club';

/** A level and the rating shown for it (a label, not a measurement). */
export interface EngineLevel { name: LevelName; rating: number }

/** Options of `new Engine()`. */
export interface EngineOptions {
  /** Transposition table size in MiB (default 16). */
  hashMb?: number;
  /**
   * The network's weights, the bytes of the package's `nnue.bin`
   * (`fetchNetwork()` of `hostage-chess/network` in a browser; the file
   * `hostage-chess/nnue.bin` in Node.js): `analyse` and `review` evaluate
   * with it, as the native engine does. Without it they use the
   * hand-written evaluation. The bots use the hand-written one either way.
   */
  network?: Uint8Array | ArrayBuffer | null;
}

/** Where a search starts: with a FEN, `history` is the moves played from it. */
export interface PositionOptions {
  /**
   * With a FEN: the moves played from it (SAN or long form), as
   * `board.history()` gives them. The position searched is the one after
   * them; the earlier ones count for repetition (R12). Ignored for a Board.
   */
  history?: string[];
}

/** Options of `engine.analyse()`: `nodes` or `depth` (or both) is required. */
export interface AnalyseOptions extends PositionOptions {
  /** Stop after about this many nodes. */
  nodes?: number;
  /** Complete at most this many plies (1 to 64). */
  depth?: number;
  /** How many best lines to report (default 1). */
  multipv?: number;
}

/** Options of `engine.play()`. */
export interface PlayOptions extends PositionOptions {
  level: LevelName;
  /** The seed of the bot's choice: a safe integer or a bigint below 2^64 (default 0). */
  seed?: number | bigint;
}

/**
 * A score for the side to move: centipawns, or moves to a forced mate
 * (negative: the side to move is mated; 0: it is mated now).
 */
export type Score = { cp: number; mate?: undefined } | { mate: number; cp?: undefined };

/** One line of an analysis. */
export interface AnalysisLine {
  /** Its first move. */
  move: Move;
  score: Score;
  /** The principal variation in long form (`e2e4`, `N@c7`). */
  pv: string[];
  /** The same in SAN. */
  pvSan: string[];
}

/** Options of `engine.review()`: `nodes` or `depth` (or both) per position is required. */
export interface ReviewOptions extends PositionOptions {
  /** Nodes searched per position (a node limit makes the review reproducible). */
  nodes?: number;
  /** Plies searched per position (1 to 64). */
  depth?: number;
  /** Called after each position searched, `total` being the moves plus one. */
  onProgress?: (done: number, total: number) => void;
}

/** Lichess's judgements, by the winning chances a move gave away (0.1, 0.2, 0.3 of [-1, 1]). */
export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

/** One reviewed move; scores are for White, win percents (0..100) for the mover. */
export interface MoveReview {
  /** Its ply in the game, from 1. */
  ply: number;
  color: 'white' | 'black';
  move: Move;
  san: string;
  /** The score before the move, for White (`{ mate: 0 }`: checkmate on the board). */
  before: Score;
  /** The score after the move, for White. */
  after: Score;
  /** The engine's best move in the position before, or `null`. */
  best: Move | null;
  /** The engine's best line from there, long form. */
  bestLine: string[];
  winBefore: number;
  winAfter: number;
  /** Lichess's move accuracy, 0..100. */
  accuracy: number;
  judgement: Judgement | null;
}

/** A player's summary (`null` figures for a player without a move). */
export interface PlayerReview {
  /** Lichess's game accuracy, 0..100. */
  accuracy: number | null;
  /** Average centipawn loss. */
  acpl: number | null;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}

/** What `engine.review()` found, with the annotated PGN (`[%eval …]`, NAGs, best lines). */
export interface GameReview {
  moves: MoveReview[];
  white: PlayerReview;
  black: PlayerReview;
  pgn: string;
}

/** What `engine.analyse()` found; `bestMove` is `null` when there is no legal move. */
export interface Analysis {
  bestMove: Move | null;
  score: Score;
  pv: string[];
  pvSan: string[];
  depth: number;
  seldepth: number;
  nodes: number;
  /** The best lines, best first (`multipv` of them, fewer if there are fewer moves). */
  lines: AnalysisLine[];
}
"#;
