"""Errors: real exception classes with the core's codes; a failed call
changes nothing; no input from Python, however wrong, crashes the interpreter."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import hostage

AFTER_QXD5 = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"

JUNK: list[Any] = [
    "",
    " ",
    "\0",
    "e2e4\0",
    "\0e4",
    "é4",
    "e4é",
    "♞f3",
    "\ud800",
    "x" * 100_000,
    "(" * 1000,
    "e" + "4" * 10_000,
    "O-O-O-O-O",
    "Qh4#" * 50,
    "e2e9",
    "K@e4",
    "P@e1",
    "Q#K@e4",
    "e7e8k",
    "@@@",
    "(Q-R)R*c7+!!",
]
WRONG_TYPES: list[Any] = [None, 0, -1, 2**80, 1.5, b"e4", ["e4"], object()]


def test_hierarchy() -> None:
    for cls in (
        hostage.FenError,
        hostage.PositionError,
        hostage.SquareError,
        hostage.InvalidMoveError,
        hostage.IllegalMoveError,
        hostage.AmbiguousMoveError,
        hostage.PgnError,
        hostage.ResultError,
    ):
        assert issubclass(cls, hostage.HostageError)
        assert cls.__module__ == "hostage"
    assert issubclass(hostage.HostageError, ValueError)
    assert issubclass(hostage.PositionError, hostage.FenError)
    assert hostage.HostageError("made by hand").code == ""


@pytest.mark.parametrize(
    ("fen", "cls", "code"),
    [
        ("", hostage.FenError, "invalid_fen"),
        ("xx", hostage.FenError, "invalid_board"),
        ("8/8/8/8/8/8/8/8[] w - - 0 1", hostage.PositionError, "missing_king"),
        ("4k3/8/8/8/8/8/8/4K3[x] w - - 0 1", hostage.FenError, "invalid_reserves"),
        ("4k3/8/8/8/8/8/8/4K3[] x - - 0 1", hostage.FenError, "invalid_turn"),
        ("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", hostage.PositionError, "king_in_reserve"),
    ],
)
def test_fen_errors(fen: str, cls: type[hostage.HostageError], code: str) -> None:
    with pytest.raises(cls) as info:
        hostage.Board(fen)
    assert type(info.value) is cls and info.value.code == code
    board = hostage.Board(AFTER_QXD5)
    with pytest.raises(cls):
        board.set_fen(fen)
    assert board.fen() == AFTER_QXD5


@pytest.mark.parametrize(
    ("notation", "text", "cls", "code"),
    [
        ("san", "Nz3", hostage.InvalidMoveError, "invalid_san"),
        ("san", "e5", hostage.IllegalMoveError, "illegal_san"),
        ("san", "Qxd9", hostage.InvalidMoveError, "invalid_san"),
        ("san", "(Q-P)*e4", hostage.IllegalMoveError, "illegal_san"),
        ("uci", "e2e5", hostage.IllegalMoveError, "illegal_uci"),
        ("uci", "e2", hostage.InvalidMoveError, "invalid_uci"),
        ("uci", "P@e4", hostage.IllegalMoveError, "illegal_uci"),
        ("uci", "z9z9", hostage.InvalidMoveError, "invalid_uci"),
    ],
)
def test_move_text_errors(
    notation: str, text: str, cls: type[hostage.HostageError], code: str
) -> None:
    """``push_san``/``parse_san`` and ``push_uci``/``parse_uci`` raise the
    same class and code, and leave the board as it was."""
    board = hostage.Board()
    calls = {
        "san": (board.push_san, board.parse_san),
        "uci": (board.push_uci, board.parse_uci),
    }[notation]
    for call in calls:
        with pytest.raises(cls) as info:
            call(text)
        assert type(info.value) is cls and info.value.code == code
    assert board.fen() == hostage.STARTING_FEN and board.move_stack == []


def test_ambiguous_san() -> None:
    board = hostage.Board("4k3/8/8/8/8/8/8/1N2KN2[] w - - 0 1")
    with pytest.raises(hostage.AmbiguousMoveError) as info:
        board.push_san("Nd2")
    assert info.value.code == "ambiguous_san"
    assert board.move_stack == []


def test_illegal_push_leaves_board_unchanged() -> None:
    board = hostage.Board(AFTER_QXD5)
    before = (board.fen(), board.zobrist_hash(), board.move_stack)
    # After 1.e4 d5 2.exd5 Qxd5: e2 is empty; both airfields are empty;
    # Black's prison holds a white pawn, not a queen (Q#P rescues a queen);
    # the king stands on e1; f1 and g1 are occupied.
    reasons = {
        "e2e5": "no_own_man",
        "N@e4": "not_in_airfield",
        "Q#P@e4": "rescued_not_held",
        "P#P@e1": "square_occupied",
        "e1g1": "path_blocked",
    }
    for text, reason in reasons.items():
        with pytest.raises(hostage.IllegalMoveError) as info:
            board.push(hostage.Move.from_uci(text))
        assert info.value.code == "illegal_uci"
        assert info.value.reason == reason
        with pytest.raises(hostage.IllegalMoveError) as info:
            board.san(hostage.Move.from_uci(text))
        assert info.value.reason == reason
    # A move taken from another position is judged by its long form here.
    stale = hostage.Board().parse_san("e4")
    with pytest.raises(hostage.IllegalMoveError):
        board.push(stale)
    assert (board.fen(), board.zobrist_hash(), board.move_stack) == before


@pytest.mark.parametrize(
    ("fen", "call", "code", "reason", "clause"),
    [
        (None, "push_san:Qh5", "illegal_san", "path_blocked", "another man is in the way"),
        (
            "4k3/8/8/8/8/4r3/8/4K3[] w - - 0 1",
            "push_san:Ke2",
            "illegal_san",
            "leaves_king_in_check",
            "the mover's king would be in check",
        ),
        (None, "push_uci:e2e5", "illegal_uci", "wrong_way", "that man does not move that way"),
        (
            "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1",
            "push_san:a8=Q",
            "illegal_san",
            "frozen_pawn",
            "the pawn is frozen",
        ),
        (
            "4k3/8/8/n7/8/8/4p3/R4K2[] w - - 0 1",
            "push_san:Rxa5",
            "illegal_san",
            "unfreezes_pawn",
            "the capture would unfreeze an enemy pawn",
        ),
        (
            AFTER_QXD5,
            "push:N#P@e4",
            "illegal_uci",
            "rescued_not_held",
            "the rescued man is not in the opponent's prison",
        ),
        (None, "push_moves:e4 e5 Ke3", "illegal_san", "wrong_way", "does not move that way"),
    ],
)
def test_illegal_move_reason(
    fen: str | None, call: str, code: str, reason: str, clause: str
) -> None:
    board = hostage.Board(fen)
    method, text = call.split(":")
    with pytest.raises(hostage.IllegalMoveError) as info:
        if method == "push":
            board.push(hostage.Move.from_uci(text))
        else:
            getattr(board, method)(text)
    assert (info.value.code, info.value.reason) == (code, reason)
    assert clause in str(info.value)
    assert reason not in str(info.value)  # the clause is English, not the code


def test_reason_is_none_unless_illegal() -> None:
    assert hostage.HostageError("made by hand").reason is None
    assert hostage.IllegalMoveError("made by hand").reason is None
    board = hostage.Board("4k3/8/8/8/8/8/8/1N2KN2[] w - - 0 1")
    with pytest.raises(hostage.AmbiguousMoveError) as ambiguous:
        board.push_san("Nd2")
    assert ambiguous.value.reason is None
    with pytest.raises(hostage.InvalidMoveError) as invalid:
        board.push_san("Zz9")
    assert invalid.value.reason is None


def test_move_constructors_reject_bad_input() -> None:
    with pytest.raises(hostage.InvalidMoveError):
        hostage.Move.from_uci("K@e4")
    with pytest.raises(hostage.InvalidMoveError):
        hostage.Move.drop(hostage.KING, hostage.E4)
    with pytest.raises(hostage.InvalidMoveError):
        hostage.Move(hostage.E7, hostage.E8, hostage.KING)
    with pytest.raises(hostage.SquareError):
        hostage.Move(64, 0)
    with pytest.raises(ValueError):
        hostage.Move.drop(0, hostage.E4)
    with pytest.raises(hostage.SquareError) as info:
        hostage.parse_square("e9")
    assert info.value.code == "invalid_square"
    with pytest.raises(hostage.SquareError):
        hostage.square_name(-1)


CALLS: list[tuple[str, Callable[[hostage.Board, Any], object]]] = [
    ("Board", lambda _b, x: hostage.Board(x)),
    ("set_fen", lambda b, x: b.set_fen(x)),
    ("push_san", lambda b, x: b.push_san(x)),
    ("push_uci", lambda b, x: b.push_uci(x)),
    ("parse_san", lambda b, x: b.parse_san(x)),
    ("parse_uci", lambda b, x: b.parse_uci(x)),
    ("push", lambda b, x: b.push(x)),
    ("san", lambda b, x: b.san(x)),
    ("is_legal", lambda b, x: b.is_legal(x)),
    ("in", lambda b, x: x in b.legal_moves),
    ("piece_at", lambda b, x: b.piece_at(x)),
    ("prison", lambda b, x: b.prison(x)),
    ("airfield", lambda b, x: b.airfield(x)),
    ("is_repetition", lambda b, x: b.is_repetition(x)),
    ("perft", lambda b, x: b.perft(x) if not isinstance(x, int) or x < 0 or x > 3 else 0),
    ("Move.from_uci", lambda _b, x: hostage.Move.from_uci(x)),
    ("Move", lambda _b, x: hostage.Move(x, x)),
    ("Move.drop", lambda _b, x: hostage.Move.drop(x, x)),
    ("Move.exchange", lambda _b, x: hostage.Move.exchange(x, x, x)),
    ("Piece.from_symbol", lambda _b, x: hostage.Piece.from_symbol(x)),
    ("Piece", lambda _b, x: hostage.Piece(x, x)),
    ("parse_square", lambda _b, x: hostage.parse_square(x)),
    ("square_name", lambda _b, x: hostage.square_name(x)),
    ("reserve[]", lambda b, x: b.prison(True)[x]),
    ("reserve.get", lambda b, x: b.prison(True).get(x)),
    ("reserve.count", lambda b, x: b.prison(True).count(x)),
    ("Outcome", lambda _b, x: hostage.Outcome(x, x)),
    ("attackers", lambda b, x: b.attackers(x, x)),
    ("is_attacked_by", lambda b, x: b.is_attacked_by(True, x)),
    ("attacks", lambda b, x: b.attacks(x)),
    ("pin", lambda b, x: b.pin(x, x)),
    ("pieces", lambda b, x: b.pieces(x, True)),
    ("king", lambda b, x: b.king(x)),
    ("gives_check", lambda b, x: b.gives_check(x)),
    ("is_capture", lambda b, x: b.is_capture(x)),
    ("lan", lambda b, x: b.lan(x)),
    ("variation_san", lambda b, x: b.variation_san(x)),
    ("variation_san[]", lambda b, x: b.variation_san([x])),
    ("find_move", lambda b, x: b.find_move(x, x)),
    ("unicode", lambda b, x: b.unicode(empty_square=x)),
    ("SquareSet", lambda _b, x: hostage.SquareSet(x)),
    ("Setup", lambda _b, x: hostage.Setup(x)),
    ("Setup.set_piece_at", lambda _b, x: hostage.Setup().set_piece_at(x, x)),
    ("Setup.set_prison", lambda _b, x: hostage.Setup().set_prison(True, x)),
]


@pytest.mark.parametrize(("name", "call"), CALLS, ids=[name for name, _ in CALLS])
def test_garbage_in_exception_out(name: str, call: Callable[[hostage.Board, Any], object]) -> None:
    board = hostage.Board(AFTER_QXD5)
    fen = board.fen()
    for value in JUNK + WRONG_TYPES:
        try:
            call(board, value)
        except (ValueError, TypeError, OverflowError, KeyError, IndexError):
            pass
        assert board.fen() == fen, (name, value)
        assert board.move_stack == [], (name, value)


def test_string_errors_are_value_errors() -> None:
    board = hostage.Board()
    for text in JUNK:
        for call in (board.push_san, board.push_uci, board.parse_san, board.parse_uci):
            with pytest.raises(ValueError):
                call(text)
        with pytest.raises(ValueError):
            hostage.Board(text)
    assert board.fen() == hostage.STARTING_FEN


def test_corrupt_pickle_state() -> None:
    board = hostage.Board()
    with pytest.raises(hostage.HostageError):
        board.__setstate__(["e2e4", "e2e4"])
    with pytest.raises(TypeError):
        board.__setstate__(None)  # type: ignore[arg-type]
