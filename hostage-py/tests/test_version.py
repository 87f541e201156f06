"""The package's version is the workspace version (Cargo.toml), in the module and
in the installed distribution's metadata."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import hostage

CARGO_TOML = Path(__file__).resolve().parents[2] / "Cargo.toml"


def test_version_is_the_workspace_version() -> None:
    found = re.search(r'^version = "(.*)"', CARGO_TOML.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None
    assert hostage.__version__ == found.group(1)
    assert importlib.metadata.version("hostage-chess") == hostage.__version__
