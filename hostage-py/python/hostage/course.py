"""The rules course (docs/course): lessons and tasks as data, for a course UI.

>>> import hostage, hostage.course
>>> course = hostage.course.load()
>>> task = course["lessons"][1]["tasks"][0]
>>> task["kind"], task["answers"]
('find_move', ['Nxd5'])
>>> hostage.Board(task["fen"]).parse_san(task["answers"][0]).uci()
'c3d5'

The data is ``hostage-puzzles/data/course.json`` of the repository, built into the
package; its format is described in docs/course/README.md. Every task is
verified with the rules engine by the Rust test suite.
"""

from __future__ import annotations

import json
import os
from typing import Any, TypedDict, cast

from hostage._hostage import course_json


class _TaskRequired(TypedDict):
    kind: str
    fen: str
    prompt: str
    hint: str
    check: list[str]


class Task(_TaskRequired, total=False):
    """One task. ``kind`` is ``"find_move"`` (``answers``, ``only``),
    ``"illegal_move"`` (``illegal``, ``reason``, ``legal``) or ``"count"``
    (``count``); ``moves`` (SAN) are played from ``fen`` before the task."""

    moves: list[str]
    answers: list[str]
    only: bool
    illegal: str
    reason: str
    legal: str
    count: int
    explanation: str


class Lesson(TypedDict):
    """One lesson: its rules (``"R5"``...), markdown ``text``, diagram ``fen`` and tasks."""

    id: str
    title: str
    rules: list[str]
    text: str
    fen: str
    tasks: list[Task]


class Course(TypedDict):
    """The whole course."""

    title: str
    version: int
    rules: str
    lessons: list[Lesson]


def load(path: str | os.PathLike[str] | None = None) -> Course:
    """The course data: the built-in course, or the JSON file at ``path``
    (a course in the same format). The result is a new object on each call."""
    if path is None:
        text = course_json()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    data: Any = json.loads(text)
    return cast(Course, data)


__all__ = ["Course", "Lesson", "Task", "load"]
