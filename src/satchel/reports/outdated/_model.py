"""The values `satchel outdated` reports: each install found, where it came from, and
what its source holds now that the installed copy does not."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from satchel.audit._delta import NewRisk
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.install._lock import LockEntry

__all__ = ["FileChange", "Install", "LoadChange", "Origin", "Outdated", "Report", "State"]

State = Literal[
    "current", "outdated", "in-place", "unknown-source", "source-unreachable", "not-checked"
]
STATES: tuple[State, ...] = (
    "outdated",
    "source-unreachable",
    "not-checked",
    "unknown-source",
    "in-place",
    "current",
)


@model
class Origin:
    """Where an install came from, as its installer recorded it.

    `spec` is the source as satchel reads one (`satchel.install.parse_source`: a
    folder, a git URL and ``#ref``, ``owner/repo``, ``npm:``, ``oci://``), or None when
    the plugin is an entry of a marketplace (`marketplace`, whose own source is
    `marketplace_spec` and whose copy on disk is `clone`), to be looked up there by
    `entry`. `recorded` says in words where the record was read."""

    recorded: str
    spec: str | None = None
    marketplace: str | None = None
    marketplace_spec: str | None = None
    clone: Path | None = None
    entry: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "recorded": self.recorded,
            "spec": self.spec,
            "marketplace": self.marketplace,
            "marketplace_source": self.marketplace_spec,
            "clone": None if self.clone is None else str(self.clone),
            "entry": self.entry,
        }


@model
class Install:
    """One plugin or skill installed on this machine: who installed it (`installer`:
    ``satchel``, or the host's title), its id, kind, scope, version as recorded, the
    folder of its files, and its `origin` (None: none was recorded, `why`).
    `ignored` are the files the installer adds beside the source's (its install
    metadata); `modes` whether file modes count (satchel installs them itself);
    `linked` that the folder only points at its source, so it is always current;
    `in_place` that the host loads the plugin from its marketplace's folder (`root`)
    as it is, so there is no copy to go stale."""

    installer: str
    id: str
    name: str
    kind: str
    scope: str
    root: Path
    version: str | None = None
    origin: Origin | None = None
    why: str | None = None
    ignored: tuple[str, ...] = ()
    modes: bool = False
    linked: bool = False  # the installed folder only points at its source
    in_place: bool = False  # the host reads `root`, its source's own folder
    lock: LockEntry | None = field(default=None, compare=False, repr=False)  # satchel's


@model
class FileChange:
    """One file or folder that differs: ``added`` (in the source only), ``removed``
    (installed only) or ``changed``, with its size in bytes before and after (None: a
    folder, a link, or no such side)."""

    path: str
    change: Literal["added", "removed", "changed"]
    old_size: int | None = None
    new_size: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "change": self.change,
            "old_size": self.old_size,
            "new_size": self.new_size,
        }


@model
class LoadChange:
    """What loading the source instead of the installed copy adds or removes, each as
    ``kind``, ``name`` (skills by name, hooks as ``Event matcher: command``, MCP
    servers by name)."""

    added: tuple[tuple[str, str], ...] = ()
    removed: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "added": [{"kind": k, "name": n} for k, n in self.added],
            "removed": [{"kind": k, "name": n} for k, n in self.removed],
        }


@model
class Report:
    """One install checked: its `state`, the source compared (`source`: where its
    tree was read, or None), the files that differ, what that changes at load, the new
    risk the audit finds, and the diagnostics (why a source was not read)."""

    install: Install
    state: State
    source: str | None = None
    network: bool = False  # the source is remote: reading it needs the network
    files: tuple[FileChange, ...] = ()
    load: LoadChange = field(default_factory=LoadChange)
    risks: tuple[NewRisk, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    def to_json(self) -> dict[str, Any]:
        i = self.install
        return {
            "installer": i.installer,
            "id": i.id,
            "kind": i.kind,
            "scope": i.scope,
            "version": i.version,
            "path": str(i.root),
            "state": self.state,
            "origin": None if i.origin is None else i.origin.to_json(),
            "source": self.source,
            "network": self.network,
            "files": [f.to_json() for f in self.files],
            "load": self.load.to_json(),
            "new_risk": [r.to_json() for r in self.risks],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@model
class Outdated:
    """Every install found, checked, in the order found; and what went wrong reading
    the installers' records."""

    reports: tuple[Report, ...]
    offline: bool = False
    diagnostics: tuple[Diagnostic, ...] = ()

    def counts(self) -> dict[str, int]:
        return {s: sum(r.state == s for r in self.reports) for s in STATES}

    def to_json(self) -> dict[str, Any]:
        return {
            "offline": self.offline,
            "counts": self.counts(),
            "installs": [r.to_json() for r in self.reports],
        }
