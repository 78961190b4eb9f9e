"""What a tree pre-approves: each skill's `allowed-tools` and each agent type's tool
list, read with the loaders (nothing runs), keyed by what owns them.

The audit of a change (`satchel.audit._delta`) compares two trees' grants rule by
rule with `satchel.foundations.permissions.covers`, so ``Bash(git:*)`` -> ``Bash(*)`` is seen as
broader however the frontmatter around it moved.
"""

from __future__ import annotations

import os
from pathlib import Path

from satchel.audit._scan import kind_of
from satchel.core._model import model
from satchel.core.layout import WalkBounds
from satchel.plugins import read_plugin
from satchel.plugins._detect import plugin_children
from satchel.skills._discover import skill_dirs
from satchel.skills._read import parse_skill

__all__ = ["Grant", "grants_of"]


@model
class Grant:
    """The tools one skill or agent type may use unasked: `owner` names it
    (``skill "pdf"``, ``agent type "runner"``), `kind` (``skill`` or ``agent type``),
    `rules` as written (None: an agent type with no list, which inherits every tool of
    its session), `path` its file."""

    owner: str
    kind: str
    rules: tuple[str, ...] | None
    path: Path | None


def grants_of(root: Path) -> dict[str, Grant]:
    """The grants under `root` (a skill, a plugin, or a tree of either), by owner;
    nothing when `root` is not a directory."""
    if not os.path.isdir(root):
        return {}
    found: list[Grant] = []
    kind = kind_of(root, None)
    if kind in ("plugin", "plugins"):
        for plugin_root in [root] if kind == "plugin" else plugin_children(root) or []:
            plugin, _ = read_plugin(plugin_root)
            if plugin is None:
                continue
            found += (_skill(s.name, s.allowed_tools, s.path) for s in plugin.skills)
            found += (
                Grant(f'agent type "{a.name}"', "agent type", a.tools_as_written or a.tools, a.path)
                for a in plugin.agents
            )
    else:
        dirs = [str(root)] if kind == "skill" else skill_dirs(str(root), WalkBounds())[0]
        for directory in dirs:
            skill, _ = parse_skill(Path(directory))
            if skill is not None:
                found.append(_skill(skill.name, skill.allowed_tools, skill.path))
    return {g.owner: g for g in found}


def _skill(name: str, rules: tuple[str, ...], path: Path | None) -> Grant:
    return Grant(f'skill "{name}"', "skill", rules, path)
