"""Hooks: lifecycle events run as commands, with Claude Code-compatible tool gating.

`load_hooks` reads every source into a `HookSet` (``Environment.hooks``). Running them
is the runtime's (`satchel.runtime.hooks`: `HookRunner`). See docs/hooks.md.
"""

from satchel.hooks._events import BLOCKING, CLAUDE_EVENTS, EVENTS, VIBE_EVENTS, canonical
from satchel.hooks._files import read_hooks_toml, read_settings_hooks
from satchel.hooks._load import load_hooks
from satchel.hooks._matchers import Matcher, compile_matcher, mcp_tool_name, unsafe_reason
from satchel.hooks._model import Behavior, Exports, Hook, HookResult, HookSet, Outcome

__all__ = [
    "Behavior",
    "BLOCKING",
    "canonical",
    "CLAUDE_EVENTS",
    "compile_matcher",
    "EVENTS",
    "Exports",
    "Hook",
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
