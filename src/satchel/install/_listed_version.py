"""Whether the marketplaces of a plugin's repository list it under its manifest's version.

A marketplace (Claude Code's, Codex's or Cursor's catalogue file) that lists the plugin
by a relative source and gives the entry a ``version`` other than the plugin
manifest's gives ``catalogue.entry.version_mismatch``, at the catalogue file. The
catalogues looked at are those of the plugin's folder and of each folder above it, up
to the work tree's top (the nearest folder holding ``.git``); outside a work tree,
only the plugin's own folder's. An entry without a version, or a plugin whose manifest
has none, agrees. A catalogue that cannot be read says nothing here: validating the
plugin is not validating the marketplace. Nothing is run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.install._catalogue import CATALOGUE_FILES, Catalogue, read_catalogue_file
from satchel.plugins import Plugin

__all__ = ["MAX_LEVELS", "listed_versions", "version_mismatch"]

MAX_LEVELS = 32  # folders looked at above the plugin at most


def listed_versions(plugin: Plugin, manifest: str) -> tuple[Diagnostic, ...]:
    """``catalogue.entry.version_mismatch`` for each catalogue entry that lists `plugin`
    with another version than its `manifest` (relative to its root) gives."""
    if plugin.version is None:
        return ()
    root = os.path.realpath(plugin.root)
    found: list[Diagnostic] = []
    for folder in _folders(Path(os.path.abspath(plugin.root))):
        for fmt, rel in CATALOGUE_FILES.items():
            path = folder / rel
            if not path.is_file():
                continue
            catalogue, _ = read_catalogue_file(fmt, path)
            if catalogue is not None:
                found += _disagreements(catalogue, root, plugin, manifest)
    return tuple(found)


def _folders(start: Path) -> Iterator[Path]:
    """`start`, then each folder above it up to the work tree's top; only `start`
    when no ``.git`` is found within `MAX_LEVELS`."""
    chain = [start, *start.parents][: MAX_LEVELS + 1]
    top = next((i for i, p in enumerate(chain) if os.path.lexists(p / ".git")), 0)
    yield from chain[: top + 1]


def _disagreements(
    catalogue: Catalogue, root: str, plugin: Plugin, manifest: str
) -> list[Diagnostic]:
    found = []
    for entry in catalogue.entries:
        source = entry.source
        if source.kind != "path" or source.path is None or entry.version is None:
            continue
        if os.path.realpath(catalogue.root / source.path) != root:
            continue
        if entry.version == plugin.version:
            continue
        found.append(version_mismatch(entry.name, entry.version, plugin, manifest, catalogue.path))
    return found


def version_mismatch(
    name: str, listed: str, plugin: Plugin, manifest: str, path: Path
) -> Diagnostic:
    """``catalogue.entry.version_mismatch``: the entry `name` of the catalogue at
    `path` lists version `listed`, and the plugin's `manifest` gives another."""
    message = (
        f"the marketplace entry {name!r} gives version {listed}, but the "
        f"plugin's {manifest} gives {plugin.version}"
    )
    hint = (
        f"set the entry's `version` to {plugin.version}, or remove it and let the "
        f"manifest name the version"
    )
    return diagnostic("catalogue.entry.version_mismatch", message, path, hint=hint)
