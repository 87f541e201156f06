"""The native module of hostage (Rust, pyo3). Import from ``hostage``."""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Final, final

from typing_extensions import TypeAlias

__version__: str
__all__ = [
    "DEFAULT_HASH_MB",
    "MAX_HASH_MB",
    "SVG_DEFAULT_ARROW_COLOR",
    "AmbiguousMoveError",
    "Board",
    "DifficultyError",
    "EngineCore",
    "FenError",
    "Game",
    "HostageError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "LevelError",
    "Move",
    "MoveKind",
    "NetworkError",
    "Outcome",
    "PgnError",
    "PgnReader",
    "Piece",
    "PositionError",
    "PuzzleError",
    "Reserve",
    "ResultError",
    "Setup",
    "SquareError",
    "SquareSet",
    "Termination",
    "__version__",
    "course_json",
    "engine_levels",
    "glicko_rate",
    "glicko_update",
    "parse_puzzle_records",
    "parse_square",
    "puzzle_accepts",
    "puzzle_next",
    "puzzle_records",
    "square_name",
    "svg_board",
]

SVG_DEFAULT_ARROW_COLOR: str
"""The colour of arrows and marks given without one, or with an unsafe one."""

def parse_square(name: str) -> int:
    """The square named ``name`` (``"e4"`` -> 28); ``SquareError`` if invalid."""

def square_name(square: int) -> str:
    """The name of ``square`` (28 -> ``"e4"``); ``SquareError`` if not in 0..63."""

def svg_board(
    board: Board,
    *,
    size: int | None = None,
    flipped: bool = False,
    coordinates: bool = True,
    reserves: bool = True,
    lastmove: Move | None = None,
    check: bool = True,
    frozen: bool = True,
    arrows: Sequence[tuple[int, int, str | None]] = ...,
    marks: Sequence[tuple[int, str]] = ...,
) -> str:
    """The SVG image of ``board``'s position (``hostage.svg.board`` wraps it).
    ``arrows`` are ``(tail, head, color or None)``, ``marks`` ``(square, color)``;
    ``SquareError`` for a square outside 0..63."""

def course_json() -> str:
    """The rules course (``hostage-puzzles/data/course.json``) as JSON text;
    see ``hostage.course``."""

class HostageError(ValueError):
    """Base class of every hostage error; ``code`` is the core's stable error code."""

    code: str
    ply: int | None
    """The failing move's place in a list (``Board.push_moves``), from 1; else None."""
    reason: str | None
    """Why a move is illegal (``IllegalMoveError`` only): the code of the
    core's ``IllegalReason``, e.g. ``"leaves_king_in_check"``; else None."""

class FenError(HostageError):
    """A FEN that cannot be read (``invalid_board``, ``invalid_reserves``, ...)."""

class PositionError(FenError):
    """A well-formed FEN of an illegal position (``missing_king``, ``too_many_men``, ...)."""

class SquareError(HostageError):
    """An invalid square name or index (``invalid_square``)."""

class InvalidMoveError(HostageError):
    """Move text that is not SAN or UCI (``invalid_san``, ``invalid_uci``)."""

class IllegalMoveError(HostageError):
    """A move that is not legal here (``illegal_move``, ``illegal_san``, ``illegal_uci``);
    ``reason`` says why (``wrong_way``, ``leaves_king_in_check``, ...)."""

class AmbiguousMoveError(HostageError):
    """SAN that names several legal moves (``ambiguous_san``)."""

class PgnError(HostageError):
    """PGN that cannot be read (``pgn_syntax``, ``pgn_illegal_move``, ``pgn_fen``, ...)."""

class ResultError(HostageError):
    """A game result that cannot be recorded (``invalid_result``,
    ``invalid_end_reason``, ``result_contradicts_board``, ``result_mismatch``)."""

@final
class MoveKind:
    """What kind of turn a move is."""

    NORMAL: ClassVar[MoveKind]
    """A man moves on the board (perhaps capturing or promoting)."""
    EN_PASSANT: ClassVar[MoveKind]
    """A pawn captures en passant."""
    CASTLE: ClassVar[MoveKind]
    """Castling."""
    DROP: ClassVar[MoveKind]
    """A man of the mover's airfield is put on an empty square (R6)."""
    EXCHANGE: ClassVar[MoveKind]
    """An exchange of prisoners; the rescued man is dropped (R5)."""
    @property
    def value(self) -> str:
        """``"normal"``, ``"en_passant"``, ``"castle"``, ``"drop"`` or ``"exchange"``."""
    def __int__(self) -> int: ...

@final
class Termination:
    """How a game ended."""

    CHECKMATE: ClassVar[Termination]
    """The side to move is in check and has no legal move (R11)."""
    STALEMATE: ClassVar[Termination]
    """The side to move is not in check and has no legal move (R12)."""
    FIFTY_MOVES: ClassVar[Termination]
    """100 plies without a capture, a pawn move or a pawn drop (R12)."""
    THREEFOLD_REPETITION: ClassVar[Termination]
    """A position occurred for the third time (R12)."""
    PERPETUAL_CHECK: ClassVar[Termination]
    """A threefold repetition in which every move of one side gave check (R12)."""
    @property
    def value(self) -> str:
        """``"checkmate"``, ``"stalemate"``, ``"fifty_moves"``, ``"threefold_repetition"`` or
        ``"perpetual_check"``."""
    def __int__(self) -> int: ...

@final
class Outcome:
    """The end of a game: how, and who won."""

    def __new__(cls, termination: Termination, winner: bool | None) -> Outcome: ...
    @property
    def termination(self) -> Termination:
        """How the game ended."""
    @property
    def winner(self) -> bool | None:
        """``True`` (White), ``False`` (Black) or ``None`` (a draw)."""
    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Piece:
    """A man: a role (``piece_type``, 1..6) and a colour (``True`` for White)."""

    def __new__(cls, piece_type: int, color: bool) -> Piece: ...
    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a FEN letter: ``"P"`` is a white pawn, ``"q"`` a black queen."""
    @property
    def piece_type(self) -> int:
        """The role: ``PAWN`` (1) .. ``KING`` (6)."""
    @property
    def color(self) -> bool:
        """``True`` for White."""
    def symbol(self) -> str:
        """The FEN letter (uppercase for White)."""
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class Move:
    """A move. Equal and hashed by its long (UCI) form, as in python-chess.

    A move from a board (``legal_moves``, ``push_san``, ``parse_uci``...) also
    knows its ``kind``, ``role`` and ``captured``; a board move built without
    a board (``Move.from_uci("e2e4")``) has them ``None`` until a board
    resolves it (``board.parse_uci``).
    """

    def __new__(cls, from_square: int, to_square: int, promotion: int | None = None) -> Move:
        """A board move; ``promotion`` is the role fetched from the prison (R7)."""
    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """Parses the long form: ``e2e4``, ``e7e8q``, ``N@c7``, ``P@c7``, ``N#B@c7``
        (rescued role ``#`` released role ``@`` square). ``InvalidMoveError`` if
        malformed."""
    @classmethod
    def drop(cls, role: int, to_square: int) -> Move:
        """An airfield drop (R6) of ``role`` on ``to_square``."""
    @classmethod
    def exchange(cls, released: int, rescued: int, to_square: int) -> Move:
        """An exchange (R5): release ``released``, rescue ``rescued`` onto ``to_square``."""
    def uci(self) -> str:
        """The long (UCI) form."""
    @property
    def kind(self) -> MoveKind | None:
        """The kind of move; ``None`` for a board move built without a board."""
    @property
    def from_square(self) -> int | None:
        """The start square of a board move; ``None`` for drops and exchanges."""
    @property
    def to_square(self) -> int:
        """The square the man lands on (the king's square for castling)."""
    @property
    def role(self) -> int | None:
        """The role of the man moved or put on the board (the rescued man for an
        exchange); ``None`` for a board move built without a board."""
    @property
    def promotion(self) -> int | None:
        """The role fetched from the prison by a promotion (R7)."""
    @property
    def captured(self) -> int | None:
        """The role captured; ``None`` if none or built without a board."""
    @property
    def released(self) -> int | None:
        """Exchange only: the role of the enemy man released from the mover's prison."""
    @property
    def rescued(self) -> int | None:
        """Exchange only: the role of the mover's man rescued and dropped."""
    def __hash__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: Any, /) -> Move: ...

@final
class Reserve:
    """A prison or an airfield: a read-only mapping role -> count of the roles
    held (order Q R B N P). Like ``collections.Counter``, ``reserve[role]`` is 0
    for a role not held. Registered as a ``collections.abc.Mapping``."""

    def __getitem__(self, key: int, /) -> int: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[int]: ...
    def __bool__(self) -> bool: ...
    def keys(self) -> list[int]:
        """The roles held, in the order Q R B N P."""
    def values(self) -> list[int]:
        """The counts, in the order of ``keys()``."""
    def items(self) -> list[tuple[int, int]]:
        """``(role, count)`` pairs, in the order of ``keys()``."""
    def get(self, key: int, default: int | None = None) -> int | None:
        """The count of ``key``, or ``default`` if that role is not held."""
    def count(self, role: int) -> int:
        """How many men of ``role`` (0 if none)."""
    def total(self) -> int:
        """How many men in all."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class LegalMoves:
    """The legal moves of a board's current position: ``len()``, ``in``, iteration.

    Board moves, airfield drops and exchanges alike.
    """

    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, key: object, /) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...

@final
class Board:
    """A game of Hostage Chess in progress: a position and its move stack.

    ``Board()`` is the start position; ``Board(fen)`` any Hostage FEN
    (``FenError`` / ``PositionError`` if it cannot be read or is illegal).
    """

    def __new__(cls, fen: str | None = None) -> Board: ...
    def fen(self) -> str:
        """The canonical Hostage FEN of the current position."""
    def set_fen(self, fen: str) -> None:
        """Replaces the game with the position of ``fen`` and an empty move stack."""
    def reset(self) -> None:
        """Back to the start position with an empty move stack."""
    @property
    def turn(self) -> bool:
        """The side to move: ``WHITE`` (True) or ``BLACK`` (False)."""
    def piece_at(self, square: int) -> Piece | None:
        """The man on ``square``, or ``None``."""
    def piece_map(self) -> dict[int, Piece]:
        """Every man on the board, by square."""
    def prison(self, color: bool) -> Reserve:
        """``color``'s prison: the enemy men ``color`` has captured (R2)."""
    def airfield(self, color: bool) -> Reserve:
        """``color``'s airfield: ``color``'s own men released by the opponent (R3)."""
    @property
    def castling_rights(self) -> int:
        """The rook corners whose castling right is in force, as a bitmask
        (``1 << H1`` is White's ``K``)."""
    def has_castling_rights(self, color: bool) -> bool:
        """Whether ``color`` keeps a castling right on either side."""
    def has_kingside_castling_rights(self, color: bool) -> bool:
        """Whether ``color`` keeps the right to castle king side."""
    def has_queenside_castling_rights(self, color: bool) -> bool:
        """Whether ``color`` keeps the right to castle queen side."""
    def king_unmoved(self, color: bool) -> bool:
        """Whether ``color``'s king has never moved, so that a rook dropped on a
        home corner brings the castling right back (R9; FEN ``E``/``e``)."""
    @property
    def ep_square(self) -> int | None:
        """The en-passant square, only when an en-passant capture is legal."""
    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture, pawn move or pawn drop (R12)."""
    @property
    def fullmove_number(self) -> int:
        """The move number: 1 at the start, incremented after each Black move."""
    def ply(self) -> int:
        """The number of moves on the move stack."""
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves: a live view supporting ``len()``, ``in`` and iteration."""
    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is a legal move here."""
    def push(self, move: Move) -> None:
        """Plays ``move``; ``IllegalMoveError`` (board unchanged) if it is not legal."""
    def push_san(self, san: str) -> Move:
        """Plays a move in SAN (lenient reading) and returns it.

        ``InvalidMoveError``, ``IllegalMoveError`` or ``AmbiguousMoveError``
        leave the board unchanged."""
    def push_moves(self, moves: str) -> int:
        """Plays a list of moves written as text (SAN or long form, move numbers,
        comments, the inventor's ``O O`` and a final result allowed) and returns
        how many were played. All or nothing: on error the board is unchanged
        and the exception's ``.ply`` is the failing move's place in the list."""
    def push_uci(self, uci: str) -> Move:
        """Plays a move in long (UCI) form and returns it."""
    def pop(self) -> Move:
        """Takes back the last move and returns it; ``IndexError`` if none."""
    def peek(self) -> Move:
        """The last move played; ``IndexError`` if none."""
    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the start position, oldest first (a copy)."""
    def copy(self, *, stack: bool = True) -> Board:
        """A copy; with ``stack=False`` it starts from the current position."""
    def root(self) -> Board:
        """A new board at the start position of the move stack."""
    def san(self, move: Move) -> str:
        """The canonical SAN of a legal move, with ``+``/``#``."""
    def uci(self, move: Move) -> str:
        """The long (UCI) form of a legal move."""
    def parse_san(self, san: str) -> Move:
        """The legal move a SAN text names."""
    def parse_uci(self, uci: str) -> Move:
        """The legal move a long-form text names."""
    def is_check(self) -> bool:
        """Whether the side to move is in check (a frozen pawn never checks, R8)."""
    def is_pseudo_check(self) -> bool:
        """Whether the king to move is attacked only by a frozen pawn (R8a)."""
    def checkers(self) -> SquareSet:
        """The squares of the men giving check."""
    def pseudo_checkers(self) -> SquareSet:
        """The enemy pawns next to the king to move that would check it if
        they were not frozen (R8a); empty whenever the enemy can promote."""
    def frozen_pawns(self, color: bool | None = None) -> SquareSet:
        """The frozen pawns (R8: on their 7th rank while the enemy prison holds
        no Q/R/B/N of their side): of ``color``, or of both sides for ``None``."""
    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated (R11)."""
    def is_stalemate(self) -> bool:
        """Whether the side to move is stalemated (R12)."""
    def is_fifty_moves(self) -> bool:
        """Whether 100 plies passed without a capture, pawn move or pawn drop (R12)."""
    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred at least ``count`` times."""
    def repetition_count(self) -> int:
        """How many times the current position has occurred, this time included."""
    def outcome(self) -> Outcome | None:
        """How the game has ended, or ``None`` (R11, R12; all draws are automatic)."""
    def is_game_over(self) -> bool:
        """Whether the game has ended."""
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
    def perft(self, depth: int) -> int:
        """The number of legal move sequences of ``depth`` plies."""
    def zobrist_hash(self) -> int:
        """A 64-bit hash, equal for positions that R12 counts as the same."""
    def attackers(self, color: bool, square: int) -> SquareSet:
        """The men of ``color`` attacking ``square`` (R8: a frozen pawn attacks
        nothing on its last rank; a pinned man still attacks)."""
    def is_attacked_by(self, color: bool, square: int) -> bool:
        """Whether a man of ``color`` attacks ``square`` (R8 applied)."""
    def attacks(self, square: int) -> SquareSet:
        """The squares the man on ``square`` attacks (empty if there is none)."""
    def pin(self, color: bool, square: int) -> SquareSet:
        """The line along which the man of ``color`` on ``square`` is pinned to
        its king (king to pinner, the whole line), or every square if not pinned."""
    def is_pinned(self, color: bool, square: int) -> bool:
        """Whether the man of ``color`` on ``square`` is pinned to its king."""
    def pinned(self, color: bool) -> SquareSet:
        """The men of ``color`` pinned to their king."""
    def king(self, color: bool) -> int | None:
        """The square of ``color``'s king (never ``None`` on a legal position)."""
    def pieces(self, piece_type: int, color: bool) -> SquareSet:
        """The squares of the men of role ``piece_type`` and colour ``color``."""
    def color_at(self, square: int) -> bool | None:
        """The colour of the man on ``square`` (``True`` for White), or ``None``."""
    def piece_type_at(self, square: int) -> int | None:
        """The role of the man on ``square``, or ``None``."""
    def attackers_mask(self, color: bool, square: int) -> int:
        """``attackers(color, square)`` as an int mask."""
    def attacks_mask(self, square: int) -> int:
        """``attacks(square)`` as an int mask."""
    def pieces_mask(self, piece_type: int, color: bool) -> int:
        """``pieces(piece_type, color)`` as an int mask."""
    def pin_mask(self, color: bool, square: int) -> int:
        """``pin(color, square)`` as an int mask."""
    def checkers_mask(self) -> int:
        """``checkers()`` as an int mask."""
    def has_legal_en_passant(self) -> bool:
        """Whether an en-passant capture is legal now."""
    def find_move(self, from_square: int, to_square: int, promotion: int | None = None) -> Move:
        """The legal board move from ``from_square`` to ``to_square``;
        ``IllegalMoveError`` if there is none."""
    def clear_stack(self) -> None:
        """Forgets the move stack; the current position becomes the root."""
    def apply_mirror(self) -> None:
        """Replaces the position with its mirror image and clears the move stack."""
    def is_kingside_castling(self, move: Move) -> bool:
        """Whether the legal ``move`` castles king side."""
    def is_queenside_castling(self, move: Move) -> bool:
        """Whether the legal ``move`` castles queen side."""
    def gives_check(self, move: Move) -> bool:
        """Whether the legal ``move`` gives check (``IllegalMoveError`` if not legal)."""
    def is_capture(self, move: Move) -> bool:
        """Whether the legal ``move`` captures (en passant included)."""
    def is_zeroing(self, move: Move) -> bool:
        """Whether the legal ``move`` resets the fifty-move count (R12): a capture,
        a pawn move, or a pawn put on the board by a drop or an exchange."""
    def is_irreversible(self, move: Move) -> bool:
        """Whether no earlier position can recur after the legal ``move``: in
        Hostage Chess only a king's move while its side has a castling right."""
    def is_en_passant(self, move: Move) -> bool:
        """Whether the legal ``move`` is an en-passant capture."""
    def is_castling(self, move: Move) -> bool:
        """Whether the legal ``move`` is castling."""
    def is_drop(self, move: Move) -> bool:
        """Whether the legal ``move`` puts a man on the board from outside it
        (an airfield drop or the drop of an exchange)."""
    def is_exchange(self, move: Move) -> bool:
        """Whether the legal ``move`` is an exchange (R5)."""
    def can_claim_threefold_repetition(self) -> bool:
        """Whether the position has occurred three times: R12's automatic draw."""
    def can_claim_fifty_moves(self) -> bool:
        """Whether 100 plies passed without capture, pawn move or pawn drop (R12)."""
    def can_claim_draw(self) -> bool:
        """Whether R12's automatic draw by repetition or fifty moves happened."""
    def is_fivefold_repetition(self) -> bool:
        """Whether the position has occurred five times."""
    def is_seventyfive_moves(self) -> bool:
        """Whether 150 plies passed without capture, pawn move or pawn drop."""
    def board_fen(self) -> str:
        """The piece placement field of the FEN, without the reserves."""
    def unicode(
        self,
        *,
        invert_color: bool = False,
        borders: bool = False,
        empty_square: str = "⭘",
        orientation: bool = True,
    ) -> str:
        """The board in figurines, then both prisons and airfields."""
    def lan(self, move: Move) -> str:
        """Long algebraic notation of a legal move (``Ng1-f3``, ``e4xd5``, ``N*c7``)."""
    def variation_san(self, variation: Sequence[Move]) -> str:
        """The moves as numbered SAN from the current position (``1. e4 e5``);
        ``IllegalMoveError`` naming the first illegal move and its position."""
    def mirror(self) -> Board:
        """The colour-swapped mirror image (ranks flipped, prisons and airfields
        swapped between the sides, castling rights swapped), empty move stack."""
    def set_piece_at(self, square: int, piece: Piece | None) -> None:
        """Puts ``piece`` on ``square`` (``None`` empties it) if the result is a legal
        position, clearing the move stack; else ``PositionError``, board unchanged."""
    def remove_piece_at(self, square: int) -> Piece | None:
        """Empties ``square`` (returning its man) if the result is a legal position,
        clearing the move stack; else ``PositionError``, board unchanged."""
    def is_valid(self) -> bool:
        """Always ``True``: a ``Board`` holds only legal positions (see ``Setup``)."""
    def setup(self) -> Setup:
        """The current position as an editable ``Setup``."""
    def pgn(
        self,
        headers: Mapping[str, str] | None = None,
        *,
        result: str | None = None,
        reason: str | None = None,
    ) -> str:
        """The game as PGN (canonical form): ``headers`` added in order (a
        ``Result`` header is recorded as ``result=`` is), then ``result`` and
        ``reason`` (``"resignation"``, ``"time_forfeit"``, ``"agreement"``,
        ``"abandonment"``) recorded as by ``hostage.pgn.Game.set_result``;
        ``result`` defaults to the board's or the ``Result`` header's.
        ``ResultError`` when the result contradicts the board's outcome or
        does not fit the reason."""
    def __eq__(self, other: object, /) -> bool:
        """Equal when the current positions are (not the move stacks)."""
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def _repr_svg_(self) -> str:
        """The position as SVG with the last move highlighted (Jupyter shows it);
        ``hostage.svg.board`` takes options."""
    def __copy__(self) -> Board: ...
    def __deepcopy__(self, memo: Any, /) -> Board: ...
    def __reduce__(self) -> tuple[Any, tuple[str], list[str]]: ...
    def __setstate__(self, state: list[str], /) -> None: ...

@final
class SquareSet:
    """A set of squares (python-chess's ``SquareSet``): iteration in ascending
    order, ``len``, ``in``, ``|``, ``&``, ``^``, ``-``, ``~``, ``int()``. Compares
    equal to any int mask or iterable of the same squares."""

    def __new__(cls, squares: int | Iterable[int] | None = None) -> SquareSet: ...
    @property
    def mask(self) -> int:
        """The set as a 64-bit int (bit ``n`` for square ``n``)."""
    def __int__(self) -> int: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, square: object, /) -> bool: ...
    def __iter__(self) -> Iterator[int]: ...
    def __reversed__(self) -> list[int]: ...
    def tolist(self) -> list[int]:
        """The squares, ascending."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __or__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __ror__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __and__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __rand__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __xor__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __rxor__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __sub__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __rsub__(self, other: SquareSet | int | Iterable[int], /) -> SquareSet: ...
    def __invert__(self) -> SquareSet: ...
    def issubset(self, other: SquareSet | int | Iterable[int]) -> bool:
        """Whether every square of this set is in ``other``."""
    def issuperset(self, other: SquareSet | int | Iterable[int]) -> bool:
        """Whether every square of ``other`` is in this set."""
    def isdisjoint(self, other: SquareSet | int | Iterable[int]) -> bool:
        """Whether the sets share no square."""
    def union(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        """The union (``|``)."""
    def intersection(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        """The intersection (``&``)."""
    def difference(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        """The difference (``-``)."""
    def symmetric_difference(self, other: SquareSet | int | Iterable[int]) -> SquareSet:
        """The symmetric difference (``^``)."""
    def copy(self) -> SquareSet:
        """The same set (sets are immutable)."""
    def mirror(self) -> SquareSet:
        """The set with ranks flipped."""
    @staticmethod
    def from_square(square: int) -> SquareSet:
        """The set of one square."""
    @staticmethod
    def ray(a: int, b: int) -> SquareSet:
        """The whole rank, file or diagonal through ``a`` and ``b`` (empty if none)."""
    @staticmethod
    def between(a: int, b: int) -> SquareSet:
        """The squares strictly between ``a`` and ``b`` on a line (empty if none)."""
    def __reduce__(self) -> tuple[Any, tuple[int]]: ...

@final
class Setup:
    """An editable position that need not be legal: what a board editor works
    on. ``Setup(fen)`` reads a Hostage FEN without validating it (``FenError``
    if malformed); ``board()`` validates (``PositionError`` naming the FEN)."""

    def __new__(cls, fen: str | None = None) -> Setup: ...
    @classmethod
    def empty(cls) -> Setup:
        """An empty board and reserves, White to move."""
    def fen(self) -> str:
        """The Hostage FEN of the setup, written even if it is not legal."""
    def piece_at(self, square: int) -> Piece | None:
        """The man on ``square``, or ``None``."""
    def piece_map(self) -> dict[int, Piece]:
        """Every man on the board, by square."""
    def set_piece_at(self, square: int, piece: Piece | None) -> None:
        """Puts ``piece`` on ``square`` (replacing what stood there); ``None`` empties it."""
    def remove_piece_at(self, square: int) -> Piece | None:
        """Empties ``square`` and returns the man that stood there, if any."""
    def clear(self) -> None:
        """Empties the board and the reserves; White to move, clocks ``0 1``."""
    def prison(self, color: bool) -> Reserve:
        """``color``'s prison (the enemy men it holds)."""
    def airfield(self, color: bool) -> Reserve:
        """``color``'s airfield (its own men released by the opponent)."""
    def set_prison(self, color: bool, counts: Mapping[int, int]) -> None:
        """Replaces ``color``'s prison with ``counts`` (role -> count)."""
    def set_airfield(self, color: bool, counts: Mapping[int, int]) -> None:
        """Replaces ``color``'s airfield with ``counts`` (role -> count)."""
    @property
    def turn(self) -> bool:
        """The side to move (``True`` for White); settable."""
    @turn.setter
    def turn(self, value: bool) -> None: ...
    def clean_castling_rights(self) -> None:
        """Drops castling state the board no longer supports (R9)."""
    def mirror(self) -> Setup:
        """The colour-swapped mirror image (see ``Board.mirror``)."""
    def status(self) -> str | None:
        """``None`` for a legal position, else the ``PositionError`` code."""
    def is_valid(self) -> bool:
        """Whether the setup is a legal position."""
    def board(self) -> Board:
        """The position as a ``Board`` (``PositionError`` naming the FEN if illegal)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __copy__(self) -> Setup: ...
    def __deepcopy__(self, memo: Any, /) -> Setup: ...
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...

@final
class Game:
    """A PGN game record (``hostage.pgn.Game``): headers, start, main line, result."""

    def __new__(cls) -> Game: ...
    @staticmethod
    def from_board(board: Board) -> Game:
        """The record of a board's start position and move stack, with the
        result of its outcome (``*`` while the game goes on)."""
    @property
    def headers(self) -> dict[str, str]:
        """The tags, in order (a copy; change them with ``set_header``)."""
    def set_header(self, name: str, value: str) -> None:
        """Sets a header. ``Result`` is recorded as ``set_result(value)`` is
        (and may raise ``ResultError``); ``Variant``, ``SetUp`` and ``FEN``
        are written from the record itself."""
    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"``; setting it is
        ``set_result(value)``."""
    @result.setter
    def result(self, value: str) -> None: ...
    def set_result(self, result: str, reason: str | None = None) -> None:
        """Records ``result``, decided off the board when ``reason`` is given
        (written as the ``Termination`` tag). Raises ``ResultError`` (the
        record unchanged) when the main line's own outcome differs or a
        reason is given for a game the board has ended, or when the result
        does not fit the reason (a resignation is a win, an agreement a
        draw, a time forfeit a win or a draw, an abandonment anything)."""
    @property
    def end_reason(self) -> str | None:
        """Why the game ended away from the board, read back from the
        ``Termination`` tag (``Normal`` with a decisive result is a
        resignation, with a draw an agreement; ``Time forfeit``;
        ``Abandoned``): ``"resignation"``, ``"time_forfeit"``,
        ``"agreement"``, ``"abandonment"``, or ``None`` when there is no such
        tag, the board ended the game itself, or the result does not fit."""
    def board(self) -> Board:
        """A board at the start position."""
    def end_board(self) -> Board:
        """A board with the main line played (its move stack is the main line)."""
    def mainline_moves(self) -> list[Move]:
        """The moves of the main line."""
    def write(self) -> str:
        """The canonical PGN text (also ``str(game)``)."""

@final
class PgnReader:
    """An iterator of ``Game`` read from PGN text, or from a callable
    returning the next chunk (str or UTF-8 bytes; empty at the end)."""

    def __new__(cls, source: str | Callable[[], str | bytes]) -> PgnReader: ...
    def __iter__(self) -> PgnReader: ...
    def __next__(self) -> Game: ...

# The engine (hostage/engine.py wraps it; src/engine.rs).

class LevelError(HostageError):
    """A bot level name that is none of novice, beginner, casual,
    intermediate, club (``invalid_level``)."""

class NetworkError(HostageError):
    """Bytes that are not a network file of the engine's shape
    (``nnue_magic``, ``nnue_shape``, ``nnue_length``)."""

DEFAULT_HASH_MB: Final[int]
"""The engine's default table size in MiB (16)."""
MAX_HASH_MB: Final[int]
"""The largest table an engine makes, in MiB (4096)."""

def engine_levels() -> list[tuple[str, int]]:
    """``(name, rating)`` of each bot level, weakest first (the rating is a label)."""

_Line: TypeAlias = tuple[int | None, int | None, list[Move]]

@final
class EngineCore:
    """The native engine of ``hostage.engine.Engine``: searches release the
    GIL; calls from several threads run one after another."""

    def __new__(cls, hash_mb: int = ...) -> EngineCore: ...
    @property
    def hash_mb(self) -> int:
        """The transposition table size in MiB."""
    @property
    def uses_network(self) -> bool:
        """Whether the full-strength search evaluates with a network."""
    def load_network(self, data: bytes) -> None:
        """Evaluates with the network file ``data``; ``NetworkError`` if it
        is not one (the engine then unchanged)."""
    def load_network_file(self, path: str) -> None:
        """The same from the file at ``path``; ``OSError`` if unreadable."""
    def set_nnue(self, on: bool) -> None:
        """Evaluates with a network (the loaded or the embedded one) or by hand."""
    def analyse(
        self,
        board: Board,
        nodes: int | None = None,
        depth: int | None = None,
        time: float | None = None,
        multipv: int = 1,
    ) -> tuple[Move | None, int, int, int, list[_Line]]:
        """``(best_move, depth, seldepth, nodes, lines)``, each line
        ``(cp, mate, pv)`` relative to the side to move, best first."""
    def play_level(
        self, board: Board, level: str, seed: int
    ) -> tuple[Move | None, int, int, int, list[_Line]]:
        """The bot's choice, as ``analyse`` returns it (one line: the chosen
        move's); ``LevelError`` for an unknown level."""
    def new_game(self) -> None:
        """Forgets what earlier searches learned."""
    def stop(self) -> None:
        """Stops the running search (from another thread)."""
    def review(
        self,
        board: Board,
        nodes: int | None = None,
        depth: int | None = None,
        time: float | None = None,
        progress: Callable[[int, int], object] | None = None,
        pgn: str | None = None,
    ) -> tuple[list[_MoveReview], _PlayerReview, _PlayerReview, str]:
        """``(moves, white, black, annotated_pgn)`` of the board's game;
        ``pgn``, the game's own PGN text, keeps its tags in the output."""

_Pair: TypeAlias = tuple[int | None, int | None]
_MoveReview: TypeAlias = tuple[
    int, bool, Move, str, _Pair, _Pair, Move | None, list[Move], float, float, float, str | None
]
_PlayerReview: TypeAlias = tuple[float | None, int | None, int, int, int]

# Puzzles (hostage/puzzles.py wraps them; src/puzzles.rs).

class PuzzleError(HostageError):
    """A puzzle record that cannot be read (``invalid_puzzle_*``) or an
    unknown puzzle id (``unknown_puzzle``)."""

class DifficultyError(HostageError):
    """A difficulty that is none of easiest, easier, normal, harder,
    hardest (``invalid_difficulty``)."""

_Puzzle: TypeAlias = tuple[
    str, str, list[str], int, int, list[str], int, int, str, int, str | None, str | None
]
_Rating: TypeAlias = tuple[float, float, float]

def puzzle_records() -> list[_Puzzle]:
    """The built-in set: ``(id, fen, moves, rating, rd, themes, seed, ply, solvers, depth,
    lead_in_fen, lead_in)``."""

def parse_puzzle_records(text: str) -> list[_Puzzle]:
    """Puzzles from record text; ``PuzzleError`` for a bad line."""

def puzzle_next(rating: float, difficulty: str, seen: list[str], seed: int) -> str | None:
    """The id of the next built-in puzzle for a player; ``DifficultyError``."""

def puzzle_accepts(id: str, index: int, uci: str) -> bool:
    """Whether ``uci`` (SAN or long form) is right as move ``index`` of built-in puzzle ``id``;
    ``InvalidMoveError`` / ``IllegalMoveError`` for text that is not a legal move there."""

def glicko_update(player: _Rating, puzzle: _Rating, solved: bool) -> tuple[_Rating, _Rating]:
    """``(player, puzzle)`` after one attempt (lichess's puzzle parameters)."""

def glicko_rate(
    player: _Rating, games: list[tuple[float, float, float, float]], tau: float
) -> _Rating:
    """Glicko-2 for one rating period; games are ``(rating, rd, volatility, score)``."""
