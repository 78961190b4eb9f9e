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
(``mcp_.*``). A host may name the tools of a plugin's own servers apart
(`PortHooks.plugin_mcp_tool`, Claude Code's ``mcp__plugin_{plugin}_{server}__{tool}``):
such a name is the target's name for the plugin's own server, and a name of a host
that does not name them apart, for a server the plugin declares, is the target's
names for both (``mcp_desk_lookup`` is ``mcp__plugin_guard_desk__lookup|mcp__desk__lookup``).

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
# characters a host replaces with _ in a plugin's name in an MCP tool's name
_SAFE = re.compile(r"[^A-Za-z0-9_-]")


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


@dataclass(frozen=True, slots=True)
class _Spelling:
    """One way a host names an MCP tool: what comes before the server, the separator
    before the tool, and whether it names only the plugin's own servers (`own`)."""

    prefix: str
    sep: str
    own: bool


@dataclass(frozen=True, slots=True)
class _Plugin:
    """What tells an MCP name's server from its tool: the plugin's `name` and its own
    MCP `servers`."""

    name: str
    servers: tuple[str, ...]


def translate(
    matcher: str | None,
    source: PortHooks,
    target: PortHooks,
    servers: tuple[str, ...] = (),
    plugin: str = "",
) -> Translated:
    """`matcher` (the source's spelling) in the target's; `servers`: the plugin's own
    MCP servers, which tell an MCP name's server from its tool; `plugin`: its name,
    in a host's name for its own servers' tools."""
    if matcher is None or matcher in _ALL or not source.tools or not target.tools:
        return Translated(matcher, (), False)
    mine = _Plugin(plugin, servers)
    try:
        if _NAMES.fullmatch(matcher):
            return _names(matcher, source, target, mine)
        return _regex(matcher, source, target, mine)
    except _Unsure as e:
        return Translated(None, (), True, str(e.args[0]))


def _claude(name: str, source: PortHooks) -> tuple[str, ...]:
    """Claude Code's names for the source's tool `name`."""
    named = tuple(k for k, v in source.tools.items() if v == name)
    return named or source.tool_aliases.get(name, ())


def _spellings(hooks: PortHooks, plugin: _Plugin) -> tuple[_Spelling, ...]:
    """The host's spellings of an MCP tool, its plugin's own servers' first."""
    own = hooks.plugin_mcp_tool
    templates = (
        [] if own is None else [(own.replace("{plugin}", _SAFE.sub("_", plugin.name)), True)]
    )
    if hooks.mcp_tool is not None:
        templates.append((hooks.mcp_tool, False))
    found = [(_parts(t), mine) for t, mine in templates]
    return tuple(_Spelling(p[0], p[1], mine) for p, mine in found if p is not None)


def _mcp_names(
    server: str, tool: str, own: bool, source: PortHooks, target: PortHooks, plugin: _Plugin
) -> list[str]:
    """The target's names for an MCP server's tool the source names ([]: the target
    names none). A server the source names as the plugin's own is the target's own;
    one a source without a spelling of its own names, and the plugin declares, is
    any server of that name, the plugin's own too: the target's names for both."""
    theirs = _spellings(target, plugin)
    general = [s for s in theirs if not s.own]
    distinct = [s for s in theirs if s.own]
    if own:
        chosen = distinct or general
    elif server in plugin.servers and not any(s.own for s in _spellings(source, plugin)):
        chosen = distinct + general
    else:
        chosen = general
    return [f"{s.prefix}{server}{s.sep}{tool}" for s in chosen]


def _one(name: str, source: PortHooks, target: PortHooks, plugin: _Plugin) -> list[str] | None:
    """The target's names for the source's `name` ([]: it lacks the tool; None: the
    source's table does not know the name)."""
    for spelling in _spellings(source, plugin):
        if not name.startswith(spelling.prefix):
            continue
        rest = name[len(spelling.prefix) :]
        splits = _splits(rest, spelling.sep, plugin.servers, open_end=False)
        if not spelling.prefix:
            # no prefix (Mistral Vibe's <server>_<tool>): an MCP tool only when it is
            # no tool of the host's own and names one of the plugin's servers
            own = _claude(name, source)
            splits = [] if own else [s for s in splits if s[0] in plugin.servers]
        if splits:
            server, tool = _only(name, splits)
            return _mcp_names(server, tool, spelling.own, source, target, plugin)
    claude = _claude(name, source)
    if not claude:
        return None
    return list(dict.fromkeys(target.tools[c] for c in claude if c in target.tools))


def _names(matcher: str, source: PortHooks, target: PortHooks, plugin: _Plugin) -> Translated:
    kept: list[str] = []
    missing: list[str] = []
    for name in matcher.split("|"):
        theirs = _one(name, source, target, plugin)
        if theirs is None:
            kept.append(name)
        elif not theirs:
            missing.append(name)
        else:
            kept.extend(theirs)
    written = "|".join(dict.fromkeys(kept))
    return Translated(written or None, tuple(missing), not kept)


def _regex(matcher: str, source: PortHooks, target: PortHooks, plugin: _Plugin) -> Translated:
    missing: list[str] = []

    def word(found: re.Match[str]) -> str:
        name = found.group(0)
        at = _word_start(matcher, found.start())
        if at is False:
            return name  # inside a longer word: not this tool's name
        if at is None:
            escape = matcher[found.start() - 2 : found.start()]
            raise _Unsure(f"{name} follows the escape {escape}, so it may not be a tool's name")
        theirs = _one(name, source, target, plugin)
        if theirs is None:
            return name
        if not theirs:
            missing.append(name)
            return name
        return theirs[0] if len(theirs) == 1 else f"(?:{'|'.join(theirs)})"

    names = sorted({*source.tools.values(), *source.tool_aliases}, key=len, reverse=True)
    pattern = "|".join(re.escape(n) for n in names)
    written = re.sub(rf"(?:{pattern})(?!\w)", word, matcher)
    written = _mcp_prefix(written, source, target, plugin, missing)
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
    text: str, source: PortHooks, target: PortHooks, plugin: _Plugin, missing: list[str]
) -> str:
    """A regex's MCP names (``mcp__github__.*``, ``mcp__.*``) with the target's prefix
    and separator."""
    mine = {s.prefix: s for s in _spellings(source, plugin) if s.prefix}
    if not any(p in text for p in mine):
        return text
    theirs = _spellings(target, plugin)
    if not theirs:
        missing.append(f"{min(mine, key=len)}...")
        return text

    def spelled(found: re.Match[str]) -> str:
        at = _word_start(text, found.start())
        if at is False:
            return found.group(0)
        spelling, rest = mine[found.group(1)], found.group(2)
        after = text[found.end() : found.end() + 1]
        open_end = after not in ("", "|", ")")
        splits = _splits(rest, spelling.sep, plugin.servers, open_end=open_end)
        if at is None or (not splits and after != "."):
            raise _Unsure(f"port cannot read which MCP server {found.group(0)!r} names")
        if not splits:
            return _bare(found.group(0), spelling, theirs, rest)
        server, tool = _only(found.group(0), splits)
        names = _mcp_names(server, tool, spelling.own, source, target, plugin)
        return names[0] if len(names) == 1 else f"(?:{'|'.join(names)})"

    prefixes = "|".join(re.escape(p) for p in sorted(mine, key=len, reverse=True))
    return re.sub(rf"({prefixes})(\w*)", spelled, text)


def _bare(found: str, spelling: _Spelling, theirs: tuple[_Spelling, ...], rest: str) -> str:
    """A regex's bare prefix (the regex goes on) in the target's spelling: every MCP
    tool, or every tool of the plugin's own servers where the target names them apart."""
    same = [s for s in theirs if s.own == spelling.own]
    if same and not same[0].prefix:
        raise _Unsure(f"{found!r} names every MCP tool, which the target names with no prefix")
    if not same:
        raise _Unsure(
            f"{found!r} names every tool of the plugin's own MCP servers, which the "
            "target does not name apart from other servers' tools"
        )
    return f"{same[0].prefix}{rest}"
