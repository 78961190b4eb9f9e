"""Agent tool names outside the table and the canonical set are reported."""

from __future__ import annotations

import os
from pathlib import Path

import satchel
from satchel.agents import parse_claude
from satchel.session import Session


def put(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def session(env: satchel.Environment, **options: object) -> Session:
    return Session(  # type: ignore[arg-type]
        env,
        environ={"PATH": os.environ.get("PATH", "")},
        allow_shell_interpolation=False,
        **options,
    )


# -- agents --------------------------------------------------------------------------


def test_a_snake_case_tool_name_that_is_not_canonical_is_reported() -> None:
    """docs/commands-and-agents.md: "canonical names pass through; anything else is kept
    as written (agent.tool.unknown, info)". map_tools passes *any* snake_case name
    silently, so `tools: edit` (a typo for Edit) gets no info and a read_only ceiling."""
    text = "---\nname: fixer\ndescription: Fixes.\ntools: edit, read_file\n---\nFix.\n"
    agent, diags = parse_claude(text.encode(), Path("fixer.md"))
    assert agent is not None
    assert "agent.tool.unknown" in [d.code for d in diags]
