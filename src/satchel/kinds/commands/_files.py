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

from satchel.core._files import FileProblem, link_target, open_regular, read_fd

__all__ = ["MAX_COMMAND_FILE", "open_command_file", "read_command_file"]

MAX_COMMAND_FILE = 1024 * 1024


def open_command_file(path: Path, inside: Path | None) -> tuple[int, int]:
    """(fd, size) of the command file at `path`, kept inside `inside` when it is set
    (see the module docstring). Raise `FileProblem`; the caller closes the fd."""
    try:
        return open_regular(path, MAX_COMMAND_FILE, nofollow=True)
    except FileProblem as e:
        if e.kind != "symlink":
            raise
    return open_regular(link_target(path, inside), MAX_COMMAND_FILE, nofollow=True)


def read_command_file(path: Path, inside: Path | None) -> bytes:
    """The whole command file at `path` (opened as `open_command_file` does), read
    with a bound even if it grows while it is read. Raise `FileProblem`."""
    fd, _ = open_command_file(path, inside)
    try:
        return read_fd(fd, MAX_COMMAND_FILE)
    except OSError as e:
        raise FileProblem("os", e.strerror or str(e)) from None
    finally:
        os.close(fd)
