"""Audit CLI fixtures: `main()` run in-process in a clean terminal."""

from __future__ import annotations

import os

import pytest

from satchel.cli import main

from ..cli.conftest import MACHINE_VARS
from ..cli.support import Run


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
