"""A fast path for the frontmatter most skills have, giving exactly what YAML gives.

It reads top-level ``key: value`` lines whose values are plain or simply quoted
strings, and blocks of ``  key: value`` or ``  - item`` lines under a key. Anything
else (a value YAML would read as a number, bool, null or date, an indicator
character, a comment after a value, a flow collection, a continuation line, a
duplicate key) makes it return None, and the caller parses with YAML. As there, only
``true`` and ``false`` are booleans: ``yes``, ``no``, ``on`` and ``off`` are text. Tests check
that whenever it answers, the answer equals the YAML parser's.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["parse"]

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
# Keys most frontmatter uses, checked without the regex.
_COMMON_KEYS = frozenset(
    ["name", "description", "license", "compatibility", "metadata", "allowed-tools",
     "version", "author", "model", "user-invocable", "disable-model-invocation",
     "argument-hint", "when_to_use", "tags", "category", "owner"]
)  # fmt: skip
# What YAML 1.1 cannot hold unescaped: every code point outside its printable set
# (tab, LF, CR, 0x20-0x7E, NEL, 0xA0-0xD7FF, 0xE000-0xFFFD, 0x10000-0x10FFFF), written as
# the small complement, which compiles in a fraction of the time of the negated ranges.
_NOT_PRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
)
_SPECIAL = re.compile("[\t\r\ufeff\x85\u2028\u2029]")
_PLAIN_FIRST_BAD = frozenset("-?:,[]{}#&*!|>'\"%@`\t ")
# Words the YAML reader reads as booleans or null (YAML 1.2's booleans: `yes`, `no`,
# `on` and `off` are text, see satchel.core._yaml); values starting with the characters below
# may be numbers, dates, merge keys or `=`, and are checked with PyYAML's own patterns.
_WORDS = frozenset(
    ["true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~"]
)  # fmt: skip
_NUMERIC_FIRST = frozenset("0123456789+-.<=")


class _Fail(Exception):
    """The fast path cannot decide; YAML will."""


def parse(text: str) -> dict[str, Any] | None:
    """The mapping `text` holds, or None when YAML must decide."""
    if text.isascii():
        if not text.replace("\n", "").isprintable():
            return None  # tabs, CR and control characters
    elif _NOT_PRINTABLE.search(text) or _SPECIAL.search(text):
        return None
    try:
        return _Reader().read(text.split("\n"))
    except _Fail:
        return None


class _Reader:
    """Top-level keys, each with a scalar or a block (a mapping or a list of scalars)."""

    def __init__(self) -> None:
        self.result: dict[str, Any] = {}
        self.last: str | None = None
        self.block: dict[str, str] | list[str] | None = None
        self.indent = -1

    def read(self, lines: list[str]) -> dict[str, Any]:
        result = self.result
        for line in lines:
            if not line or line[0] == "#":
                continue
            if line[0] == " " or line[0] == "-":
                self._block_line(line)
                continue
            # A top-level `key: value` line, inline: this loop is the hot path of discovery.
            key, sep, rest = line.partition(":")
            if not sep or key in result or (key not in _COMMON_KEYS and not _plain_key(key)):
                raise _Fail
            if rest and rest[0] != " ":
                raise _Fail
            self.block, self.last = None, key
            value = rest.strip(" ")
            result[key] = _scalar(value) if value else None
        return result

    def _block_line(self, line: str) -> None:
        stripped = line.lstrip(" ")
        if not stripped:
            return
        depth = len(line) - len(stripped)
        if stripped[0] == "-":
            if stripped[1:2] != " ":
                raise _Fail
            items = self._open(depth, list)
            assert isinstance(items, list)
            items.append(_scalar(stripped[2:].strip(" ")))
            return
        if depth == 0:
            raise _Fail
        entries = self._open(depth, dict)
        assert isinstance(entries, dict)
        key, sep, rest = stripped.partition(":")
        value = rest.strip(" ")
        if not sep or not value or rest[0] != " " or key in entries:
            raise _Fail
        if key not in _COMMON_KEYS and not _plain_key(key):
            raise _Fail
        entries[key] = _scalar(value)

    def _open(self, depth: int, kind: type) -> dict[str, str] | list[str]:
        """The block being filled, opened by the first indented line under a key."""
        if self.block is None:
            if self.last is None or self.result[self.last] is not None:
                raise _Fail
            self.block, self.indent = kind(), depth
            self.result[self.last] = self.block
        elif type(self.block) is not kind or depth != self.indent:
            raise _Fail
        return self.block


def _plain_key(key: str) -> bool:
    """A key YAML reads as this very string: a word, no number, bool or null."""
    return _KEY.match(key) is not None and key not in _WORDS  # _KEY excludes numbers, `<<`


def _scalar(raw: str) -> str:
    """The string a one-line value means; raise `_Fail` when YAML must decide."""
    if not raw:
        raise _Fail
    first = raw[0]
    if first == '"':
        inner = raw[1:-1]
        if len(raw) < 2 or raw[-1] != '"' or '"' in inner or "\\" in inner:
            raise _Fail
        return inner
    if first == "'":
        inner = raw[1:-1]
        if len(raw) < 2 or raw[-1] != "'" or "'" in inner.replace("''", ""):
            raise _Fail
        return inner.replace("''", "'")
    if first in _PLAIN_FIRST_BAD or ": " in raw or " #" in raw or raw[-1] == ":":
        raise _Fail
    if raw in _WORDS or (first in _NUMERIC_FIRST and _implicit(raw)):
        raise _Fail
    return raw


def _implicit(value: str) -> bool:
    """Whether YAML reads `value` (starting with a digit, sign, dot, `<` or `=`) as a
    number, a date, a merge key or a value key."""
    # PyYAML is imported only for a value that may be a number, date or merge key
    from yaml.resolver import Resolver

    resolvers = Resolver.yaml_implicit_resolvers
    return any(regexp.match(value) for _tag, regexp in resolvers.get(value[0], ()))
