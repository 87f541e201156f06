"""The python-chess-depth queries of ``Board``, ``SquareSet`` and ``Setup``
(docs/python.md, "Coming from python-chess"). Expected values are worked out
by hand from the positions, not read back from the library."""

from __future__ import annotations

import copy
import pickle

import pytest

import hostage
from hostage import (
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    Board,
    Move,
    Piece,
    Setup,
    SquareSet,
)

# White: Ke1, Ne2 pinned by the black rook e7; Black: Ke8, Re7.
PIN = "4k3/4r3/8/8/8/8/4N3/4K3[] w - - 0 1"


def test_frozen_pawns() -> None:
    # White pawns b7 (its 7th rank) and a2, Black pawns h7 (its 2nd) and g2
    # (its 7th). A white queen in Black's prison lets White promote (R7);
    # White's prison is empty, so g2 is frozen (R8).
    board = Board("4k3/1P5p/8/8/8/8/P5p1/4K3[#Q] w - - 0 1")
    assert board.frozen_pawns() == SquareSet([hostage.G2])
    assert board.frozen_pawns(BLACK) == [hostage.G2]
    assert not board.frozen_pawns(WHITE)
    # Black takes a white knight: with it in Black's prison, White's b7
    # pawn thaws.
    board = Board("4k3/1P6/8/8/8/2n5/8/1N2K3[] b - - 0 1")
    assert board.frozen_pawns() == [hostage.B7]
    board.push_san("Nxb1")
    assert not board.frozen_pawns()
    assert not Board().frozen_pawns()


def test_pseudo_checkers() -> None:
    # Black's g2 pawn is frozen: it attacks h1 only as a pseudo-check (R8a).
    board = Board("4k3/8/8/8/8/8/6p1/7K[] w - - 0 1")
    assert board.is_pseudo_check() and not board.is_check()
    assert board.pseudo_checkers() == [hostage.G2] and not board.checkers()
    # With a black knight in White's prison it is live: a real check.
    live = Board("4k3/8/8/8/8/8/6p1/7K[#n] w - - 0 1")
    assert live.is_check() and not live.pseudo_checkers()
    assert live.checkers() == [hostage.G2]


def test_attackers_and_is_attacked_by() -> None:
    board = Board()
    # e3 is covered by the d2 and f2 pawns and nothing else (Ng1 reaches
    # e2, f3, h3).
    assert board.attackers(WHITE, hostage.E3) == SquareSet([hostage.D2, hostage.F2])
    assert board.attackers(WHITE, hostage.F3) == [hostage.E2, hostage.G2, hostage.G1]
    assert board.is_attacked_by(BLACK, hostage.F6)
    assert not board.is_attacked_by(WHITE, hostage.E4)
    assert board.attacks(hostage.G1) == {hostage.E2, hostage.F3, hostage.H3}
    assert not board.attacks(hostage.E4)


def test_frozen_pawns_attack_nothing_on_the_last_rank() -> None:
    # R8: Black's g2 pawn has nothing to promote to (White's prison holds
    # no black piece), so it does not attack h1.
    frozen = Board("4k3/8/8/8/8/8/6p1/7K[] w - - 0 1")
    assert not frozen.attackers(BLACK, hostage.H1)
    assert frozen.attacks(hostage.G2) == []
    live = Board("4k3/8/8/8/8/8/6p1/7K[#n] w - - 0 1")
    assert live.attackers(BLACK, hostage.H1) == [hostage.G2]
    assert live.checkers() == [hostage.G2]


def test_pins() -> None:
    board = Board(PIN)
    assert board.is_pinned(WHITE, hostage.E2)
    assert board.pinned(WHITE) == [hostage.E2]
    assert board.pin(WHITE, hostage.E2) == [hostage.E1 + 8 * r for r in range(8)]
    # Not pinned: every square.
    assert board.pin(WHITE, hostage.E1).mask == (1 << 64) - 1
    assert not board.is_pinned(BLACK, hostage.E7)
    # A pinned man still attacks (python-chess's convention).
    assert hostage.E2 in board.attackers(WHITE, hostage.D4)


def test_king_and_pieces() -> None:
    board = Board()
    assert board.king(WHITE) == hostage.E1 and board.king(BLACK) == hostage.E8
    assert board.pieces(KNIGHT, WHITE) == [hostage.B1, hostage.G1]
    assert len(board.pieces(PAWN, BLACK)) == 8
    assert board.pieces(QUEEN, BLACK) == SquareSet(1 << hostage.D8)
    with pytest.raises(ValueError):
        board.pieces(7, WHITE)


def test_move_predicates() -> None:
    # White: Ke1 Ra1 Rh1, pawns b7 e5; Black: Ke8 Ra8, pawn d5 (just
    # double-stepped); White's airfield: a knight; each prison: a queen.
    board = Board("r3k3/1P6/8/3pP3/8/8/8/R3K2R[N#Qq] w KQq d6 0 1")
    ep = board.parse_san("exd6")
    assert board.is_en_passant(ep) and board.is_capture(ep) and board.is_zeroing(ep)
    promo = board.parse_san("bxa8=Q")
    assert board.is_capture(promo) and board.gives_check(promo)
    castle = board.parse_san("O-O-O")
    assert board.is_castling(castle) and not board.is_capture(castle)
    assert board.is_irreversible(castle)
    drop = board.parse_san("N*c7")
    assert board.is_drop(drop) and not board.is_exchange(drop)
    assert board.gives_check(drop) and not board.is_zeroing(drop)
    exchange = board.parse_san("(Q-Q)Q*e2")
    assert board.is_exchange(exchange) and board.is_drop(exchange)
    assert not board.gives_check(exchange) and not board.is_capture(exchange)
    rook = board.parse_san("Ra7")
    # A rook move is reversible in Hostage Chess: a rook dropped on a1 later
    # would revive the right (R9).
    assert not board.is_irreversible(rook) and not board.is_zeroing(rook)
    # Moves built from text are resolved on the board.
    assert board.is_castling(Move.from_uci("e1c1"))
    with pytest.raises(hostage.IllegalMoveError) as info:
        board.is_capture(Move.from_uci("e1e3"))
    assert info.value.code == "illegal_uci"
    assert "e1e3" in str(info.value) and board.fen() in str(info.value)


def test_draw_queries_with_hostage_meaning() -> None:
    board = Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        board.push_san(san)
    assert not board.can_claim_threefold_repetition() and not board.can_claim_draw()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
        board.push_san(san)
    # Third occurrence of the start: R12's automatic draw.
    assert board.can_claim_threefold_repetition() and board.can_claim_draw()
    assert board.is_game_over()
    assert not board.is_fivefold_repetition()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        board.push_san(san)
    assert board.is_fivefold_repetition()
    fifty = Board("4k3/8/8/8/8/8/8/4K3[] w - - 100 90")
    assert fifty.can_claim_fifty_moves() and fifty.can_claim_draw()
    assert not fifty.is_seventyfive_moves()
    assert Board("4k3/8/8/8/8/8/8/4K3[] w - - 150 90").is_seventyfive_moves()


def test_text() -> None:
    board = Board("4k3/8/8/8/8/8/8/4K3[N#Pq] w - - 0 1")
    assert board.board_fen() == "4k3/8/8/8/8/8/8/4K3"
    lines = board.unicode().splitlines()
    assert lines[0] == "⭘ ⭘ ⭘ ⭘ ♚ ⭘ ⭘ ⭘"
    assert lines[7] == "⭘ ⭘ ⭘ ⭘ ♔ ⭘ ⭘ ⭘"
    # White's prison holds a black queen, Black's a white pawn.
    assert lines[8:] == [
        "white prison:   ♛",
        "black prison:   ♙",
        "white airfield: ♘",
        "black airfield: -",
    ]
    flipped = board.unicode(orientation=BLACK, empty_square=".", invert_color=True)
    assert flipped.splitlines()[0] == ". . . ♚ . . . ."
    boxed = Board().unicode(borders=True).splitlines()
    assert boxed[1] == " 8 | ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜ |"
    assert str(Board()).splitlines()[0] == "r n b q k b n r"


def test_lan_and_variation_san() -> None:
    board = Board()
    assert board.lan(board.parse_san("Nf3")) == "Ng1-f3"
    moves = [Move.from_uci(u) for u in ["e2e4", "d7d5", "e4d5", "d8d5"]]
    assert board.variation_san(moves) == "1. e4 d5 2. exd5 Qxd5"
    board.push_san("e4")
    assert board.variation_san(moves[1:3]) == "1... d5 2. exd5"
    with pytest.raises(hostage.IllegalMoveError) as info:
        board.variation_san([moves[1], moves[1]])
    assert info.value.code == "illegal_uci"
    # The second d7d5 is illegal after 1... d5: the message names the move
    # and the position where it was tried.
    after = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"
    assert str(info.value) == (
        f"illegal uci: 'd7d5' in {after}: the side to move has no such man there"
    )
    assert info.value.reason == "no_own_man"


def test_equality_and_pickle() -> None:
    a = Board()
    b = Board()
    a.push_san("Nf3")
    a.push_san("Nf6")
    a.push_san("Ng1")
    a.push_san("Ng8")
    # Same position, same clocks? No: the halfmove clock is 4 and the
    # fullmove number 3 after the shuffle.
    assert a != b
    assert a == Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 4 3")
    again = pickle.loads(pickle.dumps(a))
    assert again == a and again.move_stack == a.move_stack
    # A corrupt pickled stack names the bad move's ply and changes nothing.
    with pytest.raises(hostage.IllegalMoveError, match="cannot play move 2 'e2e4'"):
        b.__setstate__(["e2e4", "e2e4"])
    assert b == Board() and not b.move_stack
    assert copy.deepcopy(a) == a
    assert a != "not a board"
    with pytest.raises(TypeError):
        hash(a)


def test_mirror() -> None:
    board = Board("4k3/8/8/8/3pP3/8/8/R3K3[N#Pq] b Qe e3 0 1")
    mirrored = board.mirror()
    # Ranks flipped and colours swapped; White's airfield knight becomes a
    # black knight in Black's airfield; Black's prison (a white pawn)
    # becomes White's prison with a black pawn, and vice versa for the queen.
    assert mirrored.fen() == "r3k3/8/8/3Pp3/8/8/8/4K3[n#Qp] w Eq e6 0 1"
    assert mirrored.airfield(BLACK) == {KNIGHT: 1}
    assert mirrored.prison(WHITE) == {PAWN: 1}
    assert mirrored.prison(BLACK) == {QUEEN: 1}
    assert mirrored.mirror() == board
    assert Board().mirror().turn == BLACK


def test_squareset() -> None:
    s = SquareSet([hostage.A1, hostage.H8])
    assert list(s) == [hostage.A1, hostage.H8] and len(s) == 2
    assert int(s) == 1 | (1 << 63) and s.mask == int(s)
    assert hostage.A1 in s and hostage.B1 not in s and 99 not in s
    assert s | [hostage.B1] == SquareSet([hostage.A1, hostage.B1, hostage.H8])
    assert s & 1 == [hostage.A1]
    assert s - [hostage.A1] == [hostage.H8]
    assert [hostage.A1, hostage.B1] - s == [hostage.B1]
    assert s ^ s == SquareSet() and not SquareSet()
    assert len(~s) == 62
    assert s.issubset(range(64)) and s.issuperset([hostage.H8]) and s.isdisjoint([3])
    assert list(reversed(s)) == [hostage.H8, hostage.A1]
    assert repr(s) == "SquareSet(0x8000000000000001)"
    assert str(SquareSet([hostage.A1])).splitlines()[7] == "1 . . . . . . ."
    assert pickle.loads(pickle.dumps(s)) == s
    assert hash(s) == hash(SquareSet(int(s)))
    with pytest.raises(hostage.SquareError):
        SquareSet([64])


def test_setup_editing() -> None:
    setup = Setup.empty()
    assert setup.status() == "missing_king" and not setup.is_valid()
    setup.set_piece_at(hostage.E1, Piece(KING, WHITE))
    setup.set_piece_at(hostage.E8, Piece(KING, BLACK))
    setup.set_piece_at(hostage.A7, Piece(ROOK, WHITE))
    assert setup.is_valid() and setup.status() is None
    setup.set_prison(WHITE, {QUEEN: 1})
    setup.set_airfield(BLACK, {PAWN: 2})
    setup.turn = BLACK
    assert setup.fen() == "4k3/R7/8/8/8/8/8/4K3[pp#q] b - - 0 1"
    board = setup.board()
    assert board.prison(WHITE) == {QUEEN: 1} and board.turn == BLACK
    assert board.setup() == setup
    assert setup.remove_piece_at(hostage.A7) == Piece(ROOK, WHITE)
    assert setup.remove_piece_at(hostage.A7) is None
    # A pawn on the back rank is no position: board() names the FEN.
    setup.set_piece_at(hostage.H8, Piece(PAWN, WHITE))
    with pytest.raises(hostage.PositionError) as info:
        setup.board()
    assert info.value.code == "pawn_on_backrank"
    assert "'4k2P/8/8/8/8/8/8/4K3[pp#q] b - - 0 1'" in str(info.value)
    setup.set_piece_at(hostage.H8, None)
    assert setup.piece_at(hostage.H8) is None
    setup.clear()
    assert setup == Setup.empty()
    assert Setup().board() == Board()
    assert Setup().mirror().turn == BLACK
    assert pickle.loads(pickle.dumps(Setup())) == Setup()
    with pytest.raises(hostage.FenError) as fen_info:
        Setup("8/8/8/8/8/8/8/9[] w - - 0 1")
    assert fen_info.value.code == "invalid_board"
    with pytest.raises(ValueError):
        setup.set_prison(WHITE, {9: 1})


def test_namespace_is_the_public_api() -> None:
    public = {name for name in dir(hostage) if not name.startswith("_")}
    assert {"Final", "Mapping", "annotations"}.isdisjoint(public)
    submodules = {"pgn", "svg", "course", "engine", "puzzles"}
    assert public - submodules <= set(hostage.__all__)
    for name in hostage.__all__:
        assert hasattr(hostage, name), name
    assert {"SquareSet", "Setup"} <= set(hostage.__all__)


def test_masks_and_small_helpers() -> None:
    board = Board(PIN)
    assert board.color_at(hostage.E7) is BLACK and board.color_at(hostage.A1) is None
    assert board.piece_type_at(hostage.E2) == KNIGHT
    assert board.attackers_mask(BLACK, hostage.E2) == 1 << hostage.E7
    assert board.attacks_mask(hostage.E1) == int(board.attacks(hostage.E1))
    assert board.pieces_mask(KING, WHITE) == 1 << hostage.E1
    assert board.pin_mask(WHITE, hostage.E2) == int(SquareSet.ray(hostage.E1, hostage.E8))
    assert board.checkers_mask() == 0
    assert not board.has_legal_en_passant()
    rich = Board("r3k3/1P6/8/3pP3/8/8/8/R3K2R[N#Qq] w KQq d6 0 1")
    assert rich.has_legal_en_passant()
    assert rich.find_move(hostage.B7, hostage.A8, QUEEN) == Move.from_uci("b7a8q")
    assert rich.is_queenside_castling(rich.find_move(hostage.E1, hostage.C1))
    assert rich.is_kingside_castling(Move.from_uci("e1g1"))
    with pytest.raises(hostage.IllegalMoveError):
        rich.find_move(hostage.E1, hostage.E3)
    rich.push_san("Kf1")
    rich.clear_stack()
    assert rich.move_stack == [] and rich.root() == rich
    start = Board()
    start.apply_mirror()
    assert start.turn == BLACK and start.board_fen() == Board().board_fen()


def test_squareset_helpers() -> None:
    assert SquareSet.between(hostage.A1, hostage.D4) == [hostage.B2, hostage.C3]
    assert len(SquareSet.ray(hostage.A1, hostage.B3)) == 0
    assert SquareSet.from_square(hostage.C3) == [hostage.C3]
    assert SquareSet([hostage.A1]).mirror() == [hostage.A8]
    s = SquareSet([1, 2])
    assert s.union([3]) == [1, 2, 3] and s.intersection([2, 3]) == [2]
    assert s.difference([1]) == [2] and s.symmetric_difference([2, 3]) == [1, 3]
    assert s.copy() == s


def test_board_editing_is_validated() -> None:
    board = Board()
    board.push_san("e4")
    board.set_piece_at(hostage.D1, None)  # White gives its queen odds
    assert board.move_stack == [] and board.piece_at(hostage.D1) is None
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNB1KBNR[] b KQkq - 0 1"
    assert board.remove_piece_at(hostage.A8) == Piece(ROOK, BLACK)
    # Black keeps its queen-side right only while the a8 rook is there (R9).
    assert not board.has_queenside_castling_rights(BLACK)
    before = board.fen()
    with pytest.raises(hostage.PositionError) as info:
        board.remove_piece_at(hostage.E8)  # no black king: no position
    assert info.value.code == "missing_king" and board.fen() == before
    with pytest.raises(hostage.PositionError) as info:
        board.set_piece_at(hostage.A1, Piece(PAWN, WHITE))
    assert info.value.code == "pawn_on_backrank"
    # A Setup reports the castling state an edit made impossible; cleaning
    # drops it (the king keeps its never-moved mark, E).
    setup = Setup("4k3/8/8/8/3pP3/8/8/4K2R[] b K e3 0 1")
    setup.remove_piece_at(hostage.H1)
    assert setup.status() == "invalid_castling"
    setup.clean_castling_rights()
    assert setup.status() is None and setup.fen() == "4k3/8/8/8/3pP3/8/8/4K3[] b E e3 0 1"
    # The e4 pawn just moved two squares; removing it from a Board drops the
    # en-passant square instead of failing.
    ep = Board("4k3/8/8/8/3pP3/8/8/4K2R[] b K e3 0 1")
    ep.remove_piece_at(hostage.E4)
    assert ep.fen() == "4k3/8/8/8/3p4/8/8/4K2R[] b K - 0 1"
    with pytest.raises(hostage.PositionError) as info:
        board.set_piece_at(hostage.A1, Piece(PAWN, WHITE))
    assert info.value.code == "pawn_on_backrank" and "P" in str(info.value)
    assert board.fen() == before


def test_errors_name_their_input_shortened() -> None:
    huge = "x" * 100_000
    for call in (
        lambda: hostage.Board(huge),
        lambda: hostage.Setup(huge),
        lambda: Board().push_san(huge),
        lambda: Board().push_uci(huge),
        lambda: Move.from_uci(huge),
        lambda: Piece.from_symbol(huge),
        lambda: hostage.parse_square(huge),
        lambda: hostage.square_name(10**200),
        lambda: Piece(10**200, WHITE),
        lambda: Setup().set_prison(WHITE, huge),  # type: ignore[arg-type]
    ):
        with pytest.raises((ValueError, TypeError)) as info:
            call()
        message = str(info.value)
        assert len(message) < 400, message[:80]
        assert "xxxxxxxxxx" in message or "0000000000" in message, message
    with pytest.raises(hostage.SquareError) as square:
        hostage.parse_square("e9")
    assert str(square.value) == "invalid square name: 'e9'"
    with pytest.raises(hostage.InvalidMoveError) as invalid:
        Board().push_uci("e2e9")
    assert str(invalid.value) == "invalid uci: 'e2e9' (at character 3)"
    with pytest.raises(hostage.FenError) as fen:
        Board("8/8/8/8/8/8/8/8 x")
    assert str(fen.value) == "invalid side to move in fen (field 2): '8/8/8/8/8/8/8/8 x'"
