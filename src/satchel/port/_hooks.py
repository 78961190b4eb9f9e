"""Hooks as each target writes them, from the source's `HookSpec` values, by the
target host's `satchel.hosts.PortHooks`.

* Claude Code, Codex and Gemini CLI: the three-level event map (``{event: [{matcher,
  hooks: [{type: "command", command, timeout}]}]}``), each in its host's event names.
  Only a full dialect (Claude Code's) has the exec form (``args``), ``if``, and the
  handler fields satchel keeps in `HookSpec.extras` (``async``, ``shell``...).
  Elsewhere ``args`` are joined into the shell command (quoted), and a hook with an
  ``if`` condition or Claude-only fields is not written (it would run where the
  source's does not). A dialect may take timeouts in milliseconds and keep the
  handler's description (Gemini CLI), and rename Claude Code's tools in a matcher.
* Kimi Code: its flat list, ``{event, matcher, command, timeout}``, timeout 1-600 s,
  the matcher in its tool names.
* Mistral Vibe: ``[[hooks]]`` tables in ``ai.mistral.vibe/hooks.toml`` (``name``,
  ``type``, ``match``, ``command``, ``timeout``, ``description``), names unique, the
  match in its tool names and its glob syntax (`satchel.port._globs`).
An event the target's host does not fire is dropped (``port.hook.event``).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Iterator
from functools import partial
from typing import Any

from satchel.core._json import loads
from satchel.hooks._events import TOOL_EVENTS, canonical
from satchel.hooks._spec import HookSpec
from satchel.plugins._model import Plugin
from satchel.port._answers import SHAPES, answers_unread
from satchel.port._globs import from_glob, to_glob
from satchel.port._plan import Plan
from satchel.port._targets import Target, hook_key, source_hooks, source_words, target_event
from satchel.port._text import LARGEST, placeholders, project_dir, respelled, toml_table
from satchel.port._tools import Translated, translate

__all__ = ["as_written", "cursor_hooks", "event_map", "kimi_hooks", "vibe_hooks"]


def _events(plan: Plan, hooks: tuple[HookSpec, ...]) -> Iterator[tuple[HookSpec, str]]:
    """Each hook with its event in the target's spelling, its matcher in the target's
    tool names (`matchers`); the others dropped, each with the rule it breaks."""
    title = plan.target.title
    for hook in hooks:
        event = target_event(hook, plan.target)
        if event is None:
            message = f"{title} fires no {hook.event} event; the hook is not written"
            plan.drop("hook", hook_key(hook), "port.hook.event", message, hook.path)
            continue
        if hook.type not in plan.target.hooks.handlers:
            runs = ", ".join(plan.target.hooks.handlers)
            message = (
                f"{hook.event} hook: {title} runs no {hook.type} handler (only {runs}); "
                "the hook is not written"
            )
            plan.drop("hook", hook_key(hook), "port.hook.handler", message, hook.path)
            continue
        if _unset(plan, hook) or _untimed(plan, hook) or not _matched(plan, hook):
            continue
        _answers(plan, hook)
        yield hook, event


def _answers(plan: Plan, hook: HookSpec) -> None:
    """Say when the hook's script answers in a shape the target does not read."""
    reads = plan.target.hooks.answers
    found = answers_unread(plan.plugin.root, hook, reads)
    if found is None or reads is None:
        return
    rel, shape = found
    there = " or ".join(SHAPES[k][1] for k in SHAPES if k in reads) or "no answer"
    message = (
        f"{hook.event} hook: {rel} answers with {SHAPES[shape][1]}, which "
        f"{plan.target.title} does not read (it runs the call); {there} refuses there"
    )
    plan.drop("hook", hook_key(hook), "port.hook.answer", message, hook.path)


def _unset(plan: Plan, hook: HookSpec) -> bool:
    """Whether the command names a project variable the target never sets (dropped)."""
    _, missing = project_dir(hook.command, _project(plan, hook), _project_of(plan))
    if missing is None:
        return False
    message = (
        f"{hook.event} hook: its command reads ${missing}, which {plan.target.title} does "
        "not set for a hook; the hook is not written"
    )
    plan.drop("hook", hook_key(hook), "port.hook.variable", message, hook.path)
    return True


def _untimed(plan: Plan, hook: HookSpec) -> bool:
    """Whether the hook's timeout cannot be written in the target's units (dropped):
    beyond `LARGEST`, the largest whole number every host's reader holds exactly."""
    if hook.timeout is None:
        return False
    milliseconds = plan.target.hooks.milliseconds
    value = hook.timeout * (1000 if milliseconds else 1)
    if math.isfinite(value) and value <= LARGEST:
        return False
    message = (
        f"{hook.event} hook: its timeout of {hook.timeout:g} s cannot be written in "
        f"{plan.target.title}'s {_unit(milliseconds)} (at most {LARGEST}); the hook is not "
        "written"
    )
    plan.drop("hook", hook_key(hook), "port.hook.field", message, hook.path)
    return True


def _project(plan: Plan, hook: HookSpec) -> tuple[str, ...]:
    """The project variables the hook's own host sets."""
    source = source_hooks(hook.format)
    return () if source is None else source[1]


def _project_of(plan: Plan) -> tuple[str, ...]:
    return plan.target.profile.hooks.variables.project


def _matched(plan: Plan, hook: HookSpec) -> bool:
    """Whether the hook's matcher has a translation for the target (the matcher is
    `_translated`); a name left out is said."""
    done = _translated(plan, hook)
    title = plan.target.title
    if done.unsure is not None:
        message = (
            f"{hook.event} hook: its matcher {hook.matcher!r} is not translated for "
            f"{title}: {done.unsure}; the hook is not written"
        )
        plan.drop("hook", hook_key(hook), "port.hook.matcher", message, hook.path)
        return False
    if not done.missing:
        return True
    names = ", ".join(done.missing)
    if done.whole:
        message = (
            f"{hook.event} hook: its matcher {hook.matcher!r} names {names}, a tool "
            f"{title} fires no hook for; the hook is not written"
        )
        plan.drop("hook", hook_key(hook), "port.hook.matcher", message, hook.path)
        return False
    message = (
        f"{hook.event} hook: {title} fires no hook for {names}; the matcher is written "
        f"as {done.matcher!r}"
    )
    plan.drop("hook", hook_key(hook), "port.hook.tool", message, hook.path)
    return True


def _translated(plan: Plan, hook: HookSpec) -> Translated:
    return translated_matcher(plan.plugin, hook, plan.target)


def translated_matcher(plugin: Plugin, hook: HookSpec, target: Target) -> Translated:
    """`hook`'s matcher in `target`'s tool names (a matcher on another event than a
    tool's, or of a host whose tools are not known, as written). The names are those
    of the host whose plugin it is: a Codex plugin's hooks are in Claude Code's
    dialect, and name tools as Codex does (its plugin's own MCP servers too); a
    glob-matching host's (Vibe's) matcher is read as its glob first."""
    source = source_hooks(plugin.format) or source_hooks(hook.format)
    if source is None or canonical(hook.event, hook.format) not in TOOL_EVENTS:
        return Translated(hook.matcher, (), False)
    matcher = hook.matcher
    if source[0].globs:
        try:
            matcher = from_glob(matcher)
        except ValueError as e:
            return Translated(None, (), True, str(e))
    servers = tuple(s.name for s in plugin.mcp_servers)
    return translate(matcher, source[0], target.hooks, servers, plugin.name)


def _spelled(plan: Plan, hook: HookSpec, text: str) -> str:
    """`text` with the plugin-root, plugin-data and project variables as the target
    spells them."""
    text, _ = project_dir(text, _project(plan, hook), _project_of(plan))
    return placeholders(text, plan.target.hook_spelling, plan.target.data)


def as_written(plan: Plan, hook: HookSpec, rel: str) -> None:
    """Say what breaks where the target runs the source's `hook` from `rel` as written
    (port does not rewrite the source's file, whose host runs it too): a plugin-root or
    project variable the target does not set (``port.hook.variable``), a timeout the
    target reads in other units (``port.hook.field``)."""
    title = plan.target.title
    words = [hook.command, *(hook.args or ())]
    found = next((v for v in map(partial(_unset_word, plan, hook), words) if v), None)
    if found is not None:
        message = (
            f"{hook.event} hook: {title} runs it from {rel} as written, where {found} "
            "is not set; port does not rewrite the source's file"
        )
        plan.drop("hook", hook_key(hook), "port.hook.variable", message, hook.path)
    source = source_hooks(hook.format)
    if hook.timeout is None or source is None:
        return
    theirs = plan.target.hooks.milliseconds
    if source[0].milliseconds == theirs or not _timed(plan, hook, rel, source[0].milliseconds):
        return
    message = (
        f"{hook.event} hook: {title} runs it from {rel} as written and counts a timeout "
        f"in {_unit(theirs)}, so it does not wait the {hook.timeout:g} s the source's "
        "host does; port does not rewrite the source's file"
    )
    plan.drop("hook", hook_key(hook), "port.hook.field", message, hook.path)


def _timed(plan: Plan, hook: HookSpec, rel: str, milliseconds: bool) -> bool:
    """Whether `rel` writes the hook's timeout (a default the source's host gives a
    hook without one is not in the file: each host then takes its own)."""
    raw = (hook.timeout or 0) * (1000 if milliseconds else 1)
    try:
        groups = loads((plan.plugin.root / rel).read_bytes())["hooks"][hook.event]
        handlers = [h for g in groups for h in g["hooks"]]
    except (OSError, ValueError, LookupError, TypeError, AttributeError):
        return True
    return any(isinstance(h, dict) and h.get("timeout") == raw for h in handlers)


def _unset_word(plan: Plan, hook: HookSpec, text: str) -> str | None:
    """The first variable of `text` the target does not set, as the source's file
    spells it."""
    found = respelled(
        text, plan.target.hook_spelling, plan.target.data, _project(plan, hook), _project_of(plan)
    )
    if found is None:
        return None
    return next((k for k, v in source_words(hook.format).items() if v == found), found)


def _unit(milliseconds: bool) -> str:
    return "milliseconds" if milliseconds else "seconds"


def _no_room(plan: Plan, hook: HookSpec, *, args: bool = True) -> bool:
    """Whether the hook needs a field only Claude Code has (dropped when it does)."""
    fields = [*(["if"] if hook.condition is not None else []), *sorted(hook.extras)]
    if not args and hook.args is not None:
        fields.append("args")
    if not fields:
        return False
    listed = ", ".join(fields)
    message = f"{plan.target.title} has no room for the hook's {listed}; the hook is not written"
    plan.drop("hook", hook_key(hook), "port.hook.field", message, hook.path)
    return True


def _command(plan: Plan, hook: HookSpec) -> str:
    """The shell command, the exec form's args joined in, placeholders as the target
    spells them."""
    text = hook.command if hook.args is None else shlex.join([hook.command, *hook.args])
    return _spelled(plan, hook, text)


def event_map(plan: Plan, hooks: tuple[HookSpec, ...]) -> dict[str, list[dict[str, Any]]]:
    """The three-level event map of Claude Code, Codex and Gemini CLI."""
    claude = plan.target.hooks.full
    out: dict[str, list[dict[str, Any]]] = {}
    for hook, event in _events(plan, hooks):
        if not claude and _no_room(plan, hook):
            continue
        handler = _claude_handler(plan, hook) if claude else _plain_handler(plan, hook)
        matcher = _matcher(plan, hook)
        groups = out.setdefault(event, [])
        group = next((g for g in groups if g.get("matcher") == matcher), None)
        if group is None:
            group = {**({} if matcher is None else {"matcher": matcher}), "hooks": []}
            groups.append(group)
        group["hooks"].append(handler)
    return out


def _matcher(plan: Plan, hook: HookSpec) -> str | None:
    """The matcher in the target's tool names (`satchel.port._tools`)."""
    return _translated(plan, hook).matcher


def _claude_handler(plan: Plan, hook: HookSpec) -> dict[str, Any]:
    handler: dict[str, Any] = (
        {"type": "command", "command": _spelled(plan, hook, hook.command)}
        if hook.type == "command"
        else {"type": hook.type, **dict(hook.params)}
    )
    if hook.args is not None:
        handler["args"] = [_spelled(plan, hook, a) for a in hook.args]
    if hook.timeout is not None:
        handler["timeout"] = _number(hook.timeout)
    if hook.condition is not None:
        handler["if"] = hook.condition
    if hook.description is not None:
        handler["description"] = hook.description
    return {**handler, **dict(hook.extras)}


def _plain_handler(plan: Plan, hook: HookSpec) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command", "command": _command(plan, hook)}
    dialect = plan.target.hooks
    if hook.timeout is not None:
        scale = 1000 if dialect.milliseconds else 1
        handler["timeout"] = _number(hook.timeout * scale)
    if hook.description is not None and dialect.description:
        handler["description"] = hook.description
    return handler


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def cursor_hooks(plan: Plan, hooks: tuple[HookSpec, ...]) -> dict[str, Any]:
    """Cursor's hooks document: ``{"version": 1, "hooks": {event: [hook, ...]}}``, each
    hook its command with the matcher and timeout as written (empty: no hook)."""
    events: dict[str, list[dict[str, Any]]] = {}
    for hook, event in _events(plan, hooks):
        if _no_room(plan, hook):
            continue
        entry: dict[str, Any] = {"command": _command(plan, hook)}
        matcher = _matcher(plan, hook)
        if matcher is not None:
            entry["matcher"] = matcher
        if hook.timeout is not None:
            entry["timeout"] = _number(hook.timeout)
        events.setdefault(event, []).append(entry)
    return {"version": 1, "hooks": events} if events else {}


def kimi_hooks(plan: Plan, hooks: tuple[HookSpec, ...]) -> list[dict[str, Any]]:
    """Kimi's flat list."""
    out: list[dict[str, Any]] = []
    low, high = plan.target.hooks.timeouts or (0.0, float("inf"))
    for hook, event in _events(plan, hooks):
        if _no_room(plan, hook):
            continue
        if hook.timeout is not None and not low <= hook.timeout <= high:
            message = (
                f"{plan.target.title} takes a timeout of {low:g}-{high:g} s, not "
                f"{hook.timeout:g}; the hook is not written"
            )
            plan.drop("hook", hook_key(hook), "port.hook.field", message, hook.path)
            continue
        entry: dict[str, Any] = {"event": event}
        matcher = _matcher(plan, hook)
        if matcher is not None:
            entry["matcher"] = matcher
        entry["command"] = _command(plan, hook)
        if hook.timeout is not None:
            entry["timeout"] = _number(hook.timeout)
        out.append(entry)
    return out


def vibe_hooks(plan: Plan, hooks: tuple[HookSpec, ...]) -> str:
    """``ai.mistral.vibe/hooks.toml`` ('' when no hook is written)."""
    tables: list[str] = []
    for number, (hook, event) in enumerate(_events(plan, hooks), start=1):
        if _no_room(plan, hook):
            continue
        fields: dict[str, str | int | float | bool] = {
            "name": f"{event.replace('_', '-')}-{number}"
        }
        fields["type"] = event
        matcher = _matcher(plan, hook)
        if plan.target.hooks.globs:
            matcher = to_glob(matcher)
        if matcher is not None:
            fields["match"] = matcher
        fields["command"] = _command(plan, hook)
        if hook.timeout is not None:
            fields["timeout"] = _number(hook.timeout)
        if hook.description is not None:
            fields["description"] = hook.description
        tables.append(toml_table("[[hooks]]", fields))
    return "\n".join(tables)
