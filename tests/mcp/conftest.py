"""Fixtures the MCP tests share."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.keyring_file import private_keyring


@pytest.fixture(autouse=True)
def own_keyring(tmp_path: Path) -> Iterator[None]:
    """Every MCP test's keyring is a file of its own, never the system's (``mcp list``
    reads it for each remote server)."""
    with private_keyring(tmp_path / "own-keyring.json"):
        yield


@pytest.fixture(scope="module")
def inspector() -> list[str]:
    """The argv of the pinned MCP Inspector CLI (installed by scripts/tools)."""
    from tests.tools import inspector_cli

    node, script = shutil.which("node"), inspector_cli()
    if node is None or script is None:
        pytest.skip("the MCP Inspector CLI is not in .tools/ (scripts/tools needs node and npm)")
    return [node, str(script)]
