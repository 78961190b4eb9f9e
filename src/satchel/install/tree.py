"""Installed trees: copy one without following links out of it, and hash it.

The content hash of a tree covers every entry's relative path and kind: a file's
bytes and whether it is executable, a symlink's target, a directory's existence.
Times, owners and other mode bits are left out, so the same content installed on
another machine gives the same hash.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from satchel.install.errors import refuse
from satchel.install.settings import Limits

__all__ = ["copy_tree", "entries", "tree_hash"]

_CHUNK = 64 * 1024


def entries(root: Path) -> dict[str, str]:
    """Each entry below `root` (relative POSIX path) -> what it holds: ``dir``,
    ``file:<sha256>`` (``exec:`` when executable) or ``link:<target>``. Symlinks are
    never followed; a special file is ``special``."""
    found: dict[str, str] = {}
    _walk(root, "", found)
    return found


def _walk(directory: Path, prefix: str, found: dict[str, str]) -> None:
    with os.scandir(directory) as it:
        items = sorted(it, key=lambda e: e.name)
    for entry in items:
        rel = prefix + entry.name
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            found[rel] = f"link:{os.readlink(entry.path)}"
        elif stat.S_ISDIR(st.st_mode):
            found[rel] = "dir"
            _walk(Path(entry.path), rel + "/", found)
        elif stat.S_ISREG(st.st_mode):
            kind = "exec" if st.st_mode & 0o111 else "file"
            found[rel] = f"{kind}:{_file_sha(entry.path)}"
        else:
            found[rel] = "special"


def _file_sha(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def tree_hash(root: Path) -> str:
    """``sha256:<hex>`` of the tree at `root` (see the module docstring)."""
    digest = hashlib.sha256()
    for rel, what in entries(root).items():
        digest.update(f"{rel}\0{what}\n".encode("utf-8", "surrogateescape"))
    return f"sha256:{digest.hexdigest()}"


def copy_tree(src: Path, dst: Path, limits: Limits) -> None:
    """Copy the directory `src` to the new directory `dst`: files (0644, or 0755 when
    executable), directories and symlinks that stay inside `src`. A symlink leaving
    `src` or a special file raises `InstallError`; so does passing `limits`."""
    budget = [0, 0]  # files, bytes
    os.mkdir(dst, 0o755)
    _copy(src, dst, src, limits, budget)


def _copy(src: Path, dst: Path, top: Path, limits: Limits, budget: list[int]) -> None:
    with os.scandir(src) as it:
        items = sorted(it, key=lambda e: e.name)
    for entry in items:
        budget[0] += 1
        if budget[0] > limits.max_files:
            raise refuse("install.archive.too-large", f"more than {limits.max_files:,} files", top)
        source, target = Path(entry.path), dst / entry.name
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            _copy_link(source, target, top)
        elif stat.S_ISDIR(st.st_mode):
            os.mkdir(target, 0o755)
            _copy(source, target, top, limits, budget)
        elif stat.S_ISREG(st.st_mode):
            budget[1] += st.st_size
            if budget[1] > limits.max_bytes:
                message = f"more than {limits.max_bytes:,} bytes"
                raise refuse("install.archive.too-large", message, top)
            _copy_file(source, target, 0o755 if st.st_mode & 0o111 else 0o644)
        else:
            message = f"{source.relative_to(top).as_posix()!r} is a special file"
            raise refuse("install.archive.special", message, top)


def _copy_link(source: Path, target: Path, top: Path) -> None:
    link = os.readlink(source)
    landing = os.path.normpath(os.path.join(source.parent, link))
    real_top = os.path.realpath(top)
    inside = not os.path.isabs(link) and (landing + os.sep).startswith(str(top) + os.sep)
    real = os.path.realpath(source)
    if not inside or not (real == real_top or real.startswith(real_top + os.sep)):
        rel = source.relative_to(top).as_posix()
        raise refuse("install.archive.link", f"{rel!r} links outside the tree ({link})", top)
    os.symlink(link, target)


def _copy_file(source: Path, target: Path, mode: int) -> None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(source, flags)
    with os.fdopen(fd, "rb") as src, open(target, "xb") as out:
        while chunk := src.read(_CHUNK):
            out.write(chunk)
    os.chmod(target, mode)
