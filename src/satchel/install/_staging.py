"""Private staging directories, and the atomic step that makes an install visible.

Every fetch, extraction and validation happens in a workspace below the user cache
directory (``<cache>/satchel/staging/<pid>-<random>``), never in a scope. Only a
tree that passed every check is copied next to its destination (a
``.satchel-staging`` directory beside the skills root, on the same filesystem) and
renamed into place. A process killed on the way leaves only staging directories;
the next run removes those whose process is gone (case I07).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

from satchel.install._settings import Limits
from satchel.install._tree import copy_tree

__all__ = ["PLACING", "clean_stale", "place", "remove_tree", "workspace"]

PLACING = ".satchel-staging"
_ATTEMPTS = 20


def _new_dir(parent: Path) -> Path:
    """A fresh directory in `parent`. Another process may remove `parent` once it
    is empty (between our making it and our directory's), so that step is retried."""
    path = parent / f"{os.getpid()}-{secrets.token_hex(6)}"
    for _ in range(_ATTEMPTS - 1):
        parent.mkdir(parents=True, exist_ok=True)
        try:
            path.mkdir(mode=0o700)
        except FileNotFoundError:
            continue
        return path
    parent.mkdir(parents=True, exist_ok=True)
    path.mkdir(mode=0o700)
    return path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale(parent: Path) -> None:
    """Remove the staging directories in `parent` whose process has gone, and
    `parent` itself when that leaves it empty."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        pid = name.split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(parent / name, ignore_errors=True)
    with contextlib.suppress(OSError):
        parent.rmdir()  # only when empty


@contextlib.contextmanager
def workspace(cache: Path) -> Iterator[Path]:
    """A fresh private directory below `cache`, removed when the block ends with
    every directory made for it, so that a refused install leaves the home as it was."""
    clean_stale(cache)
    made = _missing_parents(cache)
    path = _new_dir(cache)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        for directory in (cache, *made):
            with contextlib.suppress(OSError):
                directory.rmdir()  # only when empty


def _missing_parents(path: Path) -> list[Path]:
    """The ancestors of `path` that do not exist yet, nearest first."""
    out = []
    for parent in path.parents:
        if os.path.lexists(parent):
            break
        out.append(parent)
    return out


def place(tree: Path, target: Path, limits: Limits) -> bool:
    """Copy `tree` beside `target` and rename it into place, replacing what is there
    (the old tree stays whole until the rename). True when something was replaced."""
    root = target.parent
    root.mkdir(parents=True, exist_ok=True)
    area = root.parent / PLACING
    clean_stale(area)
    work = _new_dir(area)
    try:
        fresh = work / "new"
        copy_tree(tree, fresh, limits)
        replaced = os.path.lexists(target)
        if replaced:
            os.rename(target, work / "old")
        try:
            os.rename(fresh, target)
        except BaseException:
            if replaced:
                os.rename(work / "old", target)
            raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
        with contextlib.suppress(OSError):
            area.rmdir()
    return replaced


def remove_tree(target: Path) -> None:
    """Delete an installed tree without following a symlink out of it: the tree is
    first renamed aside, then removed (shutil.rmtree never follows links)."""
    area = target.parent.parent / PLACING
    work = _new_dir(area)
    try:
        os.rename(target, work / "old")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        with contextlib.suppress(OSError):
            area.rmdir()
