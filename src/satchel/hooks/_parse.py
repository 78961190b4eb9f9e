"""A plugin's hooks as each host writes them: Claude Code ``hooks/hooks.json``, Vibe's
``ai.mistral.vibe/hooks.toml`` (Vibe Step 5) and Kimi's flat list.

Parsing only: the hooks runtime maps events and runs the commands. Event names stay
the host's own (``PreToolUse``, ``pre_tool``...); an event this module does not know
is kept, for newer hosts. Placeholders (``${CLAUDE_PLUGIN_ROOT}``...) stay as written.
One bad hook drops that hook (`plugin.hooks.invalid`); a bad file drops the file's
hooks. A missing file is no error.

* Claude Code: read as Claude Code reads a plugin's hooks (`fired`), an event it does
  not fire drops its hooks, as Claude Code ignores them ("unknown hook event; entry
  ignored at runtime"); read for satchel's own profile, which a caller may fire any
  event of, such an event is kept. Every ``type: "command"`` handler is kept, with
  `args` (exec form), `timeout`, `if` and `description`; ``async``, ``shell`` and any
  other field go to `extras`. The other handler types of code.claude.com/docs/en/hooks
  are kept with their own fields in `HookSpec.params`: ``http`` (``url``, ``headers``,
  ``allowedEnvVars``), ``mcp_tool`` (``server``, ``tool``, ``input``), ``prompt`` and
  ``agent`` (``prompt``, ``model``). The timeout stays None when not given (the runtime
  picks Claude Code's default).
* Vibe: strict TOML (an unknown key drops that hook), ``type`` one of ``pre_tool``,
  ``post_tool``, ``post_agent``; ``strict = true`` is refused on ``post_agent``;
  timeout 60 s by default; at most 128 hooks and 64 KiB; names unique in the plugin
  (a later duplicate is dropped); the runtime name is ``<plugin>:<hook>``.
* Kimi: ``{event, matcher, command, timeout, fail_mode}``, nothing else; timeout 1-600
  s, 30 by default; fail_mode ``open`` (default) or ``closed``.
* Gemini CLI (an extension's ``hooks/hooks.json``; google-gemini/gemini-cli
  packages/core/src/hooks/hookRegistry.ts and types.ts, docs/hooks/reference.md):
  Claude Code's shape, ``{"hooks": {Event: [{"matcher", "sequential", "hooks":
  [handler]}]}}``. An event outside Gemini CLI's list drops its hooks, as Gemini CLI
  skips it; ``enabled``, ``disabled`` and ``notifications`` are settings, not events,
  and are passed over. A handler is ``type: "command"`` with ``command``, ``name``,
  ``description`` and ``timeout`` in MILLISECONDS (60000 by default; stored in
  seconds); ``env`` and other fields go to `extras`, ``sequential`` too. In the command,
  ``${extensionPath}`` becomes ``${PLUGIN_ROOT}`` and ``${workspacePath}``
  ``${GEMINI_PROJECT_DIR}`` (both set for the hook when it runs) and ``${/}`` and
  ``${pathSeparator}`` become ``/``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import (
    Bad,
    Refusal,
    absent,
    bounded,
    parse_toml,
    read_inside,
    str_list,
    unknown_keys,
    with_json,
)
from satchel.hooks._events import (
    CURSOR_EVENTS,
    CURSOR_ONLY,
    CURSOR_TOOLS,
    GEMINI_EVENTS,
    GEMINI_ONLY,
)
from satchel.hooks._spec import HookSpec
from satchel.hosts._gemini import GEMINI_HOOKS

__all__ = [
    "CLAUDE_UNSUPPORTED",
    "HANDLER_FIELDS",
    "GEMINI_TIMEOUT",
    "KIMI_TIMEOUT",
    "MAX_VIBE_FILE",
    "MAX_VIBE_HOOKS",
    "VIBE_TIMEOUT",
    "VIBE_TYPES",
    "check_optional",
    "check_strings",
    "check_text",
    "check_timeout",
    "claude_hooks",
    "cursor_hooks",
    "gemini_paths",
    "other_handler",
    "parse_claude_hooks",
    "parse_cursor_hooks",
    "parse_gemini_hooks",
    "parse_kimi_hooks",
    "parse_vibe_hooks",
]

INVALID = "plugin.hooks.invalid"
CLAUDE_UNSUPPORTED: tuple[str, ...] = ()  # every handler type Claude Code has is read
HANDLER_FIELDS = _PARAMS = {
    "http": ("url", "headers", "allowedEnvVars"),
    "mcp_tool": ("server", "tool", "input"),
    "prompt": ("prompt", "model"),
    "agent": ("prompt", "model"),
}
_ON_FAILURE = {"http": ("onFailure",), "mcp_tool": ("onFailure",)}
VIBE_TYPES = ("pre_tool", "post_tool", "post_agent")
VIBE_TIMEOUT = 60.0
MAX_VIBE_HOOKS = 128
MAX_VIBE_FILE = 64 * 1024
KIMI_TIMEOUT = 30.0
_KIMI_RANGE = (1, 600)
_CLAUDE_FIELDS = ("type", "command", "args", "timeout", "if", "description")
_VIBE_FIELDS = ("name", "type", "match", "command", "timeout", "strict", "description")
_KIMI_FIELDS = ("event", "matcher", "command", "timeout", "fail_mode")
GEMINI_TIMEOUT = 60.0
_GEMINI_FIELDS = ("type", "command", "name", "description", "timeout")
_CURSOR_FIELDS = ("type", "command", "matcher", "timeout")
_GEMINI_SETTINGS = ("enabled", "disabled", "notifications")
_GEMINI_VARIABLES = GEMINI_HOOKS.variables.placeholders
_GEMINI_VARIABLE = re.compile("|".join(re.escape(v) for v in _GEMINI_VARIABLES))
_LEGACY = {"before_tool": "pre_tool", "after_tool": "post_tool", "post_agent_turn": "post_agent"}
_NONE: Mapping[str, Any] = MappingProxyType({})

Result = tuple[tuple[HookSpec, ...], list[Diagnostic]]
# a host's title and the hook events it fires, in its own spelling
Fired = tuple[str, tuple[str, ...]]


@model
class _Source:
    plugin: str
    path: Path


def parse_claude_hooks(
    path: Path, root: Path, plugin: str, *, resolved: bool = False, fired: Fired | None = None
) -> Result:
    """The command hooks of Claude Code's ``hooks/hooks.json``:
    ``{"hooks": {Event: [{"matcher": ..., "hooks": [handler, ...]}]}}``. `resolved`:
    `root` is already a real path. `fired`: the host's title and the events it fires;
    the hooks of any other event are skipped, as that host ignores them [None: kept]."""
    src = _Source(plugin, path)
    return with_json(
        path, root, INVALID, lambda data: _claude_hooks(data, src, fired), resolved=resolved
    )


def claude_hooks(data: Any, path: Path, owner: str, *, fired: Fired | None = None) -> Result:
    """The command hooks of an already parsed document holding Claude Code's ``hooks``
    object (a ``settings.json``); `owner` fills `HookSpec.plugin`; `fired` as
    `parse_claude_hooks` takes it."""
    return _claude_hooks(data, _Source(owner, path), fired)


def _not_fired(event: str, title: str, events: tuple[str, ...], path: Path) -> Diagnostic:
    """A hooks file's `event` that the host `title`, firing `events`, does not fire."""
    why = f"event {event!r} is not a {title} hook event"
    hint = f"{title}'s events: {', '.join(events)}"
    return diagnostic(INVALID, f"{why}; its hooks are skipped", path, hint=hint)


def _claude_hooks(data: Any, src: _Source, fired: Fired | None = None) -> Result:
    path = src.path
    events = data.get("hooks") if isinstance(data, dict) else None
    if events is None and isinstance(data, dict) and "modules" in data:
        return (), []  # a hooks module only: `satchel.plugins.components._modules` reads it
    if not isinstance(events, dict):
        why = "hooks.json must be an object holding a hooks object (event -> matcher groups)"
        return (), [diagnostic(INVALID, f"{why}; no hook of this file loads", path)]
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    for event, groups in events.items():
        if fired is not None and event not in fired[1]:
            diags.append(_not_fired(event, *fired, path))
            continue
        if not isinstance(groups, list):
            why = f"event {event!r} must map to a list of matcher groups, not {type_name(groups)}"
            diags.append(diagnostic(INVALID, f"{why}; its hooks are skipped", path))
            continue
        for number, group in enumerate(groups, 1):
            found, problems = _claude_group(f"{event} group #{number}", event, group, src)
            hooks += found
            diags += problems
    return tuple(hooks), diags


def _group(where: str, group: Any, src: _Source) -> tuple[list[Any], str | None] | Diagnostic:
    """A matcher group's handlers and matcher (Claude Code's and Gemini CLI's shape), or
    the diagnostic that skips it."""
    handlers = group.get("hooks") if isinstance(group, dict) else None
    matcher = group.get("matcher") if isinstance(group, dict) else None
    if not isinstance(handlers, list) or not (matcher is None or isinstance(matcher, str)):
        why = "must be an object with a hooks list and an optional string matcher"
        return diagnostic(INVALID, f"{where} {why}; its hooks are skipped", src.path)
    return handlers, matcher


def _claude_group(where: str, event: str, group: Any, src: _Source) -> Result:
    parts = _group(where, group, src)
    if isinstance(parts, Diagnostic):
        return (), [parts]
    handlers, matcher = parts
    return _each(
        handlers,
        lambda number, _: f"{where} handler #{number}",
        lambda _, handler: _claude_handler(event, matcher, handler, src),
        src.path,
    )


def _each(
    entries: list[Any],
    label: Callable[[int, Any], str],
    parse: Callable[[int, Any], HookSpec],
    path: Path,
) -> Result:
    """`parse(number, entry)` of every entry (numbered from 1); a bad one is skipped,
    named by `label(number, entry)`."""
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    for number, entry in enumerate(entries, 1):
        try:
            hooks.append(parse(number, entry))
        except Bad as bad:
            message = f"{label(number, entry)}: {bad}; it is skipped"
            diags.append(diagnostic(INVALID, message, path, hint=bad.hint))
    return tuple(hooks), diags


def _claude_handler(event: str, matcher: str | None, handler: Any, src: _Source) -> HookSpec:
    if not isinstance(handler, dict):
        raise Bad(f"a handler must be an object, not {type_name(handler)}")
    kind = handler.get("type")
    if isinstance(kind, str) and kind in _PARAMS:
        return _claude_other(event, matcher, kind, handler, src)
    if kind != "command":
        raise Bad("it has no type" if kind is None else f"unknown handler type {kind!r}")
    if not isinstance(handler.get("async", False), bool):
        raise Bad(f"async must be a boolean, not {type_name(handler['async'])}")
    if not isinstance(handler.get("shell", ""), str):
        raise Bad(f"shell must be a string, not {type_name(handler['shell'])}")
    extras = {k: v for k, v in handler.items() if k not in _CLAUDE_FIELDS}
    return HookSpec(
        event=event,
        command=check_text(handler, "command"),
        format="claude",
        matcher=matcher,
        args=check_strings(handler, "args"),
        timeout=check_timeout(handler),
        condition=check_optional(handler, "if"),
        description=check_optional(handler, "description"),
        plugin=src.plugin,
        path=src.path,
        extras=MappingProxyType(extras) if extras else _NONE,
    )


def other_handler(
    event: str, matcher: str | None, kind: str, handler: dict[str, Any], path: Path, owner: str
) -> HookSpec:
    """An ``http``, ``mcp_tool``, ``prompt`` or ``agent`` handler of a Claude Code-shaped
    file (`HANDLER_FIELDS` names each kind's own fields); `Bad` when one is wrong."""
    return _claude_other(event, matcher, kind, handler, _Source(owner, path))


def _claude_other(
    event: str, matcher: str | None, kind: str, handler: dict[str, Any], src: _Source
) -> HookSpec:
    """An ``http``, ``mcp_tool``, ``prompt`` or ``agent`` handler: its own fields checked
    and kept in `params`; `command` is the text that names it."""
    params = _handler_params(kind, handler)
    if kind == "http":
        label = str(params["url"])
    elif kind == "mcp_tool":
        label = f"{params['server']}/{params['tool']}"
    else:
        label = str(params["prompt"])
    known = ("type", "timeout", "if", "description", *_PARAMS[kind], *_ON_FAILURE.get(kind, ()))
    extras = {k: v for k, v in handler.items() if k not in known}
    return HookSpec(
        event=event,
        command=label,
        format="claude",
        matcher=matcher,
        timeout=check_timeout(handler),
        condition=check_optional(handler, "if"),
        description=check_optional(handler, "description"),
        plugin=src.plugin,
        path=src.path,
        extras=MappingProxyType(extras) if extras else _NONE,
        type=kind,  # type: ignore[arg-type]  # one of _PARAMS, all HandlerType values
        params=MappingProxyType(params),
        fail_mode=_on_failure(kind, handler),
    )


def _on_failure(kind: str, handler: Mapping[str, Any]) -> str | None:
    """An http or mcp_tool hook's ``onFailure``: ``continue`` (the default: a failed
    call has no opinion) or ``block`` (it denies what the event guards), as Claude Code
    2.1.332's schema has it: "closed" for ``block``, else None."""
    if kind not in _ON_FAILURE or "onFailure" not in handler:
        return None
    value = handler["onFailure"]
    if value not in ("continue", "block"):
        raise Bad(f"onFailure must be 'continue' or 'block', not {value!r}")
    return "closed" if value == "block" else None


def _handler_params(kind: str, handler: Mapping[str, Any]) -> dict[str, Any]:
    if kind == "http":
        url = check_text(handler, "url")
        if not url.startswith(("http://", "https://")):
            raise Bad(f"url must be an http:// or https:// URL, not {url!r}")
        headers = handler.get("headers", {})
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise Bad("headers must be an object whose values are strings")
        allowed = check_strings(handler, "allowedEnvVars") or ()
        return {"url": url, "headers": dict(headers), "allowedEnvVars": list(allowed)}
    if kind == "mcp_tool":
        given = handler.get("input", {})
        if not isinstance(given, dict):
            raise Bad(f"input must be an object, not {type_name(given)}")
        server, tool = check_text(handler, "server"), check_text(handler, "tool")
        return {"server": server, "tool": tool, "input": given}
    return {"prompt": check_text(handler, "prompt"), "model": check_optional(handler, "model")}


def parse_vibe_hooks(path: Path, root: Path, plugin: str, *, resolved: bool = False) -> Result:
    """The hooks of ``ai.mistral.vibe/hooks.toml`` (``[[hooks]]`` tables), strict.
    `resolved`: `root` is already a real path."""
    if absent(path):
        return (), []
    data = read_inside(path, root, MAX_VIBE_FILE, resolved=resolved)
    if isinstance(data, Refusal):
        message = f"{data.message}; no hook of this file loads"
        return (), [Refusal(message, data.outside).diagnostic(INVALID, path)]
    doc, problem = parse_toml(data, path, INVALID)
    if doc is None:
        return (), [] if problem is None else [problem]
    entries = _vibe_entries(doc)
    if isinstance(entries, str):
        return (), [diagnostic(INVALID, f"{entries}; no hook of this file loads", path)]
    return _vibe_hooks(entries, _Source(plugin, path))


def _vibe_entries(doc: Mapping[str, Any]) -> list[Any] | str:
    extra = unknown_keys(doc, ("hooks",))
    if extra:
        return f"unknown top-level key {extra}: hooks.toml holds [[hooks]] tables only"
    entries = doc.get("hooks", [])
    problem = bounded(
        entries,
        list,
        "hooks must be an array of tables ([[hooks]])",
        MAX_VIBE_HOOKS,
        lambda n: f"the file declares {n} hooks; the limit is {MAX_VIBE_HOOKS} per plugin",
    )
    return entries if problem is None else problem


def _vibe_hooks(entries: list[Any], src: _Source) -> Result:
    first: dict[str, int] = {}

    def parse(number: int, entry: Any) -> HookSpec:
        hook = _vibe_hook(entry, src)
        name: str = entry["name"]  # a valid hook has a string name
        if name in first:
            raise Bad(f"hook #{first[name]} has the same name; names are unique in a plugin")
        first[name] = number
        return hook

    return _each(entries, _vibe_label, parse, src.path)


def _vibe_label(number: int, entry: Any) -> str:
    name = entry.get("name") if isinstance(entry, dict) else None
    return f"hook #{number}" + (f" ({name!r})" if isinstance(name, str) else "")


def _vibe_hook(entry: Any, src: _Source) -> HookSpec:
    _closed(entry, "a table", _VIBE_FIELDS, " (plugin hooks are strict)")
    name = check_text(entry, "name")
    kind = entry.get("type")
    if kind not in VIBE_TYPES:
        hint = f"Vibe 3 calls it {_LEGACY[kind]!r}" if kind in _LEGACY else None
        raise Bad(f"type must be pre_tool, post_tool or post_agent, not {kind!r}", hint=hint)
    strict = entry.get("strict", False)
    if not isinstance(strict, bool):
        raise Bad(f"strict must be a boolean, not {type_name(strict)}")
    if strict and kind == "post_agent":
        raise Bad("strict is not allowed on post_agent hooks")
    return HookSpec(
        event=kind,
        command=check_text(entry, "command"),
        format="vibe",
        matcher=check_optional(entry, "match"),
        timeout=check_timeout(entry, VIBE_TIMEOUT),
        name=f"{src.plugin}:{name}",
        strict=strict,
        description=check_optional(entry, "description"),
        plugin=src.plugin,
        path=src.path,
    )


def parse_kimi_hooks(data: Any, path: Path, plugin: str) -> Result:
    """The hooks of Kimi's manifest: a flat list of ``{event, matcher, command,
    timeout, fail_mode}`` (`data` is the parsed ``hooks`` value; None: no hooks)."""
    if data is None:
        return (), []
    if not isinstance(data, list):
        why = f"hooks must be a list of hook objects, not {type_name(data)}"
        return (), [diagnostic(INVALID, f"{why}; no hook of this plugin loads", path)]
    src = _Source(plugin, path)
    return _each(data, _hook_label, lambda _, entry: _kimi_hook(entry, src), path)


def _hook_label(number: int, _: Any) -> str:
    return f"hook #{number}"


def _kimi_hook(entry: Any, src: _Source) -> HookSpec:
    _closed(entry, "an object", _KIMI_FIELDS)
    fail_mode = entry.get("fail_mode", "open")
    if fail_mode not in ("open", "closed"):
        raise Bad(f"fail_mode must be 'open' or 'closed', not {fail_mode!r}")
    timeout = check_timeout(entry, KIMI_TIMEOUT)
    low, high = _KIMI_RANGE
    if not low <= (timeout or 0) <= high:
        raise Bad(f"timeout must be {low}-{high} seconds, not {timeout:g}")
    return HookSpec(
        event=check_text(entry, "event"),
        command=check_text(entry, "command"),
        format="kimi",
        matcher=check_optional(entry, "matcher"),
        timeout=timeout,
        fail_mode=fail_mode,
        plugin=src.plugin,
        path=src.path,
    )


def _closed(entry: Any, kind: str, fields: tuple[str, ...], note: str = "") -> None:
    """`entry` must be `kind` (an object) holding no key but `fields`."""
    if not isinstance(entry, dict):
        raise Bad(f"a hook must be {kind}, not {type_name(entry)}")
    unknown = [k for k in entry if k not in fields]
    if unknown:
        raise Bad(f"unknown key {unknown[0]!r}{note}")


def check_text(entry: Mapping[str, Any], key: str) -> str:
    """The non-blank string at `key` of a hook entry; `Bad` when it is missing or not one."""
    value = entry.get(key)
    if key not in entry:
        raise Bad(f"it has no {key}")
    if not isinstance(value, str) or not value.strip():
        raise Bad(f"{key} must be a non-blank string")
    return value


def check_optional(entry: Mapping[str, Any], key: str) -> str | None:
    """The string at `key` of a hook entry, or None; `Bad` when it is something else."""
    value = entry.get(key)
    if value is not None and not isinstance(value, str):
        raise Bad(f"{key} must be a string, not {type_name(value)}")
    return value


def check_strings(entry: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    """The list of strings at `key` of a hook entry, or None; `Bad` when it is not one."""
    value = entry.get(key)
    if value is None:
        return None
    if not str_list(value):
        raise Bad(f"{key} must be a list of strings")
    return tuple(value)


def check_timeout(entry: Mapping[str, Any], default: float | None = None) -> float | None:
    """A hook entry's ``timeout`` in seconds (`default` when it has none); `Bad` unless
    it is a positive finite number."""
    value = entry.get("timeout")
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Bad(f"timeout must be a number of seconds, not {type_name(value)}")
    if not math.isfinite(value) or value <= 0:
        raise Bad(f"timeout must be a positive number of seconds, not {value}")
    return float(value)


def parse_gemini_hooks(path: Path, root: Path, plugin: str, *, resolved: bool = False) -> Result:
    """The command hooks of a Gemini CLI extension's ``hooks/hooks.json`` (see the
    module docstring). `resolved`: `root` is already a real path."""
    src = _Source(plugin, path)
    return with_json(path, root, INVALID, lambda data: _gemini_hooks(data, src), resolved=resolved)


def gemini_paths(text: str) -> str:
    """`text` with Gemini CLI's ``${extensionPath}``, ``${workspacePath}``, ``${/}`` and
    ``${pathSeparator}`` written as satchel's ``${PLUGIN_ROOT}``,
    ``${GEMINI_PROJECT_DIR}``, ``/`` and ``/``, in one pass."""
    return _GEMINI_VARIABLE.sub(lambda m: _GEMINI_VARIABLES[m.group()], text)


def _gemini_hooks(data: Any, src: _Source) -> Result:
    events = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(events, dict):
        why = "hooks.json must be an object holding a hooks object (event -> hook definitions)"
        return (), [diagnostic(INVALID, f"{why}; no hook of this file loads", src.path)]
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    for event, groups in events.items():
        if event in _GEMINI_SETTINGS:
            continue
        if event not in GEMINI_EVENTS and event not in GEMINI_ONLY:
            diags.append(_not_fired(event, "Gemini CLI", (*GEMINI_EVENTS, *GEMINI_ONLY), src.path))
            continue
        if not isinstance(groups, list):
            why = f"event {event!r} must map to a list of hook definitions, not {type_name(groups)}"
            diags.append(diagnostic(INVALID, f"{why}; its hooks are skipped", src.path))
            continue
        for number, group in enumerate(groups, 1):
            found, problems = _gemini_group(f"{event} definition #{number}", event, group, src)
            hooks += found
            diags += problems
    return tuple(hooks), diags


def _gemini_group(where: str, event: str, group: Any, src: _Source) -> Result:
    parts = _group(where, group, src)
    if isinstance(parts, Diagnostic):
        return (), [parts]
    handlers, matcher = parts
    sequential = group.get("sequential")
    return _each(
        handlers,
        lambda number, _: f"{where} hook #{number}",
        lambda _, handler: _gemini_handler(event, matcher, sequential, handler, src),
        src.path,
    )


def _gemini_handler(
    event: str, matcher: str | None, sequential: Any, handler: Any, src: _Source
) -> HookSpec:
    if not isinstance(handler, dict):
        raise Bad(f"a hook must be an object, not {type_name(handler)}")
    kind = handler.get("type")
    if kind != "command":
        what = "it has no type" if kind is None else f"type {kind!r} is not supported"
        raise Bad(f"{what} (a hooks file declares command hooks)")
    env = handler.get("env")
    if env is not None and not (
        isinstance(env, dict) and all(isinstance(v, str) for v in env.values())
    ):
        raise Bad("env must be an object whose values are strings")
    extras = {k: v for k, v in handler.items() if k not in _GEMINI_FIELDS}
    if sequential is not None:
        extras["sequential"] = sequential
    return HookSpec(
        event=event,
        command=gemini_paths(check_text(handler, "command")),
        format="gemini",
        matcher=matcher,
        timeout=_milliseconds(handler),
        name=check_optional(handler, "name"),
        description=check_optional(handler, "description"),
        plugin=src.plugin,
        path=src.path,
        extras=MappingProxyType(extras) if extras else _NONE,
    )


def _milliseconds(handler: Mapping[str, Any]) -> float:
    """Gemini CLI's ``timeout`` (milliseconds, 60000 by default) in seconds."""
    value = handler.get("timeout")
    if value is None:
        return GEMINI_TIMEOUT
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Bad(f"timeout must be a number of milliseconds, not {type_name(value)}")
    if not math.isfinite(value) or value <= 0:
        raise Bad(f"timeout must be a positive number of milliseconds, not {value}")
    return float(value) / 1000


def parse_cursor_hooks(path: Path, root: Path, plugin: str, *, resolved: bool = False) -> Result:
    """The command hooks of Cursor's ``hooks.json``: ``{"version": 1, "hooks": {event:
    [{"command": ..., "matcher": ..., "timeout": ...}]}}`` with camelCase events
    (cursor.com/docs/agent/hooks). A shell, MCP, read or edit event stands for its tool
    (`CURSOR_TOOLS`); an event Cursor does not fire is skipped."""
    src = _Source(plugin, path)
    return with_json(path, root, INVALID, lambda data: cursor_hooks(data, src.path, plugin),
                     resolved=resolved)  # fmt: skip


def cursor_hooks(data: Any, path: Path, owner: str) -> Result:
    """The command hooks of an already parsed Cursor hooks document (a manifest's
    inline ``hooks`` object, or a ``hooks.json``)."""
    src = _Source(owner, path)
    events = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(events, dict):
        why = "a Cursor hooks file must be an object holding a hooks object (event -> hooks)"
        return (), [diagnostic(INVALID, f"{why}; no hook of this file loads", path)]
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    for event, entries in events.items():
        if event not in CURSOR_EVENTS and event not in CURSOR_ONLY:
            why = f"event {event!r} is not a Cursor hook event"
            diags.append(diagnostic(INVALID, f"{why}; its hooks are skipped", path))
            continue
        if not isinstance(entries, list):
            why = f"event {event!r} must map to a list of hooks, not {type_name(entries)}"
            diags.append(diagnostic(INVALID, f"{why}; its hooks are skipped", path))
            continue
        found, problems = _cursor_entries(event, entries, src)
        hooks += found
        diags += problems
    return tuple(hooks), diags


def _cursor_entries(event: str, entries: list[Any], src: _Source) -> Result:
    return _each(
        entries,
        lambda number, _: f"{event} hook #{number}",
        lambda _, entry: _cursor_handler(event, entry, src),
        src.path,
    )


def _cursor_handler(event: str, handler: Any, src: _Source) -> HookSpec:
    if not isinstance(handler, dict):
        raise Bad(f"a hook must be an object, not {type_name(handler)}")
    kind = handler.get("type", "command")
    if kind != "command":
        raise Bad(f"type {kind!r} is not supported (satchel runs command hooks)")
    matcher = check_optional(handler, "matcher")
    extras = {k: v for k, v in handler.items() if k not in _CURSOR_FIELDS}
    return HookSpec(
        event=event,
        command=check_text(handler, "command"),
        format="cursor",
        matcher=CURSOR_TOOLS.get(event, matcher),
        timeout=check_timeout(handler),
        plugin=src.plugin,
        path=src.path,
        extras=MappingProxyType(extras) if extras else _NONE,
    )
