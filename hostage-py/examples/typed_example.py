"""A typed tour of the API: checked by `mypy --strict` (scripts/test-python)
and run by the test suite (tests/test_docs.py)."""

from __future__ import annotations

import copy
import io
import pickle
from collections.abc import Iterator

import hostage
import hostage.course
import hostage.pgn
import hostage.svg


def captures(board: hostage.Board) -> Iterator[hostage.Move]:
    """The legal moves that take a man."""
    return (m for m in board.legal_moves if m.captured is not None)


def describe(move: hostage.Move) -> str:
    kind: hostage.MoveKind | None = move.kind
    name = kind.value if kind is not None else "board move"
    role: hostage.PieceType | None = move.role
    return f"{move.uci()} ({name}, role {role})"


def perft(board: hostage.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def main() -> None:
    board = hostage.Board()
    played: list[hostage.Move] = [board.push_san(s) for s in ["e4", "d5", "exd5", "Qxd5"]]
    assert played == board.move_stack
    white_prison: hostage.Reserve = board.prison(hostage.WHITE)
    counts: dict[int, int] = dict(white_prison.items())
    assert counts == {hostage.PAWN: 1}
    piece: hostage.Piece | None = board.piece_at(hostage.D5)
    assert piece is not None and piece.piece_type == hostage.QUEEN and piece.color == hostage.BLACK
    assert [describe(m) for m in captures(board)] == []
    exchange = hostage.Move.exchange(hostage.PAWN, hostage.PAWN, hostage.E6)
    assert board.is_legal(exchange) and exchange in board.legal_moves
    san: str = board.san(exchange)
    assert san == "(P-P)*e6"
    board.push(exchange)
    outcome: hostage.Outcome | None = board.outcome()
    assert outcome is None and board.result() == "*"
    turn: hostage.Color = board.turn
    assert turn is hostage.BLACK
    ep: hostage.Square | None = board.ep_square
    assert ep is None
    assert perft(hostage.Board(), 2) == hostage.Board().perft(2) == 400
    clone = copy.deepcopy(board)
    again: hostage.Board = pickle.loads(pickle.dumps(clone))
    assert again.zobrist_hash() == board.zobrist_hash()
    try:
        board.push_uci("e2e5")
    except hostage.IllegalMoveError as error:
        code: str = error.code
        assert code == "illegal_uci"
    record = hostage.pgn.Game.from_board(board)
    text = record.write()
    game: hostage.pgn.Game | None = hostage.pgn.read_game(io.StringIO(text))
    assert game is not None and game.end_board().fen() == board.fen()
    headers: dict[str, str] = game.headers
    assert headers["Result"] == "*"
    final: hostage.Termination = hostage.Termination.CHECKMATE
    assert final.value == "checkmate"
    image: hostage.svg.SvgString = hostage.svg.board(
        board,
        size=360,
        lastmove=board.peek(),
        arrows=[(hostage.E2, hostage.E4), hostage.svg.Arrow(hostage.D8, hostage.D5, color="red")],
        fill={hostage.E6: "#cc000080"},
    )
    assert image.startswith("<svg") and board._repr_svg_().startswith("<svg")
    course: hostage.course.Course = hostage.course.load()
    task: hostage.course.Task = course["lessons"][0]["tasks"][0]
    assert hostage.Board(task["fen"]).fen() == task["fen"]


if __name__ == "__main__":
    main()
