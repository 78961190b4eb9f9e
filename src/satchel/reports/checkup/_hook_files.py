"""One hook file two hosts read, each in its own dialect (``hosts.hook.two-meanings``).

A repository installed both as a Claude Code plugin and as a Gemini CLI extension
carries one ``hooks/hooks.json`` that both hosts read as their own: Claude Code in its
event names, with ``${CLAUDE_PLUGIN_ROOT}`` set and matchers on its tool names; Gemini
CLI in its own names (``BeforeTool``), with ``${extensionPath}`` and its own tools. An
event one host fires is one the other ignores without a word.

The files are the plugins' hook files each host loads (a host whose dialect has a
`HookDialect.format` of its own reads them as its own); two copies with the same bytes
are one file (each host installs its own copy). For each host the finding says what it
makes of the file: the events it runs and those it ignores (`Host.events`), the
``${VARIABLES}`` of its commands it leaves unset (`HookVariables`), and what the
other hosts make of it.
Reading only, bounded.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import loads
from satchel.core._model import model
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._hooks import listed
from satchel.reports.checkup._machine import HostView, Machine

__all__ = ["hook_file_findings"]

MAX_FILE = 1024 * 1024
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@model
class Read:
    """One host's copy of a hook file: the host's view, the plugin and the path."""

    view: HostView
    plugin: str
    path: Path


@model
class Reading:
    """What one host makes of the file: the events it runs and those it ignores, and
    the variables of the commands it runs that it leaves unset."""

    runs: tuple[str, ...]
    ignores: tuple[str, ...]
    unset: tuple[str, ...]

    def words(self) -> str:
        parts = [f"runs {', '.join(self.runs) or 'none of its events'}"]
        if self.ignores:
            parts.append(f"ignores {', '.join(self.ignores)} (not its events)")
        if self.unset:
            parts.append(f"leaves {', '.join('${' + v + '}' for v in self.unset)} unset")
        return "; ".join(parts)


def hook_file_findings(machine: Machine) -> Iterator[HostFinding]:
    """One finding per host of each hook file two hosts read with different meanings."""
    files: dict[str, list[Read]] = {}
    documents: dict[str, Mapping[str, Any]] = {}
    for view in machine.views:
        if view.host.hooks.format is None:
            continue
        for plugin, path in _plugin_files(view):
            found = _read(path)
            if found is None:
                continue
            digest, document = found
            documents[digest] = document
            files.setdefault(digest, []).append(Read(view, plugin, path))
    for digest, reads in files.items():
        hosts = {r.view.name: r for r in reads}
        if len(hosts) < 2:
            continue
        readings = _compared({n: _reading(r.view, documents[digest]) for n, r in hosts.items()})
        if len(set(readings.values())) > 1:
            yield from _findings(machine, list(hosts.values()), readings)


def _compared(readings: Mapping[str, Reading]) -> dict[str, Reading]:
    """`readings` without the variables every host leaves unset (the user's own)."""
    every = set.intersection(*(set(r.unset) for r in readings.values()))
    return {
        name: Reading(r.runs, r.ignores, tuple(v for v in r.unset if v not in every))
        for name, r in readings.items()
    }


def _findings(
    machine: Machine, reads: Sequence[Read], readings: Mapping[str, Reading]
) -> Iterator[HostFinding]:
    for read in reads:
        others = [r for r in reads if r.view.name != read.view.name]
        own = readings[read.view.name]
        also = "; ".join(
            f"{o.view.host.title} reads the same file as {_where(machine, o)}: it "
            f"{readings[o.view.name].words()}"
            for o in others
        )
        message = (
            f"{read.view.host.title} reads {_where(machine, read)} as its own hook file: "
            f"it {own.words()}. {also}"
        )
        fix = (
            "give each host a folder of its own, or keep in the file only events, variables "
            f"and matchers {listed([r.view.host.title for r in reads])} read alike"
        )
        yield HostFinding.new(read.view.name, "hosts.hook.two-meanings", message, fix, read.path)


def _where(machine: Machine, read: Read) -> str:
    return f"{machine.shown(read.path)} of plugin {read.plugin!r}"


def _plugin_files(view: HostView) -> list[tuple[str, Path]]:
    """The hook files of the plugins `view`'s host loads, once each."""
    found: dict[Path, str] = {}
    for hook in view.env.hooks.hooks:
        plugin, path = hook.origin.plugin, hook.spec.path
        if plugin is not None and path is not None and hook.owner is None:
            found.setdefault(path, plugin)
    return [(plugin, path) for path, plugin in found.items()]


def _read(path: Path) -> tuple[str, Mapping[str, Any]] | None:
    try:
        data = read_bounded(path, MAX_FILE)
        document = loads(data.decode("utf-8"))
    except (FileProblem, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(document, dict) or not isinstance(document.get("hooks"), dict):
        return None
    return hashlib.sha256(data).hexdigest(), document


def _reading(view: HostView, document: Mapping[str, Any]) -> Reading:
    host, dialect = view.host, view.host.hooks
    events: Mapping[str, Any] = document["hooks"]
    fired = set(host.events)
    runs = tuple(e for e in events if e in fired)
    ignores = tuple(e for e in events if e not in fired)
    variables = dialect.variables
    given = {
        *variables.project,
        *variables.plugin_root,
        *variables.plugin_data,
        *variables.session,
        *(VARIABLE.sub(lambda m: m.group(1) or m.group(2), p) for p in variables.placeholders),
    }
    commands = [c for e in runs for c in _commands(events[e])]
    unset = tuple(
        sorted(
            {n for c in commands for m in VARIABLE.finditer(c) if (n := m.group(1) or m.group(2))}
            - given
            - {"HOME", "PATH", "PWD", "USER", "SHELL"}
        )
    )
    return Reading(runs, ignores, unset)


def _groups(value: Any) -> list[Mapping[str, Any]]:
    return [g for g in value if isinstance(g, Mapping)] if isinstance(value, list) else []


def _commands(value: Any) -> list[str]:
    found = []
    for group in _groups(value):
        handlers = group.get("hooks")
        for handler in handlers if isinstance(handlers, list) else []:
            if isinstance(handler, Mapping) and isinstance(handler.get("command"), str):
                found.append(handler["command"])
    return found
