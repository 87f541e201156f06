"""hostage.puzzles: the built-in set, selection, the solution check, Glicko-2."""

from __future__ import annotations

import pytest

import hostage
import hostage.puzzles as hp

FEN = "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1"
GOOD = f"00c0ffee00,{FEN},R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300"


def test_the_set_loads_and_replays() -> None:
    puzzles = hp.load()
    assert len(puzzles) >= 1000
    assert len({p.id for p in puzzles}) == len(puzzles)
    for p in puzzles[:50]:
        board = p.board()
        assert board.turn == hostage.Board(p.fen).turn
        for uci in p.moves:
            board.push_uci(uci)
        assert len(p.moves) % 2 == 1
        if p.is_mate:
            assert board.is_checkmate()


def test_glickman_example() -> None:
    # Glickman, "Example of the Glicko-2 system": 1464.06 / 151.52 / 0.05999.
    games = [
        (hp.Rating(1400, 30, 0.06), 1.0),
        (hp.Rating(1550, 100, 0.06), 0.0),
        (hp.Rating(1700, 300, 0.06), 0.0),
    ]
    r = hp.rate(hp.Rating(1500, 200, 0.06), games, tau=0.5)
    assert abs(r.rating - 1464.06) < 0.02
    assert abs(r.deviation - 151.52) < 0.01
    assert abs(r.volatility - 0.05999) < 0.00001


def test_update_moves_both_ratings() -> None:
    p = hp.load()[0]
    player, puzzle = hp.update(hp.Rating(), p, solved=False)
    assert player.rating < 1500 and puzzle.rating > p.rating
    assert player.provisional


def test_selection_serves_unseen_near_the_rating() -> None:
    seen: set[str] = set()
    for i in range(20):
        p = hp.next_puzzle(1300.0, "normal", seen, seed=i)
        assert p is not None and p.id not in seen
        assert abs(p.rating - 1300) <= 4 * (100 + 200 / 4)
        seen.add(p.id)
    easy = hp.next_puzzle(1300.0, "easiest", seed=3)
    hard = hp.next_puzzle(1300.0, "hardest", seed=3)
    assert easy is not None and hard is not None and easy.rating < hard.rating
    everything = {p.id for p in hp.load()}
    assert hp.next_puzzle(1300.0, seen=everything) is None


def test_accepts_the_solution_only_on_solver_moves() -> None:
    p = next(q for q in hp.load() if len(q.moves) >= 3)
    assert p.accepts(0, p.moves[0])
    assert not p.accepts(1, p.moves[1])
    wrong = next(m.uci() for m in p.board().legal_moves if m.uci() != p.moves[0])
    assert not p.accepts(0, wrong)
    # SAN is read too, and past the solution nothing is right.
    board = p.board()
    assert p.accepts(0, board.san(board.parse_uci(p.moves[0])))
    assert not p.accepts(len(p.moves) + 2, p.moves[0])
    with pytest.raises(hostage.IllegalMoveError):
        p.accepts(0, "a1a1")


def test_errors_carry_codes() -> None:
    with pytest.raises(hp.DifficultyError) as e:
        hp.next_puzzle(1500.0, "insane")
    assert e.value.code == "invalid_difficulty" and "insane" in str(e.value)
    assert isinstance(e.value, hostage.HostageError) and isinstance(e.value, ValueError)
    with pytest.raises(hp.PuzzleError) as e2:
        hp.parse(GOOD.replace("R@a8", "N@a8"))
    assert e2.value.code == "invalid_puzzle_move"
    with pytest.raises(hp.PuzzleError) as e3:
        hp.get("0000000000")
    assert e3.value.code == "unknown_puzzle"
    with pytest.raises(hostage.InvalidMoveError):
        hp.load()[0].accepts(0, "zz")
    assert hp.parse(GOOD)[0].themes == ("mateIn1", "dropMate")


BEFORE = "5k2/5ppp/8/8/8/8/8/6K1[R] b - - 0 1"
AFTER = "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 1 2"
WITH_LEAD_IN = f"00c0ffee00,{AFTER},R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300,{BEFORE},f8g8"


def test_the_lead_in_move_leads_to_the_puzzle() -> None:
    with_lead_in = [p for p in hp.load() if p.lead_in is not None]
    assert len(with_lead_in) == len(hp.load()), "every puzzle of the set has its lead-in"
    for p in with_lead_in[:60]:
        assert p.lead_in is not None
        board = p.start_board()
        assert board.fen() == p.lead_in_fen
        assert board.turn != p.board().turn, "the opponent plays the lead-in"
        board.push_uci(p.lead_in)
        assert board.fen() == p.fen


def test_the_lead_in_of_parsed_records() -> None:
    (p,) = hp.parse(WITH_LEAD_IN)
    assert (p.lead_in_fen, p.lead_in) == (BEFORE, "f8g8")
    assert p.start_board().fen() == BEFORE
    (q,) = hp.parse(GOOD)
    assert (q.lead_in_fen, q.lead_in) == (None, None)
    assert q.start_board().fen() == FEN
    for bad in (WITH_LEAD_IN.replace(",f8g8", ",f8e8"), WITH_LEAD_IN.replace(",f8g8", ",")):
        with pytest.raises(hp.PuzzleError) as e:
            hp.parse(bad)
        assert e.value.code == "invalid_puzzle_lead_in"
