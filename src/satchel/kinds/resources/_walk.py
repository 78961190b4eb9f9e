"""The race-safe resolver: a walk of directory fds below a skill directory, links spliced."""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from satchel.core.diagnostics import diagnostic
from satchel.core.errors import ResourceError
from satchel.kinds.resources._paths import quote

MAX_SYMLINKS = 40

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
DIR_FLAGS = _ROOT_FLAGS | _NOFOLLOW
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_DIR_FD = os.open in os.supports_dir_fd  # not on Windows

_Origin: TypeAlias = tuple[str, str] | None  # the (link, target) a pending segment came from
_Pending: TypeAlias = tuple[str, _Origin]


def open_root(root: Path, asked: str) -> tuple[int, str]:
    """An fd of the skill directory (links followed: discovery found it) and its realpath."""

    def refuse(code: str, reason: str) -> ResourceError:
        message = f"{quote(asked)} cannot be read: the skill directory {reason}"
        return ResourceError(diagnostic(code, message, root))

    if not _DIR_FD:
        raise refuse("resource.unreadable", "cannot be walked safely on this platform")
    try:
        fd = os.open(root, _ROOT_FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        raise refuse("resource.missing", "does not exist") from None
    except OSError as e:
        raise refuse("resource.unreadable", f"cannot be opened: {e.strerror or e}") from None
    return fd, os.path.realpath(root)


@dataclass(slots=True)
class Walk:
    """One resolution below a skill directory: a stack of directory fds (the first, the
    root, is the caller's) and the in-tree names they stand for."""

    root: Path
    real: str
    asked: str
    fds: list[int]
    names: list[str] = field(default_factory=list)
    links: int = 0

    def refuse(self, code: str, reason: str) -> ResourceError:
        message = f"{quote(self.asked)} {reason}"
        return ResourceError(diagnostic(code, message, self.root.joinpath(self.asked)))

    def open_file(self, segments: Sequence[str]) -> tuple[int, list[str]]:
        """Follow `segments` (and the links on them); the fd of the final regular file
        and the in-tree names of its path. Directory fds opened on the way are closed."""
        try:
            return self._walk([(s, None) for s in reversed(segments)])
        finally:
            self._back_to_root()

    def _back_to_root(self) -> None:
        while len(self.fds) > 1:
            os.close(self.fds.pop())
        self.names.clear()

    def _walk(self, pending: list[_Pending]) -> tuple[int, list[str]]:
        while pending:
            seg, origin = pending.pop()
            if seg == "..":
                self._up(origin)
            elif pending:
                self._enter(seg, pending)
            else:
                fd = self._open_last(seg, pending)
                if fd is not None:
                    return fd, [*self.names, seg]
        raise self.refuse("resource.not-regular", "is not a regular file: it is a directory")

    def _up(self, origin: _Origin) -> None:
        if not self.names:
            raise self._escape(origin or ("..", ".."))
        os.close(self.fds.pop())
        self.names.pop()

    def _enter(self, seg: str, pending: list[_Pending]) -> None:
        try:
            fd = os.open(seg, DIR_FLAGS, dir_fd=self.fds[-1])
        except OSError as e:
            st = self._lstat(seg, e)
            if stat.S_ISLNK(st.st_mode):
                self._follow(seg, pending)
                return
            if stat.S_ISDIR(st.st_mode):
                raise self._os_error(seg, e) from None
            reason = f"does not exist: {self._at(seg)} is not a folder"
            raise self.refuse("resource.missing", reason) from None
        self.fds.append(fd)
        self.names.append(seg)

    def _open_last(self, seg: str, pending: list[_Pending]) -> int | None:
        st = self._lstat(seg, None)
        if stat.S_ISLNK(st.st_mode):
            self._follow(seg, pending)
            return None
        if not stat.S_ISREG(st.st_mode):
            raise self._not_regular(st.st_mode)
        try:
            fd = os.open(seg, _FILE_FLAGS, dir_fd=self.fds[-1])
        except OSError as e:
            if e.errno == errno.ELOOP:  # became a link since the lstat
                self._follow(seg, pending)
                return None
            if e.errno == errno.ENOENT:
                raise self._missing(seg) from None
            raise self._os_error(seg, e) from None
        if not self._fd_agrees(fd, seg):
            os.close(fd)
            raise self.refuse(
                "resource.symlink.escape",
                "is refused: the file opened is no longer inside the skill directory",
            )
        return fd

    def _lstat(self, seg: str, error: OSError | None) -> os.stat_result:
        if error is not None and error.errno == errno.ENOENT:
            raise self._missing(seg)
        try:
            return os.lstat(seg, dir_fd=self.fds[-1])
        except FileNotFoundError:
            raise self._missing(seg) from None
        except OSError as e:
            raise self._os_error(seg, e) from None

    def _follow(self, seg: str, pending: list[_Pending]) -> None:
        """Splice the target of the link `seg` in its place."""
        self.links += 1
        if self.links > MAX_SYMLINKS:
            raise self.refuse(
                "resource.symlink.loop",
                f"is refused: more than {MAX_SYMLINKS} symlinks on the path; "
                "they loop or nest too deep",
            )
        try:
            target = os.readlink(seg, dir_fd=self.fds[-1])
        except FileNotFoundError:
            raise self._missing(seg) from None
        except OSError as e:
            if e.errno != errno.EINVAL:
                raise self._os_error(seg, e) from None
            pending.append((seg, None))  # no longer a link: look again (counted, so bounded)
            return
        origin = ("/".join([*self.names, seg]), target)
        parts = [p for p in target.split("/") if p not in ("", ".")]
        if target.startswith("/"):
            parts = self._below_root(parts, origin)
        pending.extend((p, origin) for p in reversed(parts))

    def _below_root(self, parts: list[str], origin: tuple[str, str]) -> list[str]:
        """The part of an absolute link target under the skill directory; the walk
        restarts from the skill directory. A target elsewhere is an escape."""
        for top in (self.real, os.path.abspath(self.root)):
            prefix = [p for p in top.split("/") if p]
            if parts[: len(prefix)] == prefix:
                self._back_to_root()
                return parts[len(prefix) :]
        raise self._escape(origin)

    def check(self, fd: int, cap: int | None, allow_hardlinks: bool) -> None:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise self._not_regular(st.st_mode)
        if st.st_nlink > 1 and not allow_hardlinks:
            raise self.refuse(
                "resource.hardlink",
                f"is refused: the file has {st.st_nlink} hard links, "
                "so it may be a file from outside the skill directory",
            )
        if cap is not None and st.st_size > cap:
            raise self.refuse(
                "resource.too-large",
                f"is {st.st_size:,} bytes, larger than the cap of {cap:,} bytes",
            )

    def read(self, fd: int, cap: int) -> bytes:
        """The whole file, reading at most cap + 1 bytes whatever its size said."""
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                chunk = os.read(fd, min(1 << 20, cap + 1 - total))
            except OSError as e:
                raise self.refuse(
                    "resource.unreadable", f"cannot be read: {e.strerror or e}"
                ) from None
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:
                raise self.refuse(
                    "resource.too-large", f"grew past the cap of {cap:,} bytes while it was read"
                )

    def _fd_agrees(self, fd: int, seg: str) -> bool:
        """On Linux, whether the kernel's path of the opened file is where the walk
        says it is (belt and braces: a held directory could be moved out mid-walk)."""
        if sys.platform != "linux":
            return True
        root, opened = _fd_path(self.fds[0]), _fd_path(fd)
        if root is None or opened is None:
            return True
        expected = os.path.join(root, *self.names, seg)
        return opened in (expected, expected + " (deleted)")

    def _at(self, seg: str) -> str:
        return quote("/".join([*self.names, seg]))

    def _missing(self, seg: str) -> ResourceError:
        place = quote("/".join(self.names)) if self.names else "the skill directory"
        return self.refuse("resource.missing", f"does not exist: no {quote(seg)} in {place}")

    def _escape(self, origin: tuple[str, str]) -> ResourceError:
        link, target = origin
        return self.refuse(
            "resource.symlink.escape",
            f"is refused: the symlink {quote(link)} points to {quote(target)}, "
            "outside the skill directory",
        )

    def _not_regular(self, mode: int) -> ResourceError:
        return self.refuse("resource.not-regular", f"is not a regular file: it is {_kind(mode)}")

    def _os_error(self, seg: str, e: OSError) -> ResourceError:
        reason = e.strerror or str(e)
        return self.refuse("resource.unreadable", f"cannot be read: {reason} at {self._at(seg)}")


def _fd_path(fd: int) -> str | None:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")
