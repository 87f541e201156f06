"""The Hostage Chess engine in process, shaped like python-chess's ``chess.engine``.

>>> import hostage, hostage.engine
>>> board = hostage.Board("6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1")
>>> with hostage.engine.Engine() as engine:
...     info = engine.analyse(board, hostage.engine.Limit(depth=3))
...     bot = engine.play(board, level="novice", seed=1)
>>> info["score"].relative, info["pv"][0].uci()
(Mate(1), 'R@a8')
>>> bot.move is not None and bot.move in board.legal_moves
True

The search is the Rust engine ``hostage-engine``; each call copies the
board's position and the hashes of its earlier positions (for repetition,
R12), releases the GIL and searches. ``analyse`` searches at full strength
within a :class:`Limit`; ``play`` either does the same (the best move) or
lets a bot :class:`Level` choose with a seed. The same board, level and seed
give the same move here, in Rust and in JavaScript.

The full-strength search evaluates with the network embedded in the
engine by default; ``Engine(network=False)`` evaluates by hand, and
``Engine(network=path_or_bytes)`` with another network file (the same
network and limit give the same nodes and move here, natively and in
WebAssembly). The bots always evaluate by hand.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Final, TypedDict, overload

from hostage._hostage import (
    DEFAULT_HASH_MB,
    MAX_HASH_MB,
    Board,
    EngineCore,
    LevelError,
    Move,
    NetworkError,
    engine_levels,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import Self, TypeAlias

    from hostage.pgn import Game

    _Raw: TypeAlias = tuple[
        Move | None, int, int, int, list[tuple[int | None, int | None, list[Move]]]
    ]


class Level(str, enum.Enum):
    """The five bots, weakest first. A plain string (``"club"``) works
    wherever a ``Level`` does."""

    NOVICE = "novice"
    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    CLUB = "club"

    @property
    def rating(self) -> int:
        """The rating shown for the level: a label, not a measurement."""
        return _RATINGS[self.value]

    def __str__(self) -> str:
        return self.value


_RATINGS: Final = dict(engine_levels())

_U64: Final = 1 << 64


@dataclass(frozen=True)
class Limit:
    """When a search stops; the first limit reached ends it.

    ``time`` is in seconds; ``nodes`` and ``depth`` make the search
    reproducible. A ``Limit()`` with nothing set searches until
    :meth:`Engine.stop` is called from another thread (or depth 64).
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"Limit.{name} must be a non-negative int, not {value!r}")
        if self.time is not None and not (0 <= self.time < 1e9):
            raise ValueError(f"Limit.time must be a number of seconds >= 0, not {self.time!r}")


@dataclass(frozen=True, order=False)
class Score:
    """A score for one side: centipawns (``cp``) or a forced mate
    (``mate``: moves to mate, negative when that side is mated, 0 when it
    is mated now). Exactly one of ``cp`` and ``mate`` is set."""

    cp: int | None = None
    mate: int | None = None

    def is_mate(self) -> bool:
        """Whether this is a forced mate (either way)."""
        return self.mate is not None

    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; a mate gives ``None``, or ``±(mate_score - moves)``
        when ``mate_score`` is given (python-chess's convention)."""
        if self.mate is None:
            return self.cp
        if mate_score is None:
            return None
        return mate_score - self.mate if self.mate > 0 else -mate_score - self.mate

    def _key(self) -> int:
        # A shorter mate is better, being mated later is better.
        if self.mate is None:
            assert self.cp is not None
            return self.cp
        return 1_000_000 - self.mate if self.mate > 0 else -1_000_000 - self.mate

    def __neg__(self) -> Score:
        if self.mate is None:
            return Score(cp=-(self.cp or 0))
        return Score(mate=-self.mate)

    def __lt__(self, other: Score) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Score) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Score) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Score) -> bool:
        return self._key() >= other._key()

    def __repr__(self) -> str:
        return f"Mate({self.mate})" if self.mate is not None else f"Cp({self.cp})"

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"


@dataclass(frozen=True)
class PovScore:
    """A score relative to ``turn`` (the side to move where it was found),
    as python-chess's ``PovScore``."""

    relative: Score
    turn: bool

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view."""
        return self.relative if color == self.turn else -self.relative

    def white(self) -> Score:
        """The score from White's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(False)

    def is_mate(self) -> bool:
        """Whether this is a forced mate (either way)."""
        return self.relative.is_mate()


class InfoDict(TypedDict, total=False):
    """What a search found for one line (python-chess's keys)."""

    score: PovScore
    pv: list[Move]
    depth: int
    seldepth: int
    nodes: int
    multipv: int


@dataclass
class PlayResult:
    """The move to play (``None`` when the game has no legal move), the
    expected reply, and what the search found for the move."""

    move: Move | None
    ponder: Move | None = None
    info: InfoDict = field(default_factory=lambda: InfoDict())


def _level_name(level: Level | str) -> str:
    if isinstance(level, Level):
        return level.value
    if isinstance(level, str):
        return level
    raise TypeError(f"level must be a hostage.engine.Level or a str, not {type(level).__name__}")


def _infos(turn: bool, raw: _Raw) -> list[InfoDict]:
    _, depth, seldepth, nodes, lines = raw
    return [
        InfoDict(
            score=PovScore(Score(cp=cp, mate=mate), turn),
            pv=pv,
            depth=depth,
            seldepth=seldepth,
            nodes=nodes,
            multipv=n,
        )
        for n, (cp, mate, pv) in enumerate(lines, 1)
    ]


class Engine:
    """A Hostage Chess engine in this process: a transposition table of
    ``hash_mb`` MiB kept from search to search (:meth:`new_game` clears it).

    ``network`` is what the full-strength search (``analyse``, ``play``
    with a limit, ``review``) evaluates with: ``True`` (the default) the
    network embedded in the engine, ``False`` the hand-written evaluation,
    bytes or a path a network file (``hostage-engine/data/nnue.bin`` is the
    embedded one; the npm package ships it as ``nnue.bin``). A file that is
    not a network raises :class:`NetworkError` (code ``nnue_magic``,
    ``nnue_shape`` or ``nnue_length``); one that cannot be read,
    ``OSError``. The bot levels always evaluate by hand.

    Searches release the GIL, so other Python threads run meanwhile.
    Calls on one engine from several threads run one after another.
    """

    def __init__(
        self,
        hash_mb: int = DEFAULT_HASH_MB,
        *,
        network: bool | bytes | bytearray | memoryview | str | os.PathLike[str] = True,
    ) -> None:
        if not isinstance(hash_mb, int) or not 1 <= hash_mb <= MAX_HASH_MB:
            raise ValueError(f"hash_mb must be an int from 1 to {MAX_HASH_MB}, not {hash_mb!r}")
        core = EngineCore(hash_mb)
        if isinstance(network, bool):
            core.set_nnue(network)
        elif isinstance(network, (bytes, bytearray, memoryview)):
            core.load_network(bytes(network))
        elif isinstance(network, (str, os.PathLike)):
            core.load_network_file(os.fspath(network))
        else:
            raise TypeError(
                "network must be True, False, bytes or a path, not " + type(network).__name__
            )
        self._core = core

    @property
    def hash_mb(self) -> int:
        """The transposition table size in MiB."""
        return self._core.hash_mb

    @property
    def uses_network(self) -> bool:
        """Whether the full-strength search evaluates with a network."""
        return self._core.uses_network

    @overload
    def analyse(self, board: Board, limit: Limit, *, multipv: None = None) -> InfoDict: ...
    @overload
    def analyse(self, board: Board, limit: Limit, *, multipv: int) -> list[InfoDict]: ...
    def analyse(
        self, board: Board, limit: Limit, *, multipv: int | None = None
    ) -> InfoDict | list[InfoDict]:
        """Searches ``board`` (its move stack is the history) within
        ``limit``. Returns an :class:`InfoDict`, or with ``multipv`` a list
        of the ``multipv`` best lines, best first. A position with no legal
        move gives ``{}`` (or ``[]``)."""
        if multipv is not None and (not isinstance(multipv, int) or multipv < 1):
            raise ValueError(f"multipv must be a positive int, not {multipv!r}")
        raw = self._core.analyse(
            board, nodes=limit.nodes, depth=limit.depth, time=limit.time, multipv=multipv or 1
        )
        infos = _infos(board.turn, raw)
        if multipv is None:
            return infos[0] if infos else InfoDict()
        return infos

    def play(
        self,
        board: Board,
        limit: Limit | None = None,
        *,
        level: Level | str | None = None,
        seed: int = 0,
    ) -> PlayResult:
        """The move to play on ``board``: the best within ``limit``, or the
        choice of the bot ``level`` drawn with ``seed`` (0 .. 2**64-1; the
        same board, level and seed give the same move). Give one of
        ``limit`` and ``level``. An unknown level name raises
        :class:`LevelError` (code ``invalid_level``)."""
        if (limit is None) == (level is None):
            raise ValueError("give either a limit or a level")
        if level is not None:
            if not isinstance(seed, int) or not 0 <= seed < _U64:
                raise ValueError(f"seed must be an int from 0 to 2**64-1, not {seed!r}")
            raw = self._core.play_level(board, _level_name(level), seed)
        else:
            assert limit is not None
            raw = self._core.analyse(
                board, nodes=limit.nodes, depth=limit.depth, time=limit.time, multipv=1
            )
        infos = _infos(board.turn, raw)
        info = infos[0] if infos else InfoDict()
        pv = info.get("pv", [])
        return PlayResult(raw[0], pv[1] if len(pv) > 1 else None, info)

    def new_game(self) -> None:
        """Forgets what earlier searches learned (the table and the move
        ordering history)."""
        self._core.new_game()

    def review(
        self,
        game: Board | Game,
        limit: Limit,
        *,
        progress: Callable[[int, int], object] | None = None,
    ) -> GameReview:
        """Reviews a game (a :class:`hostage.pgn.Game`'s main line, or a
        board's move stack from its start): every position searched within
        ``limit`` (reproducible under ``nodes``), every move judged as
        lichess does. ``progress(done, total)`` is called after each
        position searched."""
        from hostage.pgn import Game as PgnGame

        if isinstance(game, PgnGame):
            board, pgn = game.end_board(), game.write()
        elif isinstance(game, Board):
            board, pgn = game, None
        else:
            raise TypeError(
                f"game must be a hostage.Board or a hostage.pgn.Game, not {type(game).__name__}"
            )
        moves, white, black, text = self._core.review(
            board,
            nodes=limit.nodes,
            depth=limit.depth,
            time=limit.time,
            progress=progress,
            pgn=pgn,
        )
        return GameReview(
            moves=[_move_review(m) for m in moves],
            white=PlayerReview(*white),
            black=PlayerReview(*black),
            pgn=text,
        )

    def stop(self) -> None:
        """Stops a search running in another thread; it returns what it
        found so far."""
        self._core.stop()

    def close(self) -> None:
        """Nothing to release (python-chess's engines need it; kept for the
        same code shape)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Judgement(str, enum.Enum):
    """How bad a move was, by the winning chances it gave away (lichess's
    thresholds: 0.1, 0.2 and 0.3 on the [-1, 1] scale)."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def symbol(self) -> str:
        """``?!``, ``?`` or ``??``."""
        return {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[self.value]

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class MoveReview:
    """One reviewed move. Scores are for White; ``win_before`` and
    ``win_after`` are the mover's win percent (0..100)."""

    ply: int
    color: bool
    move: Move
    san: str
    before: Score
    after: Score
    best: Move | None
    best_line: list[Move]
    win_before: float
    win_after: float
    accuracy: float
    judgement: Judgement | None


@dataclass(frozen=True)
class PlayerReview:
    """A player's accuracy (0..100, lichess's formula), average centipawn
    loss, and judged moves (``None`` figures for a player without a move)."""

    accuracy: float | None
    acpl: int | None
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: every move, each player's summary, and the
    annotated PGN (``[%eval …]``, NAGs, the best line as a variation)."""

    moves: list[MoveReview]
    white: PlayerReview
    black: PlayerReview
    pgn: str


def _move_review(raw: tuple) -> MoveReview:  # type: ignore[type-arg]
    ply, white, move, san, before, after, best, line, wb, wa, acc, judgement = raw
    return MoveReview(
        ply=ply,
        color=white,
        move=move,
        san=san,
        before=Score(cp=before[0], mate=before[1]),
        after=Score(cp=after[0], mate=after[1]),
        best=best,
        best_line=line,
        win_before=wb,
        win_after=wa,
        accuracy=acc,
        judgement=Judgement(judgement) if judgement is not None else None,
    )


def review(
    game: Board | Game,
    limit: Limit,
    *,
    progress: Callable[[int, int], object] | None = None,
    hash_mb: int = DEFAULT_HASH_MB,
) -> GameReview:
    """Reviews ``game`` with a new :class:`Engine` (see :meth:`Engine.review`).

    >>> import hostage, hostage.engine
    >>> board = hostage.Board()
    >>> for uci in ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]:
    ...     _ = board.push_uci(uci)
    >>> r = hostage.engine.review(board, hostage.engine.Limit(nodes=3000))
    >>> r.moves[5].san, r.moves[5].judgement
    ('Nf6', <Judgement.BLUNDER: 'blunder'>)
    >>> r.black.blunders, "[%eval" in r.pgn
    (1, True)
    """
    return Engine(hash_mb).review(game, limit, progress=progress)


__all__ = [
    "DEFAULT_HASH_MB",
    "MAX_HASH_MB",
    "Engine",
    "GameReview",
    "InfoDict",
    "Judgement",
    "Level",
    "LevelError",
    "Limit",
    "MoveReview",
    "NetworkError",
    "PlayResult",
    "PlayerReview",
    "PovScore",
    "Score",
    "review",
]
