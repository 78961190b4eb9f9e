"""Known marketplaces: the catalogues a user added, kept in the user config directory.

``satchel marketplace add SOURCE`` fetches SOURCE (a GitHub repository, a git URL, a
local folder, an npm package, or an ``https://`` URL of a ``marketplace.json``), reads
its catalogue (`read_catalogue`: Claude Code's, Codex's or Cursor's) and keeps a copy:
``{config}/<client>/marketplaces/<name>/``, recorded in
``{config}/<client>/marketplaces/marketplaces.json`` with the source and the commit (or
digest) it was read at. `update` fetches again and says which plugins came, went or
changed version; `remove` forgets one (refused while plugins installed from it remain,
unless forced).

A project may declare marketplaces as Claude Code reads them, in ``extraKnownMarketplaces``
of ``.claude/settings.json`` (code.claude.com/docs/en/settings): they are listed, and
added by name, only when the project folder is trusted (``satchel trust``), so a cloned
repository cannot make satchel fetch from where it likes.

``marketplaces.json`` is changed while holding its sibling ``.marketplaces.json.lock``
(`satchel.install._lock.held`), read again inside it, so marketplaces added at once
are all kept.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from satchel.core._files import write_atomic
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations._contain import probe_json
from satchel.install._catalogue import Catalogue, EntrySource, read_catalogue
from satchel.install._contents import folder_of
from satchel.install._errors import refuse
from satchel.install._fetch import fetch
from satchel.install._http import Progress, get_json
from satchel.install._installer import Context
from satchel.install._lock import held, read_lock
from satchel.install._policy import allow_marketplace
from satchel.install._scope import SCOPES, scope_for
from satchel.install._settings import Settings
from satchel.install._sources import Source
from satchel.install._staging import place, remove_tree, workspace
from satchel.trust._trust import read_trust

__all__ = [
    "Known",
    "entry_spec",
    "MarketplaceChange",
    "add",
    "add_marketplace",
    "forget",
    "marketplaces",
    "refresh",
    "remove_marketplace",
    "update_marketplaces",
]

Scope = Literal["user", "project"]
STORE = "marketplaces.json"
VERSION = 1
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")
_JSON_URL = re.compile(r"https?://\S+\.json\Z")
_CAP = 4 * 1024 * 1024


@model
class Known:
    """A marketplace satchel knows: its `name`, the `source` it is fetched from, the
    commit or digest it was last read at (`resolved`), and whether it was added by the
    user (``user``) or only declared by the project (``project``, `added` False until
    added)."""

    name: str
    source: str
    scope: Scope = "user"
    resolved: str | None = None
    added: bool = True
    declared_in: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "scope": self.scope,
            "resolved": self.resolved,
            "added": self.added,
            "declared_in": None if self.declared_in is None else str(self.declared_in),
        }


@model
class MarketplaceChange:
    """What `refresh` found for one marketplace: the plugins that came,
    went, or changed version (``name: 1.0 -> 1.1``)."""

    known: Known
    before: str | None
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.known.to_json(),
            "before": self.before,
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": list(self.changed),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def _home(ctx: Context) -> Path:
    return ctx.layout.config_home / ctx.layout.client / "marketplaces"


def copy_dir(ctx: Context, name: str) -> Path:
    """Where the copy of marketplace `name` is kept."""
    return _home(ctx) / name


def added(ctx: Context) -> tuple[Known, ...]:
    """The marketplaces the user added, in the order they were added."""
    path = _home(ctx) / STORE
    data, problem = probe_json(path)
    if problem is not None and os.path.lexists(path):
        # missing when read, then made by an add running at once: that write is one
        # rename, so a second read sees the whole file
        data, problem = probe_json(path)
    if problem is not None and os.path.lexists(path):
        raise refuse("install.marketplace.invalid", f"{STORE}: {problem}", path)
    rows = data.get("marketplaces") if isinstance(data, dict) else None
    if data is not None and (not isinstance(rows, list) or data.get("version") != VERSION):
        raise refuse("install.marketplace.invalid", f"{STORE} is not a version 1 record", path)
    out = []
    for row in rows or []:
        if (
            not isinstance(row, dict)
            or not isinstance(row.get("name"), str)
            or not _NAME.match(row["name"])
            or not isinstance(row.get("source"), str)
        ):
            raise refuse("install.marketplace.invalid", f"{STORE} has a malformed entry", path)
        resolved = row.get("resolved")
        out.append(
            Known(
                row["name"], row["source"], resolved=resolved if isinstance(resolved, str) else None
            )
        )
    return tuple(out)


def _write(ctx: Context, rows: tuple[Known, ...]) -> None:
    path = _home(ctx) / STORE
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "version": VERSION,
        "marketplaces": [
            {"name": k.name, "source": k.source, "resolved": k.resolved} for k in rows
        ],
    }
    write_atomic(path, json.dumps(doc, indent=2, ensure_ascii=True) + "\n")


def declared(ctx: Context) -> tuple[tuple[Known, ...], tuple[Diagnostic, ...]]:
    """The marketplaces the project's ``.claude/settings.json`` declares
    (``extraKnownMarketplaces``), each as a source satchel reads."""
    path = ctx.layout.project / ".claude" / "settings.json"
    if not os.path.lexists(path):
        return (), ()
    data, problem = probe_json(path)
    if problem is not None or not isinstance(data, dict):
        return (), (diagnostic("install.marketplace.invalid", f"settings.json: {problem}", path),)
    table = data.get("extraKnownMarketplaces")
    if not isinstance(table, dict):
        return (), ()
    out, diags = [], []
    for name, value in table.items():
        spec = _declared_source(value.get("source") if isinstance(value, dict) else None, path)
        if not isinstance(name, str) or not _NAME.match(name) or spec is None:
            message = (
                f"extraKnownMarketplaces entry {name!r} is not one satchel reads; it is skipped"
            )
            diags.append(diagnostic("install.marketplace.invalid", message, path))
            continue
        out.append(Known(name, spec, "project", added=False, declared_in=path))
    return tuple(out), tuple(diags)


def _declared_source(value: Any, settings: Path) -> str | None:
    """A Claude Code marketplace source object as a satchel source, or None."""
    if not isinstance(value, dict):
        return None
    kind = value.get("source")
    text = {"github": "repo", "git": "url", "url": "url", "directory": "path"}.get(str(kind))
    given = value.get(text) if text else None
    if not isinstance(given, str) or not given:
        return None
    if kind == "github":
        ref = value.get("ref")
        return given + (f"#{ref}" if isinstance(ref, str) and ref else "")
    if kind == "directory":
        base = settings.parent.parent
        return str(Path(os.path.normpath(base / given)))
    return given


def _project_trusted(ctx: Context) -> bool:
    return read_trust(ctx.layout).trusting(ctx.layout.project) is not None


def add(
    ctx: Context, source: str, *, name: str | None = None
) -> tuple[Known, Catalogue, tuple[Diagnostic, ...]]:
    """Fetch `source` (or the project-declared marketplace of that name), read its
    catalogue, keep a copy and record it; refuse a name already taken by another
    source."""
    listed, _ = declared(ctx)
    match = next((d for d in listed if d.name == source), None)
    if match is not None:
        if not _project_trusted(ctx):
            message = (
                f"{source!r} is declared by the project {ctx.layout.project}, which is not trusted"
            )
            hint = f"review {match.declared_in}, then run satchel trust {ctx.layout.project}"
            raise refuse("install.marketplace.untrusted", message, match.declared_in, hint=hint)
        source, name = match.source, name or match.name
    rows = added(ctx)
    if not _JSON_URL.match(source):
        source = ctx.parse(source).spec()  # a local path kept absolute
    allow_marketplace(source, ctx.layout)  # the organisation's policy, before fetching
    with workspace(ctx.cache) as work:
        tree, resolved = _fetch(ctx, source, work)
        catalogue, diags = read_catalogue(tree)
        if catalogue is None:
            raise refuse(
                "install.marketplace.invalid", f"{source} holds no catalogue: {diags[0].message}"
            )
        chosen = name or catalogue.name
        if not _NAME.match(chosen):
            message = f"the marketplace name {chosen!r} is not a plain lowercase name"
            raise refuse("install.marketplace.invalid", message, hint="give one with --name")
        taken = next((k for k in rows if k.name == chosen), None)
        if taken is not None and taken.source != source:
            message = f"a marketplace named {chosen!r} is already added from {taken.source}"
            raise refuse(
                "install.marketplace.exists", message, hint="remove it first, or pass --name"
            )
        place(tree, copy_dir(ctx, chosen), ctx.settings.limits)
    known = Known(chosen, source, resolved=resolved)
    with held(_home(ctx) / STORE, ctx.settings.lock_wait):  # as it is now, not as read
        rows = added(ctx)
        _write(ctx, (*(k for k in rows if k.name != chosen), known))
    stored, diags = read_catalogue(copy_dir(ctx, chosen))
    assert stored is not None  # it was read from the same files a moment ago
    return known, stored, diags


def _fetch(ctx: Context, source: str, work: Path) -> tuple[Path, str | None]:
    """The fetched tree holding the catalogue, and the commit or digest it is at."""
    if _JSON_URL.match(source):
        data = get_json(source, ctx.settings)
        tree = work / "tree"
        (tree / ".claude-plugin").mkdir(parents=True)
        body = json.dumps(data, indent=2, ensure_ascii=True)
        (tree / ".claude-plugin" / "marketplace.json").write_text(body, encoding="utf-8")
        return tree, None
    src = ctx.parse(source)
    got = fetch(src, work, ctx.settings, progress=ctx.progress, environ=ctx.environ)
    return folder_of(got.tree, src.subdir), got.resolved or got.integrity


def catalogue_of(ctx: Context, name: str) -> tuple[Known, Catalogue, tuple[Diagnostic, ...]]:
    """The kept catalogue of the added marketplace `name`."""
    known = next((k for k in added(ctx) if k.name == name), None)
    if known is None:
        listed, _ = declared(ctx)
        hint = (
            f"the project declares it: satchel marketplace add {name}"
            if any(d.name == name for d in listed)
            else "satchel marketplace list shows the ones added"
        )
        raise refuse(
            "install.marketplace.unknown", f"no marketplace named {name!r} is added", hint=hint
        )
    allow_marketplace(known.source, ctx.layout)
    catalogue, diags = read_catalogue(copy_dir(ctx, name))
    if catalogue is None:
        message = f"the kept copy of {name!r} has no catalogue: {diags[0].message}"
        raise refuse(
            "install.marketplace.invalid",
            message,
            copy_dir(ctx, name),
            hint=f"satchel marketplace update {name}",
        )
    return known, catalogue, diags


def refresh(ctx: Context, names: tuple[str, ...] = ()) -> tuple[MarketplaceChange, ...]:
    """Fetch each added marketplace (or those of `names`) again and keep the new copy."""
    rows = added(ctx)
    for name in names:
        if not any(k.name == name for k in rows):
            raise refuse("install.marketplace.unknown", f"no marketplace named {name!r} is added")
    out = []
    for known in rows:
        if names and known.name not in names:
            continue
        old, _ = read_catalogue(copy_dir(ctx, known.name))
        fresh, new, diags = add(ctx, known.source, name=known.name)
        out.append(_change(fresh, known.resolved, old, new, diags))
    return tuple(out)


def _change(
    known: Known,
    before: str | None,
    old: Catalogue | None,
    new: Catalogue,
    diags: tuple[Diagnostic, ...],
) -> MarketplaceChange:
    was: Mapping[str, str | None] = {e.name: e.version for e in old.entries} if old else {}
    now = {e.name: e.version for e in new.entries}
    changed = tuple(
        f"{n}: {was[n] or '?'} -> {now[n] or '?'}"
        for n in sorted(set(was) & set(now))
        if was[n] != now[n]
    )
    return MarketplaceChange(
        known,
        before,
        added=tuple(sorted(set(now) - set(was))),
        removed=tuple(sorted(set(was) - set(now))),
        changed=changed,
        diagnostics=diags,
    )


def forget(ctx: Context, name: str, *, force: bool = False) -> Known:
    """Forget the added marketplace `name` and delete its copy; refused while a
    plugin installed from it is in a lock file, unless `force`."""
    rows = added(ctx)
    known = next((k for k in rows if k.name == name), None)
    if known is None:
        raise refuse("install.marketplace.unknown", f"no marketplace named {name!r} is added")
    users = [
        f"{e.name} ({scope})"
        for scope in SCOPES
        for e in read_lock(scope_for(ctx.layout, scope).lock_path).entries
        if e.marketplace == name
    ]
    if users and not force:
        message = f"plugins installed from {name!r} remain: {', '.join(users)}"
        raise refuse(
            "install.marketplace.in-use", message, hint="remove them first, or pass --force"
        )
    copy = copy_dir(ctx, name)
    if os.path.lexists(copy):
        remove_tree(copy)
    with held(_home(ctx) / STORE, ctx.settings.lock_wait):  # as it is now, not as read
        _write(ctx, tuple(k for k in added(ctx) if k.name != name))
    return known


def source_for(known: Known, catalogue: Catalogue, ctx: Context, entry_name: str) -> Source:
    """The source that fetches the plugin `entry_name` of `catalogue`."""
    entry = catalogue.entry(entry_name)
    assert entry is not None
    s = entry.source
    if s.kind == "path":
        if _JSON_URL.match(known.source):
            message = f"{entry.name!r} is a relative path in a catalogue fetched by URL"
            raise refuse("install.catalogue.source", message)
        base = ctx.parse(known.source)
        sub = "/".join(p for p in (base.subdir, s.path or "") if p and p != ".")
        if base.kind in ("git", "github"):
            return Source(base.kind, base.location, ref=base.ref, subdir=sub)
        if base.kind == "local":
            return Source("local", base.location, subdir=sub)
        message = f"{entry.name!r} is a relative path in a {base.kind} catalogue"
        raise refuse("install.catalogue.source", message)
    return ctx.parse(entry_spec(s))


def entry_spec(s: EntrySource) -> str:
    """An entry's own source as a satchel source spec."""
    ref = s.sha or s.ref
    tail = (ref or "") + (f":{s.path}" if s.path and s.path != "." else "")
    if s.kind == "github":
        return f"{s.repo}" + (f"#{tail}" if tail else "")
    if s.kind in ("url", "git-subdir"):
        return f"{s.url}" + (f"#{tail}" if tail else "")
    if s.kind == "npm":
        return f"npm:{s.package}" + (f"@{s.version}" if s.version else "")
    return f"archive:{s.url}" + (f"#sha256={s.sha256}" if s.sha256 else "")


def marketplaces(
    *, layout: Layout | None = None
) -> tuple[tuple[Known, ...], tuple[Diagnostic, ...]]:
    """The marketplaces the user added, then those the project declares and that are
    not added (`Known.added` False), and the problems met reading the declarations."""
    ctx = Context.make(layout, environ={})
    mine = added(ctx)
    theirs, problems = declared(ctx)
    return (*mine, *(d for d in theirs if all(k.name != d.name for k in mine))), problems


def add_marketplace(
    source: str,
    *,
    name: str | None = None,
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> tuple[Known, Catalogue, tuple[Diagnostic, ...]]:
    """Add the marketplace at `source` (or the project-declared one of that name, in
    a trusted project) and keep its catalogue; refuse with an ``install.*`` code."""
    return add(Context.make(layout, settings, environ, progress), source, name=name)


def update_marketplaces(
    names: tuple[str, ...] = (),
    *,
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> tuple[MarketplaceChange, ...]:
    """Fetch each added marketplace (or those of `names`) again; what changed."""
    return refresh(Context.make(layout, settings, environ, progress), names)


def remove_marketplace(name: str, *, force: bool = False, layout: Layout | None = None) -> Known:
    """Forget the added marketplace `name` (refused while plugins from it are
    installed, unless `force`)."""
    return forget(Context.make(layout, environ={}), name, force=force)
