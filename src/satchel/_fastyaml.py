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

_TOKEN = re.compile(
    r"(?P<top>[A-Za-z_][A-Za-z0-9_.-]*):(?: +(?P<value>[^\n]*?))? *\n"
    r"|(?P<indent> +)(?P<key>[A-Za-z_][A-Za-z0-9_.-]*): +(?P<entry>[^\n]*?) *\n"
    r"|(?P<dash> *)- +(?P<item>[^\n]*?) *\n"
    r"|(?:#[^\n]*| *)\n"
)
_NOT_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_ASCII_BAD = re.compile("[\x00-\x1f\x7f]")
_SPECIAL = re.compile("[\t\ufeff\x85\u2028\u2029]")
_PLAIN_FIRST_BAD = frozenset("-?:,[]{}#&*!|>'\"%@`\t ")
_RESOLVERS = Resolver.yaml_implicit_resolvers
# Words PyYAML reads as booleans or null; values starting with the characters below
# may be numbers, dates, merge keys or `=`, and are checked with PyYAML's own patterns.
_WORDS = frozenset(
    [
        "yes",
        "Yes",
        "YES",
        "no",
        "No",
        "NO",
        "true",
        "True",
        "TRUE",
        "false",
        "False",
        "FALSE",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
        "null",
        "Null",
        "NULL",
        "~",
    ]
)
_NUMERIC_FIRST = frozenset("0123456789+-.<=")


class _Fail(Exception):
    """The fast path cannot decide; YAML will."""


def parse(text: str) -> dict[str, Any] | None:
    """The mapping `text` holds, or None when YAML must decide."""
    if _unusual_characters(text):
        return None
    try:
        return _Reader().read(text if text.endswith("\n") or not text else text + "\n")
    except _Fail:
        return None


def _unusual_characters(text: str) -> bool:
    if text.isascii():
        return _ASCII_BAD.search(text.replace("\n", "")) is not None
    return _NOT_PRINTABLE.search(text) is not None or _SPECIAL.search(text) is not None


class _Reader:
    """Top-level keys, each with a scalar or a block (a mapping or a list of scalars)."""

    def __init__(self) -> None:
        self.result: dict[str, Any] = {}
        self.last = ""
        self.block: dict[str, str] | list[str] | None = None
        self.indent = -1

    def read(self, text: str) -> dict[str, Any]:
        pos, end, match = 0, len(text), _TOKEN.match
        while pos < end:
            m = match(text, pos)
            if m is None:
                raise _Fail
            pos = m.end()
            top, key, item = m.group("top", "key", "item")
            if top is not None:
                self._top(top, m.group("value"))
            elif key is not None:
                self._entry(len(m.group("indent")), key, m.group("entry"))
            elif item is not None:
                self._item(len(m.group("dash")), item)
        return self.result

    def _top(self, key: str, value: str | None) -> None:
        if key in self.result or _implicit(key):
            raise _Fail
        self.block, self.last = None, key
        self.result[key] = _scalar(value) if value else None

    def _entry(self, indent: int, key: str, value: str) -> None:
        block = self._open(indent, dict)
        if not isinstance(block, dict) or key in block or _implicit(key) or not value:
            raise _Fail
        block[key] = _scalar(value)

    def _item(self, indent: int, value: str) -> None:
        block = self._open(indent, list)
        if not isinstance(block, list):
            raise _Fail
        block.append(_scalar(value))

    def _open(self, indent: int, kind: type) -> dict[str, str] | list[str]:
        """The block being filled, opened by the first indented line under a key."""
        if self.block is None:
            if not self.last or self.result[self.last] is not None:
                raise _Fail
            if kind is dict and indent == 0:
                raise _Fail
            self.block, self.indent = kind(), indent
            self.result[self.last] = self.block
        if indent != self.indent:
            raise _Fail
        return self.block


def _scalar(raw: str) -> str:
    """The string a one-line value means; raise `_Fail` when YAML must decide."""
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
    if _implicit(raw):
        raise _Fail
    return raw


def _implicit(value: str) -> bool:
    """Whether YAML would read `value` as something other than a string."""
    if value in _WORDS:
        return True
    if value[0] not in _NUMERIC_FIRST:
        return False
    return any(regexp.match(value) for _tag, regexp in _RESOLVERS.get(value[0], ()))
