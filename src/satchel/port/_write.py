"""Writing a target's files: never over a file port did not write, never outside the root.

Port keeps a record of what it wrote, ``.satchel-port.json`` at the plugin root
(``{"files": {"<path>": "<sha256 of what port wrote>"}}``). A file that exists may be
replaced only when its bytes are what port is about to write (nothing to do), when
they are still what port wrote last time (the record's hash), or with ``force``.
Anything else is refused, ``port.file.exists``, and left byte for byte as it was.
A path that leaves the plugin root (a symlinked directory on the way) is refused,
``port.path.outside_root``, even with ``force``. Files are written through a
temporary file in the same directory and renamed into place.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from satchel.core._json import loads
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import contained, is_dir
from satchel.port._model import Action, Written

__all__ = ["RECORD", "Record", "digest", "write_files"]

RECORD = ".satchel-port.json"
MAX_RECORD = 1 << 20


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Record:
    """The record of the files port wrote below `root` (a resolved directory)."""

    __slots__ = ("files", "root")

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, str] = _read(root / RECORD)

    def owns(self, rel: str, data: bytes) -> bool:
        """Whether `data`, found at `rel`, is what port wrote there."""
        return self.files.get(rel) == digest(data)

    def save(self) -> None:
        text = json.dumps({"files": dict(sorted(self.files.items()))}, indent=2) + "\n"
        _replace(self.root / RECORD, text.encode("utf-8"))


def _read(path: Path) -> dict[str, str]:
    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_RECORD:
            return {}
        value = loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    files = value.get("files") if isinstance(value, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def write_files(
    root: Path,
    files: Mapping[str, str],
    record: Record,
    *,
    force: bool,
    dry_run: bool,
    target: str,
    bases: Mapping[str, bytes] | None = None,
) -> tuple[list[Written], list[Diagnostic]]:
    """Each of `files` (plugin-relative path -> text) written below `root` as the
    rules above allow (`dry_run`: only judged), with what happened to it. A file of
    `bases` (path -> bytes) is one port adds to: it is replaced while it still holds
    those bytes."""
    written: list[Written] = []
    problems: list[Diagnostic] = []
    for rel, text in files.items():
        data = text.encode("utf-8")
        base = (bases or {}).get(rel)
        action, problem = _judge(root, rel, data, record, force=force, base=base)
        if problem is not None:
            problems.append(_tagged(problem, target))
        if action == "written":
            if dry_run:
                action = "planned"
            else:
                _replace(root / rel, data)
        if action in ("written", "unchanged") and not dry_run:
            record.files[rel] = digest(data)
        written.append(Written(rel, text, action))
    return written, problems


def _tagged(found: Diagnostic, target: str) -> Diagnostic:
    return diagnostic(found.code, f"{target}: {found.message}", found.path, hint=found.hint)


def _judge(
    root: Path, rel: str, data: bytes, record: Record, *, force: bool, base: bytes | None = None
) -> tuple[Action, Diagnostic | None]:
    path = root / rel
    if not contained(path, root) or not contained(path.parent, root):
        message = f"{rel} resolves outside the plugin root; it is not written"
        return "refused", diagnostic("port.path.outside_root", message, path)
    if not os.path.lexists(path):
        return "written", None
    if is_dir(path) or (os.path.islink(path) and not os.path.isfile(path)):
        message = f"{rel} exists and is not a file; it is not written"
        return "refused", diagnostic("port.file.exists", message, path)
    try:
        current = path.read_bytes()
    except OSError as e:
        message = f"{rel} exists and cannot be read ({e.strerror}); it is not written"
        return "refused", diagnostic("port.file.exists", message, path)
    if current == data:
        return "unchanged", None
    if force or record.owns(rel, current) or current == base:
        return "written", None
    message = f"{rel} exists and port did not write it; it is left as it is"
    hint = "pass --force to replace it"
    return "refused", diagnostic("port.file.exists", message, path, hint=hint)


def _replace(path: Path, data: bytes) -> None:
    """Write `data` at `path` through a temporary file renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".port-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
