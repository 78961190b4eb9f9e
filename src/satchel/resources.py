"""Every path a model (or a host) names inside a skill directory.

`load_skill(name, resource)`, `skills_read` (``references/`` and ``assets/`` only) and
`skills_run_script` (``scripts/`` only) come through here. The path is untrusted text;
the skill directory (found by discovery) is trusted, and nothing outside it is opened.

Decisions:

- The requested path must be relative, in POSIX form: no backslash, no drive, share or
  leading ``/``, no ``~`` or ``$`` prefix, no URL scheme, no NUL. Windows forms are
  judged with `PureWindowsPath` on every OS.
- Any ``..`` segment is refused, even one that would stay inside. ``%2e%2e`` is a
  literal name: nothing is URL-decoded.
- Symlinks that stay inside the skill directory are followed (an absolute target is
  spliced in when it lies under the skill directory); a link that leads out is refused
  (`resource.symlink.escape`), and more than `MAX_SYMLINKS` links on one path is
  `resource.symlink.loop`.
- Resolution is race-safe: the skill directory is opened once, then every segment is
  opened with ``O_NOFOLLOW`` relative to a directory fd already held, so swapping a file
  for a symlink mid-read can never reach outside. ``..`` in a link target pops that stack
  of fds; the kernel never resolves a ``..``. On Linux, the opened file's
  ``/proc/self/fd`` path is checked against the expected one too.
- Only regular files are opened: a FIFO, socket, device or directory is refused after an
  ``lstat`` and never opened, and the opened fd is ``fstat``-ed again.
- A file with more than one hard link is refused unless ``allow_hardlinks=True``: a hard
  link may be a file from outside the tree and no path check can tell.
- Reads are bounded by the cap (cap + 1 bytes at most), even if the size on disk lied.
- `areas` is checked on the requested path, before any link is followed: a link inside
  ``references/`` that leads elsewhere in the tree is fine.

These reads need ``dir_fd`` support (Linux, macOS, the BSDs); elsewhere they are refused
with `resource.unreadable`.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import TypeAlias

from satchel.diagnostics import diagnostic
from satchel.errors import ResourceError
from satchel.text import escape

__all__ = [
    "check_relative",
    "list_resources",
    "MAX_LIST_ENTRIES",
    "MAX_PATH",
    "MAX_RESOURCE",
    "MAX_SEGMENT",
    "MAX_SYMLINKS",
    "quote",
    "read_resource",
    "resolve_file",
    "Resource",
]

MAX_RESOURCE = 4 * 1024 * 1024
MAX_PATH = 4096  # characters
MAX_SEGMENT = 255  # bytes of UTF-8, the usual NAME_MAX
MAX_SYMLINKS = 40
MAX_LIST_ENTRIES = 10_000  # directory entries one listing looks at
SKIP_DIRS = frozenset(("node_modules", "__pycache__"))  # and every dot-directory
SKILL_FILES = frozenset(("SKILL.md", "skill.md"))
_SHOWN = 200

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_ROOT_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
_DIR_FLAGS = _ROOT_FLAGS | _NOFOLLOW
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_DIR_FD = os.open in os.supports_dir_fd  # not on Windows
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://|[A-Za-z]{2,}:")

_INVALID = "resource.path.invalid"
_ABSOLUTE = "resource.path.absolute"

_Origin: TypeAlias = tuple[str, str] | None  # the (link, target) a pending segment came from
_Pending: TypeAlias = tuple[str, _Origin]


@dataclass(frozen=True, slots=True)
class Resource:
    """A file read from a skill directory.

    `relative` is the normalized POSIX path asked for; `real` the real absolute path of
    the file opened (the skill directory's realpath plus the in-tree segments resolved).
    """

    relative: str
    real: Path
    data: bytes
    size: int


def quote(text: str) -> str:
    """`text` for a message: repr(), control characters escaped, at most 200 characters."""
    shown = escape(repr(text[:_SHOWN]), newlines=True)
    return shown if len(text) <= _SHOWN else f"{shown}... ({len(text):,} characters)"


def check_relative(path: str, *, root: Path | None = None) -> tuple[str, ...]:
    """The segments of a relative resource path, or `ResourceError`.

    Empty and ``.`` segments are dropped: ``refs/./a.md`` and ``refs//a.md`` give
    ``("refs", "a.md")``. `root` only goes into the diagnostic's path.
    """
    problem = _shape_problem(path)
    if problem is None:
        segments = tuple(s for s in path.split("/") if s not in ("", "."))
        problem = _segment_problem(segments)
        if problem is None:
            return segments
    code, reason = problem
    raise ResourceError(diagnostic(code, f"{reason}: {quote(path)}", root))


def _shape_problem(path: str) -> tuple[str, str] | None:
    if not path.strip():
        return _INVALID, "the resource path is empty"
    if len(path) > MAX_PATH:
        return _INVALID, f"the resource path is longer than {MAX_PATH:,} characters"
    if "\x00" in path:
        return _INVALID, "the resource path holds a NUL character"
    if not _utf8(path):
        return _INVALID, "the resource path holds a character that is not valid UTF-8"
    if path.startswith("/"):
        return _ABSOLUTE, "the resource path is absolute"
    windows = PureWindowsPath(path)  # on every OS: C:\\x, C:x, \\\\srv\\share, \\x
    if windows.drive:
        return _ABSOLUTE, "the resource path names a Windows drive or share"
    if windows.root:
        return _ABSOLUTE, "the resource path is absolute"
    return _character_problem(path)


def _character_problem(path: str) -> tuple[str, str] | None:
    if "\\" in path:
        return _INVALID, "the resource path holds a backslash; folders are separated by /"
    if path.startswith("~"):
        return _INVALID, "the resource path starts with ~"
    if path.startswith("$"):
        return _INVALID, "the resource path starts with $"
    if _SCHEME.match(path):
        return _INVALID, "the resource path is a URL, not a path"
    return None


def _segment_problem(segments: tuple[str, ...]) -> tuple[str, str] | None:
    if ".." in segments:
        return "resource.path.traversal", "the resource path has a .. segment"
    if any(len(s.encode("utf-8")) > MAX_SEGMENT for s in segments):
        return _INVALID, f"a segment of the resource path is longer than {MAX_SEGMENT} bytes"
    return None


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
) -> Iterator[tuple[_Walk, int, Path]]:
    """The walk, the fd of the checked final file and its real path; all fds closed after."""
    asked = "/".join(segments) or "."
    root_fd, real = _open_root(root, asked)
    walk = _Walk(root, real, asked, [root_fd])
    try:
        fd, names = walk.open_file(segments)
        try:
            walk.check(fd, cap, allow_hardlinks)
            yield walk, fd, Path(real, *names)
        finally:
            os.close(fd)
    finally:
        os.close(root_fd)


def _open_root(root: Path, asked: str) -> tuple[int, str]:
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
class _Walk:
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
            fd = os.open(seg, _DIR_FLAGS, dir_fd=self.fds[-1])
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


def list_resources(
    root: Path, *, limit: int = 100, max_depth: int = 6
) -> tuple[tuple[str, ...], int]:
    """The files of a skill directory as sorted POSIX paths: the first `limit`, and how
    many more were found.

    Regular files and symlinks to regular files in the tree are listed; the top-level
    SKILL.md (and skill.md), dot-directories, ``node_modules`` and ``__pycache__`` are
    not, nor is anything deeper than `max_depth` levels. Directory symlinks are never
    followed. The walk looks at `MAX_LIST_ENTRIES` directory entries at most; past that
    the count of files left out is a lower bound.
    """
    root_fd, real = _open_root(root, "")
    lister = _Lister(_Walk(root, real, "", [root_fd]), max_depth, MAX_LIST_ENTRIES)
    try:
        lister.scan(root_fd, (), 1)
    finally:
        os.close(root_fd)
    found = sorted(lister.found)
    shown = tuple(found[: max(limit, 0)])
    return shown, len(found) - len(shown)


@dataclass(slots=True)
class _Lister:
    walk: _Walk
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
                if _utf8(entry.name):
                    taken.append(entry)
        return sorted(taken, key=lambda e: e.name)

    def _descend(self, dir_fd: int, path: tuple[str, ...], depth: int) -> None:
        try:
            fd = os.open(path[-1], _DIR_FLAGS, dir_fd=dir_fd)
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
