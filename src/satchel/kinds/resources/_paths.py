"""Checking the resource path a model gave: its shape, characters and segments."""

from __future__ import annotations

import re
from pathlib import Path, PureWindowsPath

from satchel.core._text import escape
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import ResourceError

MAX_PATH = 4096  # characters
MAX_SEGMENT = 255  # bytes of UTF-8, the usual NAME_MAX
_SHOWN = 200
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://|[A-Za-z]{2,}:")

_INVALID = "resource.path.invalid"
_ABSOLUTE = "resource.path.absolute"


def quote(text: str) -> str:
    """`text` for a message: repr(), control characters escaped, at most 200 characters."""
    shown = escape(repr(text[:_SHOWN]), newlines=True)
    return shown if len(text) <= _SHOWN else f"{shown}... ({len(text):,} characters)"


def check_relative(path: str, *, root: Path | None = None) -> tuple[str, ...]:
    """The segments of a relative resource path, or `ResourceError`.

    Empty and ``.`` segments are dropped: ``refs/./a.md`` and ``refs//a.md`` give
    ``("refs", "a.md")``. `root` only goes into the diagnostic's path.
    """
    problem = _shape_problem(path)
    if problem is None:
        segments = tuple(s for s in path.split("/") if s not in ("", "."))
        problem = _segment_problem(segments)
        if problem is None:
            return segments
    code, reason = problem
    raise ResourceError(diagnostic(code, f"{reason}: {quote(path)}", root))


def _shape_problem(path: str) -> tuple[str, str] | None:
    if not path.strip():
        return _INVALID, "the resource path is empty"
    if len(path) > MAX_PATH:
        return _INVALID, f"the resource path is longer than {MAX_PATH:,} characters"
    if "\x00" in path:
        return _INVALID, "the resource path holds a NUL character"
    if not utf8(path):
        return _INVALID, "the resource path holds a character that is not valid UTF-8"
    if path.startswith("/"):
        return _ABSOLUTE, "the resource path is absolute"
    windows = PureWindowsPath(path)  # on every OS: C:\\x, C:x, \\\\srv\\share, \\x
    if windows.drive:
        return _ABSOLUTE, "the resource path names a Windows drive or share"
    if windows.root:
        return _ABSOLUTE, "the resource path is absolute"
    return _character_problem(path)


def _character_problem(path: str) -> tuple[str, str] | None:
    if "\\" in path:
        return _INVALID, "the resource path holds a backslash; folders are separated by /"
    if path.startswith("~"):
        return _INVALID, "the resource path starts with ~"
    if path.startswith("$"):
        return _INVALID, "the resource path starts with $"
    if _SCHEME.match(path):
        return _INVALID, "the resource path is a URL, not a path"
    return None


def _segment_problem(segments: tuple[str, ...]) -> tuple[str, str] | None:
    if ".." in segments:
        return "resource.path.traversal", "the resource path has a .. segment"
    if any(len(s.encode("utf-8")) > MAX_SEGMENT for s in segments):
        return _INVALID, f"a segment of the resource path is longer than {MAX_SEGMENT} bytes"
    return None


def utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
