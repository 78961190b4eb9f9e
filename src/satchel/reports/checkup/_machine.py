"""`Machine`: this machine as ``satchel doctor --hosts`` reads it, once: the folders,
and each host's own view of the project and the user (`HostView`).

A host is in the report when it is named (``--hosts claude-code,codex``) or, with no
names, when one of its `Host.found_by` files or folders exists (``~/.codex``,
``.claude``). Each host's view is ``satchel.load`` under its profile, trusted as far
as satchel's trust goes (the host's own trust rules still apply: a project Codex does
not trust keeps its config unread) and with what trust holds back read as declared,
so that everything the host could load is seen, and with the discovery cache off
(a load stores what it read there). Reading writes nothing and runs nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import Layout

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment
    from satchel.hosts import Host

__all__ = ["HostView", "Machine", "models_for", "read_machine", "said", "shown"]


@model
class HostView:
    """One host's view: its profile, what loads under it (`env`), the files that
    said it is used here (`found_by`; empty when it was named) and the model its
    listing is sized for (`model`: ``--model``, or None for the host's default, as
    `models_for` chose)."""

    host: Host
    env: Environment
    found_by: tuple[Path, ...] = ()
    model: str | None = None

    @property
    def name(self) -> str:
        return self.host.name


@model
class Machine:
    """The folders read (`layout`: home, project, cwd, config home), the model
    ``--model`` asked for (None: each host's default; each view has the one it uses),
    the environment variables a host resolves commands with (`env`: ``PATH``) and each
    host's view. `outside`: the working folder, when it is not in the ``--project``
    given: the machine is then read from the project's root, as if run there, and
    nothing of that folder is read."""

    layout: Layout
    views: tuple[HostView, ...]
    model: str | None = None
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    diagnostics: tuple[Diagnostic, ...] = ()
    outside: Path | None = None

    def view(self, name: str) -> HostView | None:
        """The view of the host `name`, if it is in the report."""
        return next((v for v in self.views if v.name == name), None)

    def shown(self, path: Path) -> str:
        """`path` as the report writes it (`shown`)."""
        return shown(path, self.layout)

    def said(self, text: str) -> str:
        """`text` (a finding's message) with the paths in it as the report writes
        them (`said`)."""
        return said(text, self.layout)


def shown(path: Path, layout: Layout) -> str:
    """`path` relative to the project when inside it, ``~/…`` when in the home,
    else as it is."""
    for base, prefix in ((layout.project, ""), (layout.home, "~/")):
        for folder in dict.fromkeys((base, base.resolve())):  # as given, and as the OS has it
            if path == folder:
                return prefix.rstrip("/") or "."
            if path.is_relative_to(folder):
                return prefix + path.relative_to(folder).as_posix()
    return str(path)


def said(text: str, layout: Layout) -> str:
    """`text` with each absolute path of the project or the home in it written as
    `shown` writes it: ``<project>/x`` as ``x``, ``<home>/.codex`` as ``~/.codex``."""
    for base, prefix, alone in ((layout.project, "", "."), (layout.home, "~/", "~")):
        for folder in dict.fromkeys((str(base), str(base.resolve()))):
            escaped = r"(?<![\w.~/-])" + re.escape(folder)  # a whole path, not its tail
            text = re.sub(escaped + "/", prefix, text)
            text = re.sub(escaped + r"(?![\w.~/-])", alone, text)
    return text


def _normal(path: Path | None) -> Path | None:
    return None if path is None else Path(os.path.abspath(path))


def found_by(host: Host, layout: Layout) -> tuple[Path, ...]:
    """The `Host.found_by` files and folders of `host` that exist here."""
    from satchel.foundations._host_files import expand

    paths = (Path(expand(t, layout.values())) for t in host.found_by)
    return tuple(p for p in paths if os.path.lexists(p))


def _hosts(names: Sequence[str] | None, layout: Layout) -> list[tuple[Host, tuple[Path, ...]]]:
    from satchel.hosts import PROFILES, resolve

    if names:  # a host named twice (or by two of its names) is reported once
        chosen = [resolve(n, config_home=layout.config_home)[0] for n in names]
        unique = {h.name: h for h in chosen}  # in the order first named
        return [(h, found_by(h, layout)) for h in unique.values()]
    every = ((h, found_by(h, layout)) for h in PROFILES.values())
    return [(h, where) for h, where in every if where]


def models_for(hosts: Sequence[Host], model: str | None) -> list[str | None]:
    """The model each of `hosts` is read with: `model` for a host whose profile knows
    it, None (its default) for the others, so that ``--model gpt-6.2-sol`` sizes
    Codex's listing and leaves Claude Code's at Claude Code's model. A model no host
    here knows is given to each (each then warns ``host.model-unknown``)."""
    if model is None:
        return [None for _ in hosts]
    knows = [h.model(model).known for h in hosts]
    if not any(knows):
        return [model for _ in hosts]
    return [model if k else None for k in knows]


def read_machine(
    cwd: Path,
    *,
    home: Path | None = None,
    project: Path | None = None,
    names: Sequence[str] | None = None,
    model: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Machine:
    """Each host's view of `cwd`'s project and of the user (`names`: those hosts, in
    that order; None: every host found here, in profile order). `UnknownHost` for a
    name that is no host's. A `cwd` outside the `project` given is read as the
    project's root (`Machine.outside`): a host reads the working folder's own files
    (``{cwd}/.gemini/settings.json``), and those are no part of that project."""
    from satchel.assembly._environment import load

    env = dict(os.environ if env is None else env)
    home, project = _normal(home), _normal(project)  # ``--home ../home`` as the folder
    outside = None
    if project is not None and not _inside(cwd, project):
        outside, cwd = cwd, project  # read no folder but the project's
    # the report's project: the one given, else the git root above `cwd` (a working
    # folder holding an AGENTS.md is not the project of a host that walks up to it);
    # each host finds its own project by its own rule unless one is given
    base = Layout.default(cwd, home=home, project=project, env=env, ancestors=project is None)
    views: list[HostView] = []
    found = _hosts(names, base)
    models = models_for([h for h, _ in found], model)
    for (host, where), wanted in zip(found, models, strict=True):
        layout = host.layout(cwd, home=base.home, project=project, env=env)
        loaded = load(  # the discovery cache off: reading it is fine, but a load stores it
            layout=layout, host=host, trusted=True, read_held=True, model=wanted, cache=False
        )
        views.append(HostView(host, loaded, where, wanted))
    return Machine(base, tuple(views), model, MappingProxyType(env), outside=outside)


def _inside(cwd: Path, project: Path) -> bool:
    here = Path(os.path.abspath(cwd))
    return any(
        here.is_relative_to(p) or here.resolve().is_relative_to(p)
        for p in dict.fromkeys((project, project.resolve()))
    )
