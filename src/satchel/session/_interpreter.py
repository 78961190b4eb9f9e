"""How a skill script starts: its exec bit, the host's map, its ``#!`` line, or its suffix.

Real skills ship scripts without an exec bit (a ``.py`` checked out from a zip, or
committed ``100644``), and hosts run them through an interpreter. The rule, first match:

1. an exec bit: the file itself is the argv (the kernel reads its ``#!`` line);
2. the host's `script_interpreters` entry for the suffix;
3. a ``#!`` line: a Python one (``python``, ``python3``, ``python3.12``, directly or
   through ``env``) runs with the current Python (`sys.executable`); any other runs
   its words as written (``#!/bin/bash -e`` is ``/bin/bash -e FILE``);
4. the suffix: ``.py`` with the current Python, ``.sh`` with ``sh``, ``.bash`` with
   ``bash``, ``.js``/``.mjs``/``.cjs`` with ``node`` when ``node`` is on the PATH;
5. otherwise the script is refused (`exec.start`): a file with none of these is data.

A ``#!`` line ending in a carriage return is refused as the kernel would refuse it.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.kinds.resources import quote

__all__ = ["SUFFIXES", "script_argv"]

# suffix -> program; "python" is the current interpreter, others are looked up on PATH
SUFFIXES: Mapping[str, str] = {
    ".py": "python",
    ".sh": "sh",
    ".bash": "bash",
    ".js": "node",
    ".mjs": "node",
    ".cjs": "node",
}
_NEEDS_PATH = frozenset(("node",))  # run only when found on the scripts' PATH
_PYTHON = re.compile(r"python(\d+(\.\d+)?)?")
_FIRST_LINE = 256


def script_argv(
    path: Path, mapped: Mapping[str, tuple[str, ...]], search_path: str | None
) -> list[str] | Diagnostic:
    """The argv prefix and file that start the script at `path`, or why it cannot start.
    `search_path` is the PATH the script gets (for ``node``)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return diagnostic("resource.unreadable", f"cannot read {_name(path)}: {e.strerror}", path)
    if mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
        return [str(path)]
    if path.suffix in mapped:
        return [*mapped[path.suffix], str(path)]
    line = _shebang(path)
    if line is not None:
        return _from_shebang(path, line)
    return _from_suffix(path, search_path)


def _shebang(path: Path) -> bytes | None:
    """The first line after ``#!``, or None when the file has no ``#!`` line."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)  # a FIFO swapped in never blocks
    except OSError:
        return None
    try:
        head = os.read(fd, _FIRST_LINE) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    if not head.startswith(b"#!"):
        return None
    return head[2:].split(b"\n", 1)[0]


def _from_shebang(path: Path, line: bytes) -> list[str] | Diagnostic:
    if line.endswith(b"\r"):
        message = (
            f"{_name(path)} has a #! line that ends in a carriage return (CRLF line endings); "
            "convert the file to LF"
        )
        return diagnostic("exec.start", message, path)
    words = line.decode("utf-8", "replace").split()
    if not words:
        return _refused(path, "its #! line names no program")
    if _is_python(words):
        return [sys.executable, str(path)]
    return [*words, str(path)]


def _is_python(words: list[str]) -> bool:
    program = os.path.basename(words[0])
    if program == "env":
        rest = [w for w in words[1:] if not w.startswith("-")]
        program = os.path.basename(rest[0]) if rest else ""
    return _PYTHON.fullmatch(program) is not None


def _from_suffix(path: Path, search_path: str | None) -> list[str] | Diagnostic:
    program = SUFFIXES.get(path.suffix)
    if program is None:
        kind = f"its suffix {path.suffix}" if path.suffix else "a file without a suffix"
        return _refused(path, f"it has no #! line and {kind} has no interpreter")
    if program == "python":
        return [sys.executable, str(path)]
    if program in _NEEDS_PATH and shutil.which(program, path=search_path) is None:
        return _refused(path, f"{path.suffix} files run with {program}, which is not on PATH")
    return [program, str(path)]


def _refused(path: Path, why: str) -> Diagnostic:
    where = path.suffix or "files without a suffix"
    message = (
        f"{_name(path)} cannot be run: {why}; add a #! line, make it executable (chmod +x), "
        f"or give the session an interpreter for {where} (script_interpreters)"
    )
    return diagnostic("exec.start", message, path)


def _name(path: Path) -> str:
    return quote(path.name)
