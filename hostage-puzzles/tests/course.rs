//! The rules course (`data/course.json`, [`hostage_puzzles::COURSE_JSON`]): every task is checked with
//! the rules engine.
//!
//! - every FEN is valid and every history move is legal;
//! - `find_move`: each answer is legal, written in canonical SAN, and
//!   satisfies every predicate of `check`; when `only` is set, no other
//!   legal move satisfies them (the answers are exactly the solutions);
//! - `illegal_move`: the move is well-formed SAN naming no legal move, and
//!   the similar move given beside it is legal;
//! - `count`: the number is what the engine counts;
//! - together the lessons cite every rule of docs/rules.md.

use std::collections::BTreeSet;

use hostage_core::{
    san::{San, SanError},
    CastlingSide, Game, Move, MoveKind, Position, Role, Termination,
};
use serde_json::Value;

const COURSE: &str = hostage_puzzles::COURSE_JSON;

/// Every rule of docs/rules.md, which the lessons together must cite.
const RULES: [&str; 13] = [
    "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R8a", "R9", "R10", "R11", "R12",
];

fn course() -> Value {
    serde_json::from_str(COURSE).expect("course.json is valid JSON")
}

fn str_field<'a>(v: &'a Value, key: &str, at: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{at}: `{key}` is a string"))
}

fn strings(v: &Value, key: &str, at: &str) -> Vec<String> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{at}: `{key}` is an array"))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("{at}: `{key}` holds strings"))
                .to_owned()
        })
        .collect()
}

/// The game of a task: its FEN, then its `moves` (history), all legal.
fn game(task: &Value, at: &str) -> Game {
    let fen = str_field(task, "fen", at);
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{at}: bad fen {fen}: {e}"));
    let mut game = Game::from_position(start);
    if let Some(moves) = task.get("moves") {
        for san in strings(task, "moves", at) {
            game.push_san(&san)
                .unwrap_or_else(|e| panic!("{at}: history move {san}: {e}"));
        }
        assert!(
            !moves.as_array().is_some_and(Vec::is_empty),
            "{at}: empty moves"
        );
    }
    game
}

fn role(text: &str, at: &str) -> Role {
    let mut chars = text.chars();
    match (chars.next().and_then(Role::from_char), chars.next()) {
        (Some(role), None) => role,
        _ => panic!("{at}: bad role {text}"),
    }
}

/// Whether `m`, played in `game`, satisfies the predicate `check`.
fn satisfies(game: &Game, m: &Move, check: &str, at: &str) -> bool {
    let before = game.position();
    let mut after_game = game.clone();
    after_game.push(*m).expect("a legal move");
    let after = after_game.position();
    let mover = before.turn();
    let (name, arg) = check.split_once(':').unwrap_or((check, ""));
    match name {
        "checkmate" => after.is_checkmate(),
        "check" => after.is_check(),
        "stalemate" => after.is_stalemate(),
        "capture" => m.capture() == Some(role(arg, at)),
        "promotion" => m.promotion().is_some(),
        "promotes_to" => m.promotion() == Some(role(arg, at)),
        "exchange" => m.kind() == MoveKind::Exchange,
        "drop" => m.kind() == MoveKind::Drop,
        "castle" => m.kind() == MoveKind::Castle,
        "double_step" => {
            m.role() == Role::Pawn
                && m.from()
                    .is_some_and(|from| from.rank().index().abs_diff(m.to().rank().index()) == 2)
        }
        "en_passant_possible" => after.ep_square().is_some(),
        "castling_right_revived" => [CastlingSide::KingSide, CastlingSide::QueenSide]
            .into_iter()
            .any(|side| {
                !before.has_castling_right(mover, side) && after.has_castling_right(mover, side)
            }),
        "keeps_fifty_move_count_alive" => !after.is_fifty_moves(),
        "threefold_repetition" => after_game
            .outcome()
            .is_some_and(|o| o.termination == Termination::ThreefoldRepetition),
        _ => panic!("{at}: unknown check {check}"),
    }
}

fn satisfies_all(game: &Game, m: &Move, checks: &[String], at: &str) -> bool {
    checks.iter().all(|c| satisfies(game, m, c, at))
}

fn check_find_move(task: &Value, at: &str) {
    let game = game(task, at);
    let pos = game.position();
    let checks = strings(task, "check", at);
    assert!(!checks.is_empty(), "{at}: no check");
    let mut answers = BTreeSet::new();
    for san in strings(task, "answers", at) {
        let m = pos
            .parse_move(&san)
            .unwrap_or_else(|e| panic!("{at}: answer {san} is not legal: {e}"));
        assert_eq!(San::write(pos, &m), san, "{at}: answer in canonical SAN");
        assert!(
            satisfies_all(&game, &m, &checks, at),
            "{at}: {san} does not satisfy {checks:?}"
        );
        answers.insert(san);
    }
    assert!(!answers.is_empty(), "{at}: no answer");
    if task["only"].as_bool().unwrap_or(false) {
        let solutions: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| satisfies_all(&game, m, &checks, at))
            .map(|m| San::write(pos, m))
            .collect();
        assert_eq!(
            solutions, answers,
            "{at}: the answers are all the solutions"
        );
    }
}

fn check_illegal_move(task: &Value, at: &str) {
    let game = game(task, at);
    let pos = game.position();
    assert_eq!(strings(task, "check", at), ["is_illegal"], "{at}");
    let illegal = str_field(task, "illegal", at);
    let san = San::from_ascii(illegal.as_bytes())
        .unwrap_or_else(|e| panic!("{at}: {illegal} is not well-formed SAN: {e}"));
    assert!(
        matches!(san.to_move(pos), Err(SanError::Illegal { .. })),
        "{at}: {illegal} must be illegal"
    );
    assert!(!str_field(task, "reason", at).is_empty(), "{at}: a reason");
    let legal = str_field(task, "legal", at);
    let m = pos
        .parse_move(legal)
        .unwrap_or_else(|e| panic!("{at}: the similar move {legal} must be legal: {e}"));
    assert_eq!(San::write(pos, &m), legal, "{at}: canonical SAN");
}

fn check_count(task: &Value, at: &str) {
    let game = game(task, at);
    let pos = game.position();
    let checks = strings(task, "check", at);
    assert_eq!(checks.len(), 1, "{at}: one thing to count");
    let moves = pos.legal_moves();
    let count = match checks[0].as_str() {
        "legal_moves" => moves.len(),
        "exchanges" => moves
            .iter()
            .filter(|m| m.kind() == MoveKind::Exchange)
            .count(),
        "drops" => moves.iter().filter(|m| m.kind() == MoveKind::Drop).count(),
        "promotions" => moves.iter().filter(|m| m.promotion().is_some()).count(),
        "repetitions" => game.repetition_count() as usize,
        "moves_avoiding_fifty_move_draw" => moves
            .iter()
            .filter(|m| satisfies(&game, m, "keeps_fifty_move_count_alive", at))
            .count(),
        other => panic!("{at}: unknown count {other}"),
    };
    let expected = task["count"]
        .as_u64()
        .unwrap_or_else(|| panic!("{at}: `count` is a number"));
    assert_eq!(count as u64, expected, "{at}: {}", checks[0]);
}

#[test]
fn every_task_is_verified_by_the_engine() {
    let course = course();
    let lessons = course["lessons"].as_array().expect("lessons");
    let mut tasks = 0;
    for lesson in lessons {
        let id = str_field(lesson, "id", "lesson");
        for key in ["title", "text", "fen"] {
            assert!(!str_field(lesson, key, id).is_empty(), "{id}: {key}");
        }
        Position::from_fen(str_field(lesson, "fen", id)).expect("lesson fen");
        let lesson_tasks = lesson["tasks"].as_array().expect("tasks");
        assert!(!lesson_tasks.is_empty(), "{id}: at least one task");
        for (i, task) in lesson_tasks.iter().enumerate() {
            let at = format!("{id} task {}", i + 1);
            for key in ["prompt", "hint"] {
                assert!(!str_field(task, key, &at).is_empty(), "{at}: {key}");
            }
            match str_field(task, "kind", &at) {
                "find_move" => check_find_move(task, &at),
                "illegal_move" => check_illegal_move(task, &at),
                "count" => check_count(task, &at),
                other => panic!("{at}: unknown kind {other}"),
            }
            tasks += 1;
        }
    }
    assert!(tasks >= 20, "{tasks} tasks");
}

#[test]
fn lessons_cover_every_rule() {
    let course = course();
    let mut cited = BTreeSet::new();
    for lesson in course["lessons"].as_array().expect("lessons") {
        let id = str_field(lesson, "id", "lesson");
        for rule in strings(lesson, "rules", id) {
            assert!(RULES.contains(&rule.as_str()), "{id}: unknown rule {rule}");
            cited.insert(rule);
        }
    }
    let missing: Vec<_> = RULES.iter().filter(|r| !cited.contains(**r)).collect();
    assert!(missing.is_empty(), "rules no lesson covers: {missing:?}");
}

#[test]
fn lesson_ids_are_unique_slugs() {
    let course = course();
    let mut seen = BTreeSet::new();
    for lesson in course["lessons"].as_array().expect("lessons") {
        let id = str_field(lesson, "id", "lesson");
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{id}: a slug"
        );
        assert!(seen.insert(id.to_owned()), "{id}: duplicate");
    }
}
