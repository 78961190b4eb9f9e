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
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

from satchel.core._model import model
from satchel.skills._model import Skill

__all__ = ["Change", "Changes", "Inventory", "Stamp", "compare", "stamps"]


class _Item(Protocol):
    def to_json(self) -> dict[str, Any]: ...


@model
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


@model
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
Items = Mapping[str, _Item]


@model
class Inventory:
    """What one load holds, as `compare` reads it: each kind by name (hooks by
    ``<source>/<event>/<matcher>#<n>``), and the `stamps` taken when it was loaded."""

    skills: Mapping[str, Skill]
    commands: Items
    agents: Items
    plugins: Items
    hooks: Items
    mcp_servers: Items
    stamps: Mapping[Path, Stamp]


def stamps(skills: Mapping[str, Skill], *others: Items) -> Mapping[Path, Stamp]:
    """The size and modification time of every file the `skills` and the `others`
    (commands, agent types, plugins) came from, taken when they were loaded (a reload
    compares against these). The others are stamped now; a skill read from a file
    carries its stamp already (taken by the read itself), so the skills' part of the
    mapping is built only when it is first looked at: hashing one `Path` per skill is
    most of its cost, and most loads are never compared."""
    found: dict[Path, Stamp] = {}
    for skill in skills.values():
        if skill.stamp is None:
            _stat(skill, found)
    for items in others:
        for item in items.values():
            _stat(item, found)
    return _Stamps(skills, found)


class _Stamps(Mapping[Path, Stamp]):
    """The stamps of one load: the skills' own, then those taken by `stamps`."""

    __slots__ = ("_built", "_skills", "_taken")

    def __init__(self, skills: Mapping[str, Skill], taken: dict[Path, Stamp]) -> None:
        self._skills = skills
        self._taken = taken
        self._built: dict[Path, Stamp] | None = None

    def _all(self) -> dict[Path, Stamp]:
        built = self._built
        if built is None:
            built = {}
            for skill in self._skills.values():
                if skill.stamp is not None and skill.path is not None:
                    built[skill.path] = skill.stamp
            built.update(self._taken)
            self._built = built
        return built

    def __getitem__(self, key: Path) -> Stamp:
        return self._all()[key]

    def __iter__(self) -> Iterator[Path]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


def _stat(item: _Item, found: dict[Path, Stamp]) -> None:
    where = _where(item)
    if where is None:
        return
    try:
        st = os.stat(where)
    except OSError:
        return
    found[where] = (st.st_size, st.st_mtime_ns)


def compare(old: Inventory, new: Inventory) -> Changes:
    """How `new` differs from `old`."""
    skills, commands, agents, plugins = (
        _change(a, b, old.stamps, new.stamps) for a, b in zip(_kinds(old), _kinds(new), strict=True)
    )
    hooks = _change(old.hooks, new.hooks, {}, {})
    servers = _change(old.mcp_servers, new.mcp_servers, {}, {})
    return Changes(skills, commands, agents, plugins, hooks, servers)


def _kinds(inventory: Inventory) -> tuple[Items, ...]:
    return (inventory.skills, inventory.commands, inventory.agents, inventory.plugins)


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
