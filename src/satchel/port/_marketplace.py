"""`build_marketplace`: one repository of plugins, every host's catalogue of it.

    report = build_marketplace("market", name="acme-tools", owner="Acme")

The plugins are the plugin folders below ``<root>/plugins/`` (else below `root`
itself), each read as `satchel.plugins.read_plugin` reads it, in name order. A folder
whose real path is outside `root` (a link) is not read: ``port.marketplace.outside``;
a name two folders give is listed for neither: ``port.marketplace.duplicate``. For each
catalogue format asked for (Claude Code's ``.claude-plugin/marketplace.json``,
Codex's ``.agents/plugins/marketplace.json``, Cursor's
``.cursor-plugin/marketplace.json``) one file lists every plugin by its manifest's
name, version (not in Cursor's, whose schema has no room for one) and description,
its source the plugin's folder relative to `root` as each host resolves it
(``./plugins/x``; Codex's as ``{"source": "local", ...}``). A catalogue whose name
rule a plugin's name breaks (Cursor's) leaves it out: ``port.name.invalid``.
The marketplace's name, owner and description (``metadata.description``, which every
host's schema has) come from the arguments, else from a catalogue already there, else
the name is the folder's and a missing owner is ``port.marketplace.owner``; an owner
name given keeps the other fields of the catalogue's owner. A
plugin without a version is listed without one (``port.marketplace.unversioned``).
Files are written as `satchel.port._write` writes a port's: the record at `root`,
never over a file port did not write.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import is_dir, probe_json, resolve_root
from satchel.hosts._rules import MARKETPLACES, CatalogueFormat
from satchel.plugins._detect import is_plugin_dir
from satchel.plugins._model import Plugin
from satchel.plugins._read import read_plugin
from satchel.port._model import Written
from satchel.port._targets import TARGETS
from satchel.port._text import json_text
from satchel.port._write import Record, write_files

__all__ = ["FORMATS", "MarketplaceReport", "build_marketplace", "formats_named"]

Entry = dict[str, Any]


def _path_entry(plugin: Plugin, source: str) -> Entry:
    return {"name": plugin.name, "source": source}


def _local_entry(plugin: Plugin, source: str) -> Entry:
    # Codex lists a plugin with an installation policy and a category (its build guide)
    return {
        "name": plugin.name,
        "source": {"source": "local", "path": source},
        "policy": {"installation": "AVAILABLE"},
        "category": _category(plugin),
    }


# how each catalogue format lists one plugin (its source relative to the catalogue's folder)
ENTRIES: Mapping[CatalogueFormat, Callable[[Plugin, str], Entry]] = MappingProxyType(
    {"claude": _path_entry, "codex": _local_entry, "cursor": _path_entry}
)
# the --to names that write a catalogue, and the format each writes
FORMATS: Mapping[str, CatalogueFormat] = MappingProxyType(
    {t.name: t.format for t in TARGETS.values() if t.format in ENTRIES}  # type: ignore[misc]
)


@model
class MarketplaceReport:
    """What `build_marketplace` did: the `root`, the catalogue's `name`, the `plugins`
    listed (name, version or None, source), each file with its action, and the
    diagnostics."""

    root: Path
    name: str
    plugins: tuple[tuple[str, str | None, str], ...]
    files: tuple[Written, ...]
    diagnostics: tuple[Diagnostic, ...]
    dry_run: bool = False

    @property
    def ok(self) -> bool:
        return not any(d.severity in ("error", "warning") for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "name": self.name,
            "dry_run": self.dry_run,
            "plugins": [{"name": n, "version": v, "source": s} for n, v, s in self.plugins],
            "files": [f.to_json() for f in self.files],
        }


def formats_named(names: Iterable[str]) -> tuple[CatalogueFormat, ...]:
    """The catalogue formats of the --to `names`, in order, each once; `ValueError`
    for a name that writes no catalogue."""
    chosen: list[CatalogueFormat] = []
    for name in names:
        if name not in FORMATS:
            known = ", ".join(FORMATS)
            raise ValueError(f"{name!r} has no marketplace file; the targets are {known}")
        if FORMATS[name] not in chosen:
            chosen.append(FORMATS[name])
    if not chosen:
        raise ValueError("name at least one target")
    return tuple(chosen)


def build_marketplace(
    root: str | os.PathLike[str],
    formats: Iterable[CatalogueFormat] = tuple(ENTRIES),
    *,
    name: str | None = None,
    owner: str | None = None,
    description: str | None = None,
    force: bool = False,
    dry_run: bool = False,
) -> MarketplaceReport:
    """Write, at `root`, the catalogue of each of `formats` listing its plugins; see
    the module docstring."""
    top = Path(os.path.abspath(root))
    diags: list[Diagnostic] = []
    plugins, unread = _plugins(top, diags)
    head = _head(top, name, owner, description)
    if not plugins:
        message = "no plugin folder below plugins/ or the marketplace's own folder"
        if unread:
            folders = "1 plugin folder" if unread == 1 else f"{unread} plugin folders"
            message = f"no plugin to list: {folders} failed to read (said above)"
        diags.append(diagnostic("port.marketplace.empty", message, top))
    plugins = _unique(top, plugins, diags)
    if head.owner is None:
        message = "the marketplace has no owner: no --owner, and no catalogue here names one"
        hint = "pass --owner NAME"
        diags.append(diagnostic("port.marketplace.owner", message, top, hint=hint))
    if any(d.severity == "error" for d in diags):
        return MarketplaceReport(top, head.name, (), (), tuple(diags), dry_run)
    listed = tuple((p.name, p.version, _source(top, p)) for p in plugins)
    files = {
        MARKETPLACES[fmt].file: json_text(_catalogue(fmt, head, _fitting(fmt, plugins, diags), top))
        for fmt in formats
    }
    record = Record(resolve_root(top))
    written, problems = write_files(
        top, files, record, force=force, dry_run=dry_run, target="marketplace"
    )
    if not dry_run and any(w.action == "written" for w in written):
        record.save()
    return MarketplaceReport(top, head.name, listed, tuple(written), (*diags, *problems), dry_run)


@model
class _Head:
    """The marketplace's own fields: its name, owner (None: none given or found) and
    description."""

    name: str
    owner: Mapping[str, Any] | None
    description: str | None


def _head(top: Path, name: str | None, owner: str | None, description: str | None) -> _Head:
    """The fields given, else a catalogue's already at `top`, else the folder's name."""
    known = _existing(top)
    held = known.get("owner")
    if owner:  # the name given, the owner's other fields (email, url) kept
        held = {**(held if isinstance(held, dict) else {}), "name": owner}
    meta = known.get("metadata")
    about = description or _text(known.get("description"))
    about = about or (_text(meta.get("description")) if isinstance(meta, dict) else None)
    return _Head(
        name=name or _text(known.get("name")) or top.name,
        owner=held if isinstance(held, dict) and _text(held.get("name")) else None,
        description=about,
    )


def _plugins(top: Path, diags: list[Diagnostic]) -> tuple[list[Plugin], int]:
    """The plugins below ``plugins/`` (else below `top`), by name, and how many plugin
    folders failed to read (each left out with the reader's own errors)."""
    base = top / "plugins" if is_dir(top / "plugins") else top
    real = os.path.realpath(top)
    found: list[Plugin] = []
    unread = 0
    for child in sorted(base.iterdir()) if is_dir(base) else []:
        if child.name.startswith("."):
            continue
        if not _within(os.path.realpath(child), real):
            where = child.relative_to(top).as_posix()
            message = f"{where} leads out of the marketplace's folder; it is not listed"
            diags.append(diagnostic("port.marketplace.outside", message, child))
            continue
        if not is_plugin_dir(child):
            continue
        plugin, said = read_plugin(child)
        if plugin is None:
            diags += [d for d in said if d.severity == "error"]
            unread += 1
            continue
        if plugin.version is None:
            message = f"plugin {plugin.name!r} has no version; its entries are written without one"
            hint = "set `version` in its manifest: hosts cache a plugin by it"
            diags.append(diagnostic("port.marketplace.unversioned", message, child, hint=hint))
        found.append(plugin)
    return sorted(found, key=lambda p: p.name), unread


def _unique(top: Path, plugins: list[Plugin], diags: list[Diagnostic]) -> list[Plugin]:
    """`plugins` less those whose name another one gives too: ``port.marketplace.duplicate``
    for each such name, whose folders are all left out (a host lists a name once)."""
    folders: dict[str, list[str]] = {}
    for plugin in plugins:
        folders.setdefault(plugin.name, []).append(_source(top, plugin))
    for name, given in folders.items():
        if len(given) > 1:
            message = (
                f"the plugin name {name!r} is given by {len(given)} folders "
                f"({', '.join(given)}); none of them is listed"
            )
            hint = "give each plugin its own `name` in its manifest"
            diags.append(diagnostic("port.marketplace.duplicate", message, top, hint=hint))
    return [p for p in plugins if len(folders[p.name]) == 1]


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _existing(top: Path) -> Mapping[str, Any]:
    """The first catalogue already at `top` that is a JSON object (Claude Code's, then
    Codex's, then Cursor's), or nothing."""
    for spot in MARKETPLACES.values():
        data, problem = probe_json(top / spot.file)
        if problem is None and isinstance(data, dict):
            return data
    return {}


def _catalogue(
    fmt: CatalogueFormat, head: _Head, plugins: list[Plugin], top: Path
) -> dict[str, Any]:
    entries = []
    for plugin in plugins:
        entry = ENTRIES[fmt](plugin, _source(top, plugin))
        if plugin.version is not None and MARKETPLACES[fmt].versioned:
            entry["version"] = plugin.version
        if plugin.description:
            entry["description"] = plugin.description
        entries.append(entry)
    doc: dict[str, Any] = {"name": head.name, "owner": dict(head.owner or {})}
    if head.description:
        doc["metadata"] = {"description": head.description}
    return {**doc, "plugins": entries}


def _fitting(fmt: CatalogueFormat, plugins: list[Plugin], diags: list[Diagnostic]) -> list[Plugin]:
    """The plugins whose names the catalogue `fmt` allows; ``port.name.invalid`` for
    each other one, which that catalogue leaves out."""
    spot = MARKETPLACES[fmt]
    if spot.names is None:
        return plugins
    fit = []
    for plugin in plugins:
        if re.fullmatch(spot.names, plugin.name):
            fit.append(plugin)
            continue
        message = (
            f"{spot.file}: the plugin name {plugin.name!r} is not one this catalogue takes "
            f"({spot.names_say}); it is not listed there"
        )
        diags.append(diagnostic("port.name.invalid", message, plugin.root))
    return fit


def _source(top: Path, plugin: Plugin) -> str:
    """The plugin's folder as ``./`` and its path from `top`."""
    return "./" + Path(os.path.relpath(plugin.root, top)).as_posix()


def _category(plugin: Plugin) -> str:
    value = plugin.manifest.get("category")
    return value if isinstance(value, str) and value else "Productivity"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
