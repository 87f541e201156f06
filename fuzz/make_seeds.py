#!/usr/bin/env python3
"""Writes the named seed corpora of fuzz/corpus/<target>/ (run from anywhere).

The byte layouts are those of fuzz/src/lib.rs. Starts are referred to by
their names in STARTS there; a seed file is named for what it shows.
Re-running rewrites the same files; it deletes nothing.
"""
import pathlib
import re

FUZZ = pathlib.Path(__file__).resolve().parent
ROOT = FUZZ.parent
CORPUS = FUZZ / "corpus"

STARTS = re.findall(r'\(\s*"([^"]+)",\s*"([^"]+)",?\s*\)', (FUZZ / "src/lib.rs").read_text())
INDEX = {name: i for i, (name, _) in enumerate(STARTS)}
FENS = dict(STARTS)


def write(target, name, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data if isinstance(data, bytes) else data.encode())


def choices(seed, n):
    """n deterministic move-choice bytes, half of them asking for captures."""
    out, state = [], seed * 2654435761 % 2**32 or 1
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2**31
        out.append((state >> 16) & 0xFF)
    return bytes(out)


def walk(name, plies=0, seed=0):
    return bytes([INDEX[name], plies]) + choices(seed, 2 * plies)


# fen: the text itself.
for name, fen in STARTS:
    write("fen", name, fen)
write("fen", "no-bracket", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
write("fen", "lenient-reserve-order", "4k3/1P4P1/8/8/8/8/1p4p1/4K3[bBrR#nqNQ] w - - 0 40")
write("fen", "ep-not-legal", "4k3/8/8/3p4/8/8/8/4K3[] w - d6 0 2")
write("fen", "frozen-pawn-no-check", "3k4/4P3/8/8/8/8/8/K7[] w - - 0 1")
write("fen", "king-in-prison", "7k/8/8/8/8/8/8/K7[#K] w - - 0 1")

# pgn: the shared PGN fixtures, and a few small games.
for path in sorted((ROOT / "tests/pgn").glob("*.pgn")):
    write("pgn", path.stem, path.read_bytes())
write("pgn", "pawns-taken", '[Event "x"]\n\n1. e4 d5 2. exd5 Qxd5 3. (P-P)*e4 *\n')
write("pgn", "variations-comments", "1. e4 {open} (1. d4 d5 (1... Nf6 $1)) 1... e5 ; rest\n2. Nf3 1-0\n")
write("pgn", "fen-tag", '[Variant "Hostage"]\n[FEN "%s"]\n\n1. (Q-N)N*b6+ *\n' % FENS["exchange-check"])

# san_uci: text, then a walk of 0 plies (the start itself), then a move choice.
SAN_UCI = [  # (start, label, text)
    ("initial", "san", "e4"), ("initial", "uci", "e2e4"), ("initial", "san-lenient", "Ng1f3!?"),
    ("pawns-taken", "san-exchange", "(P-P)*e4"), ("pawns-taken", "uci-exchange", "P#P@e4"),
    ("exchange-check", "san", "(Q-N)N*b6+"), ("exchange-check", "uci", "N#Q@b6"),
    ("exchange-block", "san", "(B-P)*b1"), ("freeze-checker", "san", "(R-N)N*g3"),
    ("promotion-choice", "san", "bxc8=Q+"), ("promotion-choice", "uci", "b7c8r"),
    ("pseudo-check-capture", "san", "Nxe5"), ("pseudo-check-king-capture", "san", "Kxg1"),
    ("castle-frozen", "san", "O-O"), ("castle-frozen", "uci", "e1g1"),
    ("castle-unfrozen", "san-lenient", "0-0"),
    ("castle-revived-drop", "san", "R*h1"), ("castle-revived-drop", "san-lenient", "R@h1"),
    ("castle-revived-drop", "uci", "R@h1"),
    ("ep-after-drop", "san-pawn-drop", "*e2"), ("ep-dropped-pawn-double-stepped", "san", "dxe3"),
    ("mate-by-drop", "san", "R*e8#"), ("mate-by-exchange", "san", "(B-N)N*f7#"),
    ("pools-large", "san-lenient", "(R-P)P*e4"), ("full-prisons", "san", "(Q-Q)Q*d4"),
    ("full-airfields", "san", "Q*d5"), ("initial", "junk-nul", "e4\x00"),
    ("initial", "junk-en-dash", "O\u2013O"),
]
for name, label, text in SAN_UCI:
    data = text.encode()
    write("san_uci", f"{name}--{label}", bytes([len(data)]) + data + walk(name) + b"\x00")

# legal_moves: a start (and a few plies from it), then fuzzer-built moves.
for name, _ in STARTS:
    write("legal_moves", name, walk(name) + choices(len(name), 24))
    write("legal_moves", name + "--walk", walk(name, 12, len(name)) + choices(len(name), 24))

# play_invariants: long walks from every start.
for name, _ in STARTS:
    write("play_invariants", name + "--walk", walk(name, 120, len(name) + 7))


# differential: sparse positions in the layout of sparse_fen.
MEN = "PNBRQpnbrq"


def sparse(fen, plies, seed):
    placement, turn, castling = fen.split()[:3]
    board, _, reserves = placement.partition("[")
    airfields, _, prisons = reserves.rstrip("]").partition("#")
    squares = {}
    for r, row in enumerate(board.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                squares[(7 - r) * 8 + f] = c
                f += 1
    kings = [next(s for s, c in squares.items() if c == k) for k in "Kk"]
    men = [(MEN.index(c), s) for s, c in squares.items() if c not in "Kk"]
    flags = (turn == "b") | (2 if set(castling) & set("KQE") else 0) | (4 if set(castling) & set("kqe") else 0)
    return bytes(
        kings + [len(men)] + [b for m in men for b in m]
        + [len(airfields)] + [MEN.index(c) for c in airfields]
        + [len(prisons)] + [MEN.index(c) for c in prisons]
        + [flags, plies]
    ) + choices(seed, 2 * plies)


for name, fen in STARTS:
    board = fen.split("[")[0]
    men = sum(c.isalpha() for c in board) - 2
    reserves = fen.split("[")[1].split("]")[0].split("#")
    if men < 16 and all(len(r) < 8 for r in reserves):
        write("differential", name, sparse(fen, 7, len(name)))

# legal_moves and play_invariants from sparse positions too (start byte 0xff).
for name in ["pseudo-check-capture", "freeze-checker", "castle-revived-exchange", "ep-after-drop"]:
    write("legal_moves", name + "--sparse", b"\xff" + sparse(FENS[name], 3, 5) + choices(9, 24))
    write("play_invariants", name + "--sparse", b"\xff" + sparse(FENS[name], 60, 11))

# Crashes found by the fuzzers, kept as seeds so that every run replays them
# (hostage-core/tests/regressions.rs holds the same cases as plain tests).
write("san_uci", "regression-strict-san-capture-mark-first",
      bytes([4]) + b"xde3" + walk("ep-dropped-pawn-double-stepped") + b"\x00")

# protocol: one client message of each type, as docs/protocol.md shows them,
# and the shapes the parser must refuse.
TOKEN = "5f0c" * 8
PROTOCOL = {
    "create-timed": '{"v":1,"type":"create","color":"white","clock":{"initial_ms":300000,"increment_ms":2000},"id":1}',
    "create-named-untimed": '{"v":1,"type":"create","color":"random","clock":null,"name":" Ada "}',
    "join": '{"v":1,"type":"join","game":"k3v9q0x2ma","color":"black","name":"Bob"}',
    "move": '{"v":1,"type":"move","game":"k3v9q0x2ma","token":"%s","move":"e2e4","ply":0,"id":7}' % TOKEN,
    "resume": '{"v":1,"type":"resume","game":"k3v9q0x2ma","token":"%s"}' % TOKEN,
    "chat": '{"v":1,"type":"chat","game":"k3v9q0x2ma","token":"%s","text":" good luck! \\u00e9"}' % TOKEN,
    "watch-text-id": '{"v":1,"type":"watch","game":"k3v9q0x2ma","id":"w-1"}',
    "unwatch": '{"v":1,"type":"unwatch","game":"k3v9q0x2ma"}',
    "resign": '{"v":1,"type":"resign","game":"k3v9q0x2ma","token":"%s"}' % TOKEN,
    "propose-takeback": '{"v":1,"type":"propose_takeback","game":"k3v9q0x2ma","token":"%s"}' % TOKEN,
    "rematch": '{"v":1,"type":"rematch","game":"k3v9q0x2ma","token":"%s"}' % TOKEN,
    "ping": '{"v":1,"type":"ping"}',
    "lobby-watch": '{"v":1,"type":"lobby_watch"}',
    "challenge-create": '{"v":1,"type":"challenge_create","name":"Ada","color":"white","clock":{"initial_ms":180000,"increment_ms":2000},"id":3}',
    "challenge-accept": '{"v":1,"type":"challenge_accept","challenge":"c1","name":"Bo"}',
    "challenge-cancel": '{"v":1,"type":"challenge_cancel","challenge":"c1"}',
    "lobby-seek": '{"v":1,"type":"lobby_seek","clock":{"initial_ms":60000,"increment_ms":0}}',
    "refused-clock-array": '{"v":1,"type":"create","color":"white","clock":[60000,0]}',
    "refused-duplicate-key": '{"v":1,"type":"ping","v":1}',
}
for name, text in PROTOCOL.items():
    write("protocol", name, text)
