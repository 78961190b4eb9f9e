"""A plugin shipped for three hosts (Claude Code, Codex, Cursor) side by side: one
``skills/`` tree, one command, a hooks file with an event only Claude Code fires
(``TeammateIdle``) and one every hook host fires, and an MCP server."""

from __future__ import annotations

import json
from typing import Any

NAME = "triple"
ABOUT = {"name": NAME, "version": "1.0.0", "description": "Review helpers for three hosts."}
HOOKS = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./hooks/guard.sh"}]}
        ],
        "TeammateIdle": [{"hooks": [{"type": "command", "command": "./hooks/idle.sh"}]}],
    }
}
MCP = {"mcpServers": {"tracker": {"command": "tracker-mcp", "args": ["--stdio"]}}}
SKILL = (
    "---\nname: review\ndescription: Use when a change needs a second look.\n"
    "allowed-tools: Read Grep\nmodel: sonnet\n---\n\nRead the diff, then the tests.\n"
)

COMMAND = "---\ndescription: Summarise the change.\n---\n\nSummarise $ARGUMENTS.\n"


def plugin_files() -> dict[str, str]:
    """Relative path -> text of every file of the plugin."""
    files: dict[str, Any] = {
        ".claude-plugin/plugin.json": {**ABOUT, "license": "MIT"},
        ".codex-plugin/plugin.json": {
            **ABOUT,
            "skills": "./skills/",
            "mcpServers": "./.mcp.json",
            "interface": {"displayName": "Triple"},
        },
        ".cursor-plugin/plugin.json": {
            **ABOUT,
            "skills": "./skills/",
            "hooks": "./hooks/hooks.json",
        },
        ".mcp.json": MCP,
        "hooks/hooks.json": HOOKS,
        "hooks/guard.sh": "#!/bin/sh\necho '{}'\n",
        "hooks/idle.sh": "#!/bin/sh\necho '{}'\n",
        "commands/summarise.md": COMMAND,
        "skills/review/SKILL.md": SKILL,
    }
    return {
        k: v if isinstance(v, str) else json.dumps(v, indent=2) + "\n" for k, v in files.items()
    }
