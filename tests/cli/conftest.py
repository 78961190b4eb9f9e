"""CLI fixtures: `main()` run in-process, a clean terminal, the repository as cwd."""

from __future__ import annotations

import os

import pytest

from satchel.cli import main

from .support import Run

# Terminal and config settings of the machine running the tests must not leak in.
MACHINE_VARS = (
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR_FORCE",
    "COLUMNS",
    "LINES",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "JUPYTER_COLUMNS",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
)


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch):
    for name in MACHINE_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def satchel(capsys):
    """Call `main(args)`; return its exit code and what it printed."""

    def run(*args: str | os.PathLike[str]) -> Run:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run


@pytest.fixture
def in_repo(in_examples):
    """Run from the root of the example's copy, so its paths print relative to it."""
    return in_examples
