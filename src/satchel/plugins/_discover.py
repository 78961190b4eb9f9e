"""Find every plugin and settle names: `load_plugins(layout) -> PluginSet`.

Where plugins come from, highest precedence first:

1. the workspace itself, as a plugin of its ``skills/`` and ``commands/`` (caveman;
   `include_workspace=False` turns it off);
2. the project's plugin roots, ``{project}/.satchel/plugins/<name>/`` and
   ``{project}/.agents/plugins/<name>/``, only in a trusted project (Vibe);
3. the user's, ``{config}/satchel/plugins/<name>/`` and ``~/.agents/plugins/<name>/``;
4. plugin directories the host names (`dirs`, ``--plugin-dir``), each one plugin.

Every directory read here is named as a plugin, so Claude Code's default layout
without a manifest is one (`satchel.plugins._detect`). A directory holding several
hosts' manifests is read by `detection` (the host's `ambiguous` and `format_order`,
else ``[plugin_manifests]`` in ``config.toml``, else `Detection()`). A plugins root
holding more than `MAX_PLUGINS` directories is cut with a ``discovery.limit`` warning
that names each one left out.

The same name in the project and the user's roots: the project's wins and the
user's is reported (``plugin.shadowed``). Two plugins of one scope with one name, or
two plugins claiming one namespace: the later one (in path order) is dropped
(``plugin.name.collision``, ``plugin.namespace.collision``; fatal for it). A plugin
disabled in ``config.toml`` is listed with `enabled` False and contributes nothing
(``plugin.disabled``). Library aliases shared by plugins are dropped from all.
Reading runs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel._text import fold_name
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.layout import EXTRA, PROJECT, Layout, Root
from satchel.plugins._config import plugin_config
from satchel.plugins._context import SkillRule
from satchel.plugins._data import data_dir
from satchel.plugins._detect import Ambiguity, Detection
from satchel.plugins._model import Format, Plugin
from satchel.plugins._read import read_plugin
from satchel.plugins._workspace import load_workspace
from satchel.plugins.components._libraries import drop_colliding

__all__ = ["MAX_PLUGINS", "PluginSet", "load_plugins"]

MAX_PLUGINS = 256  # plugin directories read per root
_NONE: Mapping[str, Plugin] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class PluginSet:
    """Every plugin found, in precedence order (disabled ones included, marked), what
    went wrong, and (winner, loser) for every plugin hidden by another."""

    plugins: Mapping[str, Plugin] = field(default_factory=lambda: _NONE)
    diagnostics: tuple[Diagnostic, ...] = ()
    shadowed: tuple[tuple[Plugin, Plugin], ...] = ()

    def enabled(self) -> tuple[Plugin, ...]:
        """The plugins that contribute their components."""
        return tuple(p for p in self.plugins.values() if p.enabled)

    def to_json(self) -> dict[str, Any]:
        return {
            "plugins": [p.to_json() for p in self.plugins.values()],
            "shadowed": [
                {"name": loser.name, "winner": str(winner.root), "loser": str(loser.root)}
                for winner, loser in self.shadowed
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def load_plugins(
    layout: Layout,
    *,
    trust_project: bool = True,
    dirs: Sequence[str | os.PathLike[str]] = (),
    include_workspace: bool = True,
    strict: bool = False,
    executable: bool = True,
    ambiguous: Ambiguity | None = None,
    format_order: tuple[Format, ...] | None = None,
    skill_rule: SkillRule | None = None,
) -> PluginSet:
    """Discover, read and settle every plugin for `layout` (see the module docstring).
    `skill_rule` None: as ``config.toml`` says (``[load] plugin_skill_rule``), else
    Claude Code's."""
    config = plugin_config(layout, trust_project=trust_project)
    assembly = _Assembly(config.enabled, layout, skill_rule or config.skill_rule or "claude-code")
    assembly.detection = config.detection(ambiguous=ambiguous, order=format_order)
    assembly.diagnostics.extend(config.diagnostics)
    if include_workspace and trust_project:
        workspace, found = load_workspace(layout.project)
        assembly.diagnostics.extend(found)
        if workspace is not None:
            assembly.offer(workspace)
    elif include_workspace:
        for folder in ("skills", "commands"):
            assembly.untrusted(layout.project / folder, "the workspace plugin's " + folder)
    for root in layout.plugin_dirs():
        if root.scope == PROJECT and not trust_project:
            assembly.untrusted(root.path, "project plugins here")
            continue
        for path in _children(root, assembly.diagnostics):
            assembly.read(path, root.scope, strict, executable)
    for given in dirs:
        assembly.read(Path(layout.cwd, given), EXTRA, strict, executable)
    return assembly.finish()


def _children(root: Root, problems: list[Diagnostic]) -> list[Path]:
    """The plugin directories of a plugins root, in name order, at most MAX_PLUGINS."""
    try:
        with os.scandir(root.path) as listing:
            names = sorted(e.name for e in listing if not e.name.startswith("."))
    except FileNotFoundError:
        return []
    except OSError as e:
        message = f"cannot list the plugins root: {e.strerror or e}"
        problems.append(diagnostic("discovery.root.unreadable", message, root.path))
        return []
    if len(names) > MAX_PLUGINS:
        left = ", ".join(names[MAX_PLUGINS:])
        message = (
            f"more than {MAX_PLUGINS} plugins here; only the first {MAX_PLUGINS} are read, "
            f"not {left}"
        )
        problems.append(diagnostic("discovery.limit", message, root.path))
    return [root.path / name for name in names[:MAX_PLUGINS]]


class _Assembly:
    """Winners by folded name and by namespace, every loss reported."""

    def __init__(
        self, settings: Mapping[str, bool], layout: Layout, skill_rule: SkillRule = "claude-code"
    ) -> None:
        self.settings = settings
        self.layout = layout
        self.skill_rule = skill_rule
        self.by_name: dict[str, Plugin] = {}
        self.by_namespace: dict[str, Plugin] = {}
        self.diagnostics: list[Diagnostic] = []
        self.shadowed: list[tuple[Plugin, Plugin]] = []
        self.detection = Detection()

    def untrusted(self, path: Path, what: str) -> None:
        if os.path.isdir(path):
            message = f"{what} are not loaded: the project is not trusted"
            self.diagnostics.append(diagnostic("discovery.untrusted", message, path))

    def read(self, path: Path, scope: str, strict: bool, executable: bool) -> None:
        if not os.path.isdir(path):
            return
        plugin, found = read_plugin(
            path,
            scope=scope,
            strict=strict,
            executable=executable,
            detection=self.detection,
            skill_rule=self.skill_rule,
        )
        self.diagnostics.extend(found)
        if plugin is not None:
            self.offer(plugin)

    def offer(self, plugin: Plugin) -> None:
        held = self.by_name.get(fold_name(plugin.name))
        if held is not None:
            self._lost(held, plugin)
            return
        rival = self.by_namespace.get(fold_name(plugin.namespace))
        if rival is not None:
            message = (
                f"plugin {plugin.name!r} at {plugin.root} claims the namespace "
                f"{plugin.namespace!r} of {rival.name!r} at {rival.root}; it is not loaded"
            )
            self.diagnostics.append(diagnostic("plugin.namespace.collision", message, plugin.root))
            return
        plugin = replace(self._configured(plugin), data_dir=data_dir(self.layout, plugin))
        self.by_name[fold_name(plugin.name)] = plugin
        self.by_namespace[fold_name(plugin.namespace)] = plugin

    def _lost(self, winner: Plugin, loser: Plugin) -> None:
        if winner.scope == loser.scope:
            message = (
                f"two {loser.scope or 'given'} plugins are named {loser.name!r}: "
                f"{winner.root} is kept, {loser.root} is not loaded"
            )
            self.diagnostics.append(diagnostic("plugin.name.collision", message, loser.root))
            return
        self.shadowed.append((winner, loser))
        message = (
            f"plugin {loser.name!r} at {loser.root} ({loser.scope}) is shadowed by "
            f"{winner.root} ({winner.scope})"
        )
        self.diagnostics.append(diagnostic("plugin.shadowed", message, loser.root))

    def _configured(self, plugin: Plugin) -> Plugin:
        if self.settings.get(plugin.name, True):
            return plugin
        message = f"plugin {plugin.name!r} is disabled in config.toml; nothing of it loads"
        self.diagnostics.append(diagnostic("plugin.disabled", message, plugin.root))
        return replace(plugin, enabled=False)

    def finish(self) -> PluginSet:
        plugins = self._libraries_settled(list(self.by_name.values()))
        return PluginSet(
            MappingProxyType({p.name: p for p in plugins}),
            tuple(self.diagnostics),
            tuple(self.shadowed),
        )

    def _libraries_settled(self, plugins: list[Plugin]) -> Iterable[Plugin]:
        """Drop library aliases that more than one enabled plugin declares."""
        live = [p for p in plugins if p.enabled]
        kept, problems = drop_colliding([lib for p in live for lib in p.libraries])
        self.diagnostics.extend(problems)
        survivors = {id(lib) for lib in kept}
        return [
            replace(p, libraries=tuple(lib for lib in p.libraries if id(lib) in survivors))
            if p.enabled
            else p
            for p in plugins
        ]
