"""The Board, Move, Piece, Reserve and Outcome API."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping

import pytest

import hostage

AFTER_QXD5 = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def played(*sans: str, fen: str | None = None) -> hostage.Board:
    board = hostage.Board(fen)
    for san in sans:
        board.push_san(san)
    return board


def test_start_position() -> None:
    board = hostage.Board()
    assert board.fen() == hostage.STARTING_FEN
    assert board.turn is hostage.WHITE
    assert len(board.legal_moves) == 20
    assert board.halfmove_clock == 0
    assert board.fullmove_number == 1
    assert board.ply() == 0
    assert board.move_stack == []
    assert board.outcome() is None
    assert board.result() == "*"
    assert board.piece_at(hostage.E1) == hostage.Piece(hostage.KING, hostage.WHITE)
    assert board.piece_at(hostage.E4) is None
    assert len(board.piece_map()) == 32
    assert not board.prison(hostage.WHITE)
    assert repr(board) == f"Board('{hostage.STARTING_FEN}')"


def test_prisons_after_exchange_of_pawns() -> None:
    board = played("e4", "d5", "exd5", "Qxd5")
    assert board.fen() == AFTER_QXD5
    assert board.turn == hostage.WHITE
    assert isinstance(board.prison(hostage.WHITE), Mapping)
    white = board.prison(hostage.WHITE)
    assert white[hostage.PAWN] == 1 and white[hostage.QUEEN] == 0
    assert dict(white) == {hostage.PAWN: 1}
    assert white == {hostage.PAWN: 1}
    assert hostage.PAWN in white and hostage.QUEEN not in white
    assert len(white) == 1 and white.total() == 1 and list(white) == [hostage.PAWN]
    assert white.get(hostage.QUEEN) is None and white.get(hostage.PAWN) == 1
    assert white.count(hostage.PAWN) == 1
    assert not board.airfield(hostage.WHITE) and not board.airfield(hostage.BLACK)
    assert len(board.legal_moves) == 62
    assert board.perft(2) == 4784
    text = str(board)
    assert "white prison:   p" in text and "black prison:   P" in text
    with pytest.raises(KeyError):
        white[7]
    with pytest.raises(TypeError):
        white[hostage.PAWN] = 2  # type: ignore[index]


def test_exchange_and_airfield() -> None:
    board = hostage.Board(AFTER_QXD5)
    move = board.parse_san("(P-P)*e6")
    assert move.kind == hostage.MoveKind.EXCHANGE
    assert (move.released, move.rescued, move.role) == (hostage.PAWN, hostage.PAWN, hostage.PAWN)
    assert move.from_square is None and move.to_square == hostage.E6
    assert move.uci() == "P#P@e6" and str(move) == "P#P@e6"
    assert move == hostage.Move.exchange(hostage.PAWN, hostage.PAWN, hostage.E6)
    board.push(move)
    assert board.airfield(hostage.BLACK) == {hostage.PAWN: 1}
    assert board.fen() == "rnb1kbnr/ppp1pppp/4P3/3q4/8/8/PPPP1PPP/RNBQKBNR[p] b KQkq - 0 3"
    drop = board.parse_uci("P@e5")
    assert drop.kind == hostage.MoveKind.DROP and drop == hostage.Move.drop(
        hostage.PAWN, hostage.E5
    )
    assert board.san(drop) == "*e5"


def test_move_identity_is_the_long_form() -> None:
    board = hostage.Board()
    from_board = board.parse_san("e4")
    bare = hostage.Move.from_uci("e2e4")
    assert from_board == bare and hash(from_board) == hash(bare)
    assert from_board != hostage.Move.from_uci("e2e3")
    assert from_board != "e2e4"
    assert bare in board.legal_moves and board.is_legal(bare)
    assert hostage.Move(hostage.E2, hostage.E4) == bare
    assert (from_board.kind, from_board.role, from_board.captured) == (
        hostage.MoveKind.NORMAL,
        hostage.PAWN,
        None,
    )
    assert (bare.kind, bare.role) == (None, None)
    assert repr(bare) == "Move.from_uci('e2e4')"
    assert len({from_board, bare}) == 1
    board.push(bare)
    assert board.peek().role == hostage.PAWN


def test_castling_and_kiwipete() -> None:
    board = hostage.Board(KIWIPETE)
    assert [board.perft(d) for d in (1, 2)] == [48, 2039]
    assert board.has_kingside_castling_rights(hostage.WHITE)
    assert board.castling_rights == (
        1 << hostage.A1 | 1 << hostage.H1 | 1 << hostage.A8 | 1 << hostage.H8
    )
    castle = board.push_san("O-O")
    assert castle.kind == hostage.MoveKind.CASTLE and castle.uci() == "e1g1"
    assert not board.has_castling_rights(hostage.WHITE)
    assert not board.king_unmoved(hostage.WHITE)
    assert board.has_queenside_castling_rights(hostage.BLACK)


def test_en_passant() -> None:
    board = played("e4", "a6", "e5", "d5")
    assert board.ep_square == hostage.D6
    move = board.push_san("exd6")
    assert move.kind == hostage.MoveKind.EN_PASSANT and move.captured == hostage.PAWN


def test_promotion_fetches_from_prison() -> None:
    board = hostage.Board("4k3/1P6/8/8/8/8/8/4K3[#N] w - - 0 1")
    promo = board.parse_san("b8=N")
    assert promo.promotion == hostage.KNIGHT and promo.uci() == "b7b8n"
    with pytest.raises(hostage.IllegalMoveError):
        board.parse_san("b8=Q")


def test_pseudo_check() -> None:
    # R8a: the black pawn on g2 is frozen (no white... black man in White's prison).
    board = hostage.Board("4k3/8/8/8/8/8/6p1/7K[] w - - 0 1")
    assert board.is_pseudo_check() and not board.is_check()


def test_checkmate_outcome() -> None:
    board = played("f3", "e5", "g4", "Qh4#")
    assert board.is_check() and board.is_checkmate() and not board.is_stalemate()
    assert board.checkers() == [hostage.H4]
    outcome = board.outcome()
    assert outcome == hostage.Outcome(hostage.Termination.CHECKMATE, hostage.BLACK)
    assert outcome is not None and outcome.winner is False and outcome.result() == "0-1"
    assert board.result() == "0-1" and board.is_game_over()
    assert len(board.legal_moves) == 0 and not board.legal_moves


def test_repetition() -> None:
    board = hostage.Board()
    for _ in range(2):
        for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            board.push_san(san)
    assert board.is_repetition() and board.is_repetition(3) and board.repetition_count() == 3
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination == hostage.Termination.THREEFOLD_REPETITION
    assert outcome.termination.value == "threefold_repetition" and outcome.winner is None
    board.pop()
    assert not board.is_repetition() and board.is_repetition(2)


def test_push_pop_stack() -> None:
    board = hostage.Board()
    start_hash = board.zobrist_hash()
    moves = [board.push_uci(u) for u in ["e2e4", "e7e5", "g1f3"]]
    assert board.move_stack == moves and board.ply() == 3
    assert board.root().fen() == hostage.STARTING_FEN
    assert board.pop() == moves[-1]
    board.pop()
    board.pop()
    assert board.fen() == hostage.STARTING_FEN and board.zobrist_hash() == start_hash
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_copies_and_pickle() -> None:
    board = played("e4", "d5", "exd5", "Qxd5", "(P-P)*e6")
    for other in (
        board.copy(),
        copy.copy(board),
        copy.deepcopy(board),
        pickle.loads(pickle.dumps(board)),
    ):
        assert other is not board
        assert other.fen() == board.fen() and other.move_stack == board.move_stack
        assert other.zobrist_hash() == board.zobrist_hash()
        other.pop()
        assert board.ply() == 5
    shallow = board.copy(stack=False)
    assert shallow.fen() == board.fen() and shallow.move_stack == []
    from_fen = hostage.Board(AFTER_QXD5)
    from_fen.push_san("Nc3")
    again = pickle.loads(pickle.dumps(from_fen))
    assert again.root().fen() == AFTER_QXD5 and again.fen() == from_fen.fen()
    move = board.peek()
    assert pickle.loads(pickle.dumps(move)) == move and copy.deepcopy(move) == move
    piece = hostage.Piece.from_symbol("q")
    assert pickle.loads(pickle.dumps(piece)) == piece and str(piece) == "q"


def test_set_fen_reset() -> None:
    board = played("e4")
    board.set_fen(AFTER_QXD5)
    assert board.fen() == AFTER_QXD5 and board.move_stack == []
    board.reset()
    assert board.fen() == hostage.STARTING_FEN


def test_legal_moves_view_is_live() -> None:
    board = hostage.Board()
    view = board.legal_moves
    assert len(view) == 20
    board.push_san("e4")
    assert len(view) == 20 and hostage.Move.from_uci("e7e5") in view
    assert hostage.Move.from_uci("e2e4") not in view
    assert "e7e5" not in view
    assert "Nf6" in repr(view)
    assert sorted(m.uci() for m in view)[:2] == ["a7a5", "a7a6"]


def test_square_helpers() -> None:
    assert hostage.parse_square("e4") == hostage.E4 == 28
    assert hostage.square_name(28) == "e4"
    assert hostage.SQUARE_NAMES[hostage.H8] == "h8"
    assert hostage.square(4, 3) == hostage.E4
    assert (hostage.square_file(hostage.E4), hostage.square_rank(hostage.E4)) == (4, 3)
    assert hostage.piece_symbol(hostage.KNIGHT) == "n" and hostage.piece_name(6) == "king"
    assert int(hostage.MoveKind.DROP) != int(hostage.MoveKind.EXCHANGE)
    assert hostage.__version__
