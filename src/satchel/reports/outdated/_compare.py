"""An installed tree against its source tree, by content: which files were added,
removed or changed (with their sizes), what loading the source instead would add or
remove (skills, hooks, MCP servers), and the new risk the audit finds.

Both trees are hashed entry by entry as `satchel.install._tree.entries` does (a
file's bytes and whether it is executable; with `modes`, its whole mode as satchel
installs it). Files the installer adds beside the source's (`ignored`) are left out.
Both trees are read as plugins (or a skill) without running anything.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Literal

from satchel.audit._delta import NewRisk, audit_change
from satchel.install._tree import entries
from satchel.plugins._model import Plugin
from satchel.plugins._read import read_plugin
from satchel.reports.outdated._model import FileChange, LoadChange

Change = Literal["added", "removed", "changed"]

__all__ = ["file_changes", "load_change", "new_risk"]


def file_changes(
    installed: Path, source: Path, *, modes: bool, ignored: tuple[str, ...] = ()
) -> tuple[FileChange, ...]:
    """Every file, link or special file that differs, in path order (a folder's files
    are listed, not the folder)."""
    old = _entries(installed, source=not modes, ignored=ignored)
    new = _entries(source, source=True, ignored=ignored)
    found = []
    for rel in sorted(set(old) | set(new)):
        before, after = old.get(rel), new.get(rel)
        if before == after or _folder(before) or _folder(after):
            continue
        change: Change = "added" if before is None else "removed" if after is None else "changed"
        found.append(
            FileChange(
                rel,
                change,
                _size(installed / rel, before),
                _size(source / rel, after),
            )
        )
    return tuple(found)


def _folder(what: str | None) -> bool:
    """A folder: its files are listed, not it."""
    return what is not None and (what == "dir" or what.startswith("dir:"))


def _entries(root: Path, *, source: bool, ignored: tuple[str, ...]) -> dict[str, str]:
    found = entries(root, source=source)
    return {k: v for k, v in found.items() if k.split("/", 1)[0] not in ignored}


def _size(path: Path, what: str | None) -> int | None:
    if what is None or what == "dir" or what.startswith(("dir:", "link:")):
        return None
    try:
        return os.lstat(path).st_size
    except OSError:
        return None


def load_change(installed: Path, source: Path, kind: str) -> LoadChange:
    """What loading `source` instead of `installed` adds and removes."""
    old, new = _parts(installed, kind), _parts(source, kind)
    return LoadChange(
        added=tuple(sorted(new.keys() - old.keys())),
        removed=tuple(sorted(old.keys() - new.keys())),
    )


def _parts(root: Path, kind: str) -> Mapping[tuple[str, str], None]:
    if kind == "skill":
        return {}
    plugin, _ = read_plugin(root, executable=True)
    if plugin is None:
        return {}
    return dict.fromkeys(_named(plugin))


def _named(plugin: Plugin) -> Iterator[tuple[str, str]]:
    for skill in plugin.skills:
        yield "skill", skill.name
    for hook in plugin.hooks:
        matcher = f" {hook.matcher}" if hook.matcher else ""
        yield "hook", f"{hook.event}{matcher}: {hook.command}"
    for server in plugin.mcp_servers:
        yield "mcp server", server.name
    for command in plugin.commands:
        yield "command", command.name
    for agent in plugin.agents:
        yield "agent", agent.name


def new_risk(installed: Path, source: Path) -> tuple[NewRisk, ...]:
    """What the audit finds in `source` that `installed` did not have (nothing run)."""
    return audit_change(installed, source).risks
