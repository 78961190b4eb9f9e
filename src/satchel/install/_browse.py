"""`browse_source`: what a source holds, without installing anything (zidane).

A listing names each skill (name, description, folder) and plugin of the source,
each with the source spec that installs it; a plugin also says what it holds
(`Listed.contents`: skills, commands, agents, hooks, MCP servers of the manifest
read), and the listing's diagnostics say which manifests were not used and warn
(``install.plugin.partial``) when a plugin will not load all it declares.

A *pack* is a source with no skill or plugin of its own whose README links skills
elsewhere (GitHub links, skills.sh links, ``npx skills add`` commands): its listing
holds each linked source's items, each installing from its own source. Packs are
followed one level deep, at most `MAX_LINKS` links.

Listings (with their diagnostics) are kept for `Settings.listing_ttl` seconds (ten
minutes) in the user cache directory, keyed by the source spec; ``refresh`` skips
the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import posixpath
import re
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.install._catalogue import CATALOGUE_FILES, Catalogue, CatalogueEntry, read_catalogue
from satchel.install._contents import folder_of, item_at, scan_items
from satchel.install._errors import InstallError
from satchel.install._fetch import fetch
from satchel.install._http import Progress
from satchel.install._installer import Context
from satchel.install._marketplaces import Known, added, copy_dir
from satchel.install._plugin_install import materialise
from satchel.install._policy import allow_listing
from satchel.install._settings import Settings
from satchel.install._sources import Source
from satchel.install._staging import workspace
from satchel.install._wellknown import read_index
from satchel.plugins import detect

__all__ = [
    "MAX_LINKS",
    "Listed",
    "Listing",
    "browse_source_at",
    "PickGroup",
    "browse_source",
    "group_picks",
    "pack_links",
]

MAX_LINKS = 32
_README = ("README.md", "readme.md", "Readme.md", "README")
_README_CAP = 1024 * 1024
_LINKS = re.compile(
    r"npx\s+skills\s+add\s+[^\s`'\"<>)\]]+(?:\s+(?:--skill|-s)\s+[A-Za-z0-9_.@/+-]+)*"
    r"|https://github\.com/[A-Za-z0-9-]+/[A-Za-z0-9_.-]+(?:/tree/[^\s`'\"<>)\]#]+)?"
    r"|(?:https://)?skills\.sh/[A-Za-z0-9-]+/[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)?"
)


@model
class Listed:
    """One skill or plugin in a listing, with the spec that installs it (`source`)
    and the pick that selects it (`folder`)."""

    kind: str
    name: str
    description: str
    folder: str
    source: str
    ok: bool = True
    contents: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "description": self.description,
            "folder": self.folder,
            "source": self.source,
            "ok": self.ok,
            "contents": self.contents,
        }


@model
class Listing:
    """A source's skills and plugins; `links` are the sources a pack pointed to."""

    source: str
    resolved: str | None
    items: tuple[Listed, ...]
    links: tuple[str, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)
    catalogue: str | None = None  # the name of the catalogue the source is, if it is one

    @property
    def skills(self) -> tuple[Listed, ...]:
        return tuple(i for i in self.items if i.kind == "skill")

    @property
    def plugins(self) -> tuple[Listed, ...]:
        return tuple(i for i in self.items if i.kind == "plugin")

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "resolved": self.resolved,
            "skills": [i.to_json() for i in self.skills],
            "plugins": [i.to_json() for i in self.plugins],
            "links": list(self.links),
            "diagnostics": [d.to_json() for d in self.diagnostics],
            **({"catalogue": self.catalogue} if self.catalogue is not None else {}),
        }


@model
class PickGroup:
    """Picks from one source: one `install_from_spec(source, skills=folders)` call."""

    source: str
    skills: tuple[str, ...]


def group_picks(picks: Iterable[Listed]) -> list[PickGroup]:
    """Picks from any number of sources, grouped into one install per source (in
    the order each source first appears), each pick named by its folder."""
    groups: dict[str, list[str]] = {}
    for p in picks:
        folders = groups.setdefault(p.source, [])
        if p.folder not in folders:
            folders.append(p.folder)
    return [PickGroup(source, tuple(folders)) for source, folders in groups.items()]


def browse_source(
    source: str | Source,
    *,
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    refresh: bool = False,
    follow_packs: bool = True,
) -> Listing:
    """List what `source` holds (see the module docstring); raise `InstallError`
    when it cannot be fetched."""
    ctx = Context.make(layout, settings, environ, progress)
    return browse_source_at(ctx, source, refresh=refresh, follow_packs=follow_packs)


def browse_source_at(
    ctx: Context, source: str | Source, *, refresh: bool = False, follow_packs: bool = True
) -> Listing:
    """`browse_source` with `ctx`."""
    added = _added(ctx, source)
    if added is not None:
        with workspace(ctx.cache) as work:
            folder = copy_dir(ctx, added.name)
            return catalogue_listing(ctx, folder, added.source, added.resolved, work, ())
    src = ctx.parse(source)
    allow_listing(src, ctx.layout)
    cache = _cache_file(ctx, src, follow_packs)
    if not refresh:
        kept = _cached(cache, ctx.settings.listing_ttl)
        if kept is not None:
            return kept
    listing = _browse(ctx, src, follow_packs)
    _keep(cache, listing)
    return listing


def _browse(ctx: Context, src: Source, follow_packs: bool) -> Listing:
    if src.kind == "mcp":
        return _browse_mcp(src)
    if src.kind == "wellknown":
        return _browse_index(src, ctx.settings)
    with workspace(ctx.cache) as work:
        got = fetch(src, work, ctx.settings, progress=ctx.progress, environ=ctx.environ)
        base = folder_of(got.tree, src.subdir)
        if _lists_plugins(base):
            return catalogue_listing(ctx, base, src.spec(), got.resolved, work, got.diagnostics)
        items, cut = scan_items(got.tree, src.subdir)
        readme = "" if items else _readme(folder_of(got.tree, src.subdir))
    spec = src.spec()  # picks are carried per item, not by the source
    picked = [i for i in items if not src.skills or any(i.matches(p) for p in src.skills)]
    listed = [
        Listed(i.kind, i.name, i.description, i.folder, spec, i.ok, i.contents) for i in picked
    ]
    notes: list[Diagnostic] = [*got.diagnostics, *cut, *(d for i in picked for d in i.notes)]
    links: list[str] = []
    if not items and follow_packs and readme:
        for link in pack_links(readme, ctx)[:MAX_LINKS]:
            try:
                sub = _browse(ctx, link, follow_packs=False)
            except InstallError as e:
                notes.append(e.diagnostic)
                continue
            links.append(sub.source)
            listed += sub.items
            notes += sub.diagnostics
    return Listing(spec, got.resolved, tuple(listed), tuple(links), tuple(notes))


def _browse_mcp(src: Source) -> Listing:
    """An MCP skills server's listing: its ``skills/list`` entries, no file fetched
    (see `satchel.install._mcp`); each skill's folder is its ``<skill-path>``."""
    from satchel.install._mcp import listed_mcp

    skills, notes = listed_mcp(src)
    spec = src.spec()
    items = tuple(Listed("skill", s.name, s.description, s.path, spec) for s in skills)
    picked = tuple(
        i for i in items if not src.skills or any(p in (i.name, i.folder) for p in src.skills)
    )
    return Listing(spec, None, picked, (), notes)


def _browse_index(src: Source, settings: Settings) -> Listing:
    """A site's skills index: its entries' names and descriptions, no artifact fetched
    (see `satchel.install._wellknown`); each skill's folder is its name, and an entry
    that cannot be installed is listed as not ok, with the warning that says why."""
    index = read_index(src, settings)
    items = tuple(
        Listed("skill", e.name, e.description, e.name, index.url, e.problem is None)
        for e in index.entries
        if not src.skills or e.name in src.skills
    )
    return Listing(index.url, None, items, (), index.diagnostics)


def has_catalogue(folder: Path) -> bool:
    """Whether `folder` holds a catalogue (a marketplace.json of any host)."""
    return any((folder / rel).is_file() for rel in CATALOGUE_FILES.values())


def catalogue_listing(
    ctx: Context,
    base: Path,
    spec: str,
    resolved: str | None,
    work: Path,
    notes: tuple[Diagnostic, ...],
) -> Listing:
    """A catalogue's plugins, each with what it holds (read from the files beside the
    catalogue, made whole as an install makes it; ``declared: ...`` for a plugin
    that lives elsewhere) and the ``NAME@MARKETPLACE`` that installs it."""
    catalogue, found = read_catalogue(base)
    assert catalogue is not None or found
    if catalogue is None:
        return Listing(spec, resolved, (), (), (*notes, *found))
    market = _added_as(ctx, spec) or catalogue.name
    listed = tuple(_listed(ctx, catalogue, e, market, work) for e in catalogue.entries)
    return Listing(spec, resolved, listed, (), (*notes, *found), catalogue.name)


def _lists_plugins(base: Path) -> bool:
    """Whether `base` is a catalogue listing plugins: a plugin whose catalogue lists only
    itself is shown as the plugin, an empty catalogue as what the folder holds. A root
    that is a plugin (a Gemini CLI extension, a Codex plugin) whose catalogue lists
    others is the catalogue, as `marketplace add` and `browse NAME` read it."""
    if not has_catalogue(base):
        return False
    catalogue, _ = read_catalogue(base)
    if detect(base)[0] is None:
        return catalogue is None or bool(catalogue.entries)
    return catalogue is not None and any(not _is_root(entry) for entry in catalogue.entries)


def _is_root(entry: CatalogueEntry) -> bool:
    """Whether the catalogue entry is the folder the catalogue is in."""
    return entry.source.kind == "path" and posixpath.normpath(entry.source.path or ".") == "."


def _added(ctx: Context, source: str | Source) -> Known | None:
    """The added marketplace `source` names, when it is a bare marketplace name."""
    if not isinstance(source, str) or not re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,63}", source):
        return None
    return next((k for k in added(ctx) if k.name == source), None)


def _added_as(ctx: Context, spec: str) -> str | None:
    try:
        return next((k.name for k in added(ctx) if k.source == spec), None)
    except InstallError:
        return None


def _listed(
    ctx: Context, catalogue: Catalogue, entry: CatalogueEntry, market: str, work: Path
) -> Listed:
    install = f"{entry.name}@{market}"
    description = entry.description or ""
    if entry.source.kind != "path":
        declared = ", ".join(entry.components) or "fetched at install"
        where = entry.source.to_json()
        shown = where.get("repo") or where.get("url") or where.get("package") or ""
        contents = f"{entry.source.kind} {shown}: {declared}"
        return Listed("plugin", entry.name, description, "", install, True, contents)
    folder = entry.source.path or "."
    try:
        made, _ = materialise(
            folder_of(catalogue.root, folder),
            entry,
            work / "made" / entry.name,
            ctx.settings.limits,
        )
        item = item_at(made.parent, made.name, "plugin")
    except InstallError as e:
        return Listed("plugin", entry.name, e.diagnostic.message, folder, install, False)
    return Listed(
        "plugin",
        entry.name,
        description or item.description,
        folder,
        install,
        item.ok,
        item.contents,
    )


def pack_links(readme: str, ctx: Context) -> list[Source]:
    """The sources a pack's README links to, once each, in order of appearance."""
    out: list[Source] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for match in _LINKS.finditer(readme):
        text = " ".join(match.group(0).split())
        try:
            src = ctx.parse(_on_settings(text, ctx.settings))
        except InstallError:
            continue
        key = (src.spec(), src.skills)
        if key not in seen:
            seen.add(key)
            out.append(src)
    return out


def _on_settings(text: str, settings: Settings) -> str:
    """A README's public GitHub and skills.sh links, read against the configured bases."""
    for public, base in (
        ("https://github.com", settings.github_url),
        ("https://skills.sh", settings.skills_sh_url),
    ):
        text = text.replace(public, base)
    return text


def _readme(directory: Path) -> str:
    for name in _README:
        path = directory / name
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as f:
                return f.read(_README_CAP).decode("utf-8", "replace")
    return ""


def _cache_file(ctx: Context, src: Source, follow: bool) -> Path:
    key = json.dumps([src.spec(), list(src.skills), follow, ctx.settings.github_api_url,
                      ctx.settings.npm_registry_url])  # fmt: skip
    name = hashlib.sha256(key.encode()).hexdigest()[:32] + ".json"
    return ctx.cache.parent / "listings" / name


def _cached(path: Path, ttl: float) -> Listing | None:
    try:
        if time.time() - os.stat(path).st_mtime > ttl:
            return None
        doc = loads(path.read_bytes())
        items = tuple(Listed(**row) for row in doc["items"])
        notes = tuple(_diagnostic(row) for row in doc.get("diagnostics", []))
        links = tuple(doc["links"])
        return Listing(doc["source"], doc["resolved"], items, links, notes, doc.get("catalogue"))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _diagnostic(row: dict[str, Any]) -> Diagnostic:
    """A diagnostic kept with a listing (its code must still be registered)."""
    path = row.get("path")
    found = diagnostic(row["code"], row["message"], None if path is None else Path(path))
    return replace(found, severity=row["severity"], line=row.get("line"), hint=row.get("hint"))


def _keep(path: Path, listing: Listing) -> None:
    doc = {
        "source": listing.source,
        "resolved": listing.resolved,
        "items": [i.to_json() for i in listing.items],
        "links": list(listing.links),
        "diagnostics": [d.to_json() for d in listing.diagnostics],
        "catalogue": listing.catalogue,
    }
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(doc, out)
        os.replace(tmp, path)
