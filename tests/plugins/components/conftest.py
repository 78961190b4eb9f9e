"""The component parsers' fixture: a plugin root in tmp_path (the helpers they share
with the format tests are in tests/plugins/helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "plugin"
    path.mkdir()
    return path
