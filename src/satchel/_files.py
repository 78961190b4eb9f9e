"""Bounded reads of regular files: never block on a FIFO, never read past a cap."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["FileProblem", "open_regular", "read_bounded"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class FileProblem(Exception):  # a value carried out of a read, not a bug
    """Why a file could not be read: `kind` is missing, not-regular, too-large, loop or os."""

    def __init__(self, kind: str, message: str, size: int = 0) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.size = size


def open_regular(path: str | Path, cap: int, *, nofollow: bool = False) -> tuple[int, int]:
    """Open `path` for reading; (fd, size). Raise `FileProblem` unless it is a regular
    file of at most `cap` bytes. With `nofollow`, a symlink raises kind ``symlink``.
    The caller closes the fd."""
    try:
        fd = os.open(path, _FLAGS | (_NOFOLLOW if nofollow else 0))
    except FileNotFoundError:
        raise FileProblem("missing", "no such file") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise FileProblem("symlink" if nofollow else "loop", "a symlink") from None
        kind = "not-regular" if e.errno == errno.ENXIO else "os"
        raise FileProblem(kind, e.strerror or str(e)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem("not-regular", "not a regular file")
        if st.st_size > cap:
            raise FileProblem("too-large", f"{st.st_size} bytes", st.st_size)
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def read_bounded(path: Path, cap: int) -> bytes:
    """The whole of a regular file of at most `cap` bytes, read with a bound even if
    the file grows while it is read."""
    fd, _ = open_regular(path, cap)
    try:
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                raise FileProblem("too-large", f"more than {cap} bytes", total)
        return b"".join(chunks)
    finally:
        os.close(fd)
