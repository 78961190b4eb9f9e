"""Agent tool names outside the table and the canonical set are reported."""

from __future__ import annotations

from pathlib import Path

from satchel.agents import parse_claude

# -- agents --------------------------------------------------------------------------


def test_a_snake_case_tool_name_that_is_not_canonical_is_reported() -> None:
    """docs/commands-and-agents.md: "canonical names pass through; anything else is kept
    as written (agent.tool.unknown, info)". map_tools passes *any* snake_case name
    silently, so `tools: edit` (a typo for Edit) gets no info and a read_only ceiling."""
    text = "---\nname: fixer\ndescription: Fixes.\ntools: edit, read_file\n---\nFix.\n"
    agent, diags = parse_claude(text.encode(), Path("fixer.md"))
    assert agent is not None
    assert "agent.tool.unknown" in [d.code for d in diags]
