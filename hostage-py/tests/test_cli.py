"""The Python view agrees with the core CLI over random games: the same FEN
after each prefix, the same legal moves."""

from __future__ import annotations

import random
import subprocess

import hostage


def run(cli: str, *args: str) -> str:
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout


def cli_moves(cli: str, fen: str) -> set[tuple[str, str]]:
    out = run(cli, "moves", "--fen", fen)
    return {tuple(line.split("\t")) for line in out.splitlines() if line}  # type: ignore[misc]


def test_random_games_agree_with_cli(cli: str) -> None:
    rng = random.Random(20240601)
    checked = 0
    for _ in range(6):
        board = hostage.Board()
        for _ in range(rng.randrange(20, 90)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Prefer captures, drops and exchanges so that prisons fill up.
            special = [m for m in moves if m.captured or m.kind != hostage.MoveKind.NORMAL]
            board.push(rng.choice(special if special and rng.random() < 0.6 else moves))
            if len(board.move_stack) % 7 == 0:
                expected = {(board.san(m), m.uci()) for m in board.legal_moves}
                assert cli_moves(cli, board.fen()) == expected, board.fen()
                checked += 1
        ucis = " ".join(m.uci() for m in board.move_stack)
        assert run(cli, "fen", "--moves", ucis).strip() == board.fen()
        start = board.root()
        assert run(cli, "fen", "--fen", start.fen(), "--moves", ucis).strip() == board.fen()
    assert checked >= 10


def test_vector_positions_agree_with_cli(cli: str) -> None:
    from test_vectors import PERFT

    for fen in sorted({c.fen for c in PERFT}):
        board = hostage.Board(fen)
        expected = {(board.san(m), m.uci()) for m in board.legal_moves}
        assert cli_moves(cli, fen) == expected, fen
