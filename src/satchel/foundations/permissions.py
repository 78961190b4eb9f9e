"""Claude Code's permission-rule syntax: one engine for `allowed-tools` and hook `if`.

A rule is ``Tool`` or ``Tool(specifier)``. A skill's `allowed-tools` allows a call when
ANY of its rules matches; a hook's `if` holds when its one rule matches.

Parsing (`parse_rule`, `parse_rules`):

- Whitespace around the rule is trimmed. The specifier is everything between the first
  ``(`` and the last ``)``, which must end the text; parentheses inside it need not
  balance. A ``(`` not closed at the end, a ``)`` with no ``(``, an empty tool, a tool
  holding a blank, an empty rule or one over 1,000 characters is a `ValueError`
  (`parse_rules`: a ``permission.rule.invalid`` warning, and the rule is left out).
- ``Tool()`` and ``Tool(*)`` are the bare tool: every call of it matches.

Tool part (exact and case-sensitive otherwise):

- ``*`` alone matches any tool; a ``*`` inside (``mcp__github__*``) is a glob over the
  tool name; ``mcp__<server>`` (no second ``__``) matches every tool of that server,
  ``mcp__<server>__<anything>``, as Claude Code's permission rules do.

Specifier, matched against the input field `TOOL_INPUT_KEYS` names (the first one that
holds a non-empty string; none → no match). In a glob, ``*`` stands for any run of
characters; there are no other wildcards and no escapes.

- Bash, PowerShell (``command``, else ``cmd``): ``prefix:*`` or ``prefix *`` matches the
  prefix alone or followed by a space (``git:*`` matches ``git`` and ``git status``, not
  ``gitk``); another ``*`` makes a glob (``git * --force``); with no ``*`` the command
  must equal the specifier, whitespace around both trimmed. A compound command is split
  on ``&&``, ``||``, ``;``, ``|``, ``|&``, ``&`` and newlines outside quotes (single
  quotes, double quotes and backslash escapes are honoured; ``2>&1``, ``&>`` and ``>|``
  are redirections, not separators) and EVERY part must match. A command holding
  ``$(``, a backtick, ``<(`` or ``>(`` outside single quotes matches only a bare rule.
- Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, LS (``file_path``,
  ``notebook_path``, ``path``): a gitignore-style path pattern. ``//abs/path`` is an
  absolute path, ``~/x`` is under `home`, ``/x``, ``./x`` and ``x/y`` are under `cwd`
  (Claude Code reads ``/x`` against the settings file; we use the project cwd). ``*``
  matches within one path segment and a ``**`` segment any number of segments (``src/**``
  also matches ``src``). A pattern with no slash (``*.env``) matches a file or directory
  of that name at any depth, anywhere. As in gitignore, a pattern that matches a
  directory matches everything under it. The input path is joined to `cwd` and
  normalized lexically (`os.path.normpath`, no symlinks resolved). Without `cwd`,
  relative patterns are compared with the input path as given; without `home`, ``~/``
  patterns never match.
- WebFetch (``url``): ``domain:example.com`` matches that host exactly (case-insensitive),
  ``domain:*.example.com`` any subdomain (not the bare domain), ``domain:*`` any host. Any
  other WebFetch specifier, or a URL with no readable host, never matches.
- WebSearch (``query``): a glob. Agent, Task (``subagent_type``): exact. Skill (``skill``,
  else ``name``): exact.
- Any other tool: a glob against ``command`` when the input has one, else no match.

A hook's `if` is judged by `Rule.fires`, Claude Code's hook filter
(code.claude.com/docs/en/hooks-guide, "Filter by tool name and arguments with the if
field"), which differs for shell commands only: ANY simple command matching is enough
("each subcommand is checked"), the commands inside ``$(...)`` and backticks are
checked too, a pattern that names more than the command (``Bash(git push *)``) fires on
any substitution or ``$VAR``, and a command that cannot be parsed (an unclosed quote,
``$(`` or backtick) fires: "The filter also fails open".

Matching never uses backtracking regexes: Python's `re` takes time exponential in the
number of ``*`` on ``.*a.*a.*a…`` patterns, so a glob is matched as literal chunks found
leftmost with `str.find` (exact for ``*``-only globs), and a path pattern segment by
segment with a set of positions: time grows with len(pattern) × len(input), no worse.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = [
    "MAX_RULE_LENGTH",
    "TOOL_INPUT_KEYS",
    "Rule",
    "RuleSet",
    "covers",
    "parse_rule",
    "parse_rules",
]

MAX_RULE_LENGTH = 1000

_SHELL_TOOLS = frozenset(("Bash", "PowerShell"))
_PATH_TOOLS = frozenset(
    ("Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS")
)
_EXACT_TOOLS = frozenset(("Agent", "Task", "Skill"))
_PATH_KEYS = ("file_path", "notebook_path", "path")
TOOL_INPUT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "Bash": ("command", "cmd"),
        "PowerShell": ("command", "cmd"),
        **dict.fromkeys(sorted(_PATH_TOOLS), _PATH_KEYS),
        "WebFetch": ("url",),
        "WebSearch": ("query",),
        "Agent": ("subagent_type",),
        "Task": ("subagent_type",),
        "Skill": ("skill", "name"),
    }
)
_OTHER_KEYS = ("command",)
_SUBSTITUTIONS = ("$(", "<(", ">(")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-_:")


@model
class Rule:
    """One permission rule: `tool` and `specifier` (None when bare) parsed from `text`."""

    text: str
    tool: str
    specifier: str | None

    def matches(
        self,
        tool: str,
        tool_input: Mapping[str, Any] | None = None,
        *,
        cwd: Path | None = None,
        home: Path | None = None,
    ) -> bool:
        """Whether a call of `tool` with `tool_input` falls under this rule."""
        if not _tool_matches(self.tool, tool):
            return False
        if self.specifier is None:
            return True
        value = _input_value(tool, tool_input or {})
        if value is None:
            return False
        return _specifier_matches(tool, self.specifier, value, cwd, home)

    def fires(
        self,
        tool: str,
        tool_input: Mapping[str, Any] | None = None,
        *,
        cwd: Path | None = None,
        home: Path | None = None,
    ) -> bool:
        """Whether a hook whose `if` is this rule runs for the call: `matches`, except
        that a shell command is judged as Claude Code's hook filter judges it (above)."""
        if tool not in _SHELL_TOOLS or self.specifier is None:
            return self.matches(tool, tool_input, cwd=cwd, home=home)
        if not _tool_matches(self.tool, tool):
            return False
        value = _input_value(tool, tool_input or {})
        return value is not None and _hook_command_matches(self.specifier, value)


@model
class RuleSet:
    """Rules read together, as a skill's `allowed-tools`: a call is allowed when any
    rule matches it."""

    rules: tuple[Rule, ...]

    def first_match(
        self,
        tool: str,
        tool_input: Mapping[str, Any] | None = None,
        *,
        cwd: Path | None = None,
        home: Path | None = None,
    ) -> Rule | None:
        """The first rule that matches the call, or None."""
        for rule in self.rules:
            if rule.matches(tool, tool_input, cwd=cwd, home=home):
                return rule
        return None


def parse_rule(text: str) -> Rule:
    """Parse one rule; raise `ValueError` saying why when it cannot be read."""
    stripped = text.strip()
    if not stripped:
        raise _invalid(text, "it is empty")
    if len(stripped) > MAX_RULE_LENGTH:
        raise _invalid(
            text, f"it is {len(stripped)} characters long; the limit is {MAX_RULE_LENGTH}"
        )
    tool, paren, rest = stripped.partition("(")
    if paren and not rest.endswith(")"):
        raise _invalid(text, 'it opens "(" but does not end with ")"')
    if ")" in tool:
        raise _invalid(text, 'it has ")" without "("')
    if not tool:
        raise _invalid(text, 'it names no tool before "("')
    if any(c.isspace() for c in tool):
        raise _invalid(text, f"the tool name {tool!r} holds a blank")
    specifier = rest[:-1].strip()
    return Rule(text, tool, None if specifier in ("", "*") else specifier)


def parse_rules(
    texts: Iterable[str], *, path: Path | None = None
) -> tuple[tuple[Rule, ...], tuple[Diagnostic, ...]]:
    """Parse every rule; each that cannot be read becomes a warning and is left out."""
    rules: list[Rule] = []
    diags: list[Diagnostic] = []
    for text in texts:
        try:
            rules.append(parse_rule(text))
        except ValueError as e:
            diags.append(
                diagnostic(
                    "permission.rule.invalid",
                    f"{e}; the rule is left out",
                    path,
                    hint="write a rule as Tool or Tool(specifier), like Bash(git status:*)",
                )
            )
    return tuple(rules), tuple(diags)


def covers(wide: Rule, narrow: Rule) -> bool:
    """Whether every call `narrow` allows is allowed by `wide` too (the audit of a
    change asks it of `allowed-tools`). Conservative: False whenever it cannot be
    shown, so a rule it cannot compare counts as broader. A glob in `narrow` is read
    as its literal text by `wide`'s matcher, which is exact for ``*``-only globs: a
    ``*`` of `narrow` can only fall inside a ``*`` of `wide`."""
    if not _tool_matches(wide.tool, narrow.tool):
        return False
    if wide.specifier is None or wide.specifier == narrow.specifier:
        return True
    if narrow.specifier is None or (wide.tool != narrow.tool and "*" not in wide.tool):
        return False
    tool, spec, outer = narrow.tool, narrow.specifier, wide.specifier
    if tool in _SHELL_TOOLS:
        pattern = _command_pattern(spec)
        texts = (
            [spec]
            if pattern.with_args is None
            else ["*".join(pattern.whole), "*".join(pattern.with_args)]
        )
        return all(_command_matches(outer, text) for text in texts)
    if tool in _PATH_TOOLS:
        inside = outer.endswith("/**") and spec.startswith(outer[:-2]) and ".." not in spec
        return outer == "**" or inside
    if tool == "WebFetch":
        return outer == "domain:*" or (
            outer.startswith("domain:*.")
            and spec.startswith("domain:")
            and spec.endswith(outer[8:])
        )
    if tool in _EXACT_TOOLS:
        return False
    return _glob_match(_chunks(outer), spec)


def _invalid(text: str, why: str) -> ValueError:
    shown = repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
    return ValueError(f"cannot parse permission rule {shown}: {why}")


def _tool_matches(pattern: str, tool: str) -> bool:
    if pattern in ("*", tool):
        return True
    if "*" in pattern:
        return _glob_match(_chunks(pattern), tool)
    server = pattern.removeprefix("mcp__")
    is_server = server != pattern and bool(server) and "__" not in server
    return is_server and tool.startswith(pattern + "__")


def _input_value(tool: str, tool_input: Mapping[str, Any]) -> str | None:
    for key in TOOL_INPUT_KEYS.get(tool, _OTHER_KEYS):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _specifier_matches(
    tool: str, specifier: str, value: str, cwd: Path | None, home: Path | None
) -> bool:
    if tool in _SHELL_TOOLS:
        return _command_matches(specifier, value)
    if tool in _PATH_TOOLS:
        return _path_matches(specifier, value, cwd, home)
    if tool == "WebFetch":
        return _domain_matches(specifier, value)
    if tool in _EXACT_TOOLS:
        return value == specifier
    return _glob_match(_chunks(specifier), value)


# Globs: `*` is any run of characters, everything else is literal.


@lru_cache(maxsize=1024)
def _chunks(pattern: str) -> tuple[str, ...]:
    return tuple(pattern.split("*"))


def _glob_match(chunks: tuple[str, ...], text: str) -> bool:
    """Whether `text` matches the glob split into literal `chunks` at each `*`: the
    first chunk is a prefix, the last a suffix, the others found leftmost in order."""
    first, last = chunks[0], chunks[-1]
    if len(chunks) == 1:
        return text == first
    end = len(text) - len(last)
    if end < len(first) or not text.startswith(first) or not text.endswith(last):
        return False
    pos = len(first)
    for chunk in chunks[1:-1]:
        pos = text.find(chunk, pos, end)
        if pos < 0:
            return False
        pos += len(chunk)
    return True


# Shell commands.


@model
class _CommandPattern:
    whole: tuple[str, ...]  # glob chunks the whole command may match
    with_args: tuple[str, ...] | None  # for `prefix:*`: the prefix, a space, anything


@lru_cache(maxsize=1024)
def _command_pattern(specifier: str) -> _CommandPattern:
    for suffix in (":*", " *"):
        prefix = specifier.removesuffix(suffix).rstrip()
        if specifier.endswith(suffix) and prefix:
            return _CommandPattern(_chunks(prefix), _chunks(prefix + " *"))
    return _CommandPattern(_chunks(specifier), None)


def _command_matches(specifier: str, command: str) -> bool:
    parts, substitutes = _split_command(command)
    if substitutes or not parts:
        return False
    pattern = _command_pattern(specifier.strip())
    return all(_part_matches(pattern, part) for part in parts)


def _hook_command_matches(specifier: str, command: str) -> bool:
    inner = _substitutions(command)
    if inner is None:
        return True  # cannot be parsed: the filter fails open
    specifier = specifier.strip()
    dynamic = bool(inner) or _VARIABLE.search(command) is not None
    if dynamic and _names_more_than_the_command(specifier):
        return True
    pattern = _command_pattern(specifier)
    for text in (command, *inner):
        parts, _ = _split_command(text)
        if any(_part_matches(pattern, part) for part in parts):
            return True
    return False


_VARIABLE = re.compile(r"\$[A-Za-z_{]")
_MAX_NESTING = 16  # deeper substitutions are not parsed: the filter fails open


def _names_more_than_the_command(specifier: str) -> bool:
    for suffix in (":*", " *"):
        specifier = specifier.removesuffix(suffix)
    return len(specifier.split()) > 1


def _substitutions(command: str, depth: int = 0) -> list[str] | None:
    """The text inside each ``$(...)`` and backtick pair of `command` (outside single
    quotes), nested ones too; None when a quote or substitution is never closed, or
    they nest deeper than `_MAX_NESTING`."""
    if depth > _MAX_NESTING:
        return None
    found: list[str] = []
    i, quote = 0, ""
    while i < len(command):
        c = command[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\":
            i += 1
        elif c == "`" or command.startswith("$(", i):
            end = command.find("`", i + 1) if c == "`" else _closing(command, i + 2)
            if end < 0:
                return None
            body = command[i + (1 if c == "`" else 2) : end]
            nested = _substitutions(body, depth + 1)
            if nested is None:
                return None
            found += [body, *nested]
            i = end
        elif c == '"' or (c == "'" and not quote):
            quote = "" if quote == c else quote or c
        i += 1
    return None if quote else found


def _closing(command: str, start: int) -> int:
    """Where the ``)`` closing a ``$(`` whose text begins at `start` is, or -1."""
    depth = 1
    for i in range(start, len(command)):
        if command[i] == "(":
            depth += 1
        elif command[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _part_matches(pattern: _CommandPattern, part: str) -> bool:
    if _glob_match(pattern.whole, part):
        return True
    return pattern.with_args is not None and _glob_match(pattern.with_args, part)


def _split_command(command: str) -> tuple[list[str], bool]:
    """The simple commands of `command` (split at separators outside quotes), and
    whether it holds a command or process substitution outside single quotes."""
    parts: list[str] = []
    start = i = 0
    quote = ""
    substitutes = False
    while i < len(command):
        c = command[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\":
            i += 1
        elif c == "`" or command.startswith(_SUBSTITUTIONS, i):
            substitutes = True
        elif c == '"' or (c == "'" and not quote):
            quote = "" if quote == c else quote or c
        elif not quote and (width := _separator_width(command, i)):
            parts.append(command[start:i])
            start = i + width
            i = start
            continue
        i += 1
    parts.append(command[start:])
    return [p.strip() for p in parts if p.strip()], substitutes


def _separator_width(command: str, i: int) -> int:
    """How many characters of a command separator start at `i` (0 if none)."""
    c = command[i]
    if c in ";\n":
        return 1
    if c not in "|&":
        return 0
    if i > 0 and command[i - 1] in "<>":  # 2>&1, <&0, >|
        return 0
    if c == "&" and command.startswith(">", i + 1):  # &> file
        return 0
    return 2 if command[i : i + 2] in ("&&", "||", "|&") else 1


# Paths.


@model
class _Path:
    absolute: bool
    segments: tuple[str, ...]


@model
class _PathPattern:
    path: _Path
    anywhere: bool  # a name without a slash: matches a segment at any depth


def _split_path(text: str) -> _Path:
    norm = os.path.normpath(text)
    segments = tuple(s for s in norm.split(os.sep) if s and s != ".")
    return _Path(os.path.isabs(norm), segments)


@lru_cache(maxsize=1024)
def _path_pattern(specifier: str, cwd: str | None, home: str | None) -> _PathPattern | None:
    base: str | None
    if specifier.startswith("//"):
        base, rest = "/", specifier[2:]
    elif specifier == "~" or specifier.startswith("~/"):
        if home is None:
            return None
        base, rest = home, specifier[2:]
    elif _is_name(specifier.rstrip("/")):
        return _PathPattern(_Path(False, (specifier.rstrip("/"),)), anywhere=True)
    else:
        base, rest = cwd, specifier.removeprefix("/")
    joined = rest if base is None else os.path.join(base, rest)
    return _PathPattern(_split_path(joined), anywhere=False)


def _is_name(pattern: str) -> bool:
    return bool(pattern) and "/" not in pattern and pattern not in (".", "..")


def _path_matches(specifier: str, value: str, cwd: Path | None, home: Path | None) -> bool:
    cwd_text = None if cwd is None else os.fspath(cwd)
    home_text = None if home is None else os.fspath(home)
    pattern = _path_pattern(specifier, cwd_text, home_text)
    if pattern is None:
        return False
    target = _split_path(value if cwd_text is None else os.path.join(cwd_text, value))
    if pattern.anywhere:
        chunks = _chunks(pattern.path.segments[0])
        return any(_glob_match(chunks, segment) for segment in target.segments)
    if pattern.path.absolute != target.absolute:
        return False
    return _segments_match(pattern.path.segments, target.segments)


def _segments_match(pattern: tuple[str, ...], path: tuple[str, ...]) -> bool:
    """Whether `pattern` matches `path` or a directory above it: `positions` holds how
    many segments of `path` the pattern so far can have consumed."""
    positions = {0}
    for segment in pattern:
        if segment == "**":
            positions = set(range(min(positions), len(path) + 1))
        else:
            chunks = _chunks(segment)
            positions = {j + 1 for j in positions if j < len(path) and _glob_match(chunks, path[j])}
        if not positions:
            return False
    return True


# Web.


def _domain_matches(specifier: str, url: str) -> bool:
    if not specifier.startswith("domain:"):
        return False
    domain = specifier.removeprefix("domain:").strip().lower().rstrip(".")
    host = _host(url)
    if host is None:
        return False
    if domain == "*":
        return True
    if domain.startswith("*."):
        return host.endswith(domain[1:])
    return host == domain


def _host(url: str) -> str | None:
    """The URL's host, lowercased, or None when it has none or holds characters a
    browser might read differently (a backslash, blanks)."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return None
    if not host or "\\" in parts.netloc or not set(host) <= _HOST_CHARS:
        return None
    return host.rstrip(".")
