"""What a host keeps of a plugin it reads: the component kinds it carries from a plugin
of each format (`satchel.hosts.Host.carries`), the others left out with one
``plugin.component.unread`` per kind naming where they are.

    plugin, found = carried(plugin, {"claude": ("skills", "hooks", "mcp_servers")})

A format the table does not name keeps every kind satchel's reader of it reads
(`READS`, docs/plugins.md "What each format loads").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, get_args

from satchel.diagnostics import Diagnostic, diagnostic
from satchel.plugins._model import Format, Plugin

__all__ = ["PART_NOUNS", "PARTS", "READS", "Carries", "Part", "carried", "carries"]

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


def carried(plugin: Plugin, table: Carries | None) -> tuple[Plugin, list[Diagnostic]]:
    """`plugin` without the kinds `table` does not carry for its format, and one
    ``plugin.component.unread`` per kind left out."""
    if table is None or plugin.format not in table:
        return plugin, []
    gone: dict[str, Any] = {}
    found: list[Diagnostic] = []
    for part in PARTS:
        items = getattr(plugin, part)
        if not items or carries(table, plugin.format, part):
            continue
        gone[part] = ()
        paths = [p for p in (_path(plugin, part, i) for i in items) if p is not None]
        where = ", ".join(sorted({_rel(plugin.root, p) for p in paths})) or "the manifest"
        message = (
            f"this host does not load the {PART_NOUNS[part]} of a {plugin.format} plugin "
            f"({len(items)} left out): {where}"
        )
        found.append(diagnostic("plugin.component.unread", message, paths[0] if paths else None))
    if not gone:
        return plugin, []
    whole = (*plugin.diagnostics, *found)
    return dataclasses.replace(plugin, **gone, diagnostics=whole), found


def _path(plugin: Plugin, part: Part, item: Any) -> Path | None:
    if part == "bin":
        return plugin.root / "bin" / str(item)
    path = getattr(item, "path", None)
    return path if isinstance(path, Path) else None


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)
