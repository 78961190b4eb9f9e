"""The CLI fixtures (`satchel`, `in_repo`, a clean terminal) for the compat tests,
and the three-host plugin written into the test's temp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import in_repo, plain_terminal, satchel
from tests.compat.plugin import NAME, plugin_files
from tests.support import write_tree
from tests.support.checkout import padded

__all__ = ["in_repo", "plain_terminal", "satchel"]


@pytest.fixture
def triple(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The three-host plugin at <a folder of tmp_path>/triple, with that folder as the
    cwd; the folder's path has the same length in every run (`padded`)."""
    where = padded(tmp_path)
    where.mkdir()
    monkeypatch.chdir(where)
    return write_tree(where / NAME, plugin_files())
