"""Each host's load of the subject: a project as it is, or a lone skill or plugin
through a scratch view, so nothing is copied or written into the user's tree.

A plugin is loaded as a hand-named plugin directory (``plugin_dirs``, Claude Code's
``--plugin-dir``) of an empty scratch project and home. A skill is linked (a symlink,
named as its directory) into the first project skills root of each host, in a
scratch project of that host's own; the host's walk follows the link to the real
directory. Every load is trusted: compat shows what each host does with the content,
not what a folder's trust holds back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory

from satchel.assembly._environment import Environment, load
from satchel.compat._model import Kind
from satchel.core.layout import PROJECT, Layout
from satchel.hosts import Host
from satchel.plugins._detect import is_plugin_dir

__all__ = ["Scratch", "kind_of", "scratch"]

SKILL_FILE = "SKILL.md"


def kind_of(path: Path) -> Kind:
    """``plugin`` (a directory a plugin format reads, even one whose one skill is its
    root SKILL.md), ``skill`` (a directory holding SKILL.md) or ``project`` (anything
    else)."""
    if is_plugin_dir(path):
        return "plugin"
    if os.path.lexists(path / SKILL_FILE):
        return "skill"
    return "project"


class Scratch:
    """Where the scratch views of one compat run live (`scratch` makes and removes it)."""

    def __init__(self, base: Path) -> None:
        self.base = base

    def load(
        self,
        host: Host,
        kind: Kind,
        path: Path,
        *,
        home: Path | None = None,
        project: Path | None = None,
    ) -> Environment:
        """`host`'s load of `path` (a `kind`); a project with `home` and `project` as
        the loading verbs take them."""
        if kind == "project":
            lay = host.layout(path, home=home, project=project)
            return load(layout=lay, host=host, trusted=True)
        lay = self._layout(host)
        if kind == "plugin":
            return load(layout=lay, host=host, trusted=True, plugin_dirs=[path])
        _link_skill(lay, path)
        return load(layout=lay, host=host, trusted=True)

    def _layout(self, host: Host) -> Layout:
        """An empty project and home of `host`'s own (no environment read)."""
        base = self.base / host.name
        project, home = base / "project", base / "home"
        project.mkdir(parents=True)
        home.mkdir()
        return host.layout(project, home=home, project=project, env={})


def _link_skill(lay: Layout, skill: Path) -> None:
    """Link `skill` into the first project skills root of `lay` (its own name)."""
    root = next((r.path for r in lay.skill_roots() if r.scope == PROJECT), None)
    if root is None:
        return
    root.mkdir(parents=True, exist_ok=True)
    os.symlink(skill, root / skill.name, target_is_directory=True)


@contextmanager
def scratch() -> Iterator[Scratch]:
    """A scratch directory for the views, removed afterwards."""
    with TemporaryDirectory(prefix="satchel-compat-") as base:
        yield Scratch(Path(base))
