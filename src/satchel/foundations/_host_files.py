"""The JSON state files other hosts keep for themselves (Claude Code's ``~/.claude.json``,
Gemini CLI's ``settings.json`` and ``extension-enablement.json``), read, never written.

One reader for all of them: `read_state` gives a file's top-level object ({} for a
file that is missing), bounded in size, and says why a file that is there could not
be read (``config.invalid``); `dig` follows a path of keys into it. The locations and
keys are the hosts' data (`satchel.hosts`); nothing here names a host.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import parse_json

__all__ = ["MAX_STATE", "StateFiles", "dig", "expand", "read_state"]

MAX_STATE = 64 * 1024 * 1024  # ~/.claude.json grows with every project Claude Code opens
CODE = "config.invalid"


def read_state(
    path: Path, cap: int = MAX_STATE, *, needle: str | None = None
) -> tuple[dict[str, Any], Diagnostic | None]:
    """The JSON object in `path` ({} when it is missing), and why it could not be
    read when it is there but is not a readable JSON object. With `needle`, a file
    whose text does not hold it is not parsed ({}): ``~/.claude.json`` grows to
    megabytes, and most hold no ``mcpServers``."""
    data = _bytes(path, cap)  # None: nothing to open, the usual case
    if data is None or isinstance(data, Diagnostic):
        return {}, data
    if needle is not None and json.dumps(needle).encode() not in data:
        return {}, None
    return _object(path, data)


class StateFiles:
    """The state files one load reads: each read once and parsed at most once, and a
    file that cannot be read reported once (`read`). A load's own cache, never shared
    between loads."""

    __slots__ = ("_data", "_parsed")

    def __init__(self) -> None:
        self._data: dict[Path, bytes | Diagnostic | None] = {}
        self._parsed: dict[Path, dict[str, Any]] = {}

    def read(
        self, path: Path, *, needle: str | None = None
    ) -> tuple[dict[str, Any], Diagnostic | None]:
        """`read_state` of `path`, from this load's copy when it was read before (the
        problem, if any, only the first time)."""
        if path in self._parsed:
            return self._parsed[path], None
        first = path not in self._data
        if first:
            self._data[path] = _bytes(path)
        data = self._data[path]
        if data is None:
            return {}, None
        if isinstance(data, Diagnostic):
            return {}, data if first else None
        if needle is not None and json.dumps(needle).encode() not in data:
            return {}, None
        value, problem = _object(path, data)
        self._parsed[path] = value
        return value, problem


def _bytes(path: Path, cap: int = MAX_STATE) -> bytes | Diagnostic | None:
    if not os.path.lexists(path):
        return None
    try:
        return read_bounded(path, cap)
    except FileProblem as e:
        return diagnostic(CODE, f"{path.name} cannot be read: {e.message}", path)


def _object(path: Path, data: bytes) -> tuple[dict[str, Any], Diagnostic | None]:
    value, problem = parse_json(data, path, CODE)
    if problem is not None:
        return {}, problem
    if not isinstance(value, dict):
        return {}, diagnostic(CODE, f"{path.name} is not a JSON object", path)
    return value, None


def dig(document: Mapping[str, Any], keys: Sequence[str]) -> Any:
    """The value at `keys` in `document` (None where a key is missing or a value on
    the way is not an object)."""
    value: Any = document
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def expand(template: str, values: Mapping[str, str]) -> str:
    """`template` with each ``{name}`` of `values` replaced (others left as written)."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template
