"""Rules that walk a directory tree: symlinks out of the root, scripts, opaque
binaries, and trees larger than the audit limits.

The walk never follows a directory symlink, reads at most the first bytes of a
regular file (to recognise an executable format), and stops after `Limits.max_entries`
entries, reporting that the tree is larger than it looked at. Version-control and
environment directories (`ENVIRONMENT_DIRS`, and any directory holding a
``pyvenv.cfg``) are not walked: they are tools' state, not what a skill or plugin ships.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from satchel.audit._model import Finding
from satchel.core._files import ENVIRONMENT_DIRS, is_environment_dir
from satchel.core._model import model

__all__ = ["ENVIRONMENT_DIRS", "Limits", "file_findings", "is_environment_dir", "tree_findings"]

OPAQUE_SUFFIXES = frozenset(
    (".pyc", ".pyo", ".so", ".dylib", ".dll", ".exe", ".class", ".jar", ".wasm", ".node")
)
MAGIC = (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"\xca\xfe\xba\xbe")
PE_MAGIC = b"MZ"  # a Windows executable, when a NUL byte follows (text has none)
_EXEC_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


@model
class Limits:
    """How large a tree may be before `A-SIZE-TREE` (files and bytes under one root),
    and how many directory entries one walk looks at, at most."""

    max_files: int = 1000
    max_bytes: int = 32 * 1024 * 1024
    max_entries: int = 20_000


@dataclass(slots=True)
class _Walk:
    root: Path
    real: str
    trust: str
    scripts: str | None
    limits: Limits
    files: int = 0
    size: int = 0
    entries: int = 0
    found: list[Finding] = field(default_factory=list)


def tree_findings(
    root: Path, trust: str, *, scripts: str | None, limits: Limits
) -> Iterator[Finding]:
    """Every finding in the tree under `root`. `scripts`, when given, is the trust
    state a script needs to run: scripts are reported, as for a skill, whose
    ``scripts/`` a model can ask to run."""
    walk = _Walk(root, os.path.realpath(root), trust, scripts, limits)
    _scan(walk, root, ())
    yield from walk.found
    over = walk.entries >= limits.max_entries
    if over or walk.files > limits.max_files or walk.size > limits.max_bytes:
        more = " or more" if over else ""
        message = (
            f"the tree holds {walk.files:,}{more} files and {walk.size:,}{more} bytes "
            f"(limits: {limits.max_files:,} files, {limits.max_bytes:,} bytes)"
        )
        yield Finding.of("A-SIZE-TREE", message, root, None, trust)


def _scan(walk: _Walk, directory: Path, parts: tuple[str, ...]) -> None:
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if walk.entries >= walk.limits.max_entries:
            return
        walk.entries += 1
        rel = (*parts, entry.name)
        path = directory / entry.name
        if entry.is_symlink():
            _link(walk, path, rel)
        elif entry.is_dir(follow_symlinks=False):
            if not is_environment_dir(path):
                _scan(walk, path, rel)
        elif entry.is_file(follow_symlinks=False):
            _file(walk, path, rel)


def _link(walk: _Walk, path: Path, rel: tuple[str, ...]) -> None:
    target = os.readlink(path)
    real = os.path.realpath(path)
    if real != walk.real and not real.startswith(os.path.join(walk.real, "")):
        message = f"{'/'.join(rel)} is a symlink to {target!r}, outside {walk.root.name}/"
        walk.found.append(Finding.of("A-RES-SYMLINK-ESCAPE", message, path, None, walk.trust))


def _file(walk: _Walk, path: Path, rel: tuple[str, ...]) -> None:
    try:
        st = os.lstat(path)
    except OSError:
        return
    walk.files += 1
    walk.size += st.st_size
    walk.found.extend(_one(path, rel, st.st_mode, walk.trust, walk.scripts))


def file_findings(path: Path, trust: str, *, scripts: str | None) -> Iterator[Finding]:
    """The tree rules for one file given on its own: a binary, or (with `scripts`) a
    file with an exec bit."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat.S_ISREG(st.st_mode):
        yield from _one(path, (path.name,), st.st_mode, trust, scripts)


def _one(
    path: Path, rel: tuple[str, ...], mode: int, trust: str, scripts: str | None
) -> Iterator[Finding]:
    name = "/".join(rel)
    if path.suffix.lower() in OPAQUE_SUFFIXES or _magic(path):
        message = f"{name} is a compiled or binary executable file"
        yield Finding.of("A-EXEC-OPAQUE-BINARY", message, path, None, trust)
    elif scripts is not None and ((len(rel) > 1 and rel[0] == "scripts") or mode & _EXEC_BITS):
        why = "executable" if mode & _EXEC_BITS else "in scripts/"
        message = f"{name} is a script ({why})"
        yield Finding.of("A-EXEC-SCRIPTS", message, path, None, scripts)


def _magic(path: Path) -> bool:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, 64)
    except OSError:
        return False
    finally:
        os.close(fd)
    return head.startswith(MAGIC) or (head.startswith(PE_MAGIC) and b"\0" in head)
