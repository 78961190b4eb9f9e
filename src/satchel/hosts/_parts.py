"""What a host keeps of a plugin, as data: the component kinds a plugin carries
(`Part`, each the `satchel.plugins.Plugin` field that holds it), what satchel's reader of
each format reads (`READS`), and the table a host definition gives of what it keeps of
each format (`Carries`, `Host.carries`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, get_args

from satchel.hosts._vocabulary import Format

__all__ = ["PARTS", "PART_NOUNS", "READS", "Carries", "Part", "carries"]

# the component kinds of a plugin, each the `Plugin` field that holds it
Part = Literal[
    "skills", "commands", "agents", "hooks", "mcp_servers", "apps", "lsp_servers",
    "output_styles", "themes", "channels", "workflows", "modules", "monitors", "bin",
    "user_config", "rules", "knowledge", "libraries", "connectors", "tool_overrides",
]  # fmt: skip
PARTS: tuple[Part, ...] = get_args(Part)
PART_NOUNS: Mapping[Part, str] = {
    "skills": "skills", "commands": "commands", "agents": "agents", "hooks": "hooks",
    "mcp_servers": "MCP servers", "apps": "apps", "lsp_servers": "LSP servers",
    "output_styles": "output styles", "themes": "themes", "channels": "channels",
    "workflows": "workflows", "modules": "hooks modules", "monitors": "monitors",
    "bin": "bin/ programs", "user_config": "userConfig options", "rules": "rules",
    "knowledge": "knowledge", "libraries": "libraries", "connectors": "connectors",
    "tool_overrides": "tool overrides",
}  # fmt: skip
Carries = Mapping[Format, tuple[Part, ...]]
# the kinds satchel's reader of each format reads (`satchel.plugins.formats`)
READS: Carries = {
    "agent-plugins": ("skills", "mcp_servers", "hooks", "agents", "knowledge", "libraries",
                      "connectors", "tool_overrides"),
    "bundle": ("skills", "commands", "agents", "mcp_servers"),
    "claude": ("skills", "commands", "agents", "hooks", "mcp_servers", "lsp_servers",
               "output_styles", "themes", "channels", "workflows", "modules", "monitors",
               "bin", "user_config"),
    "codex": ("skills", "hooks", "mcp_servers", "apps"),
    "cursor": ("skills", "commands", "agents", "hooks", "mcp_servers", "rules"),
    "gemini": ("skills", "commands", "agents", "hooks", "mcp_servers"),
    "kimi": ("skills", "hooks", "mcp_servers"),
    "opencode": ("skills",),
    "workspace": ("skills", "commands"),
}  # fmt: skip


def carries(table: Carries | None, fmt: Format, part: Part) -> bool:
    """Whether a host whose table is `table` keeps `part` of a `fmt` plugin (a format
    the table does not name: every kind satchel's reader of it reads, `READS`)."""
    kept = None if table is None else table.get(fmt)
    return part in (READS.get(fmt, PARTS) if kept is None else kept)
