"""A fast path for the frontmatter most skills have, giving exactly what YAML gives.

It reads top-level ``key: value`` lines whose values are plain or simply quoted
strings, and blocks of ``  key: value`` or ``  - item`` lines under a key. Anything
else (a value YAML would read as a number, bool, null or date, an indicator
character, a comment after a value, a flow collection, a continuation line, a
duplicate key) makes it return None, and the caller parses with YAML. Tests check
that whenever it answers, the answer equals the YAML parser's.
"""

from __future__ import annotations

import re
from typing import Any

from yaml.resolver import Resolver

__all__ = ["parse"]

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
_NOT_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_SPECIAL = re.compile("[\t\ufeff\x85\u2028\u2029]")
_PLAIN_FIRST_BAD = frozenset("-?:,[]{}#&*!|>'\"%@`\t ")
_RESOLVERS = Resolver.yaml_implicit_resolvers


def parse(text: str) -> dict[str, Any] | None:
    """The mapping `text` holds, or None when YAML must decide."""
    if _NOT_PRINTABLE.search(text) or _SPECIAL.search(text):
        return None
    result: dict[str, Any] = {}
    lines = text.split("\n")
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if not line or line.isspace():
            continue
        if line[0] == "#":
            continue
        key, sep, rest = line.partition(":")
        if not sep or not _KEY.match(key) or _implicit(key) or key in result:
            return None
        if rest and rest[0] != " ":
            return None
        rest = rest.strip()
        if rest:
            value = _scalar(rest)
            if value is None:
                return None
            result[key] = value
            continue
        block, i = _block(lines, i)
        if block is _FAIL:
            return None
        result[key] = block
    return result


_FAIL = object()


def _block(lines: list[str], i: int) -> tuple[Any, int]:
    """A block under a key: a mapping of scalars, a list of scalars, or nothing (null)."""
    j = i
    while j < len(lines) and (not lines[j] or lines[j].isspace()):
        j += 1
    if j == len(lines) or lines[j][0] not in " -":
        return None, i
    first = lines[j]
    indent = len(first) - len(first.lstrip(" "))
    if first[indent] == "-":
        return _sequence(lines, j, indent)
    if indent == 0:
        return _FAIL, j
    return _mapping(lines, j, indent)


def _sequence(lines: list[str], j: int, indent: int) -> tuple[Any, int]:
    items: list[str] = []
    while j < len(lines):
        line = lines[j]
        if not line or line.isspace():
            j += 1
            continue
        if len(line) - len(line.lstrip(" ")) != indent or line[indent] != "-":
            break
        body = line[indent + 1 :]
        if not body.startswith(" "):
            return _FAIL, j
        value = _scalar(body.strip())
        if value is None:
            return _FAIL, j
        items.append(value)
        j += 1
    return _end(lines, j, items, indent)


def _mapping(lines: list[str], j: int, indent: int) -> tuple[Any, int]:
    items: dict[str, str] = {}
    while j < len(lines):
        line = lines[j]
        if not line or line.isspace():
            j += 1
            continue
        if len(line) - len(line.lstrip(" ")) != indent:
            break
        key, sep, rest = line[indent:].partition(":")
        if not sep or not _KEY.match(key) or _implicit(key) or key in items:
            return _FAIL, j
        if not rest.startswith(" ") or not rest.strip():
            return _FAIL, j
        value = _scalar(rest.strip())
        if value is None:
            return _FAIL, j
        items[key] = value
        j += 1
    return _end(lines, j, items, indent)


def _end(lines: list[str], j: int, value: Any, indent: int) -> tuple[Any, int]:
    """The block must be followed by the end or by a top-level line."""
    if j < len(lines):
        line = lines[j]
        if line[0] == " " or (indent == 0 and line[0] == "-"):
            return _FAIL, j
    return value, j


def _scalar(raw: str) -> str | None:
    """The string a one-line value means, or None when YAML must decide."""
    if not raw:
        return None
    first = raw[0]
    if first == '"':
        inner = raw[1:-1]
        if len(raw) < 2 or raw[-1] != '"' or '"' in inner or "\\" in inner:
            return None
        return inner
    if first == "'":
        inner = raw[1:-1]
        if len(raw) < 2 or raw[-1] != "'" or "'" in inner.replace("''", ""):
            return None
        return inner.replace("''", "'")
    if first in _PLAIN_FIRST_BAD or ": " in raw or " #" in raw or raw[-1] == ":":
        return None
    if _implicit(raw):
        return None
    return raw


def _implicit(value: str) -> bool:
    """Whether YAML would read `value` as something other than a string."""
    for _tag, regexp in _RESOLVERS.get(value[0], ()):
        if regexp.match(value):
            return True
    return any(regexp.match(value) for _tag, regexp in _RESOLVERS.get(None, ()))
