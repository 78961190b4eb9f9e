"""Fixtures the MCP tests share."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="module")
def inspector() -> list[str]:
    """The argv of the pinned MCP Inspector CLI (installed by scripts/tools)."""
    from tests.tools import inspector_cli

    node, script = shutil.which("node"), inspector_cli()
    if node is None or script is None:
        pytest.skip("the MCP Inspector CLI is not in .tools/ (scripts/tools needs node and npm)")
    return [node, str(script)]
