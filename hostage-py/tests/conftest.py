"""Shared fixtures: where the CLI is (the shared vectors are read by vector_files.py),
and which copy of `hostage` the run tests."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import hostage

REPO = Path(__file__).resolve().parents[2]


def pytest_report_header(config: pytest.Config) -> str:
    return f"hostage {hostage.__version__} from {hostage.__file__}"


def pytest_configure(config: pytest.Config) -> None:
    """With HOSTAGE_PY_SITE set (scripts/test-python sets it to the virtual
    environment's site-packages), refuse to test any other copy of `hostage`."""
    site = os.environ.get("HOSTAGE_PY_SITE")
    if site and Path(site).resolve() not in Path(hostage.__file__).resolve().parents:
        raise pytest.UsageError(f"hostage is imported from {hostage.__file__}, not from {site}")


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
