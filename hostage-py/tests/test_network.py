"""hostage.engine's network: the shared vector tests/vectors/network-search.txt
(the native engine's node counts and moves, also checked in WebAssembly), a
network file given as a path or bytes, the hand-written evaluation, and bad
network files."""

from __future__ import annotations

from pathlib import Path

import pytest
from vector_files import VECTORS, table

import hostage
from hostage.engine import Engine, Limit, NetworkError, Score

NNUE = VECTORS.parents[1] / "hostage-engine" / "data" / "nnue.bin"


def _score(score: Score) -> str:
    return f"mate {score.mate}" if score.mate is not None else f"cp {score.cp}"


def test_network_vectors_agree_with_rust_and_javascript() -> None:
    rows = table("network-search.txt")
    assert len(rows) >= 6
    with_network = 0
    for n, (fen, moves, evaluation, limit, nodes, depth, score, best) in rows:
        board = hostage.Board(fen)
        for uci in moves.split():
            if uci != "-":
                board.push_uci(uci)
        kind, count = limit.split()
        assert kind in ("nodes", "depth"), f"line {n}: {limit}"
        # The file read at run time, as the WebAssembly build reads it.
        engine = Engine(network=NNUE) if evaluation == "network" else Engine(network=False)
        assert engine.uses_network == (evaluation == "network")
        with_network += evaluation == "network"
        info = engine.analyse(board, Limit(**{kind: int(count)}))
        got = [
            str(info["nodes"]),
            str(info["depth"]),
            _score(info["score"].relative),
            info["pv"][0].uci() if info.get("pv") else "-",
        ]
        assert got == [nodes, depth, score, best], f"network-search.txt line {n}"
    assert with_network >= 4


def test_the_embedded_network_is_the_shipped_file() -> None:
    board = hostage.Board("r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12")
    limit = Limit(depth=4)
    default = Engine().analyse(board, limit)
    assert Engine().uses_network
    for network in (NNUE, str(NNUE), NNUE.read_bytes(), bytearray(NNUE.read_bytes())):
        info = Engine(network=network).analyse(board, limit)
        assert (info["nodes"], info["score"], info["pv"]) == (
            default["nodes"],
            default["score"],
            default["pv"],
        )
    by_hand = Engine(network=False).analyse(board, limit)
    assert (by_hand["nodes"], by_hand["score"]) != (default["nodes"], default["score"])


def test_the_bots_evaluate_by_hand_whatever_the_network() -> None:
    board = hostage.Board()
    for level in ("novice", "club"):
        moves = {Engine(network=net).play(board, level=level, seed=5).move for net in (True, False)}
        assert len(moves) == 1, level


def test_bad_network_files(tmp_path: Path) -> None:
    good = NNUE.read_bytes()
    shape = bytearray(good)
    shape[12] = 64
    cases = [
        (b"", "nnue_magic"),
        (good[:15], "nnue_magic"),
        (good[:16], "nnue_length"),
        (good[:-1], "nnue_length"),
        (good + b"\0", "nnue_length"),
        (b"<!doctype html>" * 10, "nnue_magic"),
        (bytes(shape), "nnue_shape"),
    ]
    for data, code in cases:
        with pytest.raises(NetworkError) as caught:
            Engine(network=data)
        assert isinstance(caught.value, hostage.HostageError)
        assert caught.value.code == code
        path = tmp_path / "net.bin"
        path.write_bytes(data)
        with pytest.raises(NetworkError) as caught:
            Engine(network=path)
        assert caught.value.code == code
    with pytest.raises(OSError):
        Engine(network=tmp_path / "missing.bin")
    with pytest.raises(TypeError):
        Engine(network=3)  # type: ignore[arg-type]
    # A refused file leaves the engine as it was.
    engine = Engine(network=False)
    with pytest.raises(NetworkError):
        engine._core.load_network(good[:100])
    assert not engine.uses_network
