"""tests/vectors/bad-input.txt (format in tests/README.md): every hostile input
gives its documented error code as a ``HostageError`` (a ``ValueError``) of the
matching class, a failed push leaves the board unchanged, and nothing aborts
the interpreter (a Rust panic would surface as ``PanicException``, which is
no ``HostageError``, and fail the case). Mirrors hostage-core/tests/bad_input.rs.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from vector_files import table, unescape

import hostage
import hostage.pgn


@dataclass(frozen=True)
class Case:
    line: int
    kind: str
    position: str
    text: str
    expected: str


def cases() -> list[Case]:
    out = []
    for n, fields in table("bad-input.txt"):
        assert len(fields) == 4, f"line {n}: expected 4 fields: {fields}"
        kind, position, text, expected = fields
        out.append(Case(n, kind, position, unescape(text), expected))
    return out


CASES = cases()

# The exception class each code is raised as (docs/python.md, "Errors").
FEN_CODES = {
    "invalid_fen",
    "invalid_board",
    "invalid_reserves",
    "invalid_turn",
    "invalid_castling_field",
    "invalid_ep_field",
    "invalid_halfmove_clock",
    "invalid_fullmoves",
}


def error_class(code: str) -> type[hostage.HostageError]:
    if code in FEN_CODES:
        return hostage.FenError
    if code in ("invalid_castling", "invalid_ep_square"):
        return hostage.PositionError
    if code.startswith("pgn_"):
        return hostage.PgnError
    if code.startswith("invalid_"):
        return hostage.InvalidMoveError
    if code.startswith("illegal_"):
        return hostage.IllegalMoveError
    if code.startswith("ambiguous_"):
        return hostage.AmbiguousMoveError
    return hostage.PositionError


def check_raises(expected: str, call: Callable[..., object], *args: object) -> None:
    with pytest.raises(hostage.HostageError) as info:
        call(*args)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.code == expected, f"{type(error).__name__}: {error}"
    assert type(error) is error_class(expected), type(error).__name__
    assert str(error)


def state(board: hostage.Board) -> tuple[str, int, list[hostage.Move]]:
    return (board.fen(), board.zobrist_hash(), board.move_stack)


def run_fen(case: Case) -> None:
    if case.expected == "ok":
        board = hostage.Board(case.text)
        assert hostage.Board(board.fen()).fen() == board.fen()
        return
    check_raises(case.expected, hostage.Board, case.text)
    board = hostage.Board()
    before = state(board)
    check_raises(case.expected, board.set_fen, case.text)
    assert state(board) == before


def run_move(case: Case) -> None:
    board = hostage.Board(None if case.position == "-" else case.position)
    before = state(board)
    push: Callable[[str], hostage.Move]
    parse: Callable[[str], hostage.Move]
    if case.kind == "san":
        push, parse = board.push_san, board.parse_san
    else:
        push, parse = board.push_uci, board.parse_uci
    if case.expected == "ok":
        move = parse(case.text)
        assert move in board.legal_moves
        assert push(case.text) == move
        board.pop()
        assert state(board) == before
        return
    check_raises(case.expected, parse, case.text)
    assert state(board) == before
    check_raises(case.expected, push, case.text)
    assert state(board) == before
    if case.expected == "invalid_uci":
        check_raises(case.expected, hostage.Move.from_uci, case.text)


def run_pgn(case: Case) -> None:
    # read_game gives None for a text without a game (python-chess's
    # convention) where the core's PgnGame::read reports pgn_syntax.
    for source in (case.text, io.StringIO(case.text)):
        if case.expected == "ok":
            assert hostage.pgn.read_game(source) is not None
        elif case.expected == "pgn_syntax" and not case.text.strip():
            assert hostage.pgn.read_game(source) is None
        else:
            check_raises(case.expected, hostage.pgn.read_game, source)


@pytest.mark.parametrize("case", CASES, ids=[f"line{c.line}-{c.kind}" for c in CASES])
def test_bad_input(case: Case) -> None:
    if case.kind == "fen":
        run_fen(case)
    elif case.kind in ("san", "uci"):
        run_move(case)
    elif case.kind == "pgn":
        run_pgn(case)
    else:
        pytest.fail(f"line {case.line}: unknown kind {case.kind!r}")


def test_corpus_is_large() -> None:
    assert len(CASES) >= 150
    assert {c.kind for c in CASES} == {"fen", "san", "uci", "pgn"}


def test_unescape_forms() -> None:
    assert unescape(r"a\x00b\\\n\t") == "a\0b\\\n\t"
    assert unescape(r"\u{2013}\u{1f600}") == "\u2013\U0001f600"
    assert unescape(r"x{repeat:3:a\x7c}y") == "xa|a|a|y"
    assert unescape("{repeat:0:a}") == ""
    for bad in (r"\q", r"\x80", r"\x+1"):
        with pytest.raises(ValueError):
            unescape(bad)


POSITION_CODES = {
    "missing_king",
    "too_many_kings",
    "king_in_reserve",
    "pawn_on_backrank",
    "too_many_men",
    "opposite_check",
    "invalid_castling",
    "invalid_ep_square",
}
PRINTABLE = re.compile(r"[\x20-\x7e]{1,60}")


def assert_named(error: BaseException, text: str) -> None:
    """The message names a short printable input whole (quoted) and stays
    short for a long one."""
    message = str(error)
    assert len(message) < 600, f"message of {len(message)} characters"
    # Quotes and backslashes are escaped in messages: such input is skipped.
    if PRINTABLE.fullmatch(text) and not {"'", '"', "\\"} & set(text):
        if text.strip() == text:
            assert f"'{text}'" in message, message


@pytest.mark.parametrize("case", CASES, ids=[f"line{c.line}-{c.kind}" for c in CASES])
def test_bad_input_new_entry_points(case: Case) -> None:
    """Setup(fen), Setup.board(), variation_san and the move questions meet
    the corpus like the older entry points, and every message names its
    input (with the position's FEN for an illegal move)."""
    if case.kind == "fen":
        if case.expected == "ok":
            assert hostage.Setup(case.text).board() == hostage.Board(case.text)
        elif case.expected in POSITION_CODES:
            setup = hostage.Setup(case.text)
            assert setup.status() == case.expected and not setup.is_valid()
            check_raises(case.expected, setup.board)
        else:
            check_raises(case.expected, hostage.Setup, case.text)
            with pytest.raises(hostage.FenError) as info:
                hostage.Board(case.text)
            assert_named(info.value, case.text)
        return
    if case.kind not in ("san", "uci"):
        return
    board = hostage.Board(None if case.position == "-" else case.position)
    before = state(board)
    if case.kind == "san":
        try:
            board.push_san(case.text)
        except hostage.HostageError as error:
            assert_named(error, case.text)
            if not case.expected.startswith("invalid"):
                assert board.fen() in str(error)
        else:
            board.pop()
    else:
        try:
            move = hostage.Move.from_uci(case.text)
        except hostage.InvalidMoveError as error:
            assert_named(error, case.text)
            assert case.expected == "invalid_uci"
        else:
            if case.expected == "ok":
                assert board.variation_san([move])
                assert board.lan(move) and isinstance(board.gives_check(move), bool)
            else:
                check_raises(case.expected, board.variation_san, [move])
                with pytest.raises(hostage.IllegalMoveError) as illegal:
                    board.gives_check(move)
                assert illegal.value.code == "illegal_uci"
                assert board.fen() in str(illegal.value)
    assert state(board) == before
