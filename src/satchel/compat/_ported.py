"""A plugin as a host reads it after `satchel port` wrote that host's manifest.

The plugin is copied into the run's scratch folder and ported there
(`satchel.port.port`, the target whose host is the profile's), so nothing is written
into the plugin; the copy is then loaded as the host loads a plugin
(`satchel.compat._view`) and judged by the same rules as the plugin as shipped. What
port says the host does not get (its ``port.*`` drops, but a new name) stays lost.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from satchel._environment import Environment
from satchel.compat._model import Drop, HostReport, Loads, Ported
from satchel.compat._rules import Subject
from satchel.compat._view import Scratch
from satchel.diagnostics import Diagnostic
from satchel.hosts import Host
from satchel.port import TARGETS, Target, port
from satchel.port import Drop as PortDrop

__all__ = ["Judge", "after_port", "target_of"]

# judges a load of the copy: what the host loads of it, and what it drops
Judge = Callable[[Host, Environment, Subject], tuple[Loads, tuple[Drop, ...]]]
_RENAMED = "port.name.changed"  # loaded, under another name: nothing is lost


def target_of(host: Host) -> Target | None:
    """The port target that writes for `host`'s profile, if any."""
    return next((t for t in TARGETS.values() if t.host == host.name), None)


def after_port(
    host: Host, root: Path, base: Path, shipped: HostReport, judge: Judge
) -> Ported | None:
    """`host`'s view of the plugin at `root` once ported for it, worked out below
    `base` (None: no target writes for the host, or the plugin is not one port reads).
    Where port writes nothing for the host (the plugin is in its format already, its
    name is one the host refuses, or a file port would write is the plugin's own), the
    view is the plugin as shipped."""
    target = target_of(host)
    if target is None:
        return None
    where = base / "ported" / target.name
    copy = where / "plugin" / root.name
    shutil.copytree(root, copy, symlinks=True)
    report = port(copy, [target.name])
    if report.format is None or not report.targets:
        return None
    (written,) = report.targets
    problems = tuple(_moved(d, copy, root) for d in written.problems)
    if not any(f.action == "written" for f in written.files):  # skipped, or refused
        return Ported(target.name, False, shipped.loads, shipped.drops, problems)
    env = Scratch(where / "view").load(host, "plugin", copy)
    subject = Subject(Path(os.path.realpath(copy)))
    loads, dropped = judge(host, env, subject)
    lost = tuple(_lost(d, subject) for d in written.drops if d.diagnostic.code != _RENAMED)
    return Ported(target.name, True, loads, (*lost, *dropped), problems)


def _lost(drop: PortDrop, subject: Subject) -> Drop:
    """A port drop as compat says it: the component, its name, its file."""
    return Drop(drop.diagnostic, drop.kind, drop.name, subject.rel(drop.diagnostic.path))


def _moved(found: Diagnostic, copy: Path, root: Path) -> Diagnostic:
    """`found` about a file of the copy, said about the plugin's own file."""
    path = found.path
    if path is None or not path.is_relative_to(copy):
        return found
    return replace(found, path=root / path.relative_to(copy))
