"""satchel's own archive extractor: tar (plain, gzip, bzip2, xz) and zip.

It follows PEP 706's ``data`` filter and PEP 721, and is stricter where the
threat model asks (cases I01-I03):

- an entry whose path is absolute, names a drive, holds a backslash or NUL, has a
  ``..`` segment or is deeper than the limit stops the extraction
  (``install.archive.path``);
- a hardlink, a symlink whose target is absolute or leaves the tree, and an entry
  written through a symlink stop it (``install.archive.link``); a symlink that stays
  inside the tree is kept;
- a device, FIFO or socket stops it (``install.archive.special``);
- the uncompressed total, the entry count and the compression ratio are counted
  while streaming, so a bomb stops as soon as it passes a bound
  (``install.archive.too-large``);
- a path seen twice, compared after NFC and casefolding, stops it
  (``install.archive.duplicate``); nested archives are plain files.

Modes are sanitised: files are 0644, or 0755 when any execute bit was set;
directories are 0755. Owners, times and setuid bits are not kept. The destination
must be an empty directory the caller owns (a private staging directory): on
failure the caller removes it, so nothing half-extracted is ever visible.
"""

from __future__ import annotations

import os
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from satchel.foundations._contain import entry_parts, folded, link_escapes
from satchel.install._errors import InstallError, refuse
from satchel.install._settings import Limits

__all__ = ["extract_archive", "sniff"]

_CHUNK = 64 * 1024
_MAX_LINK = 4096
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def sniff(path: Path) -> str | None:
    """``zip``, ``tar`` or None, from the file's first bytes."""
    with open(path, "rb") as f:
        head = f.read(512)
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head[:2] == b"\x1f\x8b" or head[:3] == b"BZh" or head[:6] == b"\xfd7zXZ\x00":
        return "tar"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    return None


def extract_archive(archive: Path, dest: Path, limits: Limits) -> None:
    """Extract `archive` into the empty directory `dest`; raise `InstallError` at the
    first entry that breaks a rule (see the module docstring)."""
    kind = sniff(archive)
    if kind is None:
        raise refuse("install.archive.invalid", "not a tar or zip archive", archive)
    writer = _Writer(dest, limits, os.stat(archive).st_size, archive)
    try:
        if kind == "zip":
            _zip(archive, writer)
        else:
            _tar(archive, writer)
    except InstallError:
        raise
    except (tarfile.TarError, zipfile.BadZipFile, zlib.error, EOFError, ValueError) as e:
        raise refuse("install.archive.invalid", f"the archive is damaged: {e}", archive) from None
    except (OSError, LookupError) as e:
        raise refuse(
            "install.archive.invalid", f"the archive cannot be read: {e}", archive
        ) from None


def _tar(archive: Path, writer: _Writer) -> None:
    with tarfile.open(archive, mode="r|*") as tar:
        for member in tar:
            parts = writer.entry(member.name)
            if not parts:
                continue
            if member.isdir():
                writer.directory(parts)
            elif member.isreg():
                stream = tar.extractfile(member)
                assert stream is not None  # a regular member always has a stream
                writer.file(parts, stream, member.mode)
            elif member.issym():
                writer.symlink(parts, member.linkname)
            elif member.islnk():
                raise writer.refused("install.archive.link", parts, "is a hardlink")
            else:
                raise writer.refused("install.archive.special", parts, f"is {_kind(member)}")


def _kind(member: tarfile.TarInfo) -> str:
    if member.ischr() or member.isblk():
        return "a device"
    if member.isfifo():
        return "a FIFO"
    return "not a file, directory or symlink"


def _zip(archive: Path, writer: _Writer) -> None:
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        writer.declared(len(infos), sum(i.file_size for i in infos))
        for info in infos:
            parts = writer.entry(info.filename)
            if not parts:
                continue
            mode = info.external_attr >> 16
            if info.is_dir() or stat.S_ISDIR(mode):
                writer.directory(parts)
            elif stat.S_ISLNK(mode):
                with zf.open(info) as f:
                    target = f.read(_MAX_LINK + 1)
                if len(target) > _MAX_LINK:
                    raise writer.refused("install.archive.link", parts, "is a symlink too long")
                writer.symlink(parts, target.decode("utf-8", "replace"))
            elif stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                raise writer.refused("install.archive.special", parts, "is a special file")
            else:
                with zf.open(info) as f:
                    writer.file(parts, f, mode)


class _Writer:
    """Writes checked entries below `dest`, counting every bound as it goes."""

    def __init__(self, dest: Path, limits: Limits, archive_size: int, archive: Path) -> None:
        self.dest = dest
        self.limits = limits
        self.archive = archive
        self.archive_size = max(archive_size, 1)
        self.files = 0
        self.written = 0
        self.seen: dict[str, str] = {}  # folded path -> "d", "f" or "l"
        # directories below `dest` already made or found real: no entry can later turn
        # one into a link or a file (that write fails), and nothing else writes here
        self.made: dict[tuple[str, ...], str] = {(): os.fspath(dest)}

    def declared(self, count: int, size: int) -> None:
        """Bounds a zip's central directory already shows, before writing anything."""
        if count > self.limits.max_files:
            raise self._too_large(
                f"it has {count:,} entries; the limit is {self.limits.max_files:,}"
            )
        if size > self.limits.max_bytes:
            raise self._too_large(
                f"it unpacks to {size:,} bytes; the limit is {self.limits.max_bytes:,}"
            )

    def entry(self, name: str) -> tuple[str, ...]:
        """The checked path segments of an entry (empty for the archive's root)."""
        self.files += 1
        if self.files > self.limits.max_files:
            raise self._too_large(f"it has more than {self.limits.max_files:,} entries")
        parts = entry_parts(name, depth=self.limits.max_depth, length=self.limits.max_path)
        if isinstance(parts, str):
            raise self._path(name, parts)
        return parts

    def directory(self, parts: tuple[str, ...]) -> None:
        self._claim(parts, "d")
        self._parent((*parts, ""))

    def file(self, parts: tuple[str, ...], stream: IO[bytes], mode: int) -> None:
        self._claim(parts, "f")
        target = os.path.join(self._parent(parts), parts[-1])
        perms = 0o755 if mode & 0o111 else 0o644
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, perms)
        except FileExistsError:
            raise self.refused(
                "install.archive.duplicate", parts, "is in the archive twice"
            ) from None
        with os.fdopen(fd, "wb") as out:
            for chunk in _chunks(stream):
                self._count(len(chunk))
                out.write(chunk)
            os.fchmod(fd, perms)  # the file just made, whatever the umask took away

    def symlink(self, parts: tuple[str, ...], target: str) -> None:
        why = link_escapes(parts, target)
        if why is not None:
            raise self.refused("install.archive.link", parts, why)
        self._claim(parts, "l")
        os.symlink(target, os.path.join(self._parent(parts), parts[-1]))

    def refused(self, code: str, parts: tuple[str, ...], why: str) -> InstallError:
        return refuse(code, f"archive entry {'/'.join(parts)!r} {why}", self.archive)

    def _claim(self, parts: tuple[str, ...], kind: str) -> None:
        key = folded(parts)
        before = self.seen.get(key)
        if before is not None and not (before == "d" and kind == "d"):
            raise self.refused("install.archive.duplicate", parts, "is in the archive twice")
        self.seen[key] = kind

    def _parent(self, parts: tuple[str, ...]) -> str:
        """The directory that holds the last segment, created as real directories;
        an existing symlink or file on the way is refused."""
        made = self.made.get(parts[:-1])
        if made is not None:
            return made
        here = os.fspath(self.dest)
        for depth, segment in enumerate(parts[:-1], start=1):
            here = os.path.join(here, segment)
            if parts[:depth] in self.made:
                continue
            try:
                st = os.lstat(here)
            except FileNotFoundError:
                os.mkdir(here, 0o755)
            else:
                if stat.S_ISLNK(st.st_mode):
                    raise self.refused(
                        "install.archive.link", parts, "is written through a symlink"
                    )
                if not stat.S_ISDIR(st.st_mode):
                    raise self.refused("install.archive.duplicate", parts, "is below a file")
            self.made[parts[:depth]] = here
        return here

    def _count(self, n: int) -> None:
        self.written += n
        lim = self.limits
        if self.written > lim.max_bytes:
            raise self._too_large(f"it unpacks to more than {lim.max_bytes:,} bytes")
        if self.written > lim.ratio_floor and self.written > self.archive_size * lim.max_ratio:
            raise self._too_large(f"it unpacks to more than {lim.max_ratio} times its size")

    def _too_large(self, why: str) -> InstallError:
        return refuse("install.archive.too-large", f"the archive is refused: {why}", self.archive)

    def _path(self, name: str, why: str) -> InstallError:
        return refuse("install.archive.path", f"archive entry {name!r} {why}", self.archive)


def _chunks(stream: IO[bytes]) -> Iterator[bytes]:
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return
        yield chunk
