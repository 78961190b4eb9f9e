"""`load_hooks`: every hook source, in declared order, into one `HookSet`.

Sources, in the order their hooks are declared (which is the order results
aggregate in):

1. satchel's own ``hooks.toml``: the project's ``{project}/.<client>/hooks.toml``,
   then the user's ``{config}/<client>/hooks.toml`` (`own_files`);
2. Claude Code's ``settings.json`` hooks, opt-in (`claude_settings`): the project's
   ``.claude/settings.json`` and ``.claude/settings.local.json``, then the user's
   ``~/.claude/settings.json``;
3. each enabled plugin's hooks, in plugin precedence order.

Every hook is kept and marked: ``loaded``, or ``skipped`` with why (its project is
not trusted, the client is declarative-only, its matcher or ``if`` rule cannot be
used). An event no host table knows is kept under its own name and reported. Reading
runs nothing. The settings files' ``allowedHttpHookUrls`` (an untrusted project's
excepted) become `HookSet.http_urls`, their ``httpHookAllowedEnvVars``
`HookSet.http_env_vars`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal, Protocol

from satchel._model import model
from satchel.diagnostics import Diagnostic, diagnostic
from satchel.hooks._events import CONDITION_EVENTS, MATCH_FIELD, canonical
from satchel.hooks._files import (
    read_hooks_toml,
    read_settings_hooks,
    settings_http_env_vars,
    settings_http_urls,
)
from satchel.hooks._matchers import ALL, compile_matcher
from satchel.hooks._model import LOCAL_SETTINGS, Hook, HookSet
from satchel.hooks._spec import HookSpec
from satchel.layout import PROJECT, Layout
from satchel.origin import Origin, Trust
from satchel.permissions import Rule, parse_rule

__all__ = ["compile_hooks", "load_hooks"]

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
) -> HookSet:
    """Every hook for `layout` and the enabled `plugins` (see the module docstring).
    `trust` says which may run (`Trust.runs`): a project's hook where the project does
    not run is listed and skipped."""
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
    for plugin in plugins:
        origin = Origin("plugin", plugin.name, plugin=plugin.name, path=plugin.root)
        source = _Source(origin, plugin.scope == PROJECT, plugin.data_dir)
        found += [(spec, source) for spec in plugin.hooks]
    hooks = [_hook(spec, source, trust, executable, diags) for spec, source in found]
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
