from __future__ import annotations

import pytest

from .build import Tree, make_tree


@pytest.fixture
def tree(tmp_path, monkeypatch) -> Tree:
    """A fresh fixture; the test runs in its base, so relative canary payloads land there."""
    built = make_tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    return built
