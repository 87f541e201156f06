"""The shared vectors of tests/vectors (formats in tests/README.md)."""

from __future__ import annotations

import os
from typing import NamedTuple

import pytest
from vector_files import VECTORS, records

import hostage

# Perft lines above this many nodes are left to the Rust suite.
PERFT_MAX = int(os.environ.get("HOSTAGE_PY_PERFT_MAX", "2000000"))


class PerftCase(NamedTuple):
    where: str
    fen: str
    depth: int
    nodes: int


def _perft_cases() -> list[PerftCase]:
    cases = []
    for path in sorted(VECTORS.glob("*.perft")):
        fen = None
        for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.strip()
            if line.startswith("epd "):
                fen = line[4:].strip()
            elif line.startswith("perft "):
                assert fen is not None, f"{path.name}:{n}: perft before epd"
                depth, nodes = (int(x) for x in line.split()[1:3])
                cases.append(PerftCase(f"{path.name}:{n}", fen, depth, nodes))
    return cases


PERFT = _perft_cases()


def test_perft_vectors_exist() -> None:
    assert len(PERFT) >= 10
    assert sum(c.nodes <= PERFT_MAX for c in PERFT) >= 10


@pytest.mark.parametrize("case", [c for c in PERFT if c.nodes <= PERFT_MAX], ids=lambda c: c.where)
def test_perft(case: PerftCase) -> None:
    assert hostage.Board(case.fen).perft(case.depth) == case.nodes


def _python_perft(board: hostage.Board, depth: int) -> int:
    if depth == 1:
        return len(board.legal_moves)
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _python_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(
    "case",
    [c for c in PERFT if c.depth <= 2 and c.nodes <= 20000],
    ids=lambda c: c.where,
)
def test_python_side_perft(case: PerftCase) -> None:
    """legal_moves, push and pop agree with the core's perft."""
    board = hostage.Board(case.fen)
    assert _python_perft(board, case.depth) == case.nodes
    assert board.fen() == hostage.Board(case.fen).fen()


def test_fen_vectors() -> None:
    checked = 0
    for n, line in records("fen.txt"):
        fen, expected = line.rsplit("|", 1)
        expected = expected.strip()
        where = f"fen.txt:{n}: {fen!r}"
        if expected == "ok" or expected.startswith("="):
            want = fen.strip() if expected == "ok" else expected[1:].strip()
            board = hostage.Board(fen)
            assert board.fen() == want, where
            assert hostage.Board(board.fen()).fen() == want, where
        else:
            with pytest.raises(hostage.FenError) as info:
                hostage.Board(fen)
            assert info.value.code == expected, where
        checked += 1
    assert checked >= 40


def test_san_vectors() -> None:
    checked = 0
    for n, line in records("san.txt"):
        fen, text, expected = (part.strip() for part in line.split("|"))
        where = f"san.txt:{n}: {fen} | {text}"
        board = hostage.Board(fen)
        if expected.startswith("error="):
            code = expected[len("error=") :]
            with pytest.raises(hostage.HostageError) as info:
                board.push_san(text)
            assert info.value.code == code, where
            assert board.fen() == hostage.Board(fen).fen(), where
        else:
            fields = dict(field.split("=", 1) for field in expected.split())
            move = board.parse_san(text)
            assert move.uci() == fields["uci"], where
            assert board.san(move) == fields["san"], where
            assert board.parse_uci(fields["uci"]) == move, where
            assert board.parse_san(fields["san"]) == move, where
        checked += 1
    assert checked > 0
