"""hostage.course: the built-in course loads, every task's position is a
legal board and its answers are legal moves there (the Rust suite checks
the claims fully: hostage-core/tests/course.rs)."""

from __future__ import annotations

import json
from pathlib import Path

import hostage
import hostage.course

COURSE_JSON = Path(__file__).resolve().parents[2] / "hostage-puzzles" / "data" / "course.json"


def test_load_is_the_repository_file() -> None:
    course = hostage.course.load()
    assert course == json.loads(COURSE_JSON.read_text(encoding="utf-8"))
    assert hostage.course.load(COURSE_JSON) == course
    assert hostage.course.load(str(COURSE_JSON)) == course
    assert course["lessons"] and course["title"]
    course["lessons"].clear()
    assert hostage.course.load()["lessons"], "each call returns a fresh object"


def test_every_task_loads_and_its_answers_are_legal() -> None:
    tasks = 0
    for lesson in hostage.course.load()["lessons"]:
        hostage.Board(lesson["fen"])
        for task in lesson["tasks"]:
            tasks += 1
            board = hostage.Board(task["fen"])
            for san in task.get("moves", []):
                board.push_san(san)
            assert task["kind"] in ("find_move", "illegal_move", "count")
            for san in task.get("answers", []):
                assert board.parse_san(san) in board.legal_moves, (lesson["id"], san)
            if task["kind"] == "illegal_move":
                assert not board.is_legal(_try_parse(board, task["illegal"]))
                assert board.parse_san(task["legal"]) in board.legal_moves
            if task["kind"] == "find_move":
                assert task["answers"]
    assert tasks >= 15


def _try_parse(board: hostage.Board, san: str) -> hostage.Move | None:
    try:
        return board.parse_san(san)
    except hostage.HostageError as error:
        assert error.code in ("illegal_san", "ambiguous_san")
        return None
