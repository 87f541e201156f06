"""tests/vectors/move-lists.txt (format in its header) through
``Board.push_moves``: the core's move-text layer, so a bad move in a list
carries the same code, place (``.ply``) and message as in Rust, JavaScript,
the CLI and the server. A failed list leaves the board unchanged. Mirrors
hostage-core/tests/move_lists.rs and hostage-wasm/js-tests/move-lists.test.mjs.
"""

from __future__ import annotations

import re

import pytest
from vector_files import table, unescape

import hostage

CASES = table("move-lists.txt")


def test_both_kinds_of_case_are_there() -> None:
    assert any(f[2].startswith("ok") for _, f in CASES)
    assert any("@" in f[2] for _, f in CASES)


@pytest.mark.parametrize(("line", "fields"), CASES, ids=[f"line{n}" for n, _ in CASES])
def test_move_list(line: int, fields: list[str]) -> None:
    position, text, expected = fields[:3]
    fourth = fields[3] if len(fields) > 3 else None
    board = hostage.Board() if position == "-" else hostage.Board(position)
    before = board.fen()
    moves = unescape(text)
    ok = re.fullmatch(r"ok (\d+)", expected)
    if ok:
        assert board.push_moves(moves) == int(ok[1])
        assert board.ply() == int(ok[1])
        if fourth is not None:
            assert board.fen() == fourth
        return
    code, ply = expected.split("@")
    with pytest.raises(hostage.HostageError) as info:
        board.push_moves(moves)
    assert info.value.code == code
    assert info.value.ply == int(ply)
    if fourth is not None:
        assert str(info.value) == fourth
    assert board.fen() == before
    assert board.ply() == 0


def test_push_moves_continues_a_game() -> None:
    board = hostage.Board()
    board.push_san("e4")
    assert board.push_moves("1... e5 2. Nf3") == 2
    assert [m.uci() for m in board.move_stack] == ["e2e4", "e7e5", "g1f3"]
