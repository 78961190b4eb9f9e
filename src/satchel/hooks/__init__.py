"""Hooks: lifecycle events run as commands, with Claude Code-compatible tool gating.

`load_hooks` reads every source into a `HookSet` (``Environment.hooks``);
`HookRunner(environment).run(event, payload)` (or ``await dispatch(...)``) fires an
event at every matching hook in parallel and aggregates their answers into an
`Outcome`. See docs/hooks.md.
"""

from satchel.hooks.aggregate import aggregate
from satchel.hooks.events import BLOCKING, CLAUDE_EVENTS, EVENTS, VIBE_EVENTS, canonical
from satchel.hooks.files import read_hooks_toml, read_settings_hooks
from satchel.hooks.load import load_hooks
from satchel.hooks.matchers import Matcher, compile_matcher, mcp_tool_name, unsafe_reason
from satchel.hooks.model import Behavior, Exports, Hook, HookResult, HookSet, Outcome
from satchel.hooks.output import read_result
from satchel.hooks.runner import DEFAULT_TIMEOUT, MAX_TIMEOUT, HookRunner, event_variable

__all__ = [
    "aggregate",
    "Behavior",
    "BLOCKING",
    "canonical",
    "CLAUDE_EVENTS",
    "compile_matcher",
    "DEFAULT_TIMEOUT",
    "event_variable",
    "EVENTS",
    "Exports",
    "Hook",
    "HookResult",
    "HookRunner",
    "HookSet",
    "load_hooks",
    "Matcher",
    "MAX_TIMEOUT",
    "mcp_tool_name",
    "Outcome",
    "read_hooks_toml",
    "read_result",
    "read_settings_hooks",
    "unsafe_reason",
    "VIBE_EVENTS",
]
