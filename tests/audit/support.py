"""What the audit tests share: writing real trees, and findings as comparable rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

from satchel.audit import Finding, Limits, audit_path
from tests.support import put, skill_md, write_skill


def skill(root: Path, name: str, body: str = "Do the thing.\n", *, front: str = "") -> Path:
    """A valid skill `root/name` with `body` after the frontmatter (3 lines + `front`)."""
    text = skill_md(name, f"Use it for {name}.", body, gap=False, extra=front)
    return write_skill(root, name, text).parent


def claude_plugin(root: Path, name: str, **files: object) -> Path:
    """A Claude Code plugin `root/name`; each keyword is a file (``mcp`` is .mcp.json,
    ``hooks`` is hooks/hooks.json), given as JSON data."""
    plugin = root / name
    put(plugin / ".claude-plugin" / "plugin.json", json.dumps({"name": name}))
    places = {"mcp": ".mcp.json", "hooks": "hooks/hooks.json"}
    for key, data in files.items():
        put(plugin / places[key], json.dumps(data))
    return plugin


def rows(
    path: Path, *, base: Path | None = None, limits: Limits | None = None, **kw: object
) -> list[tuple[str, str, str, int | None, str]]:
    """(rule, message, path relative to `base`, line, trust) of every finding."""
    report = audit_path(path, limits=limits, **kw)  # type: ignore[arg-type]
    return [_row(f, base or path) for f in report.findings]


def of(rule: str, found: list[tuple[str, str, str, int | None, str]]) -> list[tuple]:
    return [r for r in found if r[0] == rule]


def _row(f: Finding, base: Path) -> tuple[str, str, str, int | None, str]:
    where = "" if f.path is None else os.path.relpath(f.path, base)
    return (f.rule, f.message, where, f.line, f.trust_needed)
