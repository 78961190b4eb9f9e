"""A hook event under the name each host fires it by.

satchel names events canonically (`satchel.hooks._events`: ``before_tool_use``); a host
profile lists the events it fires in its own spelling (`Host.events`). Claude Code,
Codex, Kimi and satchel's own profiles spell them as Claude Code does (``PreToolUse``);
Gemini CLI, Cursor and Mistral Vibe have their own names. Each spelling is a hook
format's host definition's (`HookDialect.spelling`: Cursor's from its hook reference,
https://cursor.com/docs/agent/hooks, read from the documentation, not from running
Cursor); the spelling of a profile is the one that shares the most names with its
events.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from satchel.hosts._dialects import hook_dialects

__all__ = ["SPELLINGS", "fired_as"]

# hook format -> canonical event -> the host's name for it
SPELLINGS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {d.format: d.spelling() for d in hook_dialects() if d.format is not None}
)


def _spelling(events: tuple[str, ...]) -> Mapping[str, str]:
    """The spelling that names most of `events` (the first on a tie)."""
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
