"""Shared fixtures: where the CLI is (the shared vectors are read by vector_files.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _find_cli() -> str | None:
    env = os.environ.get("HOSTAGE_CLI")
    if env:
        return env
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "hostage"
        if path.is_file():
            return str(path)
    return shutil.which("hostage")


@pytest.fixture(scope="session")
def cli() -> str:
    """The hostage CLI binary (HOSTAGE_CLI, or target/{release,debug}/hostage).

    scripts/test-python builds it and sets HOSTAGE_CLI; a run without it
    fails under CI and is skipped, with the reason, elsewhere."""
    path = _find_cli()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("the hostage CLI is not built (cargo build --release -p hostage-cli)")
        pytest.skip("the hostage CLI is not built (cargo build --release -p hostage-cli)")
    subprocess.run([path, "--help"], check=True, capture_output=True)
    return path
