"""The format tests' fixture: a plugin directory in tmp_path (the helpers that write
real plugin trees, and the official schemas as oracles, are in
tests/plugins/helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    root = tmp_path / "plugins" / "demo"
    root.mkdir(parents=True)
    return root
