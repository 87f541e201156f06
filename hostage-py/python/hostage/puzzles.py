"""Hostage Chess puzzles: the built-in verified set, selection near a rating, Glicko-2.

>>> import hostage.puzzles as hp
>>> puzzles = hp.load()
>>> len(puzzles) >= 500
True
>>> player = hp.Rating()
>>> puzzle = hp.next_puzzle(player, seen=set(), seed=1)
>>> puzzle is not None and puzzle.accepts(0, puzzle.moves[0])
True
>>> player, puzzle_rating = hp.update(player, puzzle, solved=True)
>>> player.rating > 1500
True

The library keeps no storage: pass the player's :class:`Rating` and the ids
of the puzzles already seen, and keep what comes back. A puzzle's
``moves`` are in the library's long form: the solver's move first, then the
opponent's reply, and so on, ending with a solver's move. ``lead_in`` is the
opponent's move that led to the puzzle (long form), played in
``lead_in_fen``: a trainer shows ``start_board()``, plays ``lead_in``, then
lets the solver move, as lichess does. See
docs/puzzles.md for how the set was generated, proved and rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from hostage._hostage import (
    Board,
    DifficultyError,
    PuzzleError,
    glicko_rate,
    glicko_update,
    parse_puzzle_records,
    puzzle_accepts,
    puzzle_next,
    puzzle_records,
)

DIFFICULTIES: Final = ("easiest", "easier", "normal", "harder", "hardest")
"""Difficulty names: the target is the rating -600, -300, 0, +300, +600."""

TAU: Final = 0.75
"""The Glicko-2 system constant (lichess's for puzzles)."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating; the defaults are a new player's (1500 / 500 / 0.09)."""

    rating: float = 1500.0
    deviation: float = 500.0
    volatility: float = 0.09

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (deviation >= 110, as on lichess)."""
        return self.deviation >= 110.0

    def _tuple(self) -> tuple[float, float, float]:
        return (self.rating, self.deviation, self.volatility)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle of the set (one line of ``data/puzzles.csv``)."""

    id: str
    fen: str
    moves: tuple[str, ...]
    rating: int
    deviation: int
    themes: tuple[str, ...]
    seed: int
    ply: int
    solvers: str
    depth: int
    lead_in_fen: str | None = None
    """The position before the lead-in move, the opponent to move (``None`` if unknown)."""
    lead_in: str | None = None
    """The opponent's move that led to the puzzle, long form (``None`` if unknown)."""

    @property
    def is_mate(self) -> bool:
        """Whether the solution ends in checkmate."""
        return any(t.startswith("mateIn") for t in self.themes)

    @property
    def rating_info(self) -> Rating:
        """The puzzle's initial rating as a :class:`Rating`."""
        return Rating(float(self.rating), float(self.deviation), 0.09)

    def board(self) -> Board:
        """A new board at the puzzle position (the solver to move)."""
        return Board(self.fen)

    def start_board(self) -> Board:
        """A new board where the puzzle opens: before the lead-in move when it is known.

        Playing :attr:`lead_in` on it gives :meth:`board`.
        """
        return Board(self.lead_in_fen if self.lead_in_fen is not None else self.fen)

    def accepts(self, index: int, move: str) -> bool:
        """Whether ``move`` (SAN or long form) is right as move ``index`` of the solution.

        Only the solver's moves (even ``index``) can be right; on the last
        move of a mate any mating move is; past the solution it is
        ``False``. Built-in puzzles only; raises :class:`PuzzleError`
        (``unknown_puzzle``) for another id, ``InvalidMoveError`` for text
        that is not a move and ``IllegalMoveError`` for a move not legal
        where the puzzle stands, as JavaScript's ``Puzzles.accepts`` does.
        """
        return puzzle_accepts(self.id, index, move)


def _puzzle(
    raw: tuple[
        str, str, list[str], int, int, list[str], int, int, str, int, str | None, str | None
    ],
) -> Puzzle:
    pid, fen, moves, rating, rd, themes, seed, ply, solvers, depth, lead_in_fen, lead_in = raw
    return Puzzle(
        pid,
        fen,
        tuple(moves),
        rating,
        rd,
        tuple(themes),
        seed,
        ply,
        solvers,
        depth,
        lead_in_fen,
        lead_in,
    )


@lru_cache(maxsize=1)
def _built_in() -> tuple[Puzzle, ...]:
    return tuple(_puzzle(r) for r in puzzle_records())


def load() -> list[Puzzle]:
    """The built-in puzzle set."""
    return list(_built_in())


def parse(text: str) -> list[Puzzle]:
    """Puzzles from record text; raises :class:`PuzzleError` with ``.code``."""
    return [_puzzle(r) for r in parse_puzzle_records(text)]


def get(puzzle_id: str) -> Puzzle:
    """The built-in puzzle with this id; raises :class:`PuzzleError` (``unknown_puzzle``)."""
    for p in _built_in():
        if p.id == puzzle_id:
            return p
    shown = puzzle_id[:40]
    err = PuzzleError(f"unknown puzzle id: {shown!r}")
    err.code = "unknown_puzzle"
    raise err


def next_puzzle(
    player: Rating | float,
    difficulty: str = "normal",
    seen: Iterable[str] = (),
    seed: int = 0,
) -> Puzzle | None:
    """An unseen built-in puzzle near the player's rating (shifted by ``difficulty``).

    The window widens when the pool runs thin; ``None`` once every puzzle
    was seen. ``seed`` picks among the puzzles of the window. Raises
    :class:`DifficultyError` for an unknown difficulty.
    """
    rating = player.rating if isinstance(player, Rating) else float(player)
    pid = puzzle_next(rating, difficulty, list(seen), seed)
    return None if pid is None else get(pid)


def update(player: Rating, puzzle: Puzzle | Rating, solved: bool) -> tuple[Rating, Rating]:
    """Both ratings after one attempt (Glicko-2, lichess's puzzle parameters)."""
    opponent = puzzle.rating_info if isinstance(puzzle, Puzzle) else puzzle
    p, z = glicko_update(player._tuple(), opponent._tuple(), solved)
    return Rating(*p), Rating(*z)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """Glicko-2 for one rating period: ``games`` are ``(opponent, score)`` pairs."""
    raw = [(o.rating, o.deviation, o.volatility, float(score)) for o, score in games]
    return Rating(*glicko_rate(player._tuple(), raw, tau))


__all__ = [
    "DIFFICULTIES",
    "TAU",
    "DifficultyError",
    "Puzzle",
    "PuzzleError",
    "Rating",
    "get",
    "load",
    "next_puzzle",
    "parse",
    "rate",
    "update",
]
