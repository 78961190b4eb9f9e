"""What changed on disk between two loads (Vibe's ``/reload``): `Environment.reload`.

Skills, commands, agent types and plugins are compared by name: a name only in the new
load is added, only in the old removed, in both but different changed. Different
means a different definition (its JSON form) or a different file (size or
modification time), so an edited body counts even when the metadata did not move.
Hooks (named ``<source>/<event>/<matcher>#<n>``) and MCP servers (by name) are compared
by their definition and status: a running session keeps the ones it started with until
it takes the reloaded environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from satchel.skills._model import Skill

if TYPE_CHECKING:
    from satchel._environment import Environment

__all__ = ["Change", "Changes", "Stamp", "compare", "stamps"]


class _Item(Protocol):
    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Change:
    """The names added, removed and changed in one kind of thing."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def to_json(self) -> dict[str, list[str]]:
        return {
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": list(self.changed),
        }


@dataclass(frozen=True, slots=True)
class Changes:
    """What a reload found, per kind."""

    skills: Change = Change()
    commands: Change = Change()
    agents: Change = Change()
    plugins: Change = Change()
    hooks: Change = Change()
    mcp_servers: Change = Change()

    def __bool__(self) -> bool:
        kinds = (self.skills, self.commands, self.agents, self.plugins)
        return any((*kinds, self.hooks, self.mcp_servers))

    def to_json(self) -> dict[str, dict[str, list[str]]]:
        return {
            "skills": self.skills.to_json(),
            "commands": self.commands.to_json(),
            "agents": self.agents.to_json(),
            "plugins": self.plugins.to_json(),
            "hooks": self.hooks.to_json(),
            "mcp_servers": self.mcp_servers.to_json(),
        }


Stamp = tuple[int, int]  # size, modification time in ns


def stamps(env: Environment) -> dict[Path, Stamp]:
    """The size and modification time of every file the environment's items came
    from, taken when it was loaded (a reload compares against these)."""
    found: dict[Path, Stamp] = {}
    stat = os.stat
    for kind, items in enumerate(_kinds(env)):
        for item in items.values():
            if kind == 0 and isinstance(item, Skill) and item.stamp is not None:
                if item.path is not None:
                    found[item.path] = item.stamp  # taken by the read itself
                continue
            where = _where(item)
            if where is None:
                continue
            try:
                st = stat(where)
            except OSError:
                continue
            found[where] = (st.st_size, st.st_mtime_ns)
    return found


def compare(old: Environment, new: Environment) -> Changes:
    """How `new` differs from `old`."""
    skills, commands, agents, plugins = (
        _change(a, b, old.stamps, new.stamps) for a, b in zip(_kinds(old), _kinds(new), strict=True)
    )
    hooks = _change(_hooks(old), _hooks(new), {}, {})
    servers = _change(_servers(old), _servers(new), {}, {})
    return Changes(skills, commands, agents, plugins, hooks, servers)


def _hooks(env: Environment) -> dict[str, _Item]:
    return dict(env.hooks.named())


def _servers(env: Environment) -> dict[str, _Item]:
    return {s.name: s for s in env.mcp_servers.servers}


def _kinds(env: Environment) -> tuple[Mapping[str, _Item], ...]:
    return (env.skills, env.commands.commands, env.agents.agents, env.plugins.plugins)


def _change(
    old: Mapping[str, _Item],
    new: Mapping[str, _Item],
    before: Mapping[Path, Stamp],
    after: Mapping[Path, Stamp],
) -> Change:
    def differs(name: str) -> bool:
        a, b = old[name], new[name]
        if a.to_json() != b.to_json():
            return True
        where = _where(b)
        return where is not None and before.get(where) != after.get(where)

    added = tuple(n for n in new if n not in old)
    removed = tuple(n for n in old if n not in new)
    return Change(added, removed, tuple(n for n in new if n in old and differs(n)))


def _where(item: _Item) -> Path | None:
    path = getattr(item, "path", None) or getattr(item, "root", None)
    return path if isinstance(path, Path) else None
