"""PGN for Hostage Chess: read game records and write them.

>>> import hostage.pgn
>>> game = hostage.pgn.read_game("1. e4 d5 2. exd5 Qxd5 *")
>>> game.end_board().fen()
'rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3'
>>> print(hostage.pgn.Game.from_board(game.end_board()).write().splitlines()[-1])
1. e4 d5 2. exd5 Qxd5 *

Reading and writing are the core's (hostage_core::pgn): tags, a ``FEN`` tag
with a Hostage FEN, move numbers, comments, NAGs, variations (read; the main
line is exposed), results, the inventor's notation (``(B-N)N*c7``, ``*c7``,
``Resigns``). Every move is checked as it is read; a bad game raises
:class:`hostage.PgnError` and the next call goes on with the next game.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import IO, Callable, Union

from hostage._hostage import Board, Game, PgnError, PgnReader

Source = Union[str, bytes, IO[str], IO[bytes]]
"""PGN text, or a file opened in text or binary mode (UTF-8)."""

_CHUNK = 1 << 16

# One reader per open file, so that successive read_game(f) calls return
# successive games (the reader buffers ahead of the game it returns).
_readers: weakref.WeakKeyDictionary[object, PgnReader] = weakref.WeakKeyDictionary()


def _text(source: Source) -> str | None:
    if isinstance(source, str):
        return source
    if isinstance(source, (bytes, bytearray)):
        return bytes(source).decode("utf-8")
    return None


def _chunks(handle: IO[str] | IO[bytes]) -> Callable[[], str | bytes]:
    # A weak reference, so that the cached reader does not keep the file alive.
    ref = weakref.ref(handle)

    def read() -> str | bytes:
        h = ref()
        return "" if h is None else h.read(_CHUNK)

    return read


def read_games(source: Source) -> Iterator[Game]:
    """Every game of ``source`` (PGN text or an open file), read as needed.

    Raises :class:`hostage.PgnError` for a game that cannot be read; the
    iteration can go on with the next game.
    """
    text = _text(source)
    if text is not None:
        return PgnReader(text)
    assert not isinstance(source, (str, bytes))
    return PgnReader(source.read)


def read_game(source: Source) -> Game | None:
    """The next game of ``source``, or ``None`` when there is none left.

    ``source`` is PGN text (the first game is returned) or a file opened for
    reading: like python-chess, each call on the same file returns the next
    game. Raises :class:`hostage.PgnError` for a game that cannot be read
    (the next call goes on with the game after it).
    """
    text = _text(source)
    if text is not None:
        return next(PgnReader(text), None)
    assert not isinstance(source, (str, bytes))
    try:
        reader = _readers.get(source)
        if reader is None:
            reader = PgnReader(_chunks(source))
            _readers[source] = reader
    except TypeError:  # a file object that takes no weak reference
        reader = PgnReader(source.read)
    return next(reader, None)


def write_game(game: Game | Board, handle: IO[str] | None = None) -> str:
    """The PGN text of a game record or of a board's move stack; also
    written to ``handle`` if given."""
    record = Game.from_board(game) if isinstance(game, Board) else game
    text = record.write()
    if handle is not None:
        handle.write(text)
    return text


__all__ = ["Game", "PgnError", "PgnReader", "Source", "read_game", "read_games", "write_game"]
