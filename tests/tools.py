"""The pinned programs `scripts/tools` installs into `.tools/`, for differential tests.

Each finder returns the program's path, or None when it is not installed (no npm on the
machine); the fixtures in `tests/conftest.py` skip with that reason."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parent.parent / ".tools"
CLAUDE_VERSION = "2.1.332"
INSPECTOR_VERSION = "0.15.0"
CALL = 120  # seconds one call may take: a "did not hang" bound, not a speed claim


def claude_code() -> Path | None:
    """Claude Code's native binary at its pinned version."""
    path = TOOLS / f"claude-code-{CLAUDE_VERSION}" / "claude"
    return path if os.access(path, os.X_OK) else None


def inspector_cli() -> Path | None:
    """The MCP Inspector CLI's entry script (run with node)."""
    path = (
        TOOLS
        / f"inspector-{INSPECTOR_VERSION}"
        / "node_modules/@modelcontextprotocol/inspector-cli/build/index.js"
    )
    return path if path.is_file() else None


def claude_validate(binary: Path, plugin: Path, home: Path) -> dict[str, Any]:
    """`claude plugin validate --json PLUGIN` with a scratch HOME, offline: the report."""
    env = {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    done = subprocess.run(
        [str(binary), "plugin", "validate", "--json", str(plugin)],
        capture_output=True,
        text=True,
        timeout=CALL,
        env=env,
        cwd=home,
    )
    try:
        report: dict[str, Any] = json.loads(done.stdout)
    except json.JSONDecodeError as error:
        raise AssertionError(f"claude plugin validate printed no JSON: {done.stderr}") from error
    return report
