"""Opening a command file, at discovery and again when its body is read.

One rule both times: a command file that is a symlink must resolve to a regular file
inside the directory it is contained in (its root); a file with no containment (a
user's command, which may link into a dotfiles checkout) may point anywhere. A loop
or a link to nothing is refused either way. The target is opened without following
links, so a link swapped in between the check and the open is refused too.
"""

from __future__ import annotations

import os
from pathlib import Path

from satchel._files import FileProblem, open_regular

__all__ = ["MAX_COMMAND_FILE", "open_command_file", "read_command_file"]

MAX_COMMAND_FILE = 1024 * 1024
_CHUNK = 1 << 16


def open_command_file(path: Path, inside: Path | None) -> tuple[int, int]:
    """(fd, size) of the command file at `path`, kept inside `inside` when it is set
    (see the module docstring). Raise `FileProblem`; the caller closes the fd."""
    try:
        return open_regular(path, MAX_COMMAND_FILE, nofollow=True)
    except FileProblem as e:
        if e.kind != "symlink":
            raise
    target = _link_target(path)
    if inside is not None:
        _check_inside(target, inside)
    return open_regular(target, MAX_COMMAND_FILE, nofollow=True)


def read_command_file(path: Path, inside: Path | None) -> bytes:
    """The whole command file at `path` (opened as `open_command_file` does), read
    with a bound even if it grows while it is read. Raise `FileProblem`."""
    fd, _ = open_command_file(path, inside)
    try:
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(_CHUNK, MAX_COMMAND_FILE + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_COMMAND_FILE:
                raise FileProblem("too-large", f"more than {MAX_COMMAND_FILE} bytes", total)
        return b"".join(chunks)
    except OSError as e:
        raise FileProblem("os", e.strerror or str(e)) from None
    finally:
        os.close(fd)


def _link_target(path: Path) -> Path:
    try:
        return path.resolve(strict=True)
    except FileNotFoundError:
        raise FileProblem("os", "a symlink to nothing") from None
    except (OSError, RuntimeError):
        raise FileProblem("loop", "a symlink loop") from None


def _check_inside(target: Path, inside: Path) -> None:
    try:
        top = inside.resolve(strict=True)
    except (OSError, RuntimeError):
        raise FileProblem("os", f"cannot resolve {inside}") from None
    if not target.is_relative_to(top):
        raise FileProblem("escape", f"a symlink to {target}, outside {inside}")
