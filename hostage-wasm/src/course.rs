//! `courseData()`: the rules course (`hostage_puzzles::COURSE_JSON`, described in
//! docs/course/README.md), for a course UI. It ships in the puzzles module
//! (`hostage-chess/puzzles`), the package's learning material, so that a
//! page that only needs the rules does not download it.

use wasm_bindgen::prelude::*;

/// The rules course (`hostage_puzzles::COURSE_JSON`): lessons and tasks, for a
/// course UI. A new object on each call.
#[wasm_bindgen(js_name = courseData, unchecked_return_type = "Course")]
pub fn course_data() -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(hostage_puzzles::COURSE_JSON)
}

#[wasm_bindgen(typescript_custom_section)]
const TS_COURSE_TYPES: &'static str = r#"
/** A task of the rules course (docs/course/README.md describes the fields). */
export interface CourseTask {
  kind: 'find_move' | 'illegal_move' | 'count';
  fen: string;
  /** SAN moves played from `fen` before the task. */
  moves?: string[];
  prompt: string;
  hint: string;
  /** The predicates the answers satisfy (`checkmate`, `exchange`, ...). */
  check: string[];
  /** `find_move`: the accepted answers in SAN. */
  answers?: string[];
  /** `find_move`: no other legal move satisfies `check`. */
  only?: boolean;
  /** `illegal_move`: the move that looks possible but is not, why, and a similar legal one. */
  illegal?: string;
  reason?: string;
  legal?: string;
  /** `count`: the number to find. */
  count?: number;
  explanation?: string;
}

/** A lesson of the rules course. */
export interface CourseLesson {
  id: string;
  title: string;
  /** The rules it covers: `'R5'`, ... (docs/rules.md). */
  rules: string[];
  /** Markdown. */
  text: string;
  /** The position of its diagram. */
  fen: string;
  tasks: CourseTask[];
}

/** The rules course, as returned by `courseData()`. */
export interface Course { title: string; version: number; rules: string; lessons: CourseLesson[] }
"#;
