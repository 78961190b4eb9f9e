"""JSON in and out: one bounded parser for every JSON satchel reads (files, a hook's
answer, an MCP server's message, a registry's answer), and `jsonable` for the
`to_json()` of models that keep raw extras.

`loads` measures how deep the text nests before any parser sees it (a linear scan,
no recursion), so that a 100,000-deep array is refused with `TooDeep` instead of
reaching a recursive parser or the code that walks its value. The limit is
`MAX_DEPTH` (64 levels, as for YAML frontmatter); a caller may give its own.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any

__all__ = ["MAX_DEPTH", "TooDeep", "jsonable", "loads", "nesting", "top_level"]

MAX_DEPTH = 64  # levels of arrays and objects
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_RUN = re.compile(r"[\[{]+|[\]}]+")
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}:,]|[^\s"\[\]{}:,]+', re.DOTALL)


class TooDeep(ValueError):
    """JSON text that nests deeper than the limit (a `ValueError`, as a syntax error is)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"it nests deeper than {limit} levels")
        self.limit = limit


def nesting(text: str) -> int:
    """How many arrays and objects deep `text` nests at most (brackets inside strings
    do not count). Linear in the text's length; never recurses."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if brackets.count("[[") + brackets.count("{{") < len(brackets) // 4:  # short runs
        return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
    depth, deepest = 0, None  # a deep text: a step per run of openers or of closers
    for run in _RUN.findall(brackets):
        if run[0] in "[{":
            depth += len(run)
            deepest = depth if deepest is None else max(deepest, depth)
        else:
            deepest = depth - 1 if deepest is None else deepest  # closers first
            depth -= len(run)
    return 0 if deepest is None else deepest


def loads(
    text: str | bytes,
    *,
    max_depth: int = MAX_DEPTH,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    parse_constant: Callable[[str], Any] | None = None,
) -> Any:
    """`json.loads(text)`, refused with `TooDeep` when it nests deeper than `max_depth`.
    Bytes are read as UTF-8 (`UnicodeDecodeError`, a `ValueError`, when they are not)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if nesting(text) > max_depth:
        raise TooDeep(max_depth)
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook, parse_constant=parse_constant)
    except RecursionError:  # not reached under the limit; kept so no input can crash
        raise TooDeep(max_depth) from None


def top_level(text: str, key: str) -> Any:
    """The value of `key` in the JSON object `text` when that value is a string, a
    number, true, false or null; None otherwise, or when `text` is not an object.
    Only the top level is read (nested values are skipped unparsed), so this works on
    text too deep for `loads`, e.g. to answer the request a too-deep reply was for."""
    if not text.lstrip().startswith("{"):
        return None
    level, want, found = 0, json.dumps(key), ""
    tokens = (m.group() for m in _TOKEN.finditer(text))
    previous = ""
    for token in tokens:
        if token in "[{":
            level += 1
        elif token in "]}":
            level -= 1
        elif level == 1 and token == ":" and previous == want:
            found = next(tokens, "")
            if found in "[{":
                return None
            break
        previous = token if level == 1 else ""
        if level <= 0:
            return None
    try:
        value = json.loads(found)
    except ValueError:
        return None
    return value if not isinstance(value, list | dict) else None


def jsonable(value: Any) -> Any:
    """`value` with mappings, lists and scalars kept, NaN and infinity as strings (JSON
    has neither), and anything else as its `str()`."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
