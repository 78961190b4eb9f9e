"""A hook event under the name each host fires it by.

satchel names events canonically (`satchel.hooks._events`: ``before_tool_use``); a
host profile lists the events it fires in its own spelling (`Host.events`). Claude
Code, Codex, Kimi and satchel's own profiles spell them as Claude Code does
(``PreToolUse``); Gemini CLI, Cursor and Mistral Vibe have their own names. The
spelling of a profile is the table that shares the most names with its events.

Sources: Gemini CLI's and Vibe's tables are satchel.hooks' own (`GEMINI_EVENTS`,
`VIBE_EVENTS`); Cursor's comes from its hook reference
(https://cursor.com/docs/agent/hooks: camelCase names, ``beforeSubmitPrompt``), read
from the documentation, not from running Cursor.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.hooks._events import CLAUDE_EVENTS, GEMINI_EVENTS, VIBE_EVENTS

__all__ = ["SPELLINGS", "fired_as"]

_CLAUDE = MappingProxyType({event: name for name, event in CLAUDE_EVENTS.items()})
_GEMINI = MappingProxyType({event: name for name, event in GEMINI_EVENTS.items()})
_CURSOR = MappingProxyType(
    {
        "before_tool_use": "preToolUse",
        "after_tool_use": "postToolUse",
        "after_tool_failure": "postToolUseFailure",
        "user_prompt_submit": "beforeSubmitPrompt",
        "stop": "stop",
        "subagent_stop": "subagentStop",
        "session_start": "sessionStart",
        "session_end": "sessionEnd",
        "pre_compact": "preCompact",
    }
)
_VIBE = MappingProxyType({event: name for name, event in VIBE_EVENTS.items()})

# spelling -> canonical event -> the host's name for it
SPELLINGS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {"claude": _CLAUDE, "gemini": _GEMINI, "cursor": _CURSOR, "vibe": _VIBE}
)


def _spelling(events: tuple[str, ...]) -> Mapping[str, str]:
    """The table that names most of `events` (Claude Code's on a tie or none)."""
    fired = set(events)
    return max(SPELLINGS.values(), key=lambda table: len(fired & set(table.values())))


def fired_as(declared: str, event: str, events: tuple[str, ...]) -> str | None:
    """The name a host whose events are `events` fires a hook by: the `declared` name
    when the host fires it as written, else the host's name for the canonical `event`;
    None when the host never fires it."""
    if declared in events:
        return declared
    name = _spelling(events).get(event)
    return name if name is not None and name in events else None
