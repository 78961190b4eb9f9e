"""Bounded reads of regular files (never block on a FIFO, never read past a cap),
symlink containment, file identity, directory listings in name order and atomic
writes."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic

__all__ = [
    "ENVIRONMENT_DIRS",
    "FileProblem",
    "is_environment_dir",
    "link_target",
    "list_sorted",
    "open_regular",
    "open_regular_stat",
    "open_root",
    "read_bounded",
    "read_fd",
    "same_file",
    "write_atomic",
]

# Version-control, environment and cache folders: never walked by the audit, never part
# of a pinned tree (what a hook can run lives elsewhere, or is pinned by name).
ENVIRONMENT_DIRS = frozenset(
    (
        ".git", ".hg", ".svn", ".jj", ".venv", "venv", ".env", ".direnv", "node_modules",
        "__pycache__", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        ".hypothesis", ".eggs", "site-packages", ".gradle", ".terraform", ".cache",
    )
)  # fmt: skip


def is_environment_dir(path: Path) -> bool:
    """A version-control, environment or cache directory: by name, or a virtualenv by
    its ``pyvenv.cfg``."""
    return path.name in ENVIRONMENT_DIRS or os.path.isfile(path / "pyvenv.cfg")


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class FileProblem(Exception):  # a value carried out of a read, not a bug
    """Why a file could not be read: `kind` is missing, not-regular, too-large, symlink,
    loop, dangling (a symlink to nothing), escape or os."""

    def __init__(self, kind: str, message: str, size: int = 0) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.size = size


def open_regular(path: str | Path, cap: int, *, nofollow: bool = False) -> tuple[int, int]:
    """Open `path` for reading; (fd, size). Raise `FileProblem` unless it is a regular
    file of at most `cap` bytes. With `nofollow`, a symlink raises kind ``symlink``.
    The caller closes the fd."""
    fd, st = open_regular_stat(path, cap, nofollow=nofollow)
    return fd, st.st_size


def open_regular_stat(
    path: str | Path, cap: int, *, nofollow: bool = False
) -> tuple[int, os.stat_result]:
    """`open_regular`, with the open file's whole ``fstat`` rather than its size."""
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
    return fd, st


def read_bounded(path: Path, cap: int) -> bytes:
    """The whole of a regular file of at most `cap` bytes, read with a bound even if
    the file grows while it is read."""
    fd, _ = open_regular(path, cap)
    try:
        return read_fd(fd, cap)
    finally:
        os.close(fd)


def read_fd(fd: int, cap: int) -> bytes:
    """The rest of the open file `fd`; `FileProblem` too-large once it passes `cap` bytes."""
    chunks: list[bytes] = []
    total = 0
    while chunk := os.read(fd, min(1 << 20, cap + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > cap:
            raise FileProblem("too-large", f"more than {cap} bytes", total)
    return b"".join(chunks)


def link_target(path: Path, inside: Path | None = None, *, inside_name: str = "") -> Path:
    """The real file the symlink `path` leads to, kept inside `inside` when it is set."""
    try:
        target = path.resolve(strict=True)
    except FileNotFoundError:
        raise FileProblem("dangling", "a symlink to nothing") from None
    except (OSError, RuntimeError):
        raise FileProblem("loop", "a symlink loop") from None
    if inside is None:
        return target
    try:
        top = inside.resolve(strict=True)
    except (OSError, RuntimeError):
        raise FileProblem("os", f"cannot resolve {inside}") from None
    if not target.is_relative_to(top):
        raise FileProblem("escape", f"a symlink to {target}, outside {inside_name or inside}")
    return target


def same_file(a: Path | None, b: Path | None) -> bool:
    """Whether `a` and `b` are one file on disk (False when either is None or unreadable)."""
    if a is None or b is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def list_sorted(directory: str | Path) -> list[os.DirEntry[str]]:
    """The entries of `directory` in code-point order of their names; `OSError` as raised."""
    with os.scandir(directory) as it:
        return sorted(it, key=lambda e: e.name)


def open_root(top: str, diags: list[Diagnostic], what: str) -> list[os.DirEntry[str]] | None:
    """The sorted entries of the root `top` (`what`); None, and why unless missing, if unlisted."""
    try:
        return list_sorted(top)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        message = f"{what} that is not a directory"
        diags.append(diagnostic("discovery.root.not-directory", message, Path(top)))
    except OSError as e:
        message = f"cannot list: {e.strerror}"
        diags.append(diagnostic("discovery.root.unreadable", message, Path(top)))
    return None


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` (UTF-8, ``\\n`` line ends) atomically: a temporary file in
    the same directory, renamed over `path`, removed if anything fails."""
    import tempfile  # only when writing: keep `import satchel` light

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
