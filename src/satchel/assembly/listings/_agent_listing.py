"""The agent-type listing a host sends its model, line for line.

Claude Code (2.1.332 and 2.1.337, read in the binary and checked by running it:
tests/hostloop/test_context.py) sends, under ``Available agent types for the Agent
tool:``, one line per agent type::

    - NAME: DESCRIPTION (Tools: TOOLS)

The description is the file's, as parsed (a multi-line one stays multi-line). TOOLS
is ``All tools`` when the file names none (``tools: "*"`` is none), the names as
written joined by ``", "``; ``All tools except A, B`` for ``disallowedTools`` alone;
with both, the tools not disallowed, ``None`` when that leaves none. The lines are
sorted by name: names of ASCII characters only first, in the collation order of
JavaScript's ``localeCompare`` (ICU's root collation: punctuation before digits
before letters, letters case-blind, lower case first on a tie), then the others by
UTF-16 code units. The host's own built-in types (``general-purpose``, ``Explore``,
``Plan``, ...) are in its listing too; satchel lists the types it loaded, which
replace a built-in of the same name as they do in Claude Code.
"""

from __future__ import annotations

from collections.abc import Iterable

from satchel.agents import AgentType

__all__ = ["CLAUDE_AGENTS_HEAD", "agent_line", "agent_listing", "listing_order"]

CLAUDE_AGENTS_HEAD = "Available agent types for the Agent tool:"
_LISTED = frozenset(("claude-code",))
# ICU root collation's primary order of the ASCII characters that are not letters or
# digits (the variable characters, in DUCET order), then digits, then letters.
_PUNCTUATION = "\t\n\v\f\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
_ORDER = {c: i for i, c in enumerate(_PUNCTUATION + "0123456789abcdefghijklmnopqrstuvwxyz")}


def _tools(agent: AgentType) -> str:
    allowed = tuple(agent.tools_as_written or ())
    if "*" in allowed:
        allowed = ()
    denied = tuple(agent.disabled_tools_as_written)
    if allowed and denied:
        kept = [t for t in allowed if t not in set(denied)]
        return ", ".join(kept) if kept else "None"
    if allowed:
        return ", ".join(allowed)
    if denied:
        return f"All tools except {', '.join(denied)}"
    return "All tools"


def agent_line(agent: AgentType) -> str:
    """`agent`'s line in Claude Code's listing."""
    return f"- {agent.name}: {agent.description} (Tools: {_tools(agent)})"


def listing_order(name: str) -> tuple[int, tuple[int, ...], tuple[int, ...], bytes]:
    """The sort key of `name` in Claude Code's listing (see the module's text)."""
    if not name.isascii():
        return (1, (), (), name.encode("utf-16-be"))
    low = name.lower()
    primary = tuple(_ORDER.get(c, 128 + ord(c)) for c in low)
    tertiary = tuple(int(c.isupper()) for c in name)
    return (0, primary, tertiary, b"")


def agent_listing(agents: Iterable[AgentType], host: str | None) -> tuple[str, ...] | None:
    """The lines `host` lists `agents` with, in its order; None for a host whose
    listing satchel does not reproduce (only ``claude-code`` is)."""
    if host not in _LISTED:
        return None
    ordered = sorted(agents, key=lambda a: listing_order(a.name))
    return tuple(agent_line(a) for a in ordered)
