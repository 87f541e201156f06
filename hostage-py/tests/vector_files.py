"""Reading the shared vector files of tests/vectors (formats in
tests/README.md): where they are, their records, and the escapes of the
inputs they quote. Used by the test modules that read them."""

from __future__ import annotations

import re
from pathlib import Path

VECTORS = Path(__file__).resolve().parents[2] / "tests" / "vectors"

ESC = re.compile(
    r"\{repeat:(\d+):([^}]*)\}|\\x([0-7][0-9a-fA-F])|\\u\{([0-9a-fA-F]{1,6})\}|\\([\\nt])|\\"
)


def unescape(s: str) -> str:
    """Expands ``{repeat:N:text}`` and the escapes ``\\\\ \\n \\t \\xHH \\u{H..}``."""

    def one(m: re.Match[str]) -> str:
        if m[1]:
            return unescape(m[2]) * int(m[1])
        if m[3]:
            return chr(int(m[3], 16))
        if m[4]:
            return chr(int(m[4], 16))
        if m[5]:
            return {"\\": "\\", "n": "\n", "t": "\t"}[m[5]]
        raise ValueError(f"bad escape in {s!r}")

    return ESC.sub(one, s)


def records(name: str) -> list[tuple[int, str]]:
    """The records of ``tests/vectors/<name>``: ``(line number from 1,
    line)``, blank lines and ``#`` comment lines left out; a file without
    any fails the test."""
    raw = (VECTORS / name).read_text(encoding="utf-8")
    out = [
        (n, line)
        for n, line in enumerate(raw.splitlines(), 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert out, f"tests/vectors/{name} has no records"
    return out


def table(name: str) -> list[tuple[int, list[str]]]:
    """The records of a ``|``-separated file, each field stripped."""
    return [(n, [f.strip() for f in line.split("|")]) for n, line in records(name)]
