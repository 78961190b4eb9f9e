"""Hooks defined in code: `HookMatcher`, in the shape of the Claude Agent SDK for
Python (``HookMatcher(matcher=..., hooks=[callback], timeout=...)``;
platform.claude.com/docs/en/agent-sdk/python, "HookMatcher" and "HookCallback").

A callback is ``callback(input_data, tool_use_id, context) -> dict``, a plain function
or a coroutine function; `input_data` is the event's JSON (Claude Code's field names),
`tool_use_id` the payload's ``tool_use_id`` (None when it has none) and `context` a
`HookContext`. The dict it returns is read as a command hook's stdout JSON (the SDK's
``continue_`` and ``async_`` spellings are read as ``continue`` and ``async``).

`callback_hooks` turns registered matchers into `Hook` values (handler type
``python``, source ``code``) that the runner runs in declared order after the
environment's own hooks. Nothing is called here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.origin import Origin
from satchel.hooks._events import MATCH_FIELD, event_named
from satchel.hooks._matchers import ALL, compile_matcher
from satchel.hooks._model import Hook
from satchel.hooks._spec import HookSpec

__all__ = ["CALLBACK_TIMEOUT", "HookCallback", "HookContext", "HookMatcher", "callback_hooks"]

CALLBACK_TIMEOUT = 60.0  # the SDK's default for a matcher without a timeout
CODE = Origin("")  # defined in code: the hook's source is ``code``


@model
class HookContext:
    """What a callback is told beside the event: the satchel `event` name and the
    handler's `name`. `signal` is the SDK's reserved abort signal (always None)."""

    event: str = ""
    name: str = ""
    signal: Any = None


HookCallback = Callable[
    [dict[str, Any], "str | None", HookContext],
    "Mapping[str, Any] | Awaitable[Mapping[str, Any] | None] | None",
]


@model
class HookMatcher:
    """Callbacks for one event's matcher: `matcher` a tool-name pattern as Claude Code
    writes it (None: every call), `hooks` the callbacks in order, `timeout` seconds each
    may take [60]."""

    matcher: str | None = None
    hooks: Sequence[HookCallback] = field(default_factory=tuple)
    timeout: float | None = None


def callback_hooks(
    registered: Mapping[str, Sequence[HookMatcher]],
) -> tuple[tuple[Hook, ...], tuple[Diagnostic, ...]]:
    """The hooks of `registered` (event -> matchers; an event is satchel's name or
    Claude Code's), in declared order; a matcher that does not compile is reported and
    its callbacks are left out."""
    hooks: list[Hook] = []
    diags: list[Diagnostic] = []
    for given, matchers in registered.items():
        event = event_named(given)
        for number, group in enumerate(matchers, 1):
            try:
                matcher = compile_matcher(group.matcher) if event in MATCH_FIELD else ALL
            except ValueError as e:
                message = f"code hooks of {given} matcher #{number}: {e}; they are skipped"
                diags.append(diagnostic("hook.matcher.invalid", message))
                continue
            hooks += [_hook(given, event, group, fn, matcher) for fn in group.hooks]
    return tuple(hooks), tuple(diags)


def _hook(given: str, event: str, group: HookMatcher, fn: HookCallback, matcher: Any) -> Hook:
    name = getattr(fn, "__qualname__", None) or repr(fn)
    spec = HookSpec(
        event=given,
        command=name,
        format="claude",
        matcher=group.matcher,
        timeout=group.timeout or CALLBACK_TIMEOUT,
        type="python",
        params=MappingProxyType({"callback": fn}),
    )
    return Hook(spec, event, CODE, matcher)
