"""`load_hooks`: every hook source, in declared order, into one `HookSet`.

Sources, in the order their hooks are declared (which is the order results
aggregate in):

1. satchel's own ``hooks.toml``: the project's ``{project}/.<client>/hooks.toml``,
   then the user's ``{config}/<client>/hooks.toml`` (`own_files`);
2. Claude Code's ``settings.json`` hooks, opt-in (`claude_settings`): the project's
   ``.claude/settings.json`` and ``.claude/settings.local.json``, then the user's
   ``~/.claude/settings.json``;
3. a host's own hook files, when its profile names them (`state`, a
   `satchel.foundations._host_state.HostState`: Codex's ``hooks.json`` and ``[hooks]`` of
   ``config.toml`` in ``~/.codex``, then in each project ``.codex`` folder Codex
   trusts; `satchel.hooks._host_hooks`);
4. each enabled plugin's hooks, in plugin precedence order.

Under such a host, a hook it would not run is skipped here too: one it never trusted
or that changed since it was trusted (its ``[hooks.state]`` hash) is reported with
``hook.host.untrusted`` (the host skips it without a word), one its state disables
is skipped with why.

Every hook is kept and marked: ``loaded``, or ``skipped`` with why (its project is
not trusted, the client is declarative-only, its matcher or ``if`` rule cannot be
used). An event no host table knows is kept under its own name and reported. Reading
runs nothing. The settings files' ``allowedHttpHookUrls`` (an untrusted project's
excepted) become `HookSet.http_urls`, their ``httpHookAllowedEnvVars``
`HookSet.http_env_vars`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal, Protocol

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, Layout
from satchel.foundations._host_state import HostState, host_config
from satchel.foundations.origin import Origin, Trust
from satchel.foundations.permissions import Rule, parse_rule
from satchel.hooks._events import CONDITION_EVENTS, MATCH_FIELD, canonical
from satchel.hooks._files import (
    read_hooks_toml,
    read_settings_hooks,
    settings_http_env_vars,
    settings_http_urls,
)
from satchel.hooks._host_hooks import HostHook, host_hook_files, host_hooks, plugin_hook_file
from satchel.hooks._matchers import ALL, compile_matcher
from satchel.hooks._model import LOCAL_SETTINGS, Hook, HookSet
from satchel.hooks._parse import claude_hooks
from satchel.hooks._spec import HookSpec

__all__ = ["compile_hooks", "host_verdicts", "load_hooks"]

UNTRUSTED = "the project is not trusted"
TRUSTED = Trust("trusted", folder=True)  # a host's or a test's own answer: everything runs
DECLARATIVE = "declarative-only loading runs no hook"


@model
class _Source:
    """Where hooks are declared (`origin`), whether they are the project's own (a
    project file or plugin: they need its trust), and a plugin's data directory."""

    origin: Origin
    project: bool
    data_dir: Path | None = None
    owner: str | None = None


class HookSource(Protocol):
    """What the hook loader reads of a plugin (a `satchel.plugins.Plugin` is one)."""

    @property
    def name(self) -> str: ...
    @property
    def scope(self) -> str: ...
    @property
    def root(self) -> Path: ...
    @property
    def data_dir(self) -> Path | None: ...
    @property
    def hooks(self) -> tuple[HookSpec, ...]: ...


def load_hooks(
    layout: Layout,
    plugins: Sequence[HookSource] = (),
    *,
    trust: Trust = TRUSTED,
    executable: bool = True,
    own_files: bool = True,
    claude_settings: bool = False,
    state: HostState | None = None,
) -> HookSet:
    """Every hook for `layout` and the enabled `plugins` (see the module docstring).
    `trust` says which may run (`Trust.runs`): a project's hook where the project does
    not run is listed and skipped. `state`: the host's own hook files are read too,
    and its trust in each hook decides as well."""
    found: list[tuple[HookSpec, _Source]] = []
    diags: list[Diagnostic] = []
    urls: list[str] = []
    env_vars: list[str] | None = None  # None: no settings file restricts them
    for path, source in _files(layout, own_files, claude_settings):
        reader = read_hooks_toml if path.suffix == ".toml" else read_settings_hooks
        specs, problems = reader(path)
        found += [(spec, source) for spec in specs]
        diags += problems
        if path.suffix == ".json" and trust.runs(source.project):
            allowed, problems = settings_http_urls(path)
            names, more = settings_http_env_vars(path)
            urls += allowed
            if names is not None:
                env_vars = [*(env_vars or []), *names]
            diags += [*problems, *more]
    host = _HostPart.read(layout, plugins, state, trust)
    found += host.found
    diags += host.diagnostics
    for plugin in plugins:
        origin = Origin("plugin", plugin.name, plugin=plugin.name, path=plugin.root)
        source = _Source(origin, plugin.scope == PROJECT, plugin.data_dir)
        found += [(spec, source) for spec in plugin.hooks]
    hooks = [host.judged(_hook(spec, source, trust, executable, diags)) for spec, source in found]
    diags += host.untrusted(hooks)
    diags += _untrusted_note(hooks)
    names = None if env_vars is None else tuple(env_vars)
    return HookSet(tuple(hooks), tuple(diags), tuple(urls), names)


def compile_hooks(
    specs: Iterable[HookSpec],
    origin: Origin,
    *,
    project: bool,
    trust: Trust = TRUSTED,
    executable: bool = True,
    data_dir: Path | None = None,
    owner: str | None = None,
) -> HookSet:
    """`specs` read from one more source (a skill's or agent type's ``hooks``
    frontmatter, its `owner`: ``skill:<name>``, ``agent:<name>``) as hooks the runner
    can run, marked and reported as `load_hooks` marks its own."""
    diags: list[Diagnostic] = []
    source = _Source(origin, project, data_dir, owner)
    hooks = [_hook(spec, source, trust, executable, diags) for spec in specs]
    diags += _untrusted_note(hooks)
    return HookSet(tuple(hooks), tuple(diags))


def host_verdicts(
    layout: Layout, plugins: Sequence[HookSource], state: HostState
) -> tuple[HostHook, ...]:
    """Every command hook the host of `state` reads for `layout` (its own files and
    those of the `plugins` it installed), with its trust and whether its state leaves
    it enabled, as `load_hooks` judges them under that host."""
    return tuple(_HostPart.read(layout, plugins, state, TRUSTED).verdicts.values())


class _HostPart:
    """A host's own hook files (`load_hooks`'s `state`) and its trust in each hook."""

    def __init__(self, state: HostState | None, config_path: Path | None) -> None:
        self.state = state
        self.config_path = config_path
        self.found: list[tuple[HookSpec, _Source]] = []
        self.diagnostics: list[Diagnostic] = []
        self.verdicts: dict[tuple[Path, str, str | None, str], HostHook] = {}
        self.files: set[Path] = set()

    @classmethod
    def read(
        cls,
        layout: Layout,
        plugins: Sequence[HookSource],
        state: HostState | None,
        trust: Trust,
    ) -> _HostPart:
        if state is None or state.hook_state is None:
            return cls(None, None)
        part = cls(state, state.config_path(layout))
        config = host_config(layout, state, trust_project=trust.load_project)
        for source in host_hook_files(config, state):
            scope: Literal["project", "user"] = "project" if source.project else "user"
            family = source.path.parent.name
            where = _Source(Origin(scope, family, path=source.path), source.project)
            specs, problems = claude_hooks(source.document, source.path, "")
            part.found += [(replace(spec, plugin=None), where) for spec in specs]
            part.files.add(source.path)
            part.diagnostics += problems
        cache = Path(os.path.realpath(state.home_dir(layout) / (state.plugin_cache or "")))
        extra = [
            found
            for plugin in plugins
            if isinstance(installed := getattr(plugin, "installed", None), str)
            and state.plugin_cache is not None
            and Path(os.path.realpath(plugin.root)).is_relative_to(cache)  # this host's install
            for path in dict.fromkeys(s.path for s in plugin.hooks if s.path is not None)
            if (found := plugin_hook_file(installed, plugin.root, path)) is not None
        ]
        for hook in host_hooks(state, config, tuple(extra)):
            part.verdicts[(hook.path, hook.event, hook.matcher, hook.command)] = hook
        return part

    def _verdict(self, hook: Hook) -> HostHook | None:
        spec = hook.spec
        if self.state is None or spec.path is None:
            return None
        matcher = spec.matcher.strip() if spec.matcher and spec.matcher.strip() else None
        if spec.event in self.state.hook_unmatched:
            matcher = None
        return self.verdicts.get((spec.path, spec.event, matcher, spec.command))

    def judged(self, hook: Hook) -> Hook:
        """`hook`, skipped when the host would not run it."""
        if self.state is None or not hook.loaded:
            return hook
        title = self.state.title
        if hook.spec.path in self.files and hook.spec.type in self.state.hook_skipped_types:
            why = f"{title} does not run {hook.spec.type} hooks"
            return replace(hook, status="skipped", why=why)
        found = self._verdict(hook)
        if found is None or found.runs:
            return hook
        if not found.enabled:
            why = f"{title} disables it ([hooks.state] enabled = false for {found.key})"
        elif found.status == "untrusted":
            why = f"{title} has never trusted it"
        else:
            why = f"{title} trusted an earlier version of it"
        return replace(hook, status="skipped", why=why)

    def untrusted(self, hooks: Sequence[Hook]) -> list[Diagnostic]:
        """One ``hook.host.untrusted`` per hook the host skips for want of trust."""
        found: list[Diagnostic] = []
        for hook in hooks:
            verdict = self._verdict(hook)
            if verdict is None or not verdict.enabled or verdict.status == "trusted":
                continue
            assert self.state is not None
            if verdict.status == "untrusted":
                why = f"it has never been trusted (no trusted_hash for {verdict.key!r}"
            else:
                why = (
                    f"it changed since it was trusted (the trusted_hash for {verdict.key!r} "
                    f"is not its {verdict.current}"
                )
            message = (
                f"{self.state.title} skips the {verdict.event} hook {verdict.command!r} of "
                f"{verdict.path} without a word: {why} in {self.config_path})"
            )
            hint = f"review and trust it in {self.state.title} (/hooks)"
            found.append(diagnostic("hook.host.untrusted", message, verdict.path, hint=hint))
        return found


def _files(
    layout: Layout, own_files: bool, claude_settings: bool
) -> Iterable[tuple[Path, _Source]]:
    client = layout.client
    if own_files:
        yield _file(layout.project / f".{client}" / "hooks.toml", "project", f".{client}")
        yield _file(layout.config_home / client / "hooks.toml", "user", f".{client}")
    if claude_settings:
        claude = layout.project / ".claude"
        yield _file(claude / "settings.json", "project", ".claude")
        yield _file(claude / LOCAL_SETTINGS, "project", ".claude")
        yield _file(layout.home / ".claude" / "settings.json", "user", ".claude")


def _file(path: Path, scope: Literal["project", "user"], family: str) -> tuple[Path, _Source]:
    return path, _Source(Origin(scope, family, path=path), scope == "project")


def _hook(
    spec: HookSpec, source: _Source, trust: Trust, executable: bool, diags: list[Diagnostic]
) -> Hook:
    dialect = spec.format
    event = canonical(spec.event, dialect)
    known = event is not None
    if event is None:
        event = spec.event
        message = f"hook {_label(spec)}: event {spec.event!r} is not one satchel knows"
        hint = "it is kept and fires only when a host dispatches that name"
        diags.append(diagnostic("hook.event.unknown", message, spec.path, hint=hint))
    hook = Hook(spec, event, source.origin, ALL, None, source.data_dir, owner=source.owner)
    # a matcher counts on an event that has a matcher field, or on one no table knows
    compiled = _compile(hook, dialect, event in MATCH_FIELD or not known, diags)
    why: str | None = compiled if isinstance(compiled, str) else None
    hook = compiled if isinstance(compiled, Hook) else hook
    if why is None and not trust.runs(source.project):
        why = UNTRUSTED
    if why is None and not executable:
        why = DECLARATIVE
    return hook if why is None else replace(hook, status="skipped", why=why)


def _compile(hook: Hook, dialect: str, matched: bool, diags: list[Diagnostic]) -> Hook | str:
    """`hook` with its matcher and ``if`` rule compiled, or why they cannot be used
    (reported)."""
    spec = hook.spec
    try:
        matcher = compile_matcher(spec.matcher, dialect) if matched else ALL
    except ValueError as e:
        diags.append(diagnostic("hook.matcher.invalid", f"hook {_label(spec)}: {e}", spec.path))
        return f"invalid matcher: {e}"
    condition: Rule | None = None
    if spec.condition is not None and hook.event in CONDITION_EVENTS:
        try:
            condition = parse_rule(spec.condition)
        except ValueError as e:
            message = f"hook {_label(spec)}: {e}; the hook is skipped"
            diags.append(diagnostic("permission.rule.invalid", message, spec.path))
            return f"invalid if rule: {e}"
    return replace(hook, matcher=matcher, condition=condition)


def _untrusted_note(hooks: Sequence[Hook]) -> list[Diagnostic]:
    held = [h for h in hooks if h.why == UNTRUSTED]
    if not held:
        return []
    files = sorted({str(h.spec.path) for h in held if h.spec.path is not None})
    message = f"{len(held)} project hook(s) do not run: the project is not trusted"
    where = Path(files[0]) if files else None
    return [diagnostic("hook.untrusted", message, where, hint="satchel trust DIR")]


def _label(spec: HookSpec) -> str:
    return repr(spec.name or spec.command)
