"""SVG diagrams of a position, with both prisons and airfields.

>>> import hostage, hostage.svg
>>> board = hostage.Board()
>>> move = board.push_san("e4")
>>> image = hostage.svg.board(board, lastmove=move, arrows=[(hostage.E7, hostage.E5)])
>>> image.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True

The drawing is the core's (``hostage_core::svg``); the names follow
python-chess's ``chess.svg.board``. Each side's prison (R2) and airfield (R3)
are drawn beside the board as the player sees them: the prison on the
player's right, the airfield on the left. A check glows red, a pseudo-check
(R8a) is a dashed amber ring, a frozen pawn (R8) an icy square with a
snowflake. ``Board._repr_svg_`` draws a board with its last move, so
Jupyter shows the position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Union

from hostage._hostage import SVG_DEFAULT_ARROW_COLOR, Board, Move, svg_board

DEFAULT_ARROW_COLOR = SVG_DEFAULT_ARROW_COLOR
"""The colour of an arrow given without one (and of unsafe colours)."""


class SvgString(str):
    """An SVG image: a ``str`` that Jupyter and IPython display as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class Arrow:
    """An arrow from ``tail`` to ``head`` (squares) in a CSS ``color``, as in
    python-chess. An arrow from a square to itself is drawn as a circle."""

    __slots__ = ("color", "head", "tail")

    def __init__(self, tail: int, head: int, *, color: str = DEFAULT_ARROW_COLOR) -> None:
        self.tail = tail
        self.head = head
        self.color = color

    def __repr__(self) -> str:
        return f"Arrow({self.tail}, {self.head}, color={self.color!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrow):
            return NotImplemented
        return (self.tail, self.head, self.color) == (other.tail, other.head, other.color)

    def __hash__(self) -> int:
        return hash((self.tail, self.head, self.color))


ArrowLike = Union[Arrow, tuple[int, int], tuple[int, int, str]]
"""An ``Arrow``, or a ``(tail, head)`` / ``(tail, head, color)`` tuple."""

_NO_FILL: Mapping[int, str] = MappingProxyType({})


def _arrow(arrow: ArrowLike) -> tuple[int, int, str | None]:
    if isinstance(arrow, Arrow):
        return (arrow.tail, arrow.head, arrow.color)
    if len(arrow) == 2:
        return (arrow[0], arrow[1], None)
    return (arrow[0], arrow[1], arrow[2])


def board(
    board: Board,
    *,
    size: int | None = None,
    flipped: bool = False,
    coordinates: bool = True,
    reserves: bool = True,
    lastmove: Move | None = None,
    check: bool = True,
    frozen: bool = True,
    arrows: Iterable[ArrowLike] = (),
    fill: Mapping[int, str] = _NO_FILL,
) -> SvgString:
    """Draws the current position of ``board`` as a self-contained SVG image.

    - ``size``: the width in pixels (default: 45 a square, the natural size);
    - ``flipped``: Black at the bottom;
    - ``coordinates``: file letters and rank digits around the board;
    - ``reserves``: both prisons and both airfields beside the board;
    - ``lastmove``: a move to highlight (``board.peek()`` for the last one);
    - ``check``: mark a check (red) or a pseudo-check (amber ring);
    - ``frozen``: mark frozen pawns (R8);
    - ``arrows``: ``Arrow`` objects or ``(tail, head[, color])`` tuples;
    - ``fill``: squares to tint, ``{square: color}``.

    Colours are CSS colours (``"red"``, ``"#882020"``); one with characters
    a colour does not need falls back to ``DEFAULT_ARROW_COLOR``. A square
    outside 0..63 raises ``SquareError``.
    """
    return SvgString(
        svg_board(
            board,
            size=size,
            flipped=flipped,
            coordinates=coordinates,
            reserves=reserves,
            lastmove=lastmove,
            check=check,
            frozen=frozen,
            arrows=[_arrow(a) for a in arrows],
            marks=list(fill.items()),
        )
    )


__all__ = ["DEFAULT_ARROW_COLOR", "Arrow", "ArrowLike", "SvgString", "board"]
