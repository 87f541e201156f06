"""Hypothesis: invariants over random play."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hostage

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
START_FENS = [
    hostage.STARTING_FEN,
    "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
]


def men(board: hostage.Board, color: bool) -> list[int]:
    """R1-R3 invariant: a colour's men on the board, in its airfield and in
    the enemy prison, by role."""
    counts = [0] * 7
    for piece in board.piece_map().values():
        if piece.color == color:
            counts[piece.piece_type] += 1
    for role, n in board.airfield(color).items():
        counts[role] += n
    for role, n in board.prison(not color).items():
        counts[role] += n
    return counts


@SETTINGS
@given(start=st.sampled_from(START_FENS), choices=st.lists(st.integers(0, 10_000), max_size=40))
def test_random_play(start: str, choices: list[int]) -> None:
    board = hostage.Board(start)
    trail: list[tuple[str, int]] = []
    material = (men(board, True), men(board, False))
    for choice in choices:
        moves = list(board.legal_moves)
        assert len(moves) == len(board.legal_moves) == len(set(moves))
        if not moves:
            assert board.is_checkmate() or board.is_stalemate()
            assert board.outcome() is not None
            break
        for m in moves[:: max(1, len(moves) // 25)]:
            assert board.is_legal(m) and m in board.legal_moves
            assert board.parse_uci(m.uci()) == m
            assert board.parse_san(board.san(m)) == m
        trail.append((board.fen(), board.zobrist_hash()))
        move = moves[choice % len(moves)]
        board.push(move)
        assert board.peek() == move
        assert (men(board, True), men(board, False)) == material
        assert hostage.Board(board.fen()).fen() == board.fen()
    while trail:
        fen, zobrist = trail.pop()
        board.pop()
        assert board.fen() == fen and board.zobrist_hash() == zobrist
    assert board.fen() == hostage.Board(start).fen()


@SETTINGS
@given(
    start=st.sampled_from(START_FENS),
    plies=st.lists(st.integers(0, 10_000), max_size=12),
    junk=st.text(max_size=30) | st.sampled_from(["e4", "(P-P)*e6", "N@c7", "O-O", "e8=Q"]),
)
def test_junk_text_raises_value_errors_and_changes_nothing(
    start: str, plies: list[int], junk: str
) -> None:
    board = hostage.Board(start)
    for choice in plies:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    fen, zobrist, stack = board.fen(), board.zobrist_hash(), board.move_stack
    before = board.copy()
    for push in (board.push_san, board.push_uci):
        try:
            played = push(junk)
        except ValueError as error:
            assert isinstance(error, (hostage.HostageError, UnicodeError))
            assert (board.fen(), board.zobrist_hash(), board.move_stack) == (fen, zobrist, stack)
        else:
            assert played in before.legal_moves
            board.pop()
            assert board.fen() == fen


@SETTINGS
@given(st.text(max_size=120))
def test_junk_fen(text: str) -> None:
    try:
        board = hostage.Board(text)
    except ValueError:
        return
    assert hostage.Board(board.fen()).fen() == board.fen()
