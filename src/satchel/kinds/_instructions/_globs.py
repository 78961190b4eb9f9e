"""Path patterns of conditional instruction files, and whether a path matches them.

Two styles, one per host family:

* ``gitignore`` (Claude Code's ``paths:``): Claude Code 2.1.332 matches a rule's
  patterns with the ``ignore`` package against the path relative to the directory
  that holds ``.claude/`` (as read in the pinned binary). So a pattern without a
  slash (``*.ts``) matches at any depth, a leading ``/`` anchors it, a pattern
  also matches everything below a directory it matches, and ``!`` re-includes.
* ``glob`` (Cursor's ``globs``, Copilot's ``applyTo``): anchored at the base;
  ``**`` crosses directories, ``*`` and ``?`` do not. Neither host documents more
  than examples (``src/**/*.ts``, ``**/*.py``); the finer points are unverified.

Patterns are split as Claude Code splits ``paths:`` (commas outside braces), braces
expanded (``*.{ts,tsx}``; at most `MAX_EXPANSIONS` results per pattern).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Literal

Style = Literal["gitignore", "glob"]
MAX_EXPANSIONS = 256
_BRACE = re.compile(r"^([^{]*)\{([^{}]*)\}(.*)$")


def split_patterns(value: object) -> tuple[str, ...] | None:
    """The patterns a frontmatter value names: a string split on commas outside
    braces, or a list of such strings; None when it is neither (a number, a map)."""
    if isinstance(value, str):
        return tuple(_split(value))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(p for v in value for p in _split(v))
    return None


def _split(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return [p for p in parts if p]


def expand(pattern: str) -> tuple[str, ...]:
    """`pattern` with its braces expanded; as written when that passes the bound."""
    done: list[str] = []
    todo = [pattern]
    while todo:
        item = todo.pop()
        m = _BRACE.match(item)
        if m is None:
            done.append(item)
        else:
            head, alts, tail = m.groups()
            todo.extend(head + a.strip() + tail for a in reversed(alts.split(",")))
        if len(done) + len(todo) > MAX_EXPANSIONS:
            return (pattern,)
    return tuple(done)


def matches(patterns: Iterable[str], rel: str, style: Style) -> bool:
    """Whether `rel` (a POSIX path relative to the base, no ``..``) matches."""
    hit = False
    for raw in patterns:
        negate = style == "gitignore" and raw.startswith("!")
        body = raw[1:] if negate else raw
        if any(
            _regex(p, style).fullmatch(c) for p in expand(body) for c in _candidates(rel, style)
        ):
            hit = not negate
    return hit


def _candidates(rel: str, style: Style) -> list[str]:
    """The path and, for gitignore, each directory above it (a matched directory
    matches all it holds)."""
    if style == "glob":
        return [rel]
    parts = rel.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


@functools.lru_cache(maxsize=512)
def _regex(pattern: str, style: Style) -> re.Pattern[str]:
    p = pattern.rstrip("/") if style == "gitignore" else pattern
    anchored = style == "glob" or "/" in p
    p = p.lstrip("/") if style == "gitignore" else p.removeprefix("./")
    body = _translate(p)
    try:
        return re.compile(body if anchored else f"(?:.*/)?{body}", re.DOTALL)
    except re.error:  # a class such as [z-a]: the pattern means itself, literally
        return re.compile(re.escape(pattern))


def _translate(p: str) -> str:
    out, i = [], 0
    while i < len(p):
        if p.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif p.startswith("/**", i) and i + 3 == len(p):
            out.append("(?:/.*)?")
            i += 3
        elif p.startswith("**", i):
            out.append(".*")
            i += 2
        elif p[i] == "*":
            out.append("[^/]*")
            i += 1
        elif p[i] == "?":
            out.append("[^/]")
            i += 1
        elif p[i] == "[" and (end := p.find("]", i + 2)) > 0:
            inner = _class(p[i + 1 : end])
            out.append(f"[^{inner[1:]}]" if inner[:1] in "!^" and inner else f"[{inner}]")
            i = end + 1
        else:
            out.append(re.escape(p[i]))
            i += 1
    return "".join(out)


_SET_OPERATORS = str.maketrans({c: "\\" + c for c in "\\[&~|"})


def _class(inner: str) -> str:
    """A glob's character class as a regex class: a backslash, ``[`` and the doubled
    ``&``, ``~``, ``|`` and ``-`` that Python would read as set operations one day
    (and warn about now) mean themselves."""
    return inner.translate(_SET_OPERATORS).replace("--", "-\\-")
