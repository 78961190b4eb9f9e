"""`port`: read one plugin with satchel's reader, write every target host's manifests.

    report = port("plugins/deploy-kit", ["codex", "kimi"])

Nothing is executed and nothing outside the plugin root is read or written. The
source is read as `satchel.plugins.read_plugin` reads it, except that a manifest
port wrote itself (its record) is not taken for the source: porting again reads the
same plugin. A target whose format is the source's own is skipped
(``port.target.source``); one whose name rule the plugin's name breaks is skipped
(``port.name.invalid``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from satchel.core._text import did_you_mean
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import is_dir, resolve_root
from satchel.plugins._carry import PART_NOUNS, Part
from satchel.plugins._detect import FORMAT_ORDER, Detection
from satchel.plugins._model import FORMATS, Format, Plugin
from satchel.plugins._read import read_plugin
from satchel.plugins.formats._native import RESERVED_NAMESPACES, typescript_identifier
from satchel.port._build import BUILDERS
from satchel.port._model import Drop, Kind, PortReport, TargetReport
from satchel.port._plan import Plan, relative
from satchel.port._targets import TARGETS, Target, fires, hook_key
from satchel.port._text import json_text
from satchel.port._write import Record, write_files

__all__ = ["port", "targets_named"]

_MANIFESTS: dict[Format, tuple[str, ...]] = {
    "agent-plugins": ("plugin.json",),
    "bundle": ("plugin.toml",),
    "claude": (".claude-plugin/plugin.json",),
    "codex": (".codex-plugin/plugin.json",),
    "cursor": (".cursor-plugin/plugin.json",),
    "gemini": ("gemini-extension.json",),
    "kimi": ("kimi.plugin.json", ".kimi-plugin/plugin.json"),
}


def targets_named(names: Iterable[str]) -> tuple[Target, ...]:
    """The targets `names` name, in the order given, each once. An unknown name, or
    both ``vibe`` and ``agent-plugins`` (one ``plugin.json``), is a `ValueError`."""
    chosen: list[Target] = []
    for name in names:
        target = TARGETS.get(name)
        if target is None:
            known = ", ".join(TARGETS)
            raise ValueError(
                f"unknown target {name!r}{did_you_mean(name, TARGETS)}; the targets are {known}"
            )
        if target not in chosen:
            chosen.append(target)
    for n, target in enumerate(chosen):
        other = next((t for t in chosen[:n] if t.manifest == target.manifest), None)
        if other is not None:
            raise ValueError(
                f"{other.name} and {target.name} both write {target.manifest}; name one of them"
            )
    if not chosen:
        raise ValueError("name at least one target")
    return tuple(chosen)


def port(
    path: str | os.PathLike[str],
    targets: Iterable[str],
    *,
    force: bool = False,
    dry_run: bool = False,
) -> PortReport:
    """Write, next to the plugin at `path`, the manifests each of `targets` reads
    (see `satchel.port.TARGETS`), and say what each target does not get. `force`
    replaces files port did not write (never a file the source reads its
    components from); `dry_run` writes nothing."""
    chosen = targets_named(targets)
    root = Path(os.path.abspath(path))
    if not is_dir(root):
        plugin, found = read_plugin(root)
        return PortReport(root, None, (), tuple(found), dry_run)
    record = Record(resolve_root(root))
    plugin, found = read_plugin(root, detection=_detection(record))
    if plugin is None:
        return PortReport(root, None, (), tuple(found), dry_run)
    plugin = _without_added(plugin, record)
    sources = _sources(plugin, record)
    reports = [_target(plugin, t, sources, record, force, dry_run) for t in chosen]
    if not dry_run and any(f.action == "written" for r in reports for f in r.files):
        record.save()
    return PortReport(root, plugin.format, tuple(reports), tuple(found), dry_run)


def _detection(record: Record) -> Detection:
    """Every format but those whose manifest port wrote (and nobody changed since)."""
    ported = {fmt for fmt, files in _MANIFESTS.items() if any(_owned(record, rel) for rel in files)}
    return Detection(order=FORMAT_ORDER, reads=frozenset(FORMATS) - ported)


def _owned(record: Record, rel: str) -> bool:
    path = record.root / rel
    try:
        return path.is_file() and record.owns(rel, path.read_bytes())
    except OSError:
        return False


def _without_added(plugin: Plugin, record: Record) -> Plugin:
    """`plugin` without the hooks port added to one of its files before (a file the
    record says port wrote, under an event the source's host does not fire): they are
    a target's, written again from the source's own."""
    added = tuple(
        h
        for h in plugin.hooks
        if (rel := relative(plugin.root, h.path)) is not None
        and _owned(record, rel)
        and fires(plugin.format, h.event) is False
    )
    return replace(plugin, hooks=tuple(h for h in plugin.hooks if h not in added))


def _sources(plugin: Plugin, record: Record) -> frozenset[str]:
    """The files the source reads (plugin-relative): its manifest, the markers of
    formats beside it that port did not write, and every component's file."""
    found = {
        rel
        for files in _MANIFESTS.values()
        for rel in files
        if os.path.lexists(plugin.root / rel) and not _owned(record, rel)
    }
    paths = [
        *(s.path for s in plugin.skills),
        *(c.path for c in plugin.commands),
        *(a.path for a in plugin.agents),
        *(h.path for h in plugin.hooks),
        *(s.path for s in plugin.mcp_servers),
    ]
    for path in paths:
        rel = relative(plugin.root, path)
        if rel is not None:
            found.add(rel)
    return frozenset(found)


def _target(
    plugin: Plugin,
    target: Target,
    sources: frozenset[str],
    record: Record,
    force: bool,
    dry_run: bool,
) -> TargetReport:
    skip = _skip(plugin, target) or _hand_written(plugin, target, sources, force)
    if skip is not None:
        return TargetReport(target.name, target.title, problems=(skip,), skipped=True)
    kept, drops = _kept(plugin, target)
    owned = frozenset(rel for rel in record.files if _owned(record, rel))
    plan = Plan(kept, target, sources, drops=drops, owned=owned)
    manifest = BUILDERS[target.format](plan)
    files = {target.manifest: json_text(manifest), **plan.files}
    written, problems = write_files(
        record.root, files, record, force=force, dry_run=dry_run, target=target.name,
        bases=plan.bases,
    )  # fmt: skip
    return TargetReport(
        target.name, target.title, tuple(written), tuple(plan.drops), tuple(problems)
    )


def _hand_written(
    plugin: Plugin, target: Target, sources: frozenset[str], force: bool
) -> Diagnostic | None:
    """A manifest of the target's format at another of its places, which the host
    would read beside (or instead of) the one port writes: port leaves the target
    alone unless `force`."""
    others = [rel for rel in _MANIFESTS.get(target.format, ()) if rel != target.manifest]
    found = [rel for rel in others if rel in sources]
    if not found or force:
        return None
    message = (
        f"{target.name}: {found[0]} is this plugin's own {target.title} manifest and port did "
        f"not write it; nothing is written for {target.title}"
    )
    return diagnostic(
        "port.file.exists", message, plugin.root / found[0], hint="pass --force to write anyway"
    )


def _skip(plugin: Plugin, target: Target) -> Diagnostic | None:
    """Why nothing is written for `target`, if so."""
    where = plugin.root
    if target.format == plugin.format:
        message = (
            f"{target.name}: the plugin is already in {target.title}'s format; nothing is written"
        )
        return diagnostic("port.target.source", message, where)
    order = target.profile.plugin_formats or ()
    before = order[: order.index(target.format)] if target.format in order else ()
    if plugin.format in before:
        message = (
            f"{target.name}: {target.title} reads the plugin's own {plugin.format} manifest "
            f"before a {target.manifest} (its order: {', '.join(order)}); nothing is written"
        )
        return diagnostic("port.target.source", message, where)
    problem = _name_problem(plugin.name, target)
    if problem is None:
        return None
    return diagnostic("port.name.invalid", f"{target.name}: {problem}; nothing is written", where)


def _name_problem(name: str, target: Target) -> str | None:
    rule = target.names
    if rule is None:
        return None
    if not rule.pattern.match(name):
        return f"{target.title} names a plugin {rule.says}, not {name!r}"
    if rule.namespaces and typescript_identifier(name).lower() in RESERVED_NAMESPACES:
        return f"the namespace {typescript_identifier(name)!r} derived from {name!r} is reserved"
    return None


# port's kinds -> the plugin's, and the code of a kind the target's host does not keep
_KINDS: tuple[tuple[Kind, Part, str], ...] = (
    ("command", "commands", "port.command.unsupported"),
    ("agent", "agents", "port.agent.unsupported"),
    ("hook", "hooks", "port.hook.unsupported"),
)


def _kept(plugin: Plugin, target: Target) -> tuple[Plugin, list[Drop]]:
    """`plugin` without the kinds the target's host does not keep of a plugin in the
    format written (`Host.carries`: the table `compat` reads too), and their drops."""
    drops: list[Drop] = []
    gone: dict[str, Any] = {}
    for kind, part, code in _KINDS:
        if target.keeps(part):
            continue
        for item in getattr(plugin, part):
            name = hook_key(item) if kind == "hook" else item.name
            label = f"{item.event} hook" if kind == "hook" else f"{kind} {item.name!r}"
            message = (
                f"{target.name}: {label}: {target.title} does not load a plugin's "
                f"{PART_NOUNS[part]} from its {target.manifest}"
            )
            found = diagnostic(code, message, item.path or plugin.root)
            drops.append(Drop(kind, name, found))
        gone[part] = ()
    return (replace(plugin, **gone) if gone else plugin), drops
