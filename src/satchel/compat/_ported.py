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
import stat
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from satchel.assembly._environment import Environment
from satchel.compat._model import Drop, HostReport, Loads, Ported
from satchel.compat._rules import Subject
from satchel.compat._view import Scratch
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.hosts import Host
from satchel.port import TARGETS, Target, port
from satchel.port import Drop as PortDrop

__all__ = ["Judge", "after_port", "target_of"]

# judges a load of the copy: what the host loads of it, and what it drops
Judge = Callable[[Host, Environment, Subject], tuple[Loads, tuple[Drop, ...]]]
_RENAMED = "port.name.changed"  # loaded, under another name: nothing is lost
_SKIPPED = "plugin.hooks.invalid"  # a hooks file's event the host does not fire


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
    try:
        shutil.copytree(root, copy, symlinks=True, ignore=_special)
    except OSError as e:  # shutil.Error too: an unreadable file
        message = f"{root.name} could not be copied to port it for {host.title}: {_first(e)}"
        problem = diagnostic("compat.port.uncopied", message, root)
        return Ported(target.name, False, shipped.loads, shipped.drops, (problem,))
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
    shared = {subject.rel(copy / f.path) for f in written.files if (root / f.path).is_file()}
    dropped = tuple(d for d in dropped if not _sources_own(d, shared))
    lost = tuple(_lost(d, subject) for d in written.drops if d.diagnostic.code != _RENAMED)
    return Ported(target.name, True, loads, (*lost, *dropped), problems)


def _sources_own(found: Drop, shared: set[str | None]) -> bool:
    """Whether `found` is the host skipping the source's own events in a hooks file
    both hosts read, to which port added the host's own (docs/port.md, "A hooks file
    two hosts read"): each such hook was written under the host's event, or port
    reported it lost."""
    return (
        found.code == "compat.load.refused"
        and found.message.startswith(f"{_SKIPPED}:")
        and found.path in shared
    )


def _special(folder: str, names: list[str]) -> set[str]:
    """What the copy leaves out: anything but a file, a folder or a link (a named
    pipe, a socket, a device), which no reader reads and a copy could hang on."""
    kept = (stat.S_ISREG, stat.S_ISDIR, stat.S_ISLNK)
    return {n for n in names if not any(k(_mode(os.path.join(folder, n))) for k in kept)}


def _mode(path: str) -> int:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return 0


def _first(error: OSError) -> str:
    """The first reason of a copy that failed (`shutil.Error` lists every file's)."""
    found = error.args[0] if error.args else None
    if isinstance(found, list) and found and isinstance(found[0], tuple) and len(found[0]) == 3:
        return str(found[0][2])
    return error.strerror or str(error)


def _lost(drop: PortDrop, subject: Subject) -> Drop:
    """A port drop as compat says it: the component, its name, its file."""
    return Drop(drop.diagnostic, drop.kind, drop.name, subject.rel(drop.diagnostic.path))


def _moved(found: Diagnostic, copy: Path, root: Path) -> Diagnostic:
    """`found` about a file of the copy, said about the plugin's own file."""
    path = found.path
    if path is None or not path.is_relative_to(copy):
        return found
    return replace(found, path=root / path.relative_to(copy))
