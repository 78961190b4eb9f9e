"""What `satchel validate` says of a folder holding plugin catalogues (a marketplace).

The catalogues there (Claude Code's, Codex's, Cursor's) are read and checked against
each other and against the manifests of the plugins they list by a relative source
(`satchel.install._agreement`); each of those plugins is then validated as a plugin.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.hosts._rules import MARKETPLACES

__all__ = ["CatalogueCheck", "check_catalogues", "holds_catalogue", "listed_folders"]


@model
class CatalogueCheck:
    """The catalogues of one folder: their files, and every diagnostic."""

    path: Path
    files: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        return all(d.severity != "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "name": None,
            "ok": self.ok,
            "kind": "marketplace",
            "files": list(self.files),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def holds_catalogue(path: Path) -> bool:
    """Whether `path` holds a marketplace file of any host (read off the host rules,
    so that a validate of plain skills and plugins imports no installer)."""
    return any((path / m.file).is_file() for m in MARKETPLACES.values())


def check_catalogues(path: Path) -> CatalogueCheck:
    """Every catalogue at `path`, checked for agreement."""
    from satchel.install._agreement import agreement  # only where a catalogue is
    from satchel.install._catalogue import CATALOGUE_FILES

    root = Path(os.path.abspath(path))
    findings, said = agreement(root)
    files = tuple(rel for rel in CATALOGUE_FILES.values() if (root / rel).is_file())
    return CatalogueCheck(root, files, (*said, *(f.diagnostic for f in findings)))


def listed_folders(path: Path) -> list[Path]:
    """The folders the catalogues at `path` list by a relative source that exist, each
    once, in path order."""
    from satchel.install._agreement import catalogues_at

    found: dict[str, Path] = {}
    for catalogue in catalogues_at(Path(os.path.abspath(path)))[0]:
        for entry in catalogue.entries:
            if entry.source.kind == "path" and entry.source.path is not None:
                folder = catalogue.root / entry.source.path
                if folder.is_dir():
                    found.setdefault(os.path.realpath(folder), folder)
    return [found[k] for k in sorted(found)]
