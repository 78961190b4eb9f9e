"""`compat.component.unread`: a part of a plugin that other hosts load and this one
does not, though it loads the plugin (the manifest it reads does not carry that part:
Codex's ``.codex-plugin/plugin.json`` names no commands). The loader says nothing
then, so the parts are compared across the hosts that load the plugin."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from satchel.assembly._environment import Environment
from satchel.compat._model import Component, Drop
from satchel.compat._rules import Subject
from satchel.core._model import model
from satchel.core.diagnostics import diagnostic
from satchel.foundations.origin import Originated
from satchel.hosts import Host
from satchel.plugins import Plugin

__all__ = ["Part", "parts", "unread_parts"]

Key = tuple[str, ...]
_NOUNS = {
    "lsp_server": "language server",
    "bin": "bin/ program",
    "user_option": "userConfig option",
    "app": "Codex app",
}


@model
class Part:
    """One part of one plugin as a host loaded it: its component, its id there and its
    file."""

    component: Component
    id: str
    path: Path | None


def _real(path: Path | None) -> str:
    return "" if path is None else os.path.realpath(path)


def parts(env: Environment) -> dict[str, dict[Key, Part]]:
    """Plugin root (real path) -> each part a host loaded from it, by a key that names
    the same part in every host's load."""
    roots = {p.name: _real(p.root) for p in env.plugins.enabled()}
    found: dict[str, dict[Key, Part]] = {root: {} for root in roots.values()}

    def add(plugin: str | None, key: Key, part: Part) -> None:
        if plugin in roots:
            found[roots[plugin]].setdefault(key, part)

    kinds: tuple[tuple[Component, Iterable[tuple[str, Originated]]], ...] = (
        ("skill", env.skills.items()),
        ("agent", env.agents.agents.items()),
    )
    for kind, named in kinds:
        for name, item in named:
            path = getattr(item, "path", None)
            add(item.origin.plugin, (kind, _real(path)), Part(kind, name, path))
    # a command by its name: a host may read it from another file (Gemini CLI's TOML)
    for name, command in env.commands.commands.items():
        add(command.origin.plugin, ("command", name), Part("command", name, command.path))
    for server in env.mcp_servers.servers:
        add(
            server.plugin, ("mcp_server", server.name), Part("mcp_server", server.name, server.path)
        )
    # a hook by its event, matcher and rank among the plugin's hooks of both: a host may
    # read the same hooks from another file (Codex's manifest, Claude Code's hooks.json)
    seen: dict[tuple[str | None, str, str], int] = {}
    for hook in env.hooks.hooks:
        matcher = hook.spec.matcher or "*"
        rank = seen.setdefault((hook.origin.plugin, hook.event, matcher), 0)
        seen[(hook.origin.plugin, hook.event, matcher)] = rank + 1
        key = ("hook", hook.event, matcher, str(rank))
        ident = f"{hook.source}/{hook.spec.event}/{matcher}"
        add(hook.origin.plugin, key, Part("hook", ident, hook.spec.path))
    for plugin in env.plugins.enabled():
        for kind, ident, path in _kinds(plugin):
            add(plugin.name, (kind, _real(path), ident), Part(kind, ident, path))
    return found


def _kinds(plugin: Plugin) -> Iterator[tuple[Component, str, Path]]:
    """The output styles, themes, workflows, hooks modules, language servers, monitors,
    bin/ programs, userConfig options and Codex apps of one plugin."""
    yield from (("output_style", s.id, s.path) for s in plugin.output_styles)
    yield from (("theme", t.id, t.path) for t in plugin.themes)
    yield from (("workflow", w.id, w.path) for w in plugin.workflows)
    yield from (("hooks_module", m.relative, m.path) for m in plugin.modules)
    yield from (("lsp_server", s.name, s.path) for s in plugin.lsp_servers if s.path)
    yield from (("monitor", m.name, m.path) for m in plugin.monitors if m.path)
    yield from (("bin", name, plugin.root / "bin" / name) for name in plugin.bin)
    manifest = plugin.root / ".claude-plugin" / "plugin.json"
    yield from (("user_option", o.key, manifest) for o in plugin.user_config)
    yield from (("app", a.name, a.path) for a in plugin.apps if a.path)


def unread_parts(
    host: Host,
    env: Environment,
    subject: Subject,
    every: Mapping[str, Mapping[str, dict[Key, Part]]],
    titles: Mapping[str, str],
    known: Iterable[Drop],
) -> Iterator[Drop]:
    """The parts of each plugin `host` loads that other hosts (`every`: host name ->
    its `parts`) load from it and `host` does not, unless a drop in `known` already
    concerns that file."""
    said = [d.path for d in known if d.path]
    mine = parts(env)
    for plugin in env.plugins.enabled():
        root = _real(plugin.root)
        have = mine.get(root, {})
        missing: dict[Key, tuple[Part, list[str]]] = {}
        for other, found in every.items():
            for key, part in found.get(root, {}).items():
                if other != host.name and key not in have:
                    missing.setdefault(key, (part, []))[1].append(titles[other])
        for part, hosts in missing.values():
            rel = subject.rel(part.path)
            if rel and any(rel == p or rel.startswith(f"{p}/") for p in said):
                continue
            noun = _NOUNS.get(part.component, part.component.replace("_", " "))
            message = (
                f"{noun} {part.id!r} of plugin {plugin.name!r} is not read by {host.title} "
                f"from the {plugin.format} manifest ({', '.join(hosts)} "
                f"{'loads' if len(hosts) == 1 else 'load'} it)"
            )
            said_here = diagnostic("compat.component.unread", message, part.path)
            yield Drop(said_here, part.component, part.id, rel)
