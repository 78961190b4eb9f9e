"""Hooks: lifecycle events run as commands, with Claude Code-compatible tool gating.

`load_hooks` reads every source into a `HookSet` (``Environment.hooks``). Running them
is the runtime's (`satchel.runtime.hooks`: `HookRunner`). See docs/hooks.md.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.hooks._callbacks import HookContext, HookMatcher
    from satchel.hooks._events import (
        BLOCKING,
        CATALOGUE,
        CLAUDE_EVENTS,
        EVENTS,
        VIBE_EVENTS,
        Event,
        canonical,
    )
    from satchel.hooks._files import read_hooks_toml, read_settings_hooks
    from satchel.hooks._load import load_hooks
    from satchel.hooks._matchers import Matcher, compile_matcher, mcp_tool_name, unsafe_reason
    from satchel.hooks._model import Behavior, Exports, Hook, HookResult, HookSet, Outcome
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.hooks._callbacks": ("HookContext", "HookMatcher"),
            "satchel.hooks._events": (
                "BLOCKING",
                "CATALOGUE",
                "CLAUDE_EVENTS",
                "EVENTS",
                "Event",
                "VIBE_EVENTS",
                "canonical",
            ),
            "satchel.hooks._files": ("read_hooks_toml", "read_settings_hooks"),
            "satchel.hooks._load": ("load_hooks",),
            "satchel.hooks._matchers": (
                "Matcher",
                "compile_matcher",
                "mcp_tool_name",
                "unsafe_reason",
            ),
            "satchel.hooks._model": (
                "Behavior",
                "Exports",
                "Hook",
                "HookResult",
                "HookSet",
                "Outcome",
            ),
        },
    )

__all__ = [
    "Behavior",
    "BLOCKING",
    "canonical",
    "CATALOGUE",
    "CLAUDE_EVENTS",
    "compile_matcher",
    "Event",
    "EVENTS",
    "Exports",
    "Hook",
    "HookContext",
    "HookMatcher",
    "HookResult",
    "HookSet",
    "load_hooks",
    "Matcher",
    "mcp_tool_name",
    "Outcome",
    "read_hooks_toml",
    "read_settings_hooks",
    "unsafe_reason",
    "VIBE_EVENTS",
]
