"""What the agent tests share: agent files as text."""

from __future__ import annotations

from tests.support import skill_md


def claude_text(
    name: str | None = "helper",
    description: str | None = "Helps with things.",
    body: str = "You help.\n",
    **extra: str,
) -> str:
    """An agent file as Claude Code writes one: frontmatter, a blank line, `body`."""
    return skill_md(name, description, body, **extra)


VIBE_OK = """\
schemaVersion = 1
agentType = "subagent"
displayName = "Researcher"
description = "Searches the knowledge base and summarizes findings."
safety = "safe"
activeModel = "mistral-medium-3.5"
instructions = "You are a research assistant."
enabledTools = ["read_file", "grep"]
disabledTools = ["bash"]
[tools.bash]
permission = "never"
allowlist = ["ls"]
denylist = ["rm"]
"""
