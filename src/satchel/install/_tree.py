"""Installed trees: copy one without following links out of it, and hash it.

The content hash of a tree covers every entry's relative path and kind: a file's
bytes and mode, a symlink's target, a directory's existence (and mode). satchel
installs every file 0644, or 0755 when executable, and every directory 0755, so a
mode is recorded by what it is (``file``, ``exec``, ``dir``) as long as it is one
of those; any other mode (a setuid or setgid bit, a sticky bit, group or other
write, a file made 0600) is recorded by its octal value, so it changes the hash. A
directory may also lack group and other read and search bits (an install under a
strict umask by an older satchel). Times and owners are left out, so the same
content installed on another machine gives the same hash, and a lock written before
modes were recorded (every mode then was one of these) keeps its meaning.

A tree still to be installed (a fetched source, staged) is hashed as it will be
installed (`source=True`): only whether each file is executable counts there.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from satchel.foundations._contain import link_escapes
from satchel.install._errors import refuse
from satchel.install._settings import Limits

__all__ = ["copy_tree", "entries", "tree_hash"]

_CHUNK = 64 * 1024
_FILE_MODES = {0o644: "file", 0o755: "exec"}
_DIR_EXTRA = 0o7022  # special bits, group and other write: never in an installed directory


def entries(root: Path, *, source: bool = False) -> dict[str, str]:
    """Each entry below `root` (relative POSIX path) -> what it holds: ``dir``,
    ``file:<sha256>`` (``exec:`` when executable), ``mode:<octal>:<sha256>`` for a
    file of any other mode (``dir:<octal>`` for a directory), or ``link:<target>``.
    `source`: `root` is still to be installed, so only the executable bit counts.
    Symlinks are never followed; a special file is ``special``."""
    found: dict[str, str] = {}
    _walk(root, "", found, source)
    return found


def _walk(directory: Path, prefix: str, found: dict[str, str], source: bool) -> None:
    with os.scandir(directory) as it:
        items = sorted(it, key=lambda e: e.name)
    for entry in items:
        rel = prefix + entry.name
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            found[rel] = f"link:{os.readlink(entry.path)}"
        elif stat.S_ISDIR(st.st_mode):
            found[rel] = _dir(st.st_mode, source)
            _walk(Path(entry.path), rel + "/", found, source)
        elif stat.S_ISREG(st.st_mode):
            found[rel] = f"{_file(st.st_mode, source)}:{_file_sha(entry.path)}"
        else:
            found[rel] = "special"


def _file(mode: int, source: bool) -> str:
    if source:
        return "exec" if mode & 0o111 else "file"
    return _FILE_MODES.get(stat.S_IMODE(mode)) or f"mode:{stat.S_IMODE(mode):04o}"


def _dir(mode: int, source: bool) -> str:
    if source or not stat.S_IMODE(mode) & _DIR_EXTRA:
        return "dir"
    return f"dir:{stat.S_IMODE(mode):04o}"


def _file_sha(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def tree_hash(root: Path, *, source: bool = False) -> str:
    """``sha256:<hex>`` of the tree at `root` (see the module docstring; `source` as
    for `entries`)."""
    digest = hashlib.sha256()
    for rel, what in entries(root, source=source).items():
        digest.update(f"{rel}\0{what}\n".encode("utf-8", "surrogateescape"))
    return f"sha256:{digest.hexdigest()}"


def copy_tree(src: Path, dst: Path, limits: Limits) -> None:
    """Copy the directory `src` to the new directory `dst`: files (0644, or 0755 when
    executable), directories (0755) and symlinks that stay inside `src`. A symlink leaving
    `src` or a special file raises `InstallError`; so does passing `limits`."""
    budget = [0, 0]  # files, bytes
    _mkdir(dst)
    _copy(src, dst, src, limits, budget)


def _mkdir(path: Path) -> None:
    os.mkdir(path, 0o755)
    os.chmod(path, 0o755)  # whatever the umask


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
            _mkdir(target)
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
    rel = source.relative_to(top).as_posix()
    why = link_escapes(tuple(rel.split("/")), link)  # the extractor's rule
    real_top, real = os.path.realpath(top), os.path.realpath(source)
    if why is None and not (real == real_top or real.startswith(real_top + os.sep)):
        why = f"links outside the tree ({link})"  # through another link
    if why is not None:
        raise refuse("install.archive.link", f"{rel!r} {why}", top)
    os.symlink(link, target)


def _copy_file(source: Path, target: Path, mode: int) -> None:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(source, flags)
    with os.fdopen(fd, "rb") as src, open(target, "xb") as out:
        while chunk := src.read(_CHUNK):
            out.write(chunk)
    os.chmod(target, mode)
