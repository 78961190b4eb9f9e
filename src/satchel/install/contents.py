"""What a fetched source holds: its skills and plugins, each with its folder.

The folder asked for (the source's subdirectory) is a plugin when a plugin format
is detected there: it installs whole. Otherwise its immediate child directories
and those of a ``plugins/`` directory are checked for plugins, and every other
directory holding a ``SKILL.md`` (up to six levels down) is a skill. Each skill is
parsed with satchel's own parser, leniently; nothing is run.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from satchel.diagnostics import Diagnostic
from satchel.install.errors import refuse
from satchel.layout import WalkBounds
from satchel.plugins import detect, read_plugin
from satchel.skills.discover import skill_dirs
from satchel.skills.read import SKILL_FILE, parse_skill

__all__ = ["Item", "find_items", "folder_of", "item_at"]

_WALK = WalkBounds(nested=True, max_depth=6, max_dirs=5000, follow_symlinks=False)


@dataclass(frozen=True, slots=True)
class Item:
    """One skill or plugin of a source. `folder` is its POSIX path from the source's
    root; `ok` is False when it fails validation (`diagnostics` say why)."""

    kind: str
    name: str
    description: str
    folder: str
    path: Path
    ok: bool = True
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "description": self.description,
            "folder": self.folder,
            "ok": self.ok,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }

    def matches(self, pick: str) -> bool:
        """Whether `pick` names this item: its name, its folder or its folder's last part."""
        return pick in (self.name, self.folder, self.folder.rsplit("/", 1)[-1])


def folder_of(tree: Path, subdir: str) -> Path:
    """The source's folder `subdir` below `tree`, refused when it is missing or is
    reached through a symlink."""
    here = tree
    for part in [p for p in subdir.split("/") if p]:
        here = here / part
        try:
            st = os.lstat(here)
        except OSError:
            raise refuse("install.fetch.failed", f"the source has no folder {subdir!r}") from None
        if not stat.S_ISDIR(st.st_mode):
            raise refuse("install.fetch.failed", f"{subdir!r} is not a real folder in the source")
    return here


def find_items(tree: Path, subdir: str = "") -> list[Item]:
    """The plugins and skills below `tree`/`subdir`, in folder order."""
    base = folder_of(tree, subdir)
    whole = _plugin(base, tree)
    if whole is not None:
        return [whole]
    plugins = [p for d in _plugin_candidates(base) if (p := _plugin(d, tree)) is not None]
    inside = [p.path for p in plugins]
    found, _ = skill_dirs(str(base), _WALK)
    if os.path.isfile(base / SKILL_FILE):
        found = [str(base)]
    skills = [
        _skill(Path(d), tree) for d in found if not any(Path(d).is_relative_to(p) for p in inside)
    ]
    return sorted([*plugins, *skills], key=lambda i: (i.kind != "plugin", i.folder, i.name))


def _plugin_candidates(base: Path) -> list[Path]:
    out: list[Path] = []
    for parent in (base, base / "plugins"):
        try:
            with os.scandir(parent) as it:
                out += [Path(e.path) for e in it if e.is_dir(follow_symlinks=False)]
        except OSError:
            continue
    return sorted(set(out))


def _plugin(directory: Path, tree: Path) -> Item | None:
    fmt, diags = detect(directory)
    if fmt is None:
        return None
    plugin, diags = read_plugin(directory)
    folder = _rel(directory, tree)
    if plugin is None:
        name = directory.name
        return Item("plugin", name, "", folder, directory, False, tuple(diags))
    bad = any(d.severity == "error" for d in diags)
    return Item(
        "plugin", plugin.name, plugin.description or "", folder, directory, not bad, tuple(diags)
    )


def _skill(directory: Path, tree: Path) -> Item:
    skill, diags = parse_skill(directory)
    folder = _rel(directory, tree)
    if skill is None:
        return Item("skill", directory.name, "", folder, directory, False, diags)
    bad = any(d.severity == "error" for d in diags)
    return Item("skill", skill.name, skill.description, folder, directory, not bad, diags)


def _rel(directory: Path, tree: Path) -> str:
    rel = directory.relative_to(tree).as_posix()
    return "" if rel == "." else rel


def item_at(tree: Path, folder: str, kind: str) -> Item:
    """The skill or plugin at `folder` below `tree`, parsed again."""
    directory = folder_of(tree, folder)
    if kind == "plugin":
        found = _plugin(directory, tree)
        if found is not None:
            return found
        return Item("plugin", directory.name, "", folder, directory, False)
    return _skill(directory, tree)
