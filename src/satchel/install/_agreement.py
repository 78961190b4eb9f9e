"""Whether a repository's catalogues and its plugins' manifests agree.

A repository of plugins may hold Claude Code's, Codex's and Cursor's catalogue files
side by side (`satchel.install._catalogue.CATALOGUE_FILES`). `agreement(folder)` reads
every one there and says, each as one diagnostic at the catalogue file:

- ``catalogue.entry.source_missing``: an entry's relative source holds no plugin;
- ``catalogue.entry.name_mismatch``: the plugin there names itself otherwise;
- ``catalogue.entry.version_mismatch``: the entry's ``version`` is not the manifest's
  (or, for a manifest without one, not the other catalogues' entry's);
- ``catalogue.entry.source_mismatch``: two catalogues list the plugin from two places;
- ``catalogue.entry.unlisted``: a catalogue lacks a plugin another one lists.

Each `Finding` names the plugin and, when known, its folder, so that ``satchel tag``
can take the ones that concern the plugin it tags. Nothing is run or fetched.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.install._catalogue import (
    CATALOGUE_FILES,
    Catalogue,
    CatalogueEntry,
    read_catalogue_file,
)
from satchel.install._listed_version import version_mismatch
from satchel.plugins._detect import is_plugin_dir
from satchel.plugins._model import Plugin
from satchel.plugins._read import manifest_file, read_plugin

__all__ = ["Finding", "agreement", "catalogues_at"]


@model
class Finding:
    """One disagreement: the plugin `name` it concerns, the plugin's `folder` (real
    path; None when no entry of it has a relative source) and the diagnostic."""

    name: str
    folder: str | None
    diagnostic: Diagnostic


@model
class _Listing:
    catalogue: Catalogue
    entry: CatalogueEntry
    folder: str | None  # the real path of a relative source


def catalogues_at(folder: Path) -> tuple[list[Catalogue], list[Diagnostic]]:
    """Every catalogue file at `folder` that reads, and the reader's diagnostics."""
    found: list[Catalogue] = []
    said: list[Diagnostic] = []
    for fmt, rel in CATALOGUE_FILES.items():
        if (folder / rel).is_file():
            catalogue, diags = read_catalogue_file(fmt, folder / rel)
            said += diags
            if catalogue is not None:
                found.append(catalogue)
    return found, said


def agreement(folder: Path) -> tuple[list[Finding], list[Diagnostic]]:
    """The disagreements between the catalogues at `folder` and the plugins they list
    by relative sources, and the catalogue reader's own diagnostics."""
    catalogues, said = catalogues_at(folder)
    by_name: dict[str, list[_Listing]] = {}
    by_plugin: dict[str, list[_Listing]] = {}  # by folder, else by name
    for catalogue in catalogues:
        for entry in catalogue.entries:
            one = _listed(catalogue, entry)
            by_name.setdefault(entry.name, []).append(one)
            by_plugin.setdefault(one.folder or f"name:{entry.name}", []).append(one)
    findings: list[Finding] = []
    plugins: dict[str, Plugin | None] = {}
    for listed in by_name.values():
        for one in listed:
            findings += _against_manifest(one, plugins)
    for listed in by_plugin.values():
        findings += _unlisted(listed, catalogues, plugins)
    for name, listed in by_name.items():
        findings += _across(name, listed, plugins)
    return findings, said


def _unlisted(
    listed: Sequence[_Listing], catalogues: Sequence[Catalogue], plugins: dict[str, Plugin | None]
) -> list[Finding]:
    """``catalogue.entry.unlisted`` for each catalogue that lists neither the plugin's
    folder nor any name it is listed under (that would be a source mismatch)."""
    first = listed[0]
    plugin = None if first.folder is None else plugins.get(first.folder)
    name = first.entry.name if plugin is None else plugin.name
    names = {one.entry.name for one in listed}
    files = {one.catalogue.path for one in listed}
    found = []
    for other in catalogues:
        if other.path in files or any(other.entry(n) is not None for n in names):
            continue
        message = f"plugin {name!r} is listed in {_rel(first.catalogue)} but not in {_rel(other)}"
        hint = "list it in every catalogue of the repository, or in none"
        said = diagnostic("catalogue.entry.unlisted", message, other.path, hint=hint)
        found.append(Finding(name, first.folder, said))
    return found


def _listed(catalogue: Catalogue, entry: CatalogueEntry) -> _Listing:
    source = entry.source
    if source.kind != "path" or source.path is None:
        return _Listing(catalogue, entry, None)
    return _Listing(catalogue, entry, os.path.realpath(catalogue.root / source.path))


def _plugin(folder: str, plugins: dict[str, Plugin | None]) -> Plugin | None:
    if folder not in plugins:
        plugin = None
        if is_plugin_dir(Path(folder)):
            plugin, _ = read_plugin(folder)
        plugins[folder] = plugin
    return plugins[folder]


def _against_manifest(one: _Listing, plugins: dict[str, Plugin | None]) -> list[Finding]:
    entry, path = one.entry, one.catalogue.path
    if one.folder is None:
        return []
    plugin = _plugin(one.folder, plugins)
    shown = f"./{one.entry.source.path}"
    if plugin is None:
        message = (
            f"the marketplace entry {entry.name!r} has source {shown}, where there is no plugin"
        )
        return [
            Finding(
                entry.name, one.folder, diagnostic("catalogue.entry.source_missing", message, path)
            )
        ]
    found = []
    manifest = manifest_file(plugin) or "manifest"
    if plugin.name != entry.name:
        message = (
            f"the marketplace entry {entry.name!r} has source {shown}, whose {manifest} "
            f"names the plugin {plugin.name!r}"
        )
        hint = f"name the entry {plugin.name!r}, or rename the plugin in its manifest"
        found.append(diagnostic("catalogue.entry.name_mismatch", message, path, hint=hint))
    if entry.version is not None and plugin.version is not None and entry.version != plugin.version:
        found.append(version_mismatch(entry.name, entry.version, plugin, manifest, path))
    return [Finding(entry.name, one.folder, d) for d in found]


def _across(
    name: str, listed: Sequence[_Listing], plugins: dict[str, Plugin | None]
) -> list[Finding]:
    """Sources and versions of one name that differ between catalogues."""
    first = listed[0]
    folder = next((one.folder for one in listed if one.folder is not None), None)
    found: list[Diagnostic] = []
    for one in listed[1:]:
        if _where(one) != _where(first):
            message = (
                f"plugin {name!r} comes from {_shown(first)} in {_rel(first.catalogue)} but "
                f"from {_shown(one)} in {_rel(one.catalogue)}"
            )
            found.append(diagnostic("catalogue.entry.source_mismatch", message, one.catalogue.path))
    plugin = None if folder is None else plugins.get(folder)
    versions = [one for one in listed if one.entry.version is not None]
    if (plugin is None or plugin.version is None) and len({v.entry.version for v in versions}) > 1:
        a = versions[0]
        b = next(v for v in versions if v.entry.version != a.entry.version)
        message = (
            f"plugin {name!r} is version {a.entry.version} in {_rel(a.catalogue)} but "
            f"{b.entry.version} in {_rel(b.catalogue)}"
        )
        found.append(diagnostic("catalogue.entry.version_mismatch", message, b.catalogue.path))
    return [Finding(name, folder, d) for d in found]


def _where(one: _Listing) -> tuple[str, str | None]:
    """Where an entry's plugin is, comparable across catalogue formats."""
    if one.folder is not None:
        return ("path", one.folder)
    s = one.entry.source
    return (s.kind, f"{s.repo or s.url or s.package}|{s.path}|{s.ref}|{s.sha}|{s.version}")


def _shown(one: _Listing) -> str:
    s = one.entry.source
    if s.kind == "path":
        return f"./{s.path}"
    return f"{s.kind} {s.repo or s.url or s.package}" + (f" {s.path}" if s.path else "")


def _rel(catalogue: Catalogue) -> str:
    return CATALOGUE_FILES[catalogue.format]
