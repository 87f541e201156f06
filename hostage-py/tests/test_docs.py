"""The Python examples of the README and of docs/python.md run as tests.

Every ```python block of a file runs, in order, in one namespace (so a block
may use names from the blocks above it). A block written as an interactive
session (``>>>``) is checked with doctest instead.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


def blocks(path: Path) -> list[str]:
    return FENCE.findall(path.read_text(encoding="utf-8"))


def run_blocks(path: Path) -> int:
    namespace: dict[str, object] = {"__name__": f"docs:{path.name}"}
    found = blocks(path)
    for n, code in enumerate(found, 1):
        name = f"{path.name} python block {n}"
        if code.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(code, namespace, name, str(path), 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
            runner.run(test)
            assert runner.failures == 0, f"{name} failed (see the doctest output above)"
        else:
            exec(compile(code, name, "exec"), namespace)
    return len(found)


def test_python_guide_examples() -> None:
    assert run_blocks(REPO / "docs" / "python.md") >= 5


def test_package_readme_examples() -> None:
    assert run_blocks(REPO / "hostage-py" / "README.md") >= 1


def test_readme_examples() -> None:
    readme = REPO / "README.md"
    if not readme.exists() or not blocks(readme):
        pytest.skip("README.md has no ```python block yet")
    run_blocks(readme)


def test_module_docstrings() -> None:
    import hostage
    import hostage.course
    import hostage.pgn
    import hostage.svg

    for module in (hostage, hostage.pgn, hostage.svg, hostage.course):
        failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tried > 0 and failures == 0, module.__name__


def test_typed_example_runs() -> None:
    import runpy

    runpy.run_path(str(REPO / "hostage-py" / "examples" / "typed_example.py"), run_name="__main__")
