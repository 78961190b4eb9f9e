"""What a host keeps of a plugin it reads: the component kinds it carries from a plugin
of each format (`satchel.hosts.Host.carries`), the others left out with one
``plugin.component.unread`` per kind naming where they are.

    plugin, found = carried(plugin, {"claude": ("skills", "hooks", "mcp_servers")})

A format the table does not name keeps every kind satchel's reader of it reads
(`READS`, docs/plugins.md "What each format loads").
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.hosts._parts import PART_NOUNS, PARTS, READS, Carries, Part, carries
from satchel.plugins._model import Plugin

__all__ = ["PART_NOUNS", "PARTS", "READS", "Carries", "Part", "carried", "carries"]


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
