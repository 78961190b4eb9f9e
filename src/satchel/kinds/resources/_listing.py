"""Listing the files of a skill directory, bounded and without following directory links."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from satchel.core.errors import ResourceError
from satchel.kinds.resources._paths import utf8
from satchel.kinds.resources._walk import DIR_FLAGS, Walk, open_root

MAX_LIST_ENTRIES = 10_000  # directory entries one listing looks at
SKIP_DIRS = frozenset(("node_modules", "__pycache__"))  # and every dot-directory
SKILL_FILES = frozenset(("SKILL.md", "skill.md"))


def list_resources(
    root: Path,
    *,
    limit: int = 100,
    max_depth: int = 6,
    keep: Callable[[str], bool] | None = None,
) -> tuple[tuple[str, ...], int]:
    """The files of a skill directory as sorted POSIX paths: the first `limit`, and how
    many more were found. With `keep`, only the paths it accepts are listed and counted
    (a session lists only the files its tools can reach).

    Regular files and symlinks to regular files in the tree are listed; the top-level
    SKILL.md (and skill.md), dot-directories, ``node_modules`` and ``__pycache__`` are
    not, nor is anything deeper than `max_depth` levels. Directory symlinks are never
    followed. The walk looks at `MAX_LIST_ENTRIES` directory entries at most; past that
    the count of files left out is a lower bound.
    """
    root_fd, real = open_root(root, "")
    lister = _Lister(Walk(root, real, "", [root_fd]), max_depth, MAX_LIST_ENTRIES)
    try:
        lister.scan(root_fd, (), 1)
    finally:
        os.close(root_fd)
    found = sorted(p for p in lister.found if keep is None or keep(p))
    shown = tuple(found[: max(limit, 0)])
    return shown, len(found) - len(shown)


@dataclass(slots=True)
class _Lister:
    walk: Walk
    max_depth: int
    budget: int
    found: list[str] = field(default_factory=list)

    def scan(self, dir_fd: int, prefix: tuple[str, ...], depth: int) -> None:
        for entry in self._entries(dir_fd):
            path = (*prefix, entry.name)
            if entry.is_dir(follow_symlinks=False):
                if depth < self.max_depth and not _skipped_dir(entry.name):
                    self._descend(dir_fd, path, depth)
            elif depth == 1 and entry.name in SKILL_FILES:
                continue
            elif entry.is_file(follow_symlinks=False) or (
                entry.is_symlink() and self._links_to_file(path)
            ):
                self.found.append("/".join(path))

    def _entries(self, dir_fd: int) -> list[os.DirEntry[str]]:
        taken: list[os.DirEntry[str]] = []
        with suppress(OSError), os.scandir(dir_fd) as it:
            for entry in it:
                if self.budget <= 0:
                    break
                self.budget -= 1
                if utf8(entry.name):
                    taken.append(entry)
        return sorted(taken, key=lambda e: e.name)

    def _descend(self, dir_fd: int, path: tuple[str, ...], depth: int) -> None:
        try:
            fd = os.open(path[-1], DIR_FLAGS, dir_fd=dir_fd)
        except OSError:
            return
        try:
            self.scan(fd, path, depth + 1)
        finally:
            os.close(fd)

    def _links_to_file(self, path: tuple[str, ...]) -> bool:
        self.walk.links = 0
        try:
            fd, _ = self.walk.open_file(path)
        except ResourceError:
            return False
        try:
            return stat.S_ISREG(os.fstat(fd).st_mode)
        finally:
            os.close(fd)


def _skipped_dir(name: str) -> bool:
    return name.startswith(".") or name in SKIP_DIRS
