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
(``mcp_{server}_{tool}``), and a regex's bare prefix (``mcp__.*``) into the target's
(``mcp_.*``).

What port cannot read for sure drops the hook (`Translated.unsure`): an MCP name that
splits into a server and a tool more than one way (``mcp_my_server_do_it`` in Gemini
CLI's spelling, whose separator may be in a server's name) unless exactly one of the
splits names one of the plugin's own servers; a regex's MCP prefix followed by what
names no server; a tool's name right after a regex escape other than a boundary
(``\\wRead``; after ``\\b`` it is a name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from satchel.hosts._port import PortHooks

__all__ = ["Translated", "translate"]

_NAMES = re.compile(r"[\w-]+(?:\|[\w-]+)*")
_ALL = ("", "*", ".*")
# regex escapes that match no letter: a tool's name may follow them
_BOUNDS = frozenset("bAsWtnrfv")


@dataclass(frozen=True, slots=True)
class Translated:
    """The matcher as the target writes it (None: the hook is not written), the
    source's names the target has no tool for, and why port cannot translate it
    (`unsure`: None when it can)."""

    matcher: str | None
    missing: tuple[str, ...]
    whole: bool
    unsure: str | None = None


class _Unsure(Exception):
    """A part of the matcher port cannot read for sure (its args: why)."""


def translate(
    matcher: str | None, source: PortHooks, target: PortHooks, servers: tuple[str, ...] = ()
) -> Translated:
    """`matcher` (the source's spelling) in the target's; `servers`: the plugin's own
    MCP servers, which tell an MCP name's server from its tool."""
    if matcher is None or matcher in _ALL or not source.tools or not target.tools:
        return Translated(matcher, (), False)
    try:
        if _NAMES.fullmatch(matcher):
            return _names(matcher, source, target, servers)
        return _regex(matcher, source, target, servers)
    except _Unsure as e:
        return Translated(None, (), True, str(e.args[0]))


def _claude(name: str, source: PortHooks) -> tuple[str, ...]:
    """Claude Code's names for the source's tool `name`."""
    named = tuple(k for k, v in source.tools.items() if v == name)
    return named or source.tool_aliases.get(name, ())


def _one(
    name: str, source: PortHooks, target: PortHooks, servers: tuple[str, ...]
) -> list[str] | None:
    """The target's names for the source's `name` ([]: it lacks the tool; None: the
    source's table does not know the name)."""
    mine = None if source.mcp_tool is None else _parts(source.mcp_tool)
    if mine is not None and name.startswith(mine[0]):
        splits = _splits(name[len(mine[0]) :], mine[1], servers, open_end=False)
        if splits:
            if target.mcp_tool is None:
                return []
            server, tool = _only(name, splits)
            return [target.mcp_tool.format(server=server, tool=tool)]
    claude = _claude(name, source)
    if not claude:
        return None
    return list(dict.fromkeys(target.tools[c] for c in claude if c in target.tools))


def _names(
    matcher: str, source: PortHooks, target: PortHooks, servers: tuple[str, ...]
) -> Translated:
    kept: list[str] = []
    missing: list[str] = []
    for name in matcher.split("|"):
        theirs = _one(name, source, target, servers)
        if theirs is None:
            kept.append(name)
        elif not theirs:
            missing.append(name)
        else:
            kept.extend(theirs)
    written = "|".join(dict.fromkeys(kept))
    return Translated(written or None, tuple(missing), not kept)


def _regex(
    matcher: str, source: PortHooks, target: PortHooks, servers: tuple[str, ...]
) -> Translated:
    missing: list[str] = []

    def word(found: re.Match[str]) -> str:
        name = found.group(0)
        at = _word_start(matcher, found.start())
        if at is False:
            return name  # inside a longer word: not this tool's name
        if at is None:
            escape = matcher[found.start() - 2 : found.start()]
            raise _Unsure(f"{name} follows the escape {escape}, so it may not be a tool's name")
        theirs = _one(name, source, target, servers)
        if theirs is None:
            return name
        if not theirs:
            missing.append(name)
            return name
        return theirs[0] if len(theirs) == 1 else f"(?:{'|'.join(theirs)})"

    names = sorted({*source.tools.values(), *source.tool_aliases}, key=len, reverse=True)
    pattern = "|".join(re.escape(n) for n in names)
    written = re.sub(rf"(?:{pattern})(?!\w)", word, matcher)
    written = _mcp_prefix(written, source, target, servers, missing)
    return Translated(None if missing else written, tuple(missing), bool(missing))


def _word_start(text: str, at: int) -> bool | None:
    """Whether a word starts at `at` of the regex `text` (None: it follows an escape
    that may stand for a letter, ``\\w``, ``\\d``...)."""
    before = text[at - 1] if at else ""
    if not before:
        return True
    if before == ":":
        return False
    if not (before.isalnum() or before == "_"):
        return True
    slashes = len(text[: at - 1]) - len(text[: at - 1].rstrip("\\"))
    if slashes % 2 == 0:
        return False  # a letter of the regex's own
    return True if before in _BOUNDS else None


def _parts(template: str) -> tuple[str, str] | None:
    """The prefix before ``{server}`` and the separator before ``{tool}``."""
    found = re.fullmatch(r"(.*)\{server\}(.*)\{tool\}", template)
    return None if found is None else (found.group(1), found.group(2))


def _splits(
    rest: str, sep: str, servers: tuple[str, ...], *, open_end: bool
) -> list[tuple[str, str]]:
    """The ways `rest` (an MCP name after its prefix) reads as a server, `sep` and a
    tool (`open_end`: the regex goes on, the tool may be empty); of several, those
    naming one of the plugin's `servers` when any does."""
    found = [
        (rest[:i], rest[i + len(sep) :])
        for i in range(1, len(rest))
        if rest.startswith(sep, i) and (open_end or i + len(sep) < len(rest))
    ]
    known = [f for f in found if f[0] in servers]
    return known if len(found) > 1 and known else found


def _only(name: str, splits: list[tuple[str, str]]) -> tuple[str, str]:
    """The one server and tool `name` names (`_Unsure` when it names several)."""
    if len(splits) == 1:
        return splits[0]
    read = ", ".join(f"server {s!r} tool {t!r}" if t else f"server {s!r}" for s, t in splits)
    raise _Unsure(
        f"{name} reads as more than one MCP server's ({read}), and the plugin's own "
        "servers do not tell which"
    )


def _mcp_prefix(
    text: str,
    source: PortHooks,
    target: PortHooks,
    servers: tuple[str, ...],
    missing: list[str],
) -> str:
    """A regex's MCP names (``mcp__github__.*``, ``mcp__.*``) with the target's prefix
    and separator."""
    mine = None if source.mcp_tool is None else _parts(source.mcp_tool)
    if mine is None or mine[0] not in text:
        return text
    theirs = None if target.mcp_tool is None else _parts(target.mcp_tool)
    if theirs is None:
        missing.append(f"{mine[0]}...")
        return text

    def spelled(found: re.Match[str]) -> str:
        at = _word_start(text, found.start())
        if at is False:
            return found.group(0)
        rest, after = found.group(1), text[found.end() : found.end() + 1]
        open_end = after not in ("", "|", ")")
        splits = _splits(rest, mine[1], servers, open_end=open_end)
        if at is None or (not splits and after != "."):
            raise _Unsure(f"port cannot read which MCP server {found.group(0)!r} names")
        if not splits:
            return f"{theirs[0]}{rest}"  # a bare prefix: the regex goes on
        server, tool = _only(found.group(0), splits)
        return f"{theirs[0]}{server}{theirs[1]}{tool}"

    return re.sub(rf"{re.escape(mine[0])}(\w*)", spelled, text)
