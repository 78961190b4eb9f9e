"""Hooks a host will not run, or will run twice, though its files register them.

* ``hosts.hook.untrusted``: a hook a host that keeps its own trust in hooks (Codex's
  ``[hooks.state."<key>"] trusted_hash``, `HostState.hook_trusted`) never trusted, or
  that changed since: the host skips it without a word. The load says so too
  (``hook.host.untrusted``); the base check leaves that diagnostic to this one, which
  names the file as the report writes it, the hook's key as the host writes it (the
  report leaves it as it is: `HostFinding.verbatim`) and says how the host trusts a
  hook (`HostState.hook_trust`).
* ``hosts.hook.disabled``: every hook of a host turned off by a setting (a
  `HookSwitch` of its dialect: Claude Code's ``disableAllHooks``), or one hook a
  setting lists (a `HookOffList`: Gemini CLI's ``hooksConfig.disabled``) or its own
  state disables (Codex's ``[hooks.state."<key>"] enabled = false``).
* ``hosts.hook.twice`` / ``hosts.hook.duplicate``: one hook (same event, matcher and
  command; the matcher left out where the host leaves it out, `HookDialect.same_key`)
  that two files register: the host runs it more than once (a warning: how many
  times, and which files count once) or only once (worth knowing, and which file's
  copy runs), as its `HookDialect.same_hook` says.

Each host's rules are its profile's data; nothing here names a host. Reading only:
the settings files are read bounded, nothing is run or written.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from satchel.core._files import FileProblem, read_bounded
from satchel.foundations._host_files import expand, read_state
from satchel.foundations._host_state import dotted, host_config
from satchel.reports.checkup._finding import HostFinding
from satchel.reports.checkup._machine import HostView, Machine

if TYPE_CHECKING:
    from satchel.hooks import Hook
    from satchel.hooks._host_hooks import HostHook
    from satchel.hosts._hooks import HookOffList, HookSwitch

__all__ = ["RECAST", "hook_findings", "listed"]

RECAST = frozenset({"hook.host.untrusted"})
"""The load diagnostics this check tells in its own words (the base check skips them)."""
MAX_SETTINGS = 1024 * 1024


def hook_findings(machine: Machine) -> Iterator[HostFinding]:
    """Per host: its hooks switched off, untrusted, disabled or registered twice."""
    for view in machine.views:
        off = list(_switched_off(machine, view))
        yield from off
        if off:
            continue  # the host runs no hook at all: nothing more to say of each
        yield from _listed_off(machine, view)
        yield from _untrusted(machine, view)
        yield from _twice(machine, view)


# --- every hook switched off by a setting ----------------------------------------------


def _switched_off(machine: Machine, view: HostView) -> Iterator[HostFinding]:
    # the hooks the host keeps its own verdict on and would not run anyway (untrusted,
    # disabled) count too: with the switch off, trusting them changes nothing
    count = len(view.env.hooks.loaded()) + len(_held(view))
    if not count:
        return
    for switch in view.host.hooks.switches:
        # the files are weakest first: the last that sets the key decides
        set_in = [
            (path, value)
            for path, document in _switch_files(view, switch)
            if (value := dotted(document, switch.key)) is not None
        ]
        if set_in and set_in[-1][1] is switch.off:
            yield _off(machine, view, switch, set_in[-1][0], count)


def _off(
    machine: Machine, view: HostView, switch: HookSwitch, path: Path, count: int
) -> HostFinding:
    title, where = view.host.title, machine.shown(path)
    value = "true" if switch.off else "false"  # JSON and TOML spell them alike
    message = (
        f"{title} runs none of its hooks: {switch.key} is {value} in {where} "
        f"({_hooks(count)} its files register)"
    )
    fix = f"remove {switch.key} from {where} if {title} should run its hooks"
    return HostFinding.new(view.name, "hosts.hook.disabled", message, fix, path)


def _listed_off(machine: Machine, view: HostView) -> Iterator[HostFinding]:
    """Each loaded hook that a list of hooks the host does not run names."""
    title = view.host.title
    for listing in view.host.hooks.off_lists:
        named: dict[str, Path] = {}
        for path, document in _switch_files(view, listing):
            items = dotted(document, listing.key)
            for item in items if isinstance(items, list) else []:
                if isinstance(item, str):
                    named.setdefault(item, path)
        for hook in view.env.hooks.loaded():
            name = hook.spec.name or hook.spec.command
            if name not in named or hook.spec.path is None:
                continue
            where = machine.shown(named[name])
            message = (
                f"{title} does not run the {hook.spec.event} hook {hook.spec.command!r} of "
                f"{machine.shown(hook.spec.path)}: {listing.key} in {where} names it"
            )
            fix = f"take {name!r} out of {listing.key} in {where} if it should run"
            yield HostFinding.new(view.name, "hosts.hook.disabled", message, fix, hook.spec.path)


def _switch_files(
    view: HostView, switch: HookSwitch | HookOffList
) -> list[tuple[Path, Mapping[str, Any]]]:
    """The files of `switch` that exist, weakest first, with their settings; a
    project's only where the host reads it."""
    layout = view.env.layout
    state = view.host.state
    config = None if state is None else host_config(layout, state, trust_project=True)
    if switch.in_config:
        return [] if config is None else list(config.layers())
    unread = set() if config is None else set(config.untrusted)
    # a working folder outside the project is outside the roots read: the project's
    cwd = layout.cwd if layout.cwd.is_relative_to(layout.project) else layout.project
    values = {**layout.values(), "cwd": str(cwd)}
    found = []
    for template in switch.files:
        path = Path(expand(template, values))
        if path not in unread and os.path.isfile(path):
            found.append(path)
    return [(path, _document(path)) for path in dict.fromkeys(found)]


def _document(path: Path) -> Mapping[str, Any]:
    """The settings in `path` ({} when it cannot be read: the load reports why)."""
    if path.suffix != ".toml":
        return read_state(path, MAX_SETTINGS)[0]
    from satchel.core import _toml

    try:
        data = _toml.loads(read_bounded(path, MAX_SETTINGS).decode("utf-8"))
    except (FileProblem, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, Mapping) else {}


def _hooks(count: int) -> str:
    return "1 hook" if count == 1 else f"{count} hooks"


# --- hooks the host does not trust, or its state disables ---------------------------------


def _held(view: HostView) -> list[HostHook]:
    """The hooks the host's own state keeps from running: disabled or not trusted."""
    state = view.host.state
    if state is None or state.hook_state is None:
        return []
    from satchel.hooks._load import host_verdicts

    env = view.env
    found = host_verdicts(env.layout, env.plugins.enabled(), state)
    return [h for h in found if not h.enabled or h.status != "trusted"]


def _untrusted(machine: Machine, view: HostView) -> Iterator[HostFinding]:
    state = view.host.state
    if state is None:
        return
    config = machine.shown(state.config_path(view.env.layout))
    for hook in _held(view):
        if not hook.enabled:
            yield _disabled(machine, view, hook, config)
        else:
            yield _distrusted(machine, view, hook, config)


def _disabled(machine: Machine, view: HostView, hook: HostHook, config: str) -> HostFinding:
    state = view.host.state
    assert state is not None
    title, where, off = view.host.title, machine.shown(hook.path), f"{state.hook_enabled} = false"
    message = (
        f"{title} does not run the {hook.event} hook {hook.command!r} of {where}: "
        f"its state in {config} disables it ({off} for {hook.key!r})"
    )
    fix = f"remove {off} for {hook.key!r} from {config} if it should run"
    return HostFinding.new(
        view.name, "hosts.hook.disabled", message, fix, hook.path, verbatim=(hook.key,)
    )


def _distrusted(machine: Machine, view: HostView, hook: HostHook, config: str) -> HostFinding:
    state = view.host.state
    assert state is not None
    title, where, trusted = view.host.title, machine.shown(hook.path), state.hook_trusted
    if hook.status == "untrusted":
        why = f"{title} has never trusted it (no {trusted} for {hook.key!r} in {config})"
    else:
        why = (
            f"it changed since {title} trusted it (the {trusted} for {hook.key!r} in "
            f"{config} is not its {hook.current})"
        )
    message = (
        f"{title} skips the {hook.event} hook {hook.command!r} of {where} without a word: {why}"
    )
    fix = state.hook_trust or f"trust it in {title}"
    return HostFinding.new(
        view.name, "hosts.hook.untrusted", message, fix, hook.path, verbatim=(hook.key,)
    )


# --- one hook registered by two files ------------------------------------------------------


def _twice(machine: Machine, view: HostView) -> Iterator[HostFinding]:
    groups: dict[tuple[str, str | None, str], list[Hook]] = {}
    by_matcher = "matcher" in view.host.hooks.same_key
    for hook in view.env.hooks.loaded():
        spec = hook.spec
        if spec.type != "command" or spec.path is None or hook.owner is not None:
            continue
        matcher = spec.matcher.strip() if spec.matcher and spec.matcher.strip() else None
        matcher = matcher if by_matcher else None  # the host counts it as one hook
        groups.setdefault((spec.event, matcher, spec.command), []).append(hook)
    for (event, matcher, command), hooks in groups.items():
        files = list(dict.fromkeys(_source(machine, h) for h in hooks))
        if len(files) > 1:
            yield _same(machine, view, (event, matcher, command), files, hooks)


def _same(
    machine: Machine,
    view: HostView,
    key: tuple[str, str | None, str],
    files: Sequence[str],
    hooks: Sequence[Hook],
) -> HostFinding:
    event, matcher, command = key
    title = view.host.title
    what = f"the {event}{f' [{matcher}]' if matcher else ''} hook {command!r}"
    runs = _runs(view, machine, hooks)
    path = hooks[0].spec.path
    fix = f"keep it in one file: remove it from {listed(files[1:])}"
    if len(runs) == 1:
        message = (
            f"{title} runs {what} once, though {listed(files)} each register it: "
            f"it runs the one of {files[0]}"
        )
        return HostFinding.new(view.name, "hosts.hook.duplicate", message, fix, path)
    merged = [listed(unit) for unit in runs if len(unit) > 1]
    once = f" ({'; '.join(merged)} count once: it runs one copy of those)" if merged else ""
    message = f"{title} runs {what} {len(runs)} times: {listed(files)} each register it{once}"
    return HostFinding.new(view.name, "hosts.hook.twice", message, fix, path)


def _runs(view: HostView, machine: Machine, hooks: Sequence[Hook]) -> list[list[str]]:
    """The copies the host runs, each as the files whose registrations it merges into
    it (`HookDialect.same_hook`; copies of different names are different hooks where
    `HookDialect.same_key` holds ``name``), in declared order."""
    rule, key = view.host.hooks.same_hook, view.host.hooks.same_key
    units: dict[object, list[str]] = {}
    for n, hook in enumerate(hooks):
        name = (hook.spec.name or "") if "name" in key else None
        unit: object = n if rule == "each" else name
        if rule == "per-plugin" and hook.origin.plugin is not None:
            unit = ("plugin", hook.origin.plugin, name)
        where = _source(machine, hook)
        files = units.setdefault(unit, [])
        if where not in files:
            files.append(where)
    return list(units.values())


def _source(machine: Machine, hook: Hook) -> str:
    assert hook.spec.path is not None
    where = machine.shown(hook.spec.path)
    plugin = hook.origin.plugin
    return where if plugin is None else f"plugin {plugin!r} ({where})"


def listed(items: Sequence[str]) -> str:
    """`items` as words: ``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 3:
        return " and ".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"
