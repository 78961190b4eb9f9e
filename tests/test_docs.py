"""The documents stay in step with the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from satchel.diagnostics import CODES

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\| `([a-z0-9._-]+)` \| (error|warning|info) \|", re.M)
SEGMENT_ID = re.compile(r"^agent\.(skills?|instructions|plugin-commands)\b")  # context ids
CODE_LITERAL = re.compile(
    r"^(agent|cli|command|config|discovery|encoding|exec|frontmatter|hook|install|instructions|mcp|permission|plugin|resource|session|skill|trust)\.[a-z0-9._-]+$"
)


def test_diagnostics_doc_lists_every_code_with_its_severity():
    text = (ROOT / "docs" / "diagnostics.md").read_text()
    documented = dict(ROW.findall(text))
    assert documented == {code: severity for code, (severity, _) in CODES.items()}


def _literals() -> dict[str, set[Path]]:
    found: dict[str, set[Path]] = {}
    for path in (ROOT / "src" / "satchel").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            value = node.value if isinstance(node, ast.Constant) else None
            if (
                isinstance(value, str)
                and CODE_LITERAL.match(value)
                and not value.endswith((".md", ".json", ".toml"))
                and not SEGMENT_ID.match(value)
            ):
                found.setdefault(value, set()).add(path.relative_to(ROOT))
    return found


def test_every_code_in_the_source_is_registered():
    unregistered = sorted(set(_literals()) - set(CODES))
    assert unregistered == []


def test_every_registered_code_is_used_somewhere():
    registry = Path("src", "satchel", "diagnostics.py")
    used = {code for code, where in _literals().items() if where - {registry}}
    assert sorted(set(CODES) - used) == []


def test_layout_doc_shows_the_default_table():
    from satchel import default_roots

    text = (ROOT / "docs" / "layout.md").read_text()
    for spec in default_roots():
        assert f"`{spec.template}`" in text, spec.template


def test_commands_doc_shows_the_tool_name_table():
    from satchel.agents import DEFAULT_TOOL_MAP

    text = (ROOT / "docs" / "commands-and-agents.md").read_text()
    section = text.split("### Tool names", 1)[1].split("###", 1)[0]
    rows = re.findall(r"^\| (`.+?`) \| (`.+?`)(?: \(for searching\))? \|$", section, re.M)
    documented: dict[str, tuple[str, ...]] = {}
    for left, right in rows:
        names = re.findall(r"`([^`]+)`", left)
        targets = tuple(re.findall(r"`([^`]+)`", right))
        documented.update(dict.fromkeys(names, targets))
    assert documented == dict(DEFAULT_TOOL_MAP)


def test_commands_doc_shows_the_command_and_agent_tables():
    from satchel import default_roots

    text = (ROOT / "docs" / "commands-and-agents.md").read_text()
    for kind in ("commands", "agents"):
        for spec in default_roots(kind=kind):
            shown = spec.template.replace("{home}/", "~/")
            assert f"`{shown}`" in text, shown
