"""The CLI fixtures (`satchel`, `in_repo`, a clean terminal) for the compat tests,
and the three-host plugin written into the test's temp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import in_repo, plain_terminal, satchel
from tests.compat.plugin import NAME, plugin_files
from tests.support import write_tree

__all__ = ["in_repo", "plain_terminal", "satchel"]


@pytest.fixture
def triple(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The three-host plugin at tmp_path/triple, with tmp_path as the cwd."""
    monkeypatch.chdir(tmp_path)
    return write_tree(tmp_path / NAME, plugin_files())
