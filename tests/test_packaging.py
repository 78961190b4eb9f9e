"""What `pip install satchel` brings: serving skills over MCP is one of satchel's main
jobs, so the MCP SDK is a dependency of its own (imported only when a server starts or
`satchel serve` runs: tests/test_lazy_imports.py)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_mcp_sdk_is_a_default_dependency():
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert "mcp" in _names(project["dependencies"])
    # `pip install 'satchel[mcp]'`, as older instructions say, still installs
    assert _names(project["optional-dependencies"]["mcp"]) == {"mcp"}
