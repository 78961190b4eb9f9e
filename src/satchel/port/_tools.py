"""A hook's matcher in the target's tool names, from the two hosts' tables
(`PortHooks.tools`, `PortHooks.mcp_tool`): each name the source's host gives a tool
is read as Claude Code's name for it, then written as the target's.

A matcher of exact names (``Bash``, ``Edit|Write``: letters, digits, ``_``, ``-`` and
``|``) is translated name by name. A name the source's host has and the target lacks
is left out of the matcher (the target fires no hook for that tool, so the hook never
ran for it there); when every name is left out, so is the hook. A regex is translated
word by word, and a regex naming a tool the target lacks is left out whole: port
cannot narrow a regex. A name neither table knows is kept as written. An MCP tool is
respelled from the source's template (``mcp__{server}__{tool}``) into the target's
(``mcp_{server}_{tool}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from satchel.hosts._port import PortHooks

__all__ = ["Translated", "translate"]

_NAMES = re.compile(r"[\w-]+(?:\|[\w-]+)*")
_ALL = ("", "*", ".*")


@dataclass(frozen=True, slots=True)
class Translated:
    """The matcher as the target writes it (None: the hook is not written), and the
    source's names the target has no tool for."""

    matcher: str | None
    missing: tuple[str, ...]
    whole: bool


def translate(matcher: str | None, source: PortHooks, target: PortHooks) -> Translated:
    """`matcher` (the source's spelling) in the target's."""
    if matcher is None or matcher in _ALL or not source.tools or not target.tools:
        return Translated(matcher, (), False)
    if _NAMES.fullmatch(matcher):
        return _names(matcher, source, target)
    return _regex(matcher, source, target)


def _claude(name: str, source: PortHooks) -> tuple[str, ...]:
    """Claude Code's names for the source's tool `name`."""
    named = tuple(k for k, v in source.tools.items() if v == name)
    return named or source.tool_aliases.get(name, ())


def _one(name: str, source: PortHooks, target: PortHooks) -> list[str] | None:
    """The target's names for the source's `name` ([]: it lacks the tool; None: the
    source's table does not know the name)."""
    mcp = _mcp(name, source)
    if mcp is not None:
        if target.mcp_tool is None:
            return []
        return [target.mcp_tool.format(server=mcp[0], tool=mcp[1])]
    claude = _claude(name, source)
    if not claude:
        return None
    return list(dict.fromkeys(target.tools[c] for c in claude if c in target.tools))


def _names(matcher: str, source: PortHooks, target: PortHooks) -> Translated:
    kept: list[str] = []
    missing: list[str] = []
    for name in matcher.split("|"):
        theirs = _one(name, source, target)
        if theirs is None:
            kept.append(name)
        elif not theirs:
            missing.append(name)
        else:
            kept.extend(theirs)
    written = "|".join(dict.fromkeys(kept))
    return Translated(written or None, tuple(missing), not kept)


def _regex(matcher: str, source: PortHooks, target: PortHooks) -> Translated:
    missing: list[str] = []

    def word(found: re.Match[str]) -> str:
        theirs = _one(found.group(0), source, target)
        if theirs is None:
            return found.group(0)
        if not theirs:
            missing.append(found.group(0))
            return found.group(0)
        return theirs[0] if len(theirs) == 1 else f"(?:{'|'.join(theirs)})"

    names = sorted({*source.tools.values(), *source.tool_aliases}, key=len, reverse=True)
    pattern = "|".join(re.escape(n) for n in names)
    written = re.sub(rf"(?<![\w:])(?:{pattern})(?![\w])", word, matcher)
    written = _mcp_prefix(written, source, target, missing)
    return Translated(None if missing else written, tuple(missing), bool(missing))


def _parts(template: str) -> tuple[str, str] | None:
    """The prefix before ``{server}`` and the separator before ``{tool}``."""
    found = re.fullmatch(r"(.*)\{server\}(.*)\{tool\}", template)
    return None if found is None else (found.group(1), found.group(2))


def _mcp(name: str, source: PortHooks) -> tuple[str, str] | None:
    """The server and tool an MCP tool's name in the source's spelling names."""
    parts = None if source.mcp_tool is None else _parts(source.mcp_tool)
    if parts is None or not name.startswith(parts[0]):
        return None
    server, sep, tool = name[len(parts[0]) :].partition(parts[1])
    return (server, tool) if sep and server and tool else None


def _mcp_prefix(text: str, source: PortHooks, target: PortHooks, missing: list[str]) -> str:
    """A regex's MCP names (``mcp__github__.*``) with the target's prefix and separator."""
    mine = None if source.mcp_tool is None else _parts(source.mcp_tool)
    if mine is None or mine[0] not in text:
        return text
    theirs = None if target.mcp_tool is None else _parts(target.mcp_tool)
    if theirs is None:
        missing.append(f"{mine[0]}...")
        return text
    here = re.compile(rf"{re.escape(mine[0])}(\w+?){re.escape(mine[1])}")
    return here.sub(lambda m: f"{theirs[0]}{m.group(1)}{theirs[1]}", text)
