"""Reading one file (or resolving its real path) inside a skill directory."""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import diagnostic
from satchel.core.errors import ResourceError
from satchel.kinds.resources._paths import check_relative, quote
from satchel.kinds.resources._walk import Walk, open_root

MAX_RESOURCE = 4 * 1024 * 1024
SNIFF = 1024  # bytes `is_readable_text` looks at


@model
class Resource:
    """A file read from a skill directory.

    `relative` is the normalized POSIX path asked for; `real` the real absolute path of
    the file opened (the skill directory's realpath plus the in-tree segments resolved).
    """

    relative: str
    real: Path
    data: bytes
    size: int


def read_resource(
    root: Path,
    path: str,
    *,
    cap: int = MAX_RESOURCE,
    areas: Sequence[str] | None = None,
    allow_hardlinks: bool = False,
) -> Resource:
    """Read the file at `path` inside the skill directory `root`, or `ResourceError`."""
    segments = _requested(root, path, areas)
    with _opened(root, segments, cap, allow_hardlinks) as (walk, fd, real):
        data = walk.read(fd, cap)
    return Resource("/".join(segments), real, data, len(data))


def resolve_file(
    root: Path,
    path: str,
    *,
    areas: Sequence[str] | None = None,
    allow_hardlinks: bool = False,
) -> Path:
    """The real path of the regular file at `path` inside `root`, checked as
    `read_resource` checks it (opened with ``O_NOFOLLOW`` and fstat-ed), but not read."""
    segments = _requested(root, path, areas)
    with _opened(root, segments, None, allow_hardlinks) as (_, _, real):
        return real


def is_readable_text(
    root: Path, path: str, *, cap: int = MAX_RESOURCE, areas: Sequence[str] | None = None
) -> bool:
    """Whether `read_resource` would read `path` and find text: it passes every path
    rule, is a regular file with one link under the cap, and its first `SNIFF` bytes
    hold no NUL and decode as UTF-8. Nothing else is read; nothing raises."""
    try:
        segments = _requested(root, path, areas)
        with _opened(root, segments, cap, False) as (_, fd, _real):
            head = os.read(fd, SNIFF)
    except (ResourceError, OSError):
        return False
    if b"\0" in head:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _requested(root: Path, path: str, areas: Sequence[str] | None) -> tuple[str, ...]:
    segments = check_relative(path, root=root)
    if areas is not None and (not segments or segments[0] not in areas):
        where = _folders(areas)
        folders = "folder" if len(areas) == 1 else "folders"
        asked = quote("/".join(segments) or path)
        message = f"{asked} is outside {where}, the {folders} this tool reads"
        raise ResourceError(diagnostic("resource.area", message, root))
    return segments


def _folders(areas: Sequence[str]) -> str:
    names = [f"{a}/" for a in areas]
    if len(names) < 2:
        return "".join(names) or "no folder"
    return ", ".join(names[:-1]) + " and " + names[-1]


@contextmanager
def _opened(
    root: Path, segments: tuple[str, ...], cap: int | None, allow_hardlinks: bool
) -> Iterator[tuple[Walk, int, Path]]:
    """The walk, the fd of the checked final file and its real path; all fds closed after."""
    asked = "/".join(segments) or "."
    root_fd, real = open_root(root, asked)
    walk = Walk(root, real, asked, [root_fd])
    try:
        fd, names = walk.open_file(segments)
        try:
            walk.check(fd, cap, allow_hardlinks)
            yield walk, fd, Path(real, *names)
        finally:
            os.close(fd)
    finally:
        os.close(root_fd)
