"""Find every plugin and settle names: `load_plugins(layout) -> PluginSet`.

Where plugins come from, highest precedence first:

1. the workspace itself, as a plugin of its ``skills/`` and ``commands/`` (caveman;
   `include_workspace=False` turns it off);
2. the project's plugin roots, ``{project}/.satchel/plugins/<name>/`` and
   ``{project}/.agents/plugins/<name>/``, only in a trusted project (Vibe); in one
   that is not, they are read all the same, as text, into `PluginSet.held`, so what
   trusting it would add can be said from this one load (nothing of them loads);
3. the user's, ``{config}/satchel/plugins/<name>/`` and ``~/.agents/plugins/<name>/``;
4. the plugins Claude Code installed (``~/.claude/plugins``, `claude_installed`; see
   `satchel.plugins._claude_installed`), each at its record's scope, enabled as
   Claude Code's settings say (a disabled one is listed with ``plugin.disabled``);
   with them (`claude_installed`) the folders of Claude Code's skills directories
   that hold ``.claude-plugin/plugin.json``, each a ``<name>@skills-dir`` plugin
   (`satchel.plugins._skills_dir`; the user's wins a name over the project's);
5. the plugins a host installed in its own home (`host_state`: Codex's
   ``~/.codex/plugins/cache``, named in ``[plugins]`` of its ``config.toml``; see
   `satchel.plugins._host_installed`), each a user plugin, enabled as that file says;
6. plugin directories the host names (`dirs`, ``--plugin-dir``), each one plugin.

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
(``plugin.disabled``); so is one whose manifest says ``defaultEnabled: false`` (Claude
Code 2.1.154) and that ``config.toml`` does not enable (a plugin Claude Code installed
is enabled by its settings alone: ``claude plugin install`` writes ``false`` to
``enabledPlugins`` for such a plugin). Library aliases shared by plugins are dropped from all.
Reading runs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import EXTRA, PROJECT, Layout, Root
from satchel.foundations._host_settings import PluginEnablement, PluginLink
from satchel.foundations._host_state import HostState, host_config
from satchel.foundations.precedence import Clash, Loss, Source, Verdict, fold_name, settle
from satchel.plugins._carry import Carries, carried
from satchel.plugins._claude_installed import Installed, installed_plugins
from satchel.plugins._config import plugin_config
from satchel.plugins._context import SkillRule
from satchel.plugins._data import data_dir
from satchel.plugins._detect import Ambiguity, Detection
from satchel.plugins._host_installed import host_installed
from satchel.plugins._links import linked_folder
from satchel.plugins._model import Format, Plugin
from satchel.plugins._read import read_plugin
from satchel.plugins._skills_dir import adopt, skills_dir_plugins
from satchel.plugins._workspace import load_workspace
from satchel.plugins.components._libraries import drop_colliding

__all__ = ["MAX_PLUGINS", "PluginSet", "load_plugins"]

MAX_PLUGINS = 256  # plugin directories read per root
# each plugin directory read in one load: (path, scope, dir_name) -> (how, what it gave)
_Cache = dict[tuple[Path, str, str | None], tuple[tuple[object, ...], "Source[Plugin]"]]
_NONE: Mapping[str, Plugin] = MappingProxyType({})


@model
class PluginSet:
    """Every plugin found, in precedence order (disabled ones included, marked), what
    went wrong, and (winner, loser) for every plugin hidden by another. `held` are the
    project's plugins an untrusted project holds back, by name: read (running
    nothing) so that what trusting it would add can be listed, and never among
    `plugins`: no component of theirs loads, nothing of theirs runs.
    `held_diagnostics` is what went wrong reading them (not among `diagnostics`: they
    do not load), `held_shadowed` the (held, loser) pairs of the plugins each would
    hide once the project is trusted."""

    plugins: Mapping[str, Plugin] = field(default_factory=lambda: _NONE)
    diagnostics: tuple[Diagnostic, ...] = ()
    shadowed: tuple[tuple[Plugin, Plugin], ...] = ()
    held: Mapping[str, Plugin] = field(default_factory=lambda: _NONE)
    held_diagnostics: tuple[Diagnostic, ...] = ()
    held_shadowed: tuple[tuple[Plugin, Plugin], ...] = ()

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
    formats: tuple[Format, ...] | None = None,
    claude_installed: bool = True,
    skills_dir: bool = True,
    hold_project: bool = False,
    trusted_layout: Layout | None = None,
    carries: Carries | None = None,
    host_state: HostState | None = None,
    enablement: PluginEnablement | None = None,
    links: PluginLink | None = None,
) -> PluginSet:
    """Discover, read and settle every plugin for `layout` (see the module docstring).
    `skill_rule` None: as ``config.toml`` says (``[load] plugin_skill_rule``), else
    Claude Code's. `formats`: the only plugin formats read (a host's) [None: all].
    `claude_installed`: the plugins Claude Code installed are read too, and with them
    (`skills_dir`) its skills-directory plugins. `host_state`: the plugins that host
    installed in its own home are read too. `hold_project`:
    when not `trust_project`, the plugins trusting the project would add (its plugin
    roots', the workspace plugin, the project-scope ones Claude Code installed, as the
    project's ``config.toml`` sets them) are read into `PluginSet.held`, with what went
    wrong reading them and whom they would shadow, in `trusted_layout`'s order (the
    layout a trusted load reads, whose project rows rank first) [None: `layout`].
    `carries`: the component kinds kept of a plugin of each format (a host's
    `satchel.hosts.Host.carries`; `satchel.plugins._carry.carried`) [None: all].
    `enablement`: the host's own rules that enable or disable a plugin by folder
    (Gemini CLI's ``extension-enablement.json``, `satchel.foundations._host_settings`): a plugin
    they disable in the working directory is listed, disabled. `links`: the install
    record that makes a folder of a plugins root a link to the folder it names (Gemini
    CLI's ``gemini extensions link``; `satchel.plugins._links`), read there instead."""
    asked = _Asked(
        tuple(dirs), include_workspace, strict, executable, ambiguous, format_order,
        skill_rule, formats, claude_installed, skills_dir, carries, host_state,
        enablement or PluginEnablement(), links,
    )  # fmt: skip
    cache: _Cache = {}
    found = _discover(layout, trust_project, asked, cache)
    if trust_project or not hold_project:
        return found
    view = _discover(trusted_layout or layout, True, asked, cache)
    return replace(found, **_held(found, view))


@model
class _Asked:
    """What `load_plugins` was asked to read, beside the layout and the trust."""

    dirs: tuple[str | os.PathLike[str], ...]
    include_workspace: bool
    strict: bool
    executable: bool
    ambiguous: Ambiguity | None
    format_order: tuple[Format, ...] | None
    skill_rule: SkillRule | None
    formats: tuple[Format, ...] | None
    claude_installed: bool
    skills_dir: bool
    carries: Carries | None
    host_state: HostState | None
    enablement: PluginEnablement
    links: PluginLink | None


def _discover(layout: Layout, trusted: bool, asked: _Asked, cache: _Cache) -> PluginSet:
    """Every plugin of `layout`, the project's when `trusted`, settled; `cache` holds
    each directory read, so a second discovery of one load reads none again."""
    config = plugin_config(layout, trust_project=trusted)
    reader = _Reader(
        config.detection(ambiguous=asked.ambiguous, order=asked.format_order, reads=asked.formats),
        asked.skill_rule or config.skill_rule or "claude-code",
        asked.strict,
        asked.executable,
        asked.carries,
        cache,
    )
    sources: list[Source[Plugin]] = [Source(diagnostics=config.diagnostics)]
    sources.extend(_workspace(layout, asked.include_workspace, trusted))
    for root in layout.plugin_dirs():
        if root.scope == PROJECT and not trusted:
            sources.append(_untrusted(root.path, "project plugins here"))
            continue
        problems: list[Diagnostic] = []
        paths = _children(root, problems)
        sources.append(Source(diagnostics=problems))
        sources.extend(_linked(reader, path, root.scope, asked.links) for path in paths)
    if asked.claude_installed:
        sources.extend(_claude_installed(reader, layout, trusted))
        if asked.skills_dir:
            sources.extend(_skills_dir(reader, layout, trusted))
    if asked.host_state is not None:
        sources.extend(_host_installed(reader, layout, asked.host_state, trusted))
    sources.extend(reader.read(Path(layout.cwd, given), EXTRA) for given in asked.dirs)
    settled = settle(
        sources, lost=_lost, keep=_Keeper(config.enabled, layout, asked.enablement).keep
    )
    plugins, problems = _libraries_settled(settled.winners)
    return PluginSet(
        MappingProxyType({p.name: p for p in plugins}),
        (*settled.diagnostics, *problems),
        settled.pairs(),
    )


def _held(found: PluginSet, view: PluginSet) -> dict[str, Any]:
    """What the trusted `view` holds that `found` (the untrusted load) does not: its
    project-scope plugins, what went wrong reading or settling them, and the plugins
    they would shadow (never a user's plugin: the user's load as they are)."""
    held = {n: p for n, p in view.plugins.items() if p.scope == PROJECT}
    seen = set(found.diagnostics)
    return {
        "held": MappingProxyType(held),
        "held_diagnostics": tuple(d for d in view.diagnostics if d not in seen),
        "held_shadowed": tuple(
            (w, lost) for w, lost in view.shadowed if w.scope == PROJECT and w.name in held
        ),
    }


def _workspace(layout: Layout, include: bool, trusted: bool) -> Iterable[Source[Plugin]]:
    """The workspace plugin, first of all (or why it is not read)."""
    if include and trusted:
        workspace, found = load_workspace(layout.project)
        yield Source(() if workspace is None else (workspace,), found)
    elif include:
        for folder in ("skills", "commands"):
            yield _untrusted(layout.project / folder, "the workspace plugin's " + folder)


def _claude_installed(reader: _Reader, layout: Layout, trusted: bool) -> Iterable[Source[Plugin]]:
    """The plugins Claude Code installed, each read from its install directory under
    the name of its record, enabled or disabled as Claude Code's settings say."""
    records, problems = installed_plugins(layout, trust_project=trusted)
    yield Source(diagnostics=problems)
    for record in records:
        found = reader.read(record.root, record.scope, dir_name=record.name)
        plugins = tuple(_as_installed(p, record) for p in found.items)
        said = [_disabled(p, record) for p in plugins if not record.enabled]
        yield Source(plugins, (*found.diagnostics, *said))


def _linked(reader: _Reader, path: Path, scope: str, links: PluginLink | None) -> Source[Plugin]:
    """One folder of a plugins root, read where its link leads (itself when none)."""
    folder, problem = linked_folder(path, links)
    if folder is None:
        return Source(diagnostics=(problem,) if problem is not None else ())
    return reader.read(folder, scope)


def _host_installed(
    reader: _Reader, layout: Layout, state: HostState, trusted: bool
) -> Iterable[Source[Plugin]]:
    """The plugins `state`'s host installed, each read from its version folder (named
    by its manifest, else by that folder, as the host names it), enabled or disabled as
    the host's config file says."""
    config = host_config(layout, state, trust_project=trusted)
    records, problems = host_installed(layout, state, config)
    yield Source(diagnostics=(*config.diagnostics, *problems))
    for record in records:
        found = reader.read(record.root, record.scope)
        plugins = tuple(_as_installed(p, record) for p in found.items)
        said = [_disabled(p, record) for p in plugins if not record.enabled]
        yield Source(plugins, (*found.diagnostics, *said))


def _skills_dir(reader: _Reader, layout: Layout, trusted: bool) -> Iterable[Source[Plugin]]:
    """Claude Code's skills-directory plugins, each under its ``@skills-dir`` id; a
    project one named as a user one is not loaded (Claude Code: the user's wins)."""
    folders, problems = skills_dir_plugins(layout, trust_project=trusted)
    yield Source(diagnostics=problems)
    users: set[str] = set()
    for folder in folders:
        found = reader.read(folder.root, folder.scope)
        plugins = tuple(adopt(p, folder.root) for p in found.items)
        if folder.scope == PROJECT and any(fold_name(p.name) in users for p in plugins):
            message = (
                f"the project's skills-directory plugin at {folder.root} is not loaded: "
                "the user's skills directory has a plugin of that name"
            )
            yield Source(diagnostics=(diagnostic("plugin.shadowed", message, folder.root),))
            continue
        users.update(fold_name(p.name) for p in plugins if folder.scope != PROJECT)
        yield Source(plugins, found.diagnostics)


def _as_installed(plugin: Plugin, record: Installed) -> Plugin:
    switches = dict(record.servers)
    servers = tuple(
        replace(s, enabled=switches[s.name]) if s.name in switches else s
        for s in plugin.mcp_servers
    )
    return replace(
        plugin,
        installed=record.id,
        enabled=plugin.enabled and record.enabled,
        mcp_servers=servers,
    )


def _disabled(plugin: Plugin, record: Installed) -> Diagnostic:
    if record.decided_by is None:
        why = "no Claude Code settings file enables it"
        if not plugin.default_enabled:
            why += " and its manifest's defaultEnabled is false"
    else:
        why = f"it is disabled in {record.decided_by}"
    message = f"plugin {plugin.name!r} ({record.id}) is not enabled: {why}; nothing of it loads"
    return diagnostic("plugin.disabled", message, record.root)


def _untrusted(path: Path, what: str) -> Source[Plugin]:
    if not os.path.isdir(path):
        return Source()
    message = f"{what} are not loaded: the project is not trusted"
    return Source(diagnostics=(diagnostic("discovery.untrusted", message, path),))


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


@model
class _Reader:
    """Reads one plugin directory as one source (what reading it found, then it)."""

    detection: Detection
    skill_rule: SkillRule
    strict: bool
    executable: bool
    carries: Carries | None
    cache: dict[tuple[Path, str, str | None], tuple[tuple[object, ...], Source[Plugin]]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def read(self, path: Path, scope: str, *, dir_name: str | None = None) -> Source[Plugin]:
        """One directory read, once per load: a second reading of the same directory
        the same way (the held view's) is the first one's."""
        key = (path, scope, dir_name)
        if key not in self.cache or self.cache[key][0] != self._how():
            self.cache[key] = (self._how(), self._read(path, scope, dir_name))
        return self.cache[key][1]

    def _how(self) -> tuple[object, ...]:
        return (self.detection, self.skill_rule, self.strict, self.executable, self.carries)

    def _read(self, path: Path, scope: str, dir_name: str | None) -> Source[Plugin]:
        if not os.path.isdir(path):
            return Source()
        plugin, found = read_plugin(
            path,
            scope=scope,
            strict=self.strict,
            executable=self.executable,
            detection=self.detection,
            skill_rule=self.skill_rule,
            dir_name=dir_name,
        )
        if plugin is None:
            return Source((), found)
        plugin, left = carried(plugin, self.carries)
        return Source((plugin,), [*found, *left])


def _lost(clash: Clash[Plugin]) -> Loss:
    """One name at one scope is a collision (not listed as shadowed); a higher scope's
    plugin shadows a lower one's."""
    winner, loser = clash.winner, clash.loser
    if winner.scope == loser.scope:
        message = (
            f"two {loser.scope or 'given'} plugins are named {loser.name!r}: "
            f"{winner.root} is kept, {loser.root} is not loaded"
        )
        return Loss(diagnostic("plugin.name.collision", message, loser.root), shadowed=False)
    message = (
        f"plugin {loser.name!r} at {loser.root} ({loser.scope}) is shadowed by "
        f"{winner.root} ({winner.scope})"
    )
    return Loss(diagnostic("plugin.shadowed", message, loser.root))


class _Keeper:
    """A plugin that won its name still needs a namespace of its own; it is kept as
    ``config.toml`` sets it, with its data directory."""

    def __init__(
        self, settings: Mapping[str, bool], layout: Layout, enablement: PluginEnablement
    ) -> None:
        self.settings = settings
        self.layout = layout
        self.enablement = enablement
        self.by_namespace: dict[str, Plugin] = {}

    def keep(self, plugin: Plugin) -> Verdict[Plugin]:
        rival = self.by_namespace.get(fold_name(plugin.namespace))
        if rival is not None:
            message = (
                f"plugin {plugin.name!r} at {plugin.root} claims the namespace "
                f"{plugin.namespace!r} of {rival.name!r} at {rival.root}; it is not loaded"
            )
            return None, diagnostic("plugin.namespace.collision", message, plugin.root)
        plugin, found = self._configured(plugin)
        plugin = replace(plugin, data_dir=data_dir(self.layout, plugin))
        self.by_namespace[fold_name(plugin.namespace)] = plugin
        return plugin, found

    def _configured(self, plugin: Plugin) -> tuple[Plugin, Diagnostic | None]:
        said = self.settings.get(plugin.name)
        if said is None and not plugin.default_enabled and plugin.installed is None:
            message = (
                f"plugin {plugin.name!r} is disabled by default (its manifest's defaultEnabled "
                f"is false) and config.toml does not enable it; nothing of it loads"
            )
        elif said is None and not self.enablement.enabled(plugin.name, self.layout.cwd):
            where = self.enablement.path.name if self.enablement.path else "the host's settings"
            message = (
                f"plugin {plugin.name!r} is disabled in this folder by {where}; nothing of it loads"
            )
        elif said is None or said:
            return plugin, None
        else:
            message = f"plugin {plugin.name!r} is disabled in config.toml; nothing of it loads"
        return replace(plugin, enabled=False), diagnostic("plugin.disabled", message, plugin.root)


def _libraries_settled(plugins: Sequence[Plugin]) -> tuple[list[Plugin], list[Diagnostic]]:
    """Drop library aliases that more than one enabled plugin declares."""
    live = [p for p in plugins if p.enabled]
    kept, problems = drop_colliding([lib for p in live for lib in p.libraries])
    survivors = {id(lib) for lib in kept}
    settled = [
        replace(p, libraries=tuple(lib for lib in p.libraries if id(lib) in survivors))
        if p.enabled
        else p
        for p in plugins
    ]
    return settled, list(problems)
