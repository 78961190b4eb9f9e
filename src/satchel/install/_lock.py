"""The lock file: what satchel installed in a scope, pinned, with a content hash.

``skills.lock`` is JSON (sorted, two-space indented, so it diffs well)::

    {
      "version": 1,
      "entries": [
        {
          "name": "pdf",                 "kind": "skill",   "family": "satchel",
          "source": "owner/repo#v1:skills",                  "ref": "v1",
          "resolved": "<commit sha, npm version, or digest>",
          "integrity": "<sha512-... (npm) or sha256-... (GitHub tarball) or null>",
          "folder": "skills/pdf",        "hash": "sha256:<hex of the installed tree>"
        }
      ]
    }

Five fields are written only when set: ``marketplace`` (the catalogue a plugin was
installed from, ``NAME@MARKETPLACE``), ``manifest`` (the plugin manifest satchel wrote
from that catalogue's entry, so a frozen install writes the same), ``requires`` (the
entries it depends on, ``kind:name``), ``direct`` (false: installed only as a
dependency, so `prune` may remove it when nothing needs it) and ``signature`` (who signed
what was installed, a `Signature`: ``{"identity", "issuer", "digest", "kind"}`` and, for
a signature found in a transparency log, ``"log_index"``).

An entry is the proof that satchel installed that directory: `remove` and
`update` act only on entries, and `install` refuses to replace a directory that
has none (unless ``--force``).

Every change to the lock is a read-modify-write made under `held`: an exclusive
``flock`` on the directory that holds the lock file (no file of its own, so a refused
install leaves nothing behind), waited for at most `Settings.lock_wait` seconds
(``install.lock.busy`` after that), so that installs run at once into one scope each
add their entries and none is lost. While a tree is being placed its ``kind family
name`` is in the sibling ``.skills.lock.placed``: a tree that could not be placed is
taken out of it again, and once the lock is written with the new entries the record is
removed. A record left behind names a run killed between placing a tree and writing
its entry: a name it holds whose directory is there but whose entry is not is what
`verify` reports as ``install.lock.unlisted``.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from satchel.core._files import write_atomic
from satchel.core._json import loads
from satchel.core._model import model
from satchel.install._errors import InstallError, refuse

__all__ = [
    "Lock",
    "LockEntry",
    "Signature",
    "held",
    "placing",
    "read_lock",
    "read_placed",
    "settle",
    "write_lock",
]

VERSION = 1
_CAP = 16 * 1024 * 1024
_FIELDS = ("name", "kind", "family", "source", "ref", "resolved", "integrity", "folder", "hash")
_OPTIONAL = ("marketplace", "manifest", "requires", "direct", "signature")
_SIGNATURE_KINDS = ("bundle", "cosign", "attestation")
_POLL = 0.05  # seconds between two tries of a held lock
_PLACED_CAP = 4 * 1024 * 1024


@model
class Signature:
    """Who signed an installed entry, as verified at install.

    `identity` is the signing certificate's subject (an e-mail address or a workflow
    URI) or, for a key, ``key:sha256:<hex>`` of the public key; `issuer` the OIDC issuer
    the certificate names (empty for a key); `digest` what was signed (``sha256:<hex>``);
    `kind` how it was published (``bundle`` beside the files, ``cosign`` attached to an
    OCI artifact, ``attestation`` an in-toto statement); `log_index` the transparency
    log entry that holds it, when there is one."""

    identity: str
    issuer: str
    digest: str
    kind: str
    log_index: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "identity": self.identity,
            "issuer": self.issuer,
            "digest": self.digest,
            "kind": self.kind,
        }
        if self.log_index is not None:
            out["log_index"] = self.log_index
        return out


@model
class LockEntry:
    """One installed skill or plugin (see the module docstring for the fields)."""

    name: str
    kind: str
    family: str
    source: str
    ref: str | None
    resolved: str | None
    integrity: str | None
    folder: str
    hash: str
    marketplace: str | None = None
    manifest: str | None = None
    requires: tuple[str, ...] = ()
    direct: bool = True
    signature: Signature | None = None

    @property
    def key(self) -> str:
        """How `requires` names this entry: ``kind:name``."""
        return f"{self.kind}:{self.name}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in _FIELDS}
        if self.marketplace is not None:
            out["marketplace"] = self.marketplace
        if self.manifest is not None:
            out["manifest"] = self.manifest
        if self.requires:
            out["requires"] = list(self.requires)
        if not self.direct:
            out["direct"] = False
        if self.signature is not None:
            out["signature"] = self.signature.to_json()
        return out


@model
class Lock:
    """Every entry of one scope's lock file, sorted by kind then name."""

    entries: tuple[LockEntry, ...] = ()

    def find(self, name: str, kind: str | None = None) -> LockEntry | None:
        return next(
            (e for e in self.entries if e.name == name and (kind is None or e.kind == kind)),
            None,
        )

    def put(self, entry: LockEntry) -> Lock:
        """This lock with `entry` added, or replacing the entry of the same kind and name."""
        kept = [e for e in self.entries if (e.kind, e.name) != (entry.kind, entry.name)]
        return Lock(tuple(sorted([*kept, entry], key=lambda e: (e.kind, e.name))))

    def put_all(self, entries: Iterable[LockEntry]) -> Lock:
        """This lock with each of `entries` put (`put`), sorted once: one pass, however
        many there are."""
        new = {(e.kind, e.name): e for e in entries}
        kept = [e for e in self.entries if (e.kind, e.name) not in new]
        return Lock(tuple(sorted([*kept, *new.values()], key=lambda e: (e.kind, e.name))))

    def drop(self, entry: LockEntry) -> Lock:
        return Lock(tuple(e for e in self.entries if e != entry))

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "entries": [e.to_json() for e in self.entries]}


def read_lock(path: Path) -> Lock:
    """The lock at `path` (empty when there is none); ``install.lock.invalid`` when it
    cannot be read, so that nothing acts on a lock it misunderstood."""
    try:
        with open(path, "rb") as f:
            data = f.read(_CAP + 1)
    except FileNotFoundError:
        return Lock()
    except OSError as e:
        raise refuse(
            "install.lock.invalid", f"cannot read the lock file: {e.strerror}", path
        ) from None
    try:
        if len(data) > _CAP:
            raise ValueError("it is larger than 16 MiB")
        return _parse(loads(data))
    except (ValueError, TypeError, KeyError) as e:
        raise refuse("install.lock.invalid", f"the lock file is not valid: {e}", path) from None


def _parse(doc: Any) -> Lock:
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        raise ValueError(f"it is not a version {VERSION} lock")
    rows = doc.get("entries")
    if not isinstance(rows, list):
        raise ValueError("'entries' is not a list")
    entries = []
    for row in rows:
        if not isinstance(row, dict) or not set(_FIELDS) <= set(row) <= {*_FIELDS, *_OPTIONAL}:
            raise ValueError(
                f"an entry does not have exactly the fields {', '.join(_FIELDS)} "
                f"(and optionally {', '.join(_OPTIONAL)})"
            )
        for key in ("name", "kind", "family", "source", "folder", "hash"):
            if not isinstance(row[key], str):
                raise ValueError(f"an entry's {key!r} is not a string")
        for key in ("ref", "resolved", "integrity"):
            if row[key] is not None and not isinstance(row[key], str):
                raise ValueError(f"an entry's {key!r} is neither a string nor null")
        if (
            row["kind"] not in ("skill", "plugin")
            or "/" in row["name"]
            or row["name"] in (".", "..")
        ):
            raise ValueError(f"the entry {row['name']!r} has a bad kind or name")
        entries.append(LockEntry(**{k: row[k] for k in _FIELDS}, **_optional(row)))
    return Lock(tuple(sorted(entries, key=lambda e: (e.kind, e.name))))


def _optional(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("marketplace", "manifest"):
        if row.get(key) is not None:
            if not isinstance(row[key], str):
                raise ValueError(f"an entry's {key!r} is neither a string nor null")
            out[key] = row[key]
    requires = row.get("requires", [])
    if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
        raise ValueError("an entry's 'requires' is not a list of strings")
    out["requires"] = tuple(requires)
    direct = row.get("direct", True)
    if not isinstance(direct, bool):
        raise ValueError("an entry's 'direct' is not true or false")
    out["direct"] = direct
    if row.get("signature") is not None:
        out["signature"] = _signature(row["signature"])
    return out


def _signature(raw: Any) -> Signature:
    if not isinstance(raw, dict):
        raise ValueError("an entry's 'signature' is not a table")
    for key in ("identity", "issuer", "digest", "kind"):
        if not isinstance(raw.get(key), str):
            raise ValueError(f"an entry's signature has no string {key!r}")
    if raw["kind"] not in _SIGNATURE_KINDS:
        raise ValueError(f"an entry's signature kind {raw['kind']!r} is not known")
    index = raw.get("log_index")
    if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
        raise ValueError("an entry's signature 'log_index' is not a number")
    return Signature(raw["identity"], raw["issuer"], raw["digest"], raw["kind"], index)


def write_lock(path: Path, lock: Lock) -> None:
    """Write `lock` atomically (a temporary file renamed over the old one), inside
    `held`, and remove the record of trees being placed: the lock lists them now."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(lock.to_json(), indent=2, ensure_ascii=True) + "\n")
    settle(path)


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(f".{path.name}.{suffix}")


@contextmanager
def held(path: Path, wait: float) -> Iterator[None]:
    """Hold the lock of the lock file at `path` (an exclusive ``flock`` on the directory
    that holds it) for a read-modify-write; ``install.lock.busy`` when another process
    holds it for longer than `wait` seconds."""
    import fcntl  # POSIX, where satchel installs

    path.parent.mkdir(parents=True, exist_ok=True)
    # the directory may be a link (dotfiles kept elsewhere): its target is locked
    fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        until = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= until:
                    message = (
                        f"another satchel has been changing {path.name} for more than "
                        f"{wait:g} s; nothing was written"
                    )
                    hint = f"run again once it is done (it holds {path.parent})"
                    raise refuse("install.lock.busy", message, path, hint=hint) from None
                time.sleep(_POLL)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def _line(kind: str, family: str, name: str) -> str:
    return f"{kind} {family} {name}\n"


@contextmanager
def placing(path: Path, entry: LockEntry) -> Iterator[None]:
    """Record, while its tree is placed (inside `held`), that `entry` is being
    installed, in the sibling ``.skills.lock.placed``; a tree that could not be placed
    is taken out of the record again, the file removed when nothing else is in it.
    The record is only ever a regular file opened without following a link
    (``install.lock.invalid`` otherwise): a project cannot point it elsewhere."""
    record = _sibling(path, "placed")
    line = _line(entry.kind, entry.family, entry.name)
    before = _record_text(record)
    fd = _open_record(record, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        os.write(fd, line.encode("utf-8"))
    finally:
        os.close(fd)
    try:
        yield
    except BaseException:
        _restore(record, before)
        raise


def _open_record(record: Path, flags: int) -> int:
    """`record` opened with `flags`, never through a link, and only a regular file."""
    nofollow = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(record, flags | nofollow, 0o644)
    except OSError as e:
        if e.errno == errno.ENOENT:
            raise
        raise _not_a_record(record, e.strerror or "it cannot be opened") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_a_record(record, "it is not a regular file")
    return fd


def _not_a_record(record: Path, why: str) -> InstallError:
    message = f"{record.name} cannot be used: {why}; nothing was written"
    return refuse("install.lock.invalid", message, record, hint=f"remove {record}")


def _record_text(record: Path) -> str | None:
    try:
        fd = _open_record(record, os.O_RDONLY)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read(_PLACED_CAP).decode("utf-8", "replace")


def _restore(record: Path, text: str | None) -> None:
    if text:
        write_atomic(record, text)
    else:
        record.unlink(missing_ok=True)


def settle(path: Path) -> None:
    """The lock lists every placed tree now (inside `held`): the record goes."""
    _sibling(path, "placed").unlink(missing_ok=True)


def read_placed(path: Path) -> tuple[tuple[str, str, str], ...]:
    """The ``(kind, family, name)`` of each tree recorded as placed beside the lock file
    at `path` (none when there is no record, or it cannot be read)."""
    try:
        text = _record_text(_sibling(path, "placed"))
    except (OSError, InstallError):
        return ()
    rows = (line.split(" ") for line in (text or "").splitlines())
    found = {
        (r[0], r[1], r[2])
        for r in rows
        if len(r) == 3
        and r[0] in ("skill", "plugin")
        and r[2] not in ("", ".", "..")
        and "/" not in r[2]
    }
    return tuple(sorted(found))
