"""Times common operations of hostage against python-chess.

Positions where both games agree: the start position, and kiwipete at depth
<= 2 (no exchange or drop is possible before both sides have captured, so
Hostage Chess and orthodox chess have the same moves there). Each operation
is checked to give the same answer in both libraries before it is timed.

    target/venv-py/bin/python hostage-py/bench/bench.py [--quick | --smoke]

--quick times with a smaller budget; --smoke only checks that both libraries
agree and every operation runs (scripts/test-python uses it).
"""

from __future__ import annotations

import sys
import time
import timeit
from functools import partial
from typing import Any, Callable

import chess

import hostage

POSITIONS = {
    "start": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "Nf3", 3),
    "kiwipete": (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "Qxf6",
        2,
    ),
}


def perft(board: Any, depth: int) -> int:
    """The same Python loop for both libraries."""
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def seconds(fn: Callable[[], object], budget: float) -> float:
    """Best CPU time of one call, over repeats filling about `budget` seconds.

    CPU time (`time.process_time`) rather than the wall clock: steadier on a
    machine running other work.
    """
    timer = timeit.Timer(fn, timer=time.process_time)
    number, took = timer.autorange()
    repeats = max(3, int(budget / max(took, 1e-9)))
    return min(timer.repeat(repeat=min(repeats, 15), number=number)) / number


def main() -> None:
    smoke = "--smoke" in sys.argv
    budget = 0.05 if "--quick" in sys.argv else 0.4
    rows = []
    for name, (fen, san, depth) in POSITIONS.items():
        pc = chess.Board(fen)
        hb = hostage.Board(fen)
        pc_move = next(iter(pc.legal_moves))
        h_move = hostage.Move.from_uci(pc_move.uci())
        h_move = hb.parse_uci(h_move.uci())
        nodes = perft(hb, depth)
        assert nodes == perft(pc, depth) == hb.perft(depth), name
        assert sorted(m.uci() for m in pc.legal_moves) == sorted(m.uci() for m in hb.legal_moves)
        assert pc.fen() == hb.fen().replace("[]", "")

        def pc_pushpop(b: chess.Board = pc, m: chess.Move = pc_move) -> None:
            b.push(m)
            b.pop()

        def h_pushpop(b: hostage.Board = hb, m: hostage.Move = h_move) -> None:
            b.push(m)
            b.pop()

        def pc_san(b: chess.Board = pc, s: str = san) -> None:
            b.push_san(s)
            b.pop()

        def h_san(b: hostage.Board = hb, s: str = san) -> None:
            b.push_san(s)
            b.pop()

        ops: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
            ("list(legal_moves)", partial(list, pc.legal_moves), partial(list, hb.legal_moves)),
            ("len(legal_moves)", pc.legal_moves.count, partial(len, hb.legal_moves)),
            ("push + pop", pc_pushpop, h_pushpop),
            (f"push_san({san!r}) + pop", pc_san, h_san),
            ("fen()", pc.fen, hb.fen),
            (
                f"Python perft({depth}) [{nodes} nodes]",
                partial(perft, pc, depth),
                partial(perft, hb, depth),
            ),
        ]
        for op, pc_fn, h_fn in ops:
            if smoke:
                pc_fn()
                h_fn()
                continue
            t_pc = seconds(pc_fn, budget)
            t_h = seconds(h_fn, budget)
            rows.append((name, op, t_pc, t_h))

    if smoke:
        print(f"bench smoke test: {len(POSITIONS)} positions agree, every operation runs")
        return
    python = sys.version.split()[0]
    versions = f"python-chess {chess.__version__}, hostage {hostage.__version__}"
    print(f"{versions}, Python {python}, CPU time")
    cells = [f"{'position':<9}", f"{'operation':<32}", f"{'python-chess':>13}"]
    cells += [f"{'hostage':>11}", f"{'speed-up':>8}"]
    header = "| " + " | ".join(cells) + " |"
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    for name, op, t_pc, t_h in rows:
        print(f"| {name:<9} | {op:<32} | {fmt(t_pc):>13} | {fmt(t_h):>11} | {t_pc / t_h:>7.1f}x |")


def fmt(t: float) -> str:
    if t >= 1e-3:
        return f"{t * 1e3:.2f} ms"
    return f"{t * 1e6:.2f} us"


if __name__ == "__main__":
    main()
