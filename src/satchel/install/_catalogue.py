"""Plugin catalogues (marketplaces) of Claude Code, Codex and Cursor, read into one model.

* Claude Code: ``<root>/.claude-plugin/marketplace.json``: ``name``, ``owner``,
  ``plugins[]`` (each ``name`` and ``source``: ``"./path"`` relative to the catalogue's
  root, or ``{"source": "github" | "url" | "git-subdir" | "npm" | "archive", ...}``),
  ``metadata.pluginRoot`` (bare source names resolve below it), ``renames``, and
  ``strict: false`` entries whose components are declared in the entry itself
  (code.claude.com/docs/en/plugin-marketplaces).
* Codex: ``<root>/.agents/plugins/marketplace.json``: ``plugins[]`` with ``source``
  ``{"source": "local", "path": ...}`` or ``{"source": "url", "url": ...}``
  (developers.openai.com/codex/plugins/build).
* Cursor: ``<root>/.cursor-plugin/marketplace.json``, Claude Code's shape
  (cursor.com/docs/plugins/building).

`read_catalogue(root)` never raises for a bad file: a file that cannot be used is one
fatal ``catalogue.invalid``; a bad entry is skipped with ``catalogue.entry.invalid`` and
never hides the good ones; a name listed twice keeps the first (``catalogue.entry.
duplicate``). A relative source must stay inside the catalogue's root. Nothing is
fetched here: an entry says where its plugin is.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, cast

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations._contain import probe_json
from satchel.hosts._rules import MARKETPLACES, CatalogueFormat

__all__ = [
    "CATALOGUE_FILES",
    "Catalogue",
    "CatalogueEntry",
    "EntrySource",
    "read_catalogue",
    "read_catalogue_file",
]

SourceKind = Literal["path", "github", "url", "git-subdir", "npm", "archive"]
CATALOGUE_FILES: Mapping[CatalogueFormat, str] = MappingProxyType(
    {fmt: m.file for fmt, m in MARKETPLACES.items()}
)
# the keys of each object source (beyond "source"), the first ones required
_SOURCES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType(
    {
        "github": (("repo",), ("ref", "sha", "path")),
        "url": (("url",), ("ref", "sha", "path")),
        "git-subdir": (("url", "path"), ("ref", "sha")),
        "npm": (("package",), ("version", "registry")),
        "archive": (("url",), ("sha256",)),
        "local": (("path",), ()),  # Codex's relative path
    }
)
# an entry's component fields: with strict false they are its whole definition
COMPONENTS = ("skills", "commands", "agents", "hooks", "mcpServers", "lspServers")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class EntrySource:
    """Where an entry's plugin is: a `path` inside the catalogue's root, a GitHub
    `repo`, a git `url` (with a `path` below it for ``git-subdir``), an npm `package`,
    or an `archive` URL; `ref`, `sha`, `version` and `sha256` pin it."""

    kind: SourceKind
    path: str | None = None
    repo: str | None = None
    url: str | None = None
    ref: str | None = None
    sha: str | None = None
    package: str | None = None
    version: str | None = None
    registry: str | None = None
    sha256: str | None = None

    def to_json(self) -> dict[str, Any]:
        fields = ("path", "repo", "url", "ref", "sha", "package", "version", "registry", "sha256")
        return {
            "kind": self.kind,
            **{k: getattr(self, k) for k in fields if getattr(self, k) is not None},
        }


@model
class CatalogueEntry:
    """One plugin a catalogue lists. `strict` False: the entry is the plugin's whole
    definition, its `components` declared here (Claude Code); `fields` keeps every
    other field of the entry as written."""

    name: str
    source: EntrySource
    description: str | None = None
    version: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    strict: bool = True
    components: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    fields: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source.to_json(),
            "description": self.description,
            "version": self.version,
            "category": self.category,
            "tags": list(self.tags),
            "strict": self.strict,
            "components": dict(self.components),
        }


@model
class Catalogue:
    """A catalogue file read: its `format`, `name`, `owner`, the plugin `entries` in
    the order listed, and `renames` (old name -> new name, or None: withdrawn)."""

    format: CatalogueFormat
    name: str
    path: Path
    entries: tuple[CatalogueEntry, ...]
    owner: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    description: str | None = None
    version: str | None = None
    plugin_root: str | None = None
    renames: Mapping[str, str | None] = field(default_factory=lambda: _EMPTY)
    by_name: Mapping[str, CatalogueEntry] = field(
        default_factory=lambda: _EMPTY, compare=False, repr=False
    )  # the entries by name, so `entry` is one look-up (read_catalogue fills it)

    @property
    def root(self) -> Path:
        """The folder relative sources resolve against (the one holding the
        ``.claude-plugin``, ``.cursor-plugin`` or ``.agents`` folder)."""
        return self.path.parents[MARKETPLACES[self.format].depth]

    def entry(self, name: str) -> CatalogueEntry | None:
        """The entry `name`, following `renames` (None: none, withdrawn, or renamed in a
        loop, which `read_catalogue` reports and leaves out)."""
        seen = {name}
        while name in self.renames:
            renamed = self.renames[name]
            if renamed is None or renamed in seen:
                return None
            seen.add(renamed)
            name = renamed
        if self.by_name:
            return self.by_name.get(name)
        return next((e for e in self.entries if e.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "name": self.name,
            "path": str(self.path),
            "owner": dict(self.owner),
            "description": self.description,
            "version": self.version,
            "plugin_root": self.plugin_root,
            "renames": dict(self.renames),
            "entries": [e.to_json() for e in self.entries],
        }


class _Bad(ValueError):
    """Why one entry is skipped."""


def read_catalogue(
    root: str | os.PathLike[str],
) -> tuple[Catalogue | None, tuple[Diagnostic, ...]]:
    """The catalogue at `root` (the first of Claude Code's, Codex's and Cursor's
    files found there), or None and why; see the module docstring."""
    root = Path(root)
    for fmt, rel in CATALOGUE_FILES.items():
        path = root / rel
        if path.is_file():
            return read_catalogue_file(fmt, path)
    message = f"no catalogue here: none of {', '.join(CATALOGUE_FILES.values())}"
    return None, (diagnostic("catalogue.invalid", message, root),)


def read_catalogue_file(
    fmt: CatalogueFormat, path: Path
) -> tuple[Catalogue | None, tuple[Diagnostic, ...]]:
    """The catalogue file `path`, read as `fmt`'s, or None and why."""
    data, problem = probe_json(path)
    if problem is None:
        problem = _shape(fmt, data)
    if problem is not None:
        return None, (diagnostic("catalogue.invalid", f"{path.name}: {problem}", path),)
    data = cast("dict[str, Any]", data)
    raw = data.get("metadata")
    meta: dict[str, Any] = raw if isinstance(raw, dict) else {}
    plugin_root = meta.get("pluginRoot") if isinstance(meta.get("pluginRoot"), str) else None
    entries, diags = _entries(fmt, data["plugins"], path, plugin_root)
    name = _text(data.get("name")) or path.parents[MARKETPLACES[fmt].depth].name
    owner = data.get("owner")
    catalogue = Catalogue(
        format=fmt,
        name=name,
        path=path,
        entries=entries,
        owner=MappingProxyType(dict(owner)) if isinstance(owner, dict) else _EMPTY,
        description=_text(data.get("description")) or _text(meta.get("description")),
        version=_text(data.get("version")) or _text(meta.get("version")),
        plugin_root=plugin_root,
        renames=_renames(data.get("renames"), path, diags),
        by_name=MappingProxyType({e.name: e for e in entries}),
    )
    return catalogue, tuple(diags)


def _shape(fmt: CatalogueFormat, data: Any) -> str | None:
    """Why the document cannot be a catalogue, if so."""
    if not isinstance(data, dict):
        return f"it must hold a JSON object, not {type_name(data)}"
    if not isinstance(data.get("plugins"), list):
        return f"`plugins` must be a list, not {type_name(data.get('plugins'))}"
    if MARKETPLACES[fmt].name_required and not _text(data.get("name")):
        return "`name` must be a non-empty string"
    return None


def _entries(
    fmt: CatalogueFormat, items: list[Any], path: Path, plugin_root: str | None
) -> tuple[tuple[CatalogueEntry, ...], list[Diagnostic]]:
    entries: list[CatalogueEntry] = []
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for number, item in enumerate(items, 1):
        try:
            entry = _entry(fmt, item, plugin_root)
        except _Bad as bad:
            message = f"plugins entry #{number}: {bad}; it is skipped"
            diags.append(diagnostic("catalogue.entry.invalid", message, path))
            continue
        if entry.name in seen:
            message = f"plugin {entry.name!r} is listed twice; the first entry is kept"
            diags.append(diagnostic("catalogue.entry.duplicate", message, path))
            continue
        seen.add(entry.name)
        entries.append(entry)
    return tuple(entries), diags


def _entry(fmt: CatalogueFormat, item: Any, plugin_root: str | None) -> CatalogueEntry:
    if not isinstance(item, dict):
        raise _Bad(f"an entry must be an object, not {type_name(item)}")
    name = item.get("name")
    if not isinstance(name, str) or not name or "/" in name:
        raise _Bad("`name` must be a non-empty string without '/'")
    strict = item.get("strict", True)
    if not isinstance(strict, bool):
        raise _Bad(f"`strict` must be true or false, not {type_name(strict)}")
    tags = item.get("tags", item.get("keywords", []))
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _Bad("`tags` must be a list of strings")
    known = {"name", "source", "description", "version", "category", "tags", "strict"}
    return CatalogueEntry(
        name=name,
        source=_source(item.get("source"), plugin_root),
        description=_text(item.get("description")),
        version=_text(item.get("version")),
        category=_text(item.get("category")),
        tags=tuple(tags),
        strict=strict,
        components=MappingProxyType({k: item[k] for k in COMPONENTS if k in item}),
        fields=MappingProxyType({k: v for k, v in item.items() if k not in known}),
    )


def _source(value: Any, plugin_root: str | None) -> EntrySource:
    if isinstance(value, str):
        return EntrySource("path", path=_relative(value, plugin_root))
    if not isinstance(value, dict):
        raise _Bad(f"`source` must be a path or an object, not {type_name(value)}")
    kind = value.get("source")
    if not isinstance(kind, str) or kind not in _SOURCES:
        shown = ", ".join(_SOURCES)
        raise _Bad(f"source kind {kind!r} is not one satchel reads ({shown})")
    required, optional = _SOURCES[kind]
    for key in (*required, *optional):
        if key in value and not isinstance(value[key], str):
            raise _Bad(f"source `{key}` must be a string, not {type_name(value[key])}")
    missing = [key for key in required if not value.get(key)]
    if missing:
        raise _Bad(f"a {kind} source needs {', '.join(f'`{m}`' for m in missing)}")
    given = {k: value[k] for k in (*required, *optional) if k in value}
    if kind == "local":
        return EntrySource("path", path=_relative(given["path"], None))
    if "path" in given and kind != "git-subdir":
        given["path"] = _relative(given["path"], None)
    return EntrySource(cast("SourceKind", kind), **given)


def _relative(text: str, plugin_root: str | None) -> str:
    """A source path inside the catalogue's root, normalised (``./`` and bare names
    below `plugin_root`); a path that leaves it is refused."""
    bare = not text.startswith(("./", "../", "/")) and text not in (".", "")
    base = plugin_root if bare and plugin_root else "."
    joined = posixpath.normpath(posixpath.join(base, text))
    if text.startswith("/") or joined == ".." or joined.startswith("../"):
        raise _Bad(f"source path {text!r} leaves the catalogue's folder")
    return joined


def _renames(value: Any, path: Path, diags: list[Diagnostic]) -> Mapping[str, str | None]:
    if value is None:
        return _EMPTY
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in value.items()
    ):
        message = "`renames` must map old names to new names (or null); it is ignored"
        diags.append(diagnostic("catalogue.entry.invalid", message, path))
        return _EMPTY
    looped = _loops(value)
    for loop in looped:
        shown = " -> ".join([*loop, loop[0]])
        message = f"`renames` renames in a loop ({shown}); those renames are ignored"
        diags.append(diagnostic("catalogue.entry.invalid", message, path))
    gone = {name for loop in looped for name in loop}
    return MappingProxyType({k: v for k, v in value.items() if k not in gone})


def _loops(renames: Mapping[str, str | None]) -> list[list[str]]:
    """Each loop of `renames` (``a -> b -> a``, ``x -> x``), once, in the order first met;
    every chain is followed once, so this is linear in the number of renames."""
    done: set[str] = set()
    loops = []
    for start in renames:
        chain: list[str] = []
        at: str | None = start
        while at is not None and at in renames and at not in done:
            done.add(at)
            chain.append(at)
            at = renames[at]
        if at is not None and at in chain:
            loops.append(chain[chain.index(at) :])
    return loops


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
