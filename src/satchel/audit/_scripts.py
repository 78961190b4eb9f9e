"""The scripts a tree ships: every regular file with an exec bit or below a
``scripts/`` directory, by its path from the root, with a hash of its bytes.

The audit of a change compares two trees' scripts: one the new tree adds, or whose
bytes changed, is something a hook, an MCP server or a model may run that was not
there before, even when every declaration naming it stayed the same (a hook running
``scripts/check.sh`` reads the same whatever the script now does). The walk is the
audit tree walk's: no symlink followed, no version-control or environment directory
entered, at most `Limits.max_entries` entries; files are read whole only up to
`Limits.max_bytes`, a larger one is known by its size.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from satchel.audit._tree import Limits
from satchel.core._files import FileProblem, is_environment_dir, read_bounded

__all__ = ["scripts_of"]

_EXEC_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


def scripts_of(root: Path, limits: Limits | None = None) -> dict[str, str]:
    """Each script under `root` (POSIX path from the root) with ``sha256:`` of its
    bytes; nothing when `root` is not a directory."""
    limits = limits or Limits()
    found: dict[str, str] = {}
    seen = 0
    pending: list[tuple[Path, tuple[str, ...]]] = (
        [(root, ())] if os.path.isdir(root) and not os.path.islink(root) else []
    )
    while pending and seen < limits.max_entries:
        directory, parts = pending.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries[: limits.max_entries - seen]:
            seen += 1
            path, rel = directory / entry.name, (*parts, entry.name)
            if entry.is_dir(follow_symlinks=False):
                if not is_environment_dir(path):
                    pending.append((path, rel))
            elif entry.is_file(follow_symlinks=False) and _is_script(entry, parts):
                found["/".join(rel)] = _digest(path, limits.max_bytes)
    return found


def _is_script(entry: os.DirEntry[str], parts: tuple[str, ...]) -> bool:
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return False
    return "scripts" in parts or bool(mode & _EXEC_BITS)


def _digest(path: Path, cap: int) -> str:
    try:
        return "sha256:" + hashlib.sha256(read_bounded(path, cap)).hexdigest()
    except FileProblem:
        try:
            return f"size:{os.lstat(path).st_size}"
        except OSError:
            return "unreadable"
