"""hostage.svg and Board._repr_svg_: valid XML, the FEN in <desc>, options
that change the drawing, typed errors for bad squares."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import hostage
import hostage.svg

NS = "{http://www.w3.org/2000/svg}"
AFTER_EXD5 = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"


def parse(image: str) -> ET.Element:
    root = ET.fromstring(image)
    assert root.tag == f"{NS}svg"
    return root


def desc(image: str) -> str | None:
    return parse(image).findtext(f"{NS}desc")


def count(image: str, tag: str, css_class: str | None = None) -> int:
    return sum(
        1
        for e in parse(image).iter(f"{NS}{tag}")
        if css_class is None or css_class in (e.get("class") or "").split()
    )


def test_board_is_svg_with_fen() -> None:
    board = hostage.Board(AFTER_EXD5)
    image = hostage.svg.board(board)
    assert isinstance(image, str) and isinstance(image, hostage.svg.SvgString)
    assert image._repr_svg_() == image
    assert desc(image) == AFTER_EXD5
    assert "White's prison" in image


def test_repr_svg_highlights_the_last_move() -> None:
    board = hostage.Board()
    assert count(board._repr_svg_(), "rect", "last-move") == 0
    board.push_san("e4")
    image = board._repr_svg_()
    assert desc(image) == board.fen()
    assert count(image, "rect", "last-move") == 2
    assert image == hostage.svg.board(board, lastmove=board.peek())


def test_options_change_the_output() -> None:
    board = hostage.Board(AFTER_EXD5)
    plain = hostage.svg.board(board)
    assert hostage.svg.board(board, flipped=True) != plain
    assert hostage.svg.board(board, coordinates=False) != plain
    no_reserves = hostage.svg.board(board, reserves=False)
    assert "White's prison" in plain and "White's prison" not in no_reserves
    sized = hostage.svg.board(board, size=300)
    assert sized != plain and 'width="300"' in sized
    arrows = hostage.svg.board(
        board,
        arrows=[
            (hostage.E2, hostage.E4),
            (hostage.G1, hostage.F3, "red"),
            hostage.svg.Arrow(hostage.D1, hostage.D5, color="#882020"),
        ],
    )
    assert count(plain, "g", "arrow") == 0
    assert count(arrows, "g", "arrow") == 3 and count(arrows, "line") == 3
    circle = hostage.svg.board(board, arrows=[(hostage.E4, hostage.E4)])
    assert count(circle, "circle", "arrow") == 1
    assert "#882020" in arrows and "red" in arrows
    filled = hostage.svg.board(board, fill={hostage.E4: "yellow"})
    assert count(filled, "rect", "mark") == 1 and "yellow" in filled
    # A drop highlights only its square; a move built from text works too.
    drop = hostage.svg.board(board, lastmove=hostage.Move.drop(hostage.PAWN, hostage.E6))
    assert count(drop, "rect", "last-move") == 1
    bare = hostage.svg.board(board, lastmove=hostage.Move.from_uci("d8d5"))
    assert count(bare, "rect", "last-move") == 2


def test_check_and_frozen_marks() -> None:
    check = hostage.Board("4k3/8/8/8/8/8/8/4K2r[] w - - 0 1")
    assert count(hostage.svg.board(check), "rect", "check") == 1
    assert count(hostage.svg.board(check, check=False), "rect", "check") == 0
    frozen = hostage.Board("4k3/8/8/8/8/8/6p1/7K[] w - - 0 1")
    assert frozen.is_pseudo_check()
    assert count(hostage.svg.board(frozen), "rect", "ice") == 1
    assert count(hostage.svg.board(frozen, frozen=False), "rect", "ice") == 0


def test_bad_squares_raise_square_error() -> None:
    board = hostage.Board()
    for bad in (64, -1, 1000):
        with pytest.raises(hostage.SquareError) as info:
            hostage.svg.board(board, arrows=[(hostage.E2, bad)])
        assert info.value.code == "invalid_square"
        with pytest.raises(hostage.SquareError):
            hostage.svg.board(board, fill={bad: "red"})
    with pytest.raises(TypeError):
        hostage.svg.board(board, arrows=[("e2", "e4")])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "color",
    ['"/><script>alert(1)</script>', "</svg>", "", "x" * 1000, "\0", "red; fill: url(x)", "é"],
)
def test_unsafe_colors_fall_back(color: str) -> None:
    board = hostage.Board()
    image = hostage.svg.board(
        board, arrows=[(hostage.E2, hostage.E4, color)], fill={hostage.D4: color}
    )
    root = parse(image)
    assert root.find(f".//{NS}script") is None
    assert hostage.svg.DEFAULT_ARROW_COLOR in image
