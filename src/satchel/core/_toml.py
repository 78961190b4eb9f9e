"""TOML in: one bounded parser for every TOML file satchel reads (policy, config,
hooks, agents, plugin manifests, the gateway's config).

`tomllib` recurses once per nested array or inline table, so a file nested a few
thousand deep raises `RecursionError` from inside the parser; and dotted keys
(``a.b.c...``) nest a table as deep as they are long without recursing, so the value
would crash the code that walks it instead. `loads` refuses both with `TooDeep` (a
`ValueError`, as `tomllib.TOMLDecodeError` is): the brackets are counted before any
parser sees the text (a linear scan that skips strings and comments), and the table
parsed is measured without recursion. The limit is JSON's, `MAX_DEPTH` (64 levels).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import MAX_DEPTH, TooDeep

__all__ = ["MAX_DEPTH", "TooDeep", "depth", "loads", "read_document"]

# what cannot hold a bracket that nests: strings of the four kinds, and comments. A
# string left open runs to the end of its line (a multi-line one to the end of the
# text), so every alternative that starts also matches: no start is scanned twice and
# the scan stays linear on a line of unclosed quotes (`tomllib` refuses it anyway).
_SKIP = re.compile(
    r'"""[\s\S]*?(?:"""(?!")|\Z)'
    r"|'''[\s\S]*?(?:'''(?!')|\Z)"
    r'|"(?:[^"\\\n]|\\.)*(?:"|\\?(?=\n)|\\?\Z)'
    r"|'[^'\n]*(?:'|(?=\n)|\Z)"
    r"|#[^\n]*"
)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting(text: str) -> int:
    """How many arrays and inline tables deep `text` nests at most (brackets inside
    strings and comments do not count). Linear in the text's length; never recurses."""
    brackets = _NOT_BRACKET.sub("", _SKIP.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def depth(value: Any, limit: int) -> int:
    """How deep `value` nests in dicts and lists, counted without recursion and
    stopping once past `limit`."""
    deepest, pending = 0, [(value, 0)]
    while pending and deepest <= limit:
        item, level = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level + 1)
            pending += ((v, level + 1) for v in item)
    return deepest


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """`tomllib.loads(text)`, refused with `TooDeep` when it nests deeper than
    `max_depth` (brackets, inline tables, or tables made by dotted keys)."""
    import tomllib  # only when a TOML file is read

    if nesting(text) > max_depth:
        raise TooDeep(max_depth)
    try:
        doc = tomllib.loads(text)
    except RecursionError:  # not reached under the limit; kept so no input can crash
        raise TooDeep(max_depth) from None
    if depth(doc, max_depth) > max_depth:
        raise TooDeep(max_depth)
    return doc


def read_document(
    path: Path, cap: int, problems: list[Any], invalid: Callable[[str, Path], Any]
) -> dict[str, Any]:
    """The TOML document at `path` (at most `cap` bytes); {} when it is absent or bad,
    a bad one reported in `problems` as `invalid(why, path)` says."""
    if not os.path.lexists(path):
        return {}  # nothing to open: the usual case
    try:
        data = read_bounded(path, cap)
    except FileProblem as e:
        if e.kind != "missing":
            problems.append(invalid(f"cannot read it: {e.message}", path))
        return {}
    try:
        return loads(data.decode("utf-8"))
    except ValueError as e:  # not UTF-8, not TOML, or nested too deep
        problems.append(invalid(f"not valid TOML: {e}", path))
        return {}
