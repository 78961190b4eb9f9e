"""satchel's own ``hooks.toml`` and Claude Code's ``settings.json`` hooks, read into
`HookSpec` values (plugin hooks are read with their plugin, `satchel.hooks._parse`).

``hooks.toml`` mirrors Claude Code's shape (event -> matcher groups -> handlers) in
TOML, with satchel's snake_case event names (see docs/hooks.md)::

    [[hooks.before_tool_use]]
    matcher = "Bash"

    [[hooks.before_tool_use.hooks]]
    name = "no-force-push"
    command = "python3 guard.py"     # a shell command; or `args` for exec form
    timeout = 10                     # seconds
    if = "Bash(git push *)"          # a permission rule, tool events only
    strict = true                    # a failure denies instead of allowing

    [[hooks.before_tool_use.hooks]]
    type = "http"                    # also mcp_tool, prompt, agent: Claude Code's fields
    url = "http://127.0.0.1:8080/gate"

At most `MAX_HOOKS` handlers and `MAX_FILE` bytes; names, when given, are unique in a
file (a later duplicate is dropped). An unknown key is reported and ignored; a bad
handler is dropped, the rest load. A missing file is no error.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import loads
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import Bad
from satchel.hooks._parse import (
    HANDLER_FIELDS,
    check_optional,
    check_strings,
    check_text,
    check_timeout,
    claude_hooks,
    other_handler,
)
from satchel.hooks._spec import HookSpec

__all__ = [
    "MAX_FILE",
    "MAX_HOOKS",
    "read_hooks_toml",
    "read_settings_hooks",
    "settings_http_env_vars",
    "settings_http_urls",
]

MAX_HOOKS = 128
MAX_FILE = 64 * 1024
MAX_SETTINGS = 1024 * 1024
INVALID = "hook.file.invalid"
_HANDLER_FIELDS = ("type", "name", "command", "args", "timeout", "if", "description", "strict")
_GROUP_FIELDS = ("matcher", "hooks")

Result = tuple[tuple[HookSpec, ...], list[Diagnostic]]
Result2 = tuple[tuple[str, ...], list[Diagnostic]]


def read_hooks_toml(path: Path) -> Result:
    """The hooks of one satchel ``hooks.toml`` (see the module docstring)."""
    doc, problems = _document(path, MAX_FILE, "TOML")
    if doc is None:
        return (), problems
    diags = [
        _invalid(f"unknown top-level key {key!r}: hooks.toml holds [hooks.<event>] only", path)
        for key in doc
        if key != "hooks"
    ]
    events = doc.get("hooks", {})
    if not isinstance(events, dict):
        why = f"hooks must be a table of events, not {type_name(events)}"
        return (), [*diags, _invalid(f"{why}; no hook of this file loads", path)]
    entries = [
        (f"{event} group #{n}", event, group)
        for event, groups in events.items()
        for n, group in enumerate(groups if isinstance(groups, list) else [groups], 1)
    ]
    total = sum(_handler_count(group) for _, _, group in entries)
    if total > MAX_HOOKS:
        message = f"the file declares {total} hooks; the limit is {MAX_HOOKS}"
        return (), [*diags, _invalid(f"{message}; no hook of this file loads", path)]
    hooks: list[HookSpec] = []
    names: dict[str, str] = {}
    for where, event, group in entries:
        found, problems = _group(where, event, group, path, names)
        hooks += found
        diags += problems
    return tuple(hooks), diags


def _handler_count(group: Any) -> int:
    handlers = group.get("hooks") if isinstance(group, dict) else None
    return len(handlers) if isinstance(handlers, list) else 0


def _group(where: str, event: str, group: Any, path: Path, names: dict[str, str]) -> Result:
    handlers = group.get("hooks") if isinstance(group, dict) else None
    matcher = group.get("matcher") if isinstance(group, dict) else None
    if not isinstance(handlers, list) or not (matcher is None or isinstance(matcher, str)):
        why = "must be a table with a hooks array and an optional string matcher"
        return (), [_invalid(f"{where} {why}; its hooks are skipped", path)]
    diags = [
        _invalid(f"{where}: unknown key {key!r} is ignored", path)
        for key in group
        if key not in _GROUP_FIELDS
    ]
    hooks: list[HookSpec] = []
    for number, handler in enumerate(handlers, 1):
        label = f"{where} handler #{number}"
        try:
            spec, unknown = _handler(event, matcher, handler, path)
            _unique(spec, label, names)
        except Bad as bad:
            diags.append(_invalid(f"{label}: {bad}; it is skipped", path))
            continue
        diags += [_invalid(f"{label}: unknown key {k!r} is ignored", path) for k in unknown]
        hooks.append(spec)
    return tuple(hooks), diags


def _handler(
    event: str, matcher: str | None, handler: Any, path: Path
) -> tuple[HookSpec, list[str]]:
    if not isinstance(handler, dict):
        raise Bad(f"a handler must be a table, not {type_name(handler)}")
    kind = handler.get("type", "command")
    if isinstance(kind, str) and kind in HANDLER_FIELDS:
        return _other(event, matcher, kind, handler, path)
    if kind != "command":
        raise Bad(f"type must be 'command', 'http', 'mcp_tool', 'prompt' or 'agent', not {kind!r}")
    strict = handler.get("strict", False)
    if not isinstance(strict, bool):
        raise Bad(f"strict must be a boolean, not {type_name(strict)}")
    args = check_strings(handler, "args")
    spec = HookSpec(
        event=event,
        command=check_text(handler, "command"),
        format="satchel",
        matcher=matcher,
        args=args,
        timeout=check_timeout(handler),
        name=check_optional(handler, "name"),
        strict=strict,
        condition=check_optional(handler, "if"),
        description=check_optional(handler, "description"),
        path=path,
    )
    return spec, [k for k in handler if k not in _HANDLER_FIELDS]


def _other(
    event: str, matcher: str | None, kind: str, handler: dict[str, Any], path: Path
) -> tuple[HookSpec, list[str]]:
    """An http, mcp_tool, prompt or agent handler, with Claude Code's fields."""
    strict = handler.get("strict", False)
    if not isinstance(strict, bool):
        raise Bad(f"strict must be a boolean, not {type_name(strict)}")
    spec = other_handler(event, matcher, kind, handler, path, "")
    name = check_optional(handler, "name")
    spec = replace(spec, format="satchel", plugin=None, name=name, strict=strict, extras={})
    known = ("type", "name", "timeout", "if", "description", "strict", *HANDLER_FIELDS[kind])
    return spec, [k for k in handler if k not in known]


def _unique(spec: HookSpec, label: str, names: dict[str, str]) -> None:
    if spec.name is None:
        return
    if spec.name in names:
        raise Bad(f"{names[spec.name]} has the same name {spec.name!r}; names are unique")
    names[spec.name] = label


def read_settings_hooks(path: Path) -> Result:
    """The command hooks of one Claude Code ``settings.json`` (its ``hooks`` object);
    a file without one holds no hooks."""
    doc, problems = _document(path, MAX_SETTINGS, "JSON")
    if not isinstance(doc, dict) or "hooks" not in doc:
        return (), problems
    hooks, diags = claude_hooks(doc, path, "")
    return tuple(replace(h, plugin=None) for h in hooks), diags


def settings_http_urls(path: Path) -> Result2:
    """The URL patterns one Claude Code ``settings.json`` allows http hooks to post to
    (``allowedHttpHookUrls``, a list of strings); a file without the key allows none.
    A file that cannot be read is reported by `read_settings_hooks`, not here."""
    return _settings_list(path, "allowedHttpHookUrls", "a list of URL patterns")


def settings_http_env_vars(path: Path) -> tuple[tuple[str, ...] | None, list[Diagnostic]]:
    """The environment variables one Claude Code ``settings.json`` lets http hooks put
    in headers (``httpHookAllowedEnvVars``); None when the file does not set it."""
    doc, _ = _document(path, MAX_SETTINGS, "JSON")
    if not isinstance(doc, dict) or "httpHookAllowedEnvVars" not in doc:
        return None, []
    return _settings_list(path, "httpHookAllowedEnvVars", "a list of variable names", doc)


def _settings_list(path: Path, key: str, what: str, doc: Any = None) -> Result2:
    if doc is None:
        doc, _ = _document(path, MAX_SETTINGS, "JSON")
    if not isinstance(doc, dict) or key not in doc:
        return (), []
    value = doc[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return (), [_invalid(f"{key} must be {what}; it is ignored", path)]
    return tuple(value), []


def _document(path: Path, cap: int, kind: str) -> tuple[Any, list[Diagnostic]]:
    """The file's TOML or JSON document (`kind`); None, with the problem if there is
    one, when there is no file or it cannot be read or parsed."""
    data = _read(path, cap)
    if not isinstance(data, bytes):
        return None, [] if data is None else [data]
    parse, invalid = _parser(kind)
    try:
        return parse(data.decode("utf-8")), []
    except (UnicodeDecodeError, invalid) as e:
        return None, [_invalid(f"not valid {kind} ({e}); no hook of this file loads", path)]


def _read(path: Path, cap: int) -> bytes | Diagnostic | None:
    """The file's bytes; None when there is no file; a diagnostic when it cannot be read."""
    if not os.path.lexists(path):
        return None  # nothing to open: most projects have no hook file
    try:
        return read_bounded(path, cap)
    except FileProblem as e:
        if e.kind == "missing":
            return None
        why = f"larger than {cap:,} bytes" if e.kind == "too-large" else e.message
        return _invalid(f"cannot be read ({why}); no hook of this file loads", path)


def _invalid(message: str, path: Path) -> Diagnostic:
    return diagnostic(INVALID, message, path)


def _parser(kind: str) -> tuple[Callable[[str], Any], type[ValueError]]:
    """The parser of a hook file's format and the error it raises (the TOML parser is imported
    only when a TOML file is read)."""
    if kind == "TOML":
        from satchel.core import _toml

        return _toml.loads, ValueError
    return loads, ValueError
