"""Hostage Chess (John Leslie, 1997) for Python, with the feel of python-chess.

A thin layer over the Rust library hostage-core: every rule lives there.

>>> import hostage
>>> board = hostage.Board()
>>> board.push_san("e4")
Move.from_uci('e2e4')
>>> len(board.legal_moves)
20

Conventions follow python-chess: colours are bools (``WHITE = True``),
squares are ints 0..63 (``A1 = 0``, ``H8 = 63``), roles (piece types) are
ints ``PAWN = 1`` .. ``KING = 6``. See docs/python.md.
"""

from collections.abc import Mapping as _Mapping
from typing import Final as _Final

from hostage._hostage import (
    AmbiguousMoveError,
    Board,
    FenError,
    HostageError,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    MoveKind,
    Outcome,
    PgnError,
    Piece,
    PositionError,
    Reserve,
    ResultError,
    Setup,
    SquareError,
    SquareSet,
    Termination,
    __version__,
    parse_square,
    square_name,
)

Color = bool
"""A colour: ``WHITE`` (True) or ``BLACK`` (False)."""
PieceType = int
"""A role: ``PAWN`` (1) .. ``KING`` (6)."""
Square = int
"""A square: ``A1`` (0) .. ``H8`` (63)."""

WHITE: _Final = True
BLACK: _Final = False
COLORS: _Final = [WHITE, BLACK]
COLOR_NAMES: _Final = ["black", "white"]

PAWN: _Final = 1
KNIGHT: _Final = 2
BISHOP: _Final = 3
ROOK: _Final = 4
QUEEN: _Final = 5
KING: _Final = 6
PIECE_TYPES: _Final = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS: _Final = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES: _Final = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]

FILE_NAMES: _Final = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES: _Final = ["1", "2", "3", "4", "5", "6", "7", "8"]

A1, B1, C1, D1, E1, F1, G1, H1 = 0, 1, 2, 3, 4, 5, 6, 7
A2, B2, C2, D2, E2, F2, G2, H2 = 8, 9, 10, 11, 12, 13, 14, 15
A3, B3, C3, D3, E3, F3, G3, H3 = 16, 17, 18, 19, 20, 21, 22, 23
A4, B4, C4, D4, E4, F4, G4, H4 = 24, 25, 26, 27, 28, 29, 30, 31
A5, B5, C5, D5, E5, F5, G5, H5 = 32, 33, 34, 35, 36, 37, 38, 39
A6, B6, C6, D6, E6, F6, G6, H6 = 40, 41, 42, 43, 44, 45, 46, 47
A7, B7, C7, D7, E7, F7, G7, H7 = 48, 49, 50, 51, 52, 53, 54, 55
A8, B8, C8, D8, E8, F8, G8, H8 = 56, 57, 58, 59, 60, 61, 62, 63

SQUARES: _Final = list(range(64))
SQUARE_NAMES: _Final = [f + r for r in RANK_NAMES for f in FILE_NAMES]

STARTING_FEN: _Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
"""The start position in Hostage FEN (empty prisons and airfields: ``[]``)."""


def square(file_index: int, rank_index: int) -> int:
    """The square on file ``file_index`` (0 = a) and rank ``rank_index`` (0 = 1)."""
    return rank_index * 8 + file_index


def square_file(square: int) -> int:
    """The file index (0 = a) of ``square``."""
    return square & 7


def square_rank(square: int) -> int:
    """The rank index (0 = rank 1) of ``square``."""
    return square >> 3


def piece_symbol(piece_type: int) -> str:
    """The lowercase letter of a role: ``piece_symbol(KNIGHT) == "n"``."""
    symbol: str | None = PIECE_SYMBOLS[piece_type] if 1 <= piece_type <= 6 else None
    if symbol is None:
        raise ValueError(f"invalid piece type {piece_type!r}")
    return symbol


def piece_name(piece_type: int) -> str:
    """The name of a role: ``piece_name(KNIGHT) == "knight"``."""
    name: str | None = PIECE_NAMES[piece_type] if 1 <= piece_type <= 6 else None
    if name is None:
        raise ValueError(f"invalid piece type {piece_type!r}")
    return name


# A prison or an airfield is a read-only mapping role -> count.
_Mapping.register(Reserve)

__all__ = [
    "A1",
    "A2",
    "A3",
    "A4",
    "A5",
    "A6",
    "A7",
    "A8",
    "B1",
    "B2",
    "B3",
    "B4",
    "B5",
    "B6",
    "B7",
    "B8",
    "BISHOP",
    "BLACK",
    "C1",
    "C2",
    "C3",
    "C4",
    "C5",
    "C6",
    "C7",
    "C8",
    "COLORS",
    "COLOR_NAMES",
    "D1",
    "D2",
    "D3",
    "D4",
    "D5",
    "D6",
    "D7",
    "D8",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "FILE_NAMES",
    "G1",
    "G2",
    "G3",
    "G4",
    "G5",
    "G6",
    "G7",
    "G8",
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    "H6",
    "H7",
    "H8",
    "KING",
    "KNIGHT",
    "PAWN",
    "PIECE_NAMES",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "QUEEN",
    "RANK_NAMES",
    "ROOK",
    "SQUARES",
    "SQUARE_NAMES",
    "STARTING_FEN",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "FenError",
    "HostageError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "Move",
    "MoveKind",
    "Outcome",
    "PgnError",
    "Piece",
    "PieceType",
    "PositionError",
    "Reserve",
    "ResultError",
    "Setup",
    "Square",
    "SquareError",
    "SquareSet",
    "Termination",
    "__version__",
    "parse_square",
    "piece_name",
    "piece_symbol",
    "square",
    "square_file",
    "square_name",
    "square_rank",
]
