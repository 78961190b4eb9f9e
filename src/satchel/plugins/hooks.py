"""A plugin's hooks as each host writes them: Claude Code ``hooks/hooks.json``, Vibe's
``ai.mistral.vibe/hooks.toml`` (seed 003 Step 5) and Kimi's flat list.

Parsing only: the hooks runtime maps events and runs the commands. Event names stay
the host's own (``PreToolUse``, ``pre_tool``...); an event this module does not know
is kept, for newer hosts. Placeholders (``${CLAUDE_PLUGIN_ROOT}``...) stay as written.
One bad hook drops that hook (`plugin.hooks.invalid`); a bad file drops the file's
hooks. A missing file is no error.

* Claude Code: every ``type: "command"`` handler is kept, with `args` (exec form),
  `timeout`, `if` and `description`; ``async``, ``shell`` and any other field go to
  `extras`. ``http``, ``prompt``, ``agent`` and ``mcp_tool`` handlers are recognised
  and dropped with a warning. The timeout stays None when not given (the runtime
  picks Claude Code's default).
* Vibe: strict TOML (an unknown key drops that hook), ``type`` one of ``pre_tool``,
  ``post_tool``, ``post_agent``; ``strict = true`` is refused on ``post_agent``;
  timeout 60 s by default; at most 128 hooks and 64 KiB; names unique in the plugin
  (a later duplicate is dropped); the runtime name is ``<plugin>:<hook>``.
* Kimi: ``{event, matcher, command, timeout, fail_mode}``, nothing else; timeout 1-600
  s, 30 by default; fail_mode ``open`` (default) or ``closed``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.diagnostics import Diagnostic, diagnostic, type_name
from satchel.plugins._paths import Refusal, parse_toml, read_inside, read_json
from satchel.plugins.model import HookSpec

__all__ = [
    "CLAUDE_UNSUPPORTED",
    "KIMI_TIMEOUT",
    "MAX_VIBE_FILE",
    "MAX_VIBE_HOOKS",
    "VIBE_TIMEOUT",
    "VIBE_TYPES",
    "parse_claude_hooks",
    "parse_kimi_hooks",
    "parse_vibe_hooks",
]

INVALID = "plugin.hooks.invalid"
CLAUDE_UNSUPPORTED = ("http", "prompt", "agent", "mcp_tool")
VIBE_TYPES = ("pre_tool", "post_tool", "post_agent")
VIBE_TIMEOUT = 60.0
MAX_VIBE_HOOKS = 128
MAX_VIBE_FILE = 64 * 1024
KIMI_TIMEOUT = 30.0
_KIMI_RANGE = (1, 600)
_CLAUDE_FIELDS = ("type", "command", "args", "timeout", "if", "description")
_VIBE_FIELDS = ("name", "type", "match", "command", "timeout", "strict", "description")
_KIMI_FIELDS = ("event", "matcher", "command", "timeout", "fail_mode")
_LEGACY = {"before_tool": "pre_tool", "after_tool": "post_tool", "post_agent_turn": "post_agent"}
_NONE: Mapping[str, Any] = MappingProxyType({})

Result = tuple[tuple[HookSpec, ...], list[Diagnostic]]


@dataclass(frozen=True, slots=True)
class _Source:
    plugin: str
    path: Path


class _Bad(Exception):
    """One hook is invalid: raised by the checks, caught per hook."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def parse_claude_hooks(path: Path, root: Path, plugin: str) -> Result:
    """The command hooks of Claude Code's ``hooks/hooks.json``:
    ``{"hooks": {Event: [{"matcher": ..., "hooks": [handler, ...]}]}}``."""
    if not path.is_symlink() and not path.exists():
        return (), []
    data, problem = read_json(path, root, INVALID)
    if problem is not None:
        return (), [problem]
    events = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(events, dict):
        why = "hooks.json must be an object holding a hooks object (event -> matcher groups)"
        return (), [diagnostic(INVALID, f"{why}; no hook of this file loads", path)]
    src = _Source(plugin, path)
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    for event, groups in events.items():
        if not isinstance(groups, list):
            why = f"event {event!r} must map to a list of matcher groups, not {type_name(groups)}"
            diags.append(diagnostic(INVALID, f"{why}; its hooks are skipped", path))
            continue
        for number, group in enumerate(groups, 1):
            _claude_group(f"{event} group #{number}", event, group, src, hooks, diags)
    return tuple(hooks), diags


def _claude_group(
    where: str, event: str, group: Any, src: _Source, hooks: list[HookSpec], diags: list[Diagnostic]
) -> None:
    handlers = group.get("hooks") if isinstance(group, dict) else None
    matcher = group.get("matcher") if isinstance(group, dict) else None
    if not isinstance(handlers, list) or not (matcher is None or isinstance(matcher, str)):
        why = "must be an object with a hooks list and an optional string matcher"
        diags.append(diagnostic(INVALID, f"{where} {why}; its hooks are skipped", src.path))
        return
    for number, handler in enumerate(handlers, 1):
        try:
            hooks.append(_claude_handler(event, matcher, handler, src))
        except _Bad as bad:
            message = f"{where} handler #{number}: {bad}; it is skipped"
            diags.append(diagnostic(INVALID, message, src.path, hint=bad.hint))


def _claude_handler(event: str, matcher: str | None, handler: Any, src: _Source) -> HookSpec:
    if not isinstance(handler, dict):
        raise _Bad(f"a handler must be an object, not {type_name(handler)}")
    kind = handler.get("type")
    if kind in CLAUDE_UNSUPPORTED:
        raise _Bad(f"{kind!r} handlers are not supported (satchel runs command handlers)")
    if kind != "command":
        raise _Bad("it has no type" if kind is None else f"unknown handler type {kind!r}")
    if not isinstance(handler.get("async", False), bool):
        raise _Bad(f"async must be a boolean, not {type_name(handler['async'])}")
    if not isinstance(handler.get("shell", ""), str):
        raise _Bad(f"shell must be a string, not {type_name(handler['shell'])}")
    extras = {k: v for k, v in handler.items() if k not in _CLAUDE_FIELDS}
    return HookSpec(
        event=event,
        command=_text(handler, "command"),
        format="claude",
        matcher=matcher,
        args=_strings(handler, "args"),
        timeout=_timeout(handler),
        condition=_optional(handler, "if"),
        description=_optional(handler, "description"),
        plugin=src.plugin,
        path=src.path,
        extras=MappingProxyType(extras) if extras else _NONE,
    )


def parse_vibe_hooks(path: Path, root: Path, plugin: str) -> Result:
    """The hooks of ``ai.mistral.vibe/hooks.toml`` (``[[hooks]]`` tables), strict."""
    if not path.is_symlink() and not path.exists():
        return (), []
    data = read_inside(path, root, MAX_VIBE_FILE)
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
    extra = sorted(set(doc) - {"hooks"})
    if extra:
        names = ", ".join(repr(k) for k in extra)
        return f"unknown top-level key {names}: hooks.toml holds [[hooks]] tables only"
    entries = doc.get("hooks", [])
    if not isinstance(entries, list):
        return f"hooks must be an array of tables ([[hooks]]), not {type_name(entries)}"
    if len(entries) > MAX_VIBE_HOOKS:
        return f"the file declares {len(entries)} hooks; the limit is {MAX_VIBE_HOOKS} per plugin"
    return entries


def _vibe_hooks(entries: list[Any], src: _Source) -> Result:
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    first: dict[str, int] = {}
    for number, entry in enumerate(entries, 1):
        name = entry.get("name") if isinstance(entry, dict) else None
        label = f"hook #{number}" + (f" ({name!r})" if isinstance(name, str) else "")
        try:
            hook = _vibe_hook(entry, src)
            if name in first:
                raise _Bad(f"hook #{first[name]} has the same name; names are unique in a plugin")
        except _Bad as bad:
            diags.append(
                diagnostic(INVALID, f"{label}: {bad}; it is skipped", src.path, hint=bad.hint)
            )
            continue
        first[str(name)] = number  # a valid hook has a string name
        hooks.append(hook)
    return tuple(hooks), diags


def _vibe_hook(entry: Any, src: _Source) -> HookSpec:
    if not isinstance(entry, dict):
        raise _Bad(f"a hook must be a table, not {type_name(entry)}")
    unknown = [k for k in entry if k not in _VIBE_FIELDS]
    if unknown:
        raise _Bad(f"unknown key {unknown[0]!r} (plugin hooks are strict)")
    name = _text(entry, "name")
    kind = entry.get("type")
    if kind not in VIBE_TYPES:
        hint = f"Vibe 3 calls it {_LEGACY[kind]!r}" if kind in _LEGACY else None
        raise _Bad(f"type must be pre_tool, post_tool or post_agent, not {kind!r}", hint)
    strict = entry.get("strict", False)
    if not isinstance(strict, bool):
        raise _Bad(f"strict must be a boolean, not {type_name(strict)}")
    if strict and kind == "post_agent":
        raise _Bad("strict is not allowed on post_agent hooks")
    return HookSpec(
        event=kind,
        command=_text(entry, "command"),
        format="vibe",
        matcher=_optional(entry, "match"),
        timeout=_timeout(entry, VIBE_TIMEOUT),
        name=f"{src.plugin}:{name}",
        strict=strict,
        description=_optional(entry, "description"),
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
    hooks: list[HookSpec] = []
    diags: list[Diagnostic] = []
    for number, entry in enumerate(data, 1):
        try:
            hooks.append(_kimi_hook(entry, _Source(plugin, path)))
        except _Bad as bad:
            message = f"hook #{number}: {bad}; it is skipped"
            diags.append(diagnostic(INVALID, message, path, hint=bad.hint))
    return tuple(hooks), diags


def _kimi_hook(entry: Any, src: _Source) -> HookSpec:
    if not isinstance(entry, dict):
        raise _Bad(f"a hook must be an object, not {type_name(entry)}")
    unknown = [k for k in entry if k not in _KIMI_FIELDS]
    if unknown:
        raise _Bad(f"unknown key {unknown[0]!r}")
    fail_mode = entry.get("fail_mode", "open")
    if fail_mode not in ("open", "closed"):
        raise _Bad(f"fail_mode must be 'open' or 'closed', not {fail_mode!r}")
    timeout = _timeout(entry, KIMI_TIMEOUT)
    low, high = _KIMI_RANGE
    if not low <= (timeout or 0) <= high:
        raise _Bad(f"timeout must be {low}-{high} seconds, not {timeout:g}")
    return HookSpec(
        event=_text(entry, "event"),
        command=_text(entry, "command"),
        format="kimi",
        matcher=_optional(entry, "matcher"),
        timeout=timeout,
        fail_mode=fail_mode,
        plugin=src.plugin,
        path=src.path,
    )


def _text(entry: Mapping[str, Any], key: str) -> str:
    value = entry.get(key)
    if key not in entry:
        raise _Bad(f"it has no {key}")
    if not isinstance(value, str) or not value.strip():
        raise _Bad(f"{key} must be a non-blank string")
    return value


def _optional(entry: Mapping[str, Any], key: str) -> str | None:
    value = entry.get(key)
    if value is not None and not isinstance(value, str):
        raise _Bad(f"{key} must be a string, not {type_name(value)}")
    return value


def _strings(entry: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"{key} must be a list of strings")
    return tuple(value)


def _timeout(entry: Mapping[str, Any], default: float | None = None) -> float | None:
    value = entry.get("timeout")
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(f"timeout must be a number of seconds, not {type_name(value)}")
    if not math.isfinite(value) or value <= 0:
        raise _Bad(f"timeout must be a positive number of seconds, not {value}")
    return float(value)
