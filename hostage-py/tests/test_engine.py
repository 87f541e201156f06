"""hostage.engine: analysis, the bot levels, determinism, the shared bot
vectors (tests/vectors/bot-moves.txt, also checked by Rust and JavaScript),
errors, and the GIL released while searching."""

from __future__ import annotations

import doctest
import subprocess
import threading
import time

import pytest
from vector_files import table

import hostage
import hostage.engine
from hostage.engine import (
    DEFAULT_HASH_MB,
    MAX_HASH_MB,
    Engine,
    InfoDict,
    Level,
    LevelError,
    Limit,
    PovScore,
    Score,
)

MATE_BY_DROP = "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1"
STALEMATE = "k7/8/1Q6/8/8/8/8/7K[#Pq] b - - 0 1"


def test_module_docstring() -> None:
    failures, tried = doctest.testmod(hostage.engine, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_levels() -> None:
    assert [level.value for level in Level] == [
        "novice",
        "beginner",
        "casual",
        "intermediate",
        "club",
    ]
    ratings = [level.rating for level in Level]
    assert ratings == sorted(ratings) and len(set(ratings)) == 5
    assert Level("club") is Level.CLUB and str(Level.CLUB) == "club"


def test_mate_in_one_by_a_drop() -> None:
    board = hostage.Board(MATE_BY_DROP)
    with Engine() as engine:
        info = engine.analyse(board, Limit(depth=3))
    score = info["score"]
    assert score.relative == Score(mate=1) and score.is_mate()
    assert score.relative.mate == 1 and score.relative.cp is None
    assert score.white() == Score(mate=1) and score.black() == Score(mate=-1)
    best = info["pv"][0]
    # A rook dropped on a8..e8 mates: f8 is next to the king, and the king
    # would escape to h8 or f8 from nothing else. Check it on the board.
    assert best.kind == hostage.MoveKind.DROP and best.role == hostage.ROOK
    assert best.to_square in (hostage.A8, hostage.B8, hostage.C8, hostage.D8, hostage.E8)
    board.push(best)
    assert board.is_checkmate()
    assert info["depth"] >= 1 and info["seldepth"] >= info["depth"] and info["nodes"] > 0


def test_multipv_three_lines_sorted() -> None:
    board = hostage.Board()
    infos = Engine().analyse(board, Limit(depth=3), multipv=3)
    assert isinstance(infos, list) and len(infos) == 3
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts)
    scores = [info["score"].relative for info in infos]
    assert scores == sorted(scores, reverse=True), scores
    # The scores are White's: White is to move.
    assert all(info["score"].white() == info["score"].relative for info in infos)


def test_multipv_sorted_after_exd5_qxd5() -> None:
    # Each line is searched with its own window; a later one used to come
    # out better than an earlier one here (d4 -5 before Qf3 -3).
    board = hostage.Board()
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        board.push_san(san)
    infos = Engine().analyse(board, Limit(depth=5), multipv=3)
    scores = [info["score"].relative for info in infos]
    assert scores == sorted(scores, reverse=True), scores


def test_black_to_move_scores_turn_for_white() -> None:
    # Black mates by dropping its rook on the first rank (r@a1..r@e1).
    board = hostage.Board("6k1/5ppp/8/8/8/8/5PPP/6K1[r] b - - 0 1")
    info = Engine().analyse(board, Limit(depth=3))
    assert info["score"].turn is hostage.BLACK
    assert info["score"].relative == Score(mate=1)
    assert info["score"].white() == Score(mate=-1) and info["score"].black() == Score(mate=1)


def test_play_each_level_legal_and_deterministic() -> None:
    board = hostage.Board()
    for san in ["e4", "d5", "exd5", "Qxd5", "(P-P)*e3"]:
        board.push_san(san)
    engine = Engine(hash_mb=4)
    for level in Level:
        first = engine.play(board, level=level, seed=42)
        assert first.move is not None and first.move in board.legal_moves, level
        assert engine.play(board, level=level, seed=42).move == first.move, level
        assert engine.play(board, level=level.value, seed=42).move == first.move, level
        if level is not Level.CLUB:
            assert Engine().play(board, level=level, seed=42).move == first.move, level
        assert first.info["pv"][0] == first.move


def test_play_with_a_limit_is_the_best_move() -> None:
    board = hostage.Board(MATE_BY_DROP)
    result = Engine().play(board, Limit(depth=3))
    assert result.move is not None
    board.push(result.move)
    assert board.is_checkmate()


def test_history_comes_from_the_move_stack() -> None:
    board = hostage.Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        board.push_san(san)
    back = hostage.Move.from_uci("f6g8")

    # With the stack, Ng8 repeats the start position a third time: a draw
    # (R12), worth exactly 0. The same position without its history is not.
    def score_of_ng8(b: hostage.Board) -> Score:
        infos = Engine().analyse(b, Limit(depth=2), multipv=len(b.legal_moves))
        return next(i["score"].relative for i in infos if i["pv"][0] == back)

    assert score_of_ng8(board) == Score(cp=0)
    assert score_of_ng8(hostage.Board(board.fen())) != Score(cp=0)


def test_bot_vectors_agree_with_rust_and_javascript() -> None:
    rows = table("bot-moves.txt")
    assert len(rows) >= 10
    engine = Engine()
    for n, (fen, moves, level, seed, expected) in rows:
        board = hostage.Board(fen)
        for uci in moves.split():
            if uci != "-":
                board.push_uci(uci)
        move = engine.play(board, level=level, seed=int(seed)).move
        assert (move.uci() if move else "-") == expected, f"bot-moves.txt line {n}"


def test_no_legal_move() -> None:
    board = hostage.Board(STALEMATE)
    engine = Engine()
    assert engine.play(board, level="club").move is None
    assert engine.analyse(board, Limit(depth=2)) == InfoDict()
    assert engine.analyse(board, Limit(depth=2), multipv=2) == []
    mated = hostage.Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        mated.push_san(san)
    assert engine.play(mated, Limit(depth=2)).move is None


@pytest.mark.parametrize("name", ["grandmaster", "", "novice!", "\0", "x" * 10_000])
def test_bad_level_names(name: str) -> None:
    with pytest.raises(LevelError) as caught:
        Engine().play(hostage.Board(), level=name)
    assert isinstance(caught.value, hostage.HostageError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.code == "invalid_level"


def test_bad_arguments() -> None:
    engine = Engine()
    board = hostage.Board()
    with pytest.raises(ValueError):
        engine.play(board)
    with pytest.raises(ValueError):
        engine.play(board, Limit(depth=1), level="novice")
    with pytest.raises(ValueError):
        engine.play(board, level="novice", seed=-1)
    with pytest.raises(ValueError):
        engine.play(board, level="novice", seed=1 << 64)
    with pytest.raises(ValueError):
        engine.analyse(board, Limit(depth=1), multipv=0)
    with pytest.raises(ValueError):
        Limit(nodes=-5)
    with pytest.raises(ValueError):
        Limit(time=float("nan"))
    with pytest.raises(ValueError):
        Engine(hash_mb=0)
    with pytest.raises(TypeError):
        engine.play(board, level=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        engine.analyse("not a board", Limit(depth=1))  # type: ignore[call-overload]


def test_score_order_and_negation() -> None:
    ordered = [
        Score(mate=0),
        Score(mate=-1),
        Score(mate=-5),
        Score(cp=-300),
        Score(cp=0),
        Score(cp=250),
        Score(mate=6),
        Score(mate=1),
    ]
    assert sorted(reversed(ordered)) == ordered
    assert -Score(cp=35) == Score(cp=-35) and -Score(mate=2) == Score(mate=-2)
    assert Score(mate=3).score() is None and Score(mate=3).score(mate_score=1000) == 997
    assert str(Score(cp=35)) == "cp 35" and repr(Score(mate=-2)) == "Mate(-2)"
    pov = PovScore(Score(cp=40), hostage.BLACK)
    assert pov.white() == Score(cp=-40) and pov.pov(hostage.BLACK) == Score(cp=40)


def test_search_releases_the_gil() -> None:
    """A counter thread keeps running while the main thread searches."""
    count = 0
    stop = threading.Event()

    def counter() -> None:
        nonlocal count
        while not stop.is_set():
            count += 1

    thread = threading.Thread(target=counter)
    thread.start()
    try:
        time.sleep(0.05)
        before = count
        started = time.perf_counter()
        Engine().analyse(hostage.Board(), Limit(time=0.5))
        elapsed = time.perf_counter() - started
        during = count - before
    finally:
        stop.set()
        thread.join()
    assert elapsed >= 0.4
    # With the GIL held for the whole search the counter could not move at
    # all; released, it counts at full speed (millions a second).
    assert during > 10_000, during


def test_stop_from_another_thread() -> None:
    engine = Engine()
    result: list[InfoDict] = []
    thread = threading.Thread(
        target=lambda: result.append(engine.analyse(hostage.Board(), Limit()))
    )
    thread.start()
    time.sleep(0.3)
    assert thread.is_alive(), "an unlimited search is still running"
    engine.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert result and result[0]["pv"][0] in hostage.Board().legal_moves


SCHOLAR = '[Event "review"]\n[White "Alice"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'


def test_review_judges_the_blunder_and_reads_back() -> None:
    import hostage.pgn

    game = hostage.pgn.read_game(SCHOLAR)
    assert game is not None
    calls: list[tuple[int, int]] = []
    review = hostage.engine.review(
        game, Limit(nodes=3000), progress=lambda done, total: calls.append((done, total))
    )
    assert calls == [(d, 8) for d in range(1, 9)]
    assert [m.san for m in review.moves] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    nf6 = review.moves[5]
    assert nf6.judgement is hostage.engine.Judgement.BLUNDER and nf6.judgement.symbol == "??"
    assert nf6.color is False and nf6.best is not None and nf6.best != nf6.move
    # Black's only blunder is the one that allows mate; what the engine thinks
    # of White's early queen sortie depends on its evaluation, so it is not
    # asserted. The mate itself is never a mistake.
    assert review.black.blunders == 1
    assert review.moves[6].judgement is None
    assert review.white.accuracy is not None and review.black.accuracy is not None
    assert review.black.accuracy < review.white.accuracy
    back = hostage.pgn.read_game(review.pgn)
    assert back is not None
    assert back.headers["White"] == "Alice"
    assert back.mainline_moves() == game.mainline_moves()
    assert "$4" in review.pgn and "[%eval " in review.pgn
    # Reproducible under a node limit, from a board too.
    again = Engine().review(game.end_board(), Limit(nodes=3000))
    assert again.moves == review.moves and again.white == review.white


def test_review_progress_errors_are_raised() -> None:
    def fail(done: int, total: int) -> None:
        raise KeyError("stop")

    board = hostage.Board()
    board.push_uci("e2e4")
    with pytest.raises(KeyError):
        Engine().review(board, Limit(nodes=500), progress=fail)
    with pytest.raises(TypeError):
        Engine().review("e4", Limit(nodes=500))  # type: ignore[arg-type]


def test_hash_sizes_are_the_engines_as_uci_offers_them(cli: str) -> None:
    """One default and one maximum table size: the UCI engine's `Hash` option."""
    out = subprocess.run([cli, "uci"], input="uci\nquit\n", capture_output=True, text=True)
    line = next(x for x in out.stdout.splitlines() if x.startswith("option name Hash "))
    words = line.split()
    assert int(words[words.index("default") + 1]) == DEFAULT_HASH_MB
    assert int(words[words.index("max") + 1]) == MAX_HASH_MB
    assert Engine().hash_mb == DEFAULT_HASH_MB
    with pytest.raises(ValueError):
        Engine(hash_mb=MAX_HASH_MB + 1)
