"""What a fetched source holds: its skills and plugins, each with its folder.

The folder asked for (the source's subdirectory) is a plugin when a plugin format
is detected there: it installs whole. Otherwise its immediate child directories
and those of a ``plugins/`` directory are checked for plugins, and every other
directory holding a ``SKILL.md`` (up to six levels down) is a skill. Each skill is
parsed with satchel's own parser, leniently; nothing is run. The walk is bounded (six
levels, 5,000 directories); where it stops, a ``discovery.limit`` warning says so.

A directory whose parent is named ``plugins`` is named as a plugin (a marketplace's
layout), so Claude Code's default layout there is a plugin without a manifest; any
other folder needs a manifest (a repository of skills is not one plugin). A
directory holding several hosts' manifests is one plugin, read by the preference
order (`satchel.plugins._detect`). Each plugin item says what it holds
(`Item.contents`) and, in `Item.notes`, which manifests were not used and one
``install.plugin.partial`` warning when it will not load all it declares.
"""

from __future__ import annotations

import os
import stat
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import WalkBounds
from satchel.install._errors import refuse
from satchel.plugins import Plugin, detect, read_plugin
from satchel.skills._discover import skill_dirs
from satchel.skills._read import SKILL_FILE, parse_skill

__all__ = ["Item", "contents_of", "find_items", "folder_of", "item_at", "left_out", "scan_items"]

_WALK = WalkBounds(nested=True, max_depth=6, max_dirs=5000, follow_symlinks=False)
# diagnostics of a loaded plugin that mean a part it declares does not load
_LEFT_OUT = (".unsupported", ".invalid", ".outside_root", ".limit", ".collision", ".error")
_PASSED_ON = frozenset(("plugin.compatibility.manifest_unused",))


@model
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
    contents: str = ""  # a plugin's parts: "3 skills, 1 hook"
    notes: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "description": self.description,
            "folder": self.folder,
            "ok": self.ok,
            "contents": self.contents,
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
    return scan_items(tree, subdir)[0]


def scan_items(tree: Path, subdir: str = "") -> tuple[list[Item], list[Diagnostic]]:
    """`find_items`, and a ``discovery.limit`` warning (its path relative to `tree`)
    for each bound of the skills walk that left directories unread."""
    base = folder_of(tree, subdir)
    whole = _plugin(base, tree)
    if whole is not None:
        return [whole], []
    plugins = [p for d in _plugin_candidates(base) if (p := _plugin(d, tree)) is not None]
    inside = [p.path for p in plugins]
    found, walked = skill_dirs(str(base), _WALK)
    cut = [_relative(d, tree) for d in walked if d.code == "discovery.limit"]
    if os.path.isfile(base / SKILL_FILE):
        found = [str(base)]
    skills = [
        _skill(Path(d), tree) for d in found if not any(Path(d).is_relative_to(p) for p in inside)
    ]
    items = sorted([*plugins, *skills], key=lambda i: (i.kind != "plugin", i.folder, i.name))
    return items, cut


def _relative(found: Diagnostic, tree: Path) -> Diagnostic:
    """`found` with its path as the source names it (the workspace goes away)."""
    if found.path is None or not found.path.is_relative_to(tree):
        return found
    return replace(found, path=Path(found.path.relative_to(tree).as_posix() or "."))


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
    named = directory.name != "" and directory.parent.name == "plugins"
    fmt, diags = detect(directory, named=named)
    if fmt is None:
        return None
    plugin, diags = read_plugin(directory, named=named)
    folder = _rel(directory, tree)
    if plugin is None:
        name = directory.name
        return Item("plugin", name, "", folder, directory, False, tuple(diags))
    bad = any(d.severity == "error" for d in diags)
    where = Path(folder or ".")  # the source's folder: the workspace read goes away
    passed = [replace(d, path=where) for d in diags if d.code in _PASSED_ON]
    notes = passed + left_out(plugin, diags, folder)
    return Item(
        "plugin",
        plugin.name,
        plugin.description or "",
        folder,
        directory,
        not bad,
        tuple(diags),
        contents_of(plugin),
        tuple(notes),
    )


def contents_of(plugin: Plugin) -> str:
    """What a plugin holds, for a listing: ``"14 skills, 1 hook"`` (``"nothing"``)."""
    parts = (
        ("skill", len(plugin.skills)),
        ("command", len(plugin.commands)),
        ("agent", len(plugin.agents)),
        ("hook", len(plugin.hooks)),
        ("MCP server", len(plugin.mcp_servers)),
    )
    shown = [f"{n} {what}{'' if n == 1 else 's'}" for what, n in parts if n]
    return ", ".join(shown) or "nothing"


def left_out(plugin: Plugin, diags: list[Diagnostic], folder: str) -> list[Diagnostic]:
    """One ``install.plugin.partial`` naming what of `plugin` will not load (each
    diagnostic that drops a declared part), or none when it all loads."""
    dropped = [d for d in diags if d.code.endswith(_LEFT_OUT)]
    if not dropped:
        return []
    shown = "; ".join(f"{d.code}: {d.message}" for d in dropped)
    message = f"plugin {plugin.name!r} ({folder or '.'}) will not load all it declares: {shown}"
    return [diagnostic("install.plugin.partial", message, Path(folder or "."))]


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
