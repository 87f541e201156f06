"""hostage.pgn: reading and writing game records (the core's reader and writer)."""

from __future__ import annotations

import gc
import io

import pytest

import hostage
import hostage.pgn

TWO_GAMES = """[Event "First"]
[White "A"]
[Black "B"]

1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. (P-P)*d5 1-0

[Event "Second"]

1. d4 {queen's pawn} d5 (1... Nf6) *
"""


def test_read_game_from_text() -> None:
    game = hostage.pgn.read_game(TWO_GAMES)
    assert game is not None
    assert game.headers["Event"] == "First" and game.headers["White"] == "A"
    assert game.result == "1-0"
    moves = game.mainline_moves()
    assert [m.uci() for m in moves][-1] == "P#P@d5"
    end = game.end_board()
    assert end.move_stack == moves
    assert end.airfield(hostage.BLACK) == {hostage.PAWN: 1}
    assert game.board().fen() == hostage.STARTING_FEN
    assert "A vs B" in repr(game)


def test_read_games_and_files() -> None:
    games = list(hostage.pgn.read_games(TWO_GAMES))
    assert [g.headers["Event"] for g in games] == ["First", "Second"]
    handle = io.StringIO(TWO_GAMES)
    first = hostage.pgn.read_game(handle)
    second = hostage.pgn.read_game(handle)
    assert first is not None and second is not None
    assert (first.headers["Event"], second.headers["Event"]) == ("First", "Second")
    assert hostage.pgn.read_game(handle) is None
    binary = io.BytesIO(TWO_GAMES.encode())
    assert len(list(hostage.pgn.read_games(binary))) == 2
    assert hostage.pgn.read_game(TWO_GAMES.encode()) is not None
    assert hostage.pgn.read_game("") is None
    del handle
    gc.collect()


def test_write_roundtrip() -> None:
    board = hostage.Board()
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qd8", "(P-P)*d5"]:
        board.push_san(san)
    game = hostage.pgn.Game.from_board(board)
    game.set_header("White", "Leslie")
    text = str(game)
    assert text == game.write() == hostage.pgn.write_game(game)
    assert '[White "Leslie"]' in text and '[Variant "Hostage"]' in text
    assert "4. (P-P)*d5" in text
    again = hostage.pgn.read_game(text)
    assert again is not None and again.write() == text
    out = io.StringIO()
    hostage.pgn.write_game(board, out)
    assert out.getvalue().endswith("4. (P-P)*d5 *\n")
    game.result = "1/2-1/2"
    assert game.result == "1/2-1/2"
    with pytest.raises(ValueError):
        game.result = "2-0"


def test_fen_tag_start() -> None:
    fen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"
    board = hostage.Board(fen)
    board.push_san("(P-P)*e6")
    text = hostage.pgn.write_game(board)
    assert f'[FEN "{fen}"]' in text
    game = hostage.pgn.read_game(text)
    assert game is not None and game.board().fen() == fen
    assert game.end_board().fen() == board.fen()


def test_errors_carry_codes_and_reading_goes_on() -> None:
    text = '1. e4 e5 2. Ke3 *\n\n[Event "Good"]\n\n1. d4 *\n'
    reader = hostage.pgn.read_games(text)
    with pytest.raises(hostage.PgnError) as info:
        next(reader)
    assert info.value.code == "pgn_illegal_move"
    assert isinstance(info.value, hostage.HostageError)
    good = next(reader)
    assert good.headers["Event"] == "Good"
    with pytest.raises(hostage.PgnError) as info:
        hostage.pgn.read_game('[FEN "nonsense"]\n\n1. e4 *')
    assert info.value.code == "pgn_fen"
    for junk in ["\0", "{", "(((", "[Event", "1. e4 " * 10, "é" * 1000]:
        try:
            hostage.pgn.read_game(junk)
        except hostage.PgnError:
            pass


def test_bad_sources() -> None:
    with pytest.raises(TypeError):
        hostage.pgn.PgnReader(42)  # type: ignore[arg-type]

    def broken() -> str:
        raise OSError("disk on fire")

    with pytest.raises(hostage.PgnError) as info:
        next(hostage.pgn.PgnReader(broken))
    assert info.value.code == "pgn_io"


# A result decided off the board: the board's own outcome wins,
# an off-board reason is written as the PGN standard's Termination tag.
FOOLS_MATE = ["f3", "e5", "g4", "Qh4#"]


def _board(moves: list[str]) -> hostage.Board:
    board = hostage.Board()
    for san in moves:
        board.push_san(san)
    return board


def _code(err: pytest.ExceptionInfo[hostage.ResultError]) -> str:
    return err.value.code


def test_resignation_and_other_reasons_in_board_pgn() -> None:
    board = _board(["e4"])
    text = board.pgn({"White": "Leslie"}, result="1-0", reason="resignation")
    assert '[Result "1-0"]' in text and '[Termination "Normal"]' in text
    assert '[White "Leslie"]' in text
    assert text.endswith("1. e4 1-0\n")
    game = hostage.pgn.read_game(text)
    assert game is not None and game.result == "1-0"
    assert game.headers["Termination"] == "Normal"
    assert '[Termination "Time forfeit"]' in board.pgn(result="0-1", reason="time_forfeit")
    assert '[Termination "Normal"]' in board.pgn(result="1/2-1/2", reason="agreement")
    abandoned = board.pgn(reason="abandonment")
    assert '[Termination "Abandoned"]' in abandoned and abandoned.endswith("1. e4 *\n")
    # The board itself is untouched: its game goes on.
    assert board.result() == "*" and board.pgn().endswith("1. e4 *\n")


def test_the_end_reason_reads_back() -> None:
    board = _board(["e4"])
    for result, reason in [
        ("1-0", "resignation"),
        ("0-1", "time_forfeit"),
        ("1/2-1/2", "agreement"),
        ("*", "abandonment"),
    ]:
        game = hostage.pgn.read_game(board.pgn(result=result, reason=reason))
        assert game is not None
        assert (game.result, game.end_reason) == (result, reason)
    # No Termination tag, or a mate that lichess also calls Normal.
    plain = hostage.pgn.read_game(board.pgn(result="1-0"))
    assert plain is not None and plain.end_reason is None
    mated = hostage.pgn.read_game('[Termination "Normal"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    assert mated is not None and mated.end_reason is None


def test_a_result_header_is_recorded() -> None:
    board = _board(["e4", "e5"])
    text = board.pgn({"Result": "0-1", "Event": "Casual"})
    assert '[Result "0-1"]' in text and text.endswith("1. e4 e5 0-1\n")
    assert "Termination" not in text
    # The reason alone takes the result of the header.
    assert '[Termination "Normal"]' in board.pgn({"Result": "0-1"}, reason="resignation")


def test_results_that_do_not_fit() -> None:
    board = _board(["e4"])
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(result="1/2-1/2", reason="resignation")
    assert _code(err) == "result_mismatch"
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(result="1-0", reason="agreement")
    assert _code(err) == "result_mismatch"
    # A resignation needs a winner: with no result given, the board's is *.
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(reason="resignation")
    assert _code(err) == "result_mismatch"
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(result="2-0")
    assert _code(err) == "invalid_result"
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(result="1-0", reason="resigned")
    assert _code(err) == "invalid_end_reason"
    with pytest.raises(TypeError):
        board.pgn(["White", "A"])  # type: ignore[arg-type]


def test_the_board_outcome_wins() -> None:
    board = _board(FOOLS_MATE)
    assert board.result() == "0-1"
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(result="1-0")
    assert _code(err) == "result_contradicts_board"
    assert "contradicts the board: 0-1 by checkmate" in str(err.value)
    with pytest.raises(hostage.ResultError) as err:
        board.pgn({"Result": "*"})
    assert _code(err) == "result_contradicts_board"
    # Mate is not resignation, even with the same result.
    with pytest.raises(hostage.ResultError) as err:
        board.pgn(result="0-1", reason="resignation")
    assert _code(err) == "result_contradicts_board"
    assert board.pgn(result="0-1").endswith("2. g4 Qh4# 0-1\n")


def test_game_set_result() -> None:
    game = hostage.pgn.Game.from_board(_board(FOOLS_MATE))
    with pytest.raises(hostage.ResultError):
        game.set_result("1-0")
    with pytest.raises(hostage.ResultError):
        game.set_header("Result", "1/2-1/2")
    with pytest.raises(hostage.ResultError):
        game.result = "*"
    with pytest.raises(hostage.ResultError):
        game.set_result("0-1", "resignation")
    assert game.result == "0-1" and "Termination" not in game.headers
    going_on = hostage.pgn.Game.from_board(_board(["d4"]))
    going_on.set_result("0-1", "time_forfeit")
    assert going_on.result == "0-1"
    assert going_on.headers["Termination"] == "Time forfeit"
    going_on.set_header("Result", "1/2-1/2")
    assert going_on.result == "1/2-1/2"
