"""``satchel install NAME@MARKETPLACE``: a catalogue's plugin, with its dependencies.

The plugin is found in an added marketplace (`satchel.install._marketplaces`), fetched
from its entry's source, and made whole as Claude Code makes it
(code.claude.com/docs/en/plugin-marketplaces): a ``strict: false`` entry is the plugin's
whole definition, so satchel writes ``.claude-plugin/plugin.json`` from it (a plugin
whose own manifest also declares components is refused, ``install.catalogue.conflict``);
a strict entry's components are added to the plugin's manifest; a folder with no
manifest gets one naming it. The manifest written is kept in ``skills.lock`` so that a
frozen install writes the same bytes.

Dependencies (``dependencies`` of the manifest, `satchel.plugins._dependencies`) are
resolved transitively before anything is written: each in its own marketplace (the
dependent's when none is named), its version (the manifest's, else the entry's) held to
every range asked for it. A cycle (``install.dependency.cycle``), a range no version
meets (``install.dependency.conflict``) and a name no marketplace lists
(``install.dependency.missing``) are refused with the chain that led there. A dependency
already installed from the same marketplace at a version every range allows is kept.
Every node is pinned in ``skills.lock``; those installed only as dependencies are marked
so that `prune` can remove them once nothing needs them.

The walk is bounded: a chain deeper than `MAX_DEPTH` plugins, or more than `MAX_NODES`
plugins in all, is refused (``install.dependency.limit``) before anything is written.
Each dependency costs what its fetch costs: a marketplace's catalogue is read once a
walk, and a source several plugins share (a marketplace's own repository, at one ref)
is fetched once, each plugin's folder taken from that one copy.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.foundations._contain import probe_json
from satchel.install._catalogue import COMPONENTS, Catalogue, CatalogueEntry
from satchel.install._contents import Item, folder_of, item_at
from satchel.install._errors import InstallError, refuse
from satchel.install._fetch import fetch
from satchel.install._fetched import Fetched
from satchel.install._http import Progress
from satchel.install._installer import (
    Context,
    InstallResult,
    Planned,
    Target,
    check_targets,
    commit,
    install_source_at,
    lfs_pointers,
    plan,
    replacing,
    signed_plans,
)
from satchel.install._lock import Lock, LockEntry, read_lock
from satchel.install._marketplaces import Known, catalogue_of, source_for
from satchel.install._policy import allow_signed, allow_source
from satchel.install._review import Review, review_all
from satchel.install._scope import FAMILIES, Scope
from satchel.install._semver import Range, parse_range, parse_version
from satchel.install._settings import Limits, Settings
from satchel.install._signatures import Signers, verify_tree
from satchel.install._sources import Source
from satchel.install._staging import workspace
from satchel.install._tree import copy_tree
from satchel.plugins import detect
from satchel.plugins._dependencies import Dependency, parse_dependencies, parse_requirement

__all__ = [
    "install_from_spec",
    "install_from_spec_at",
    "install_plugin",
    "install_plugin_at",
    "is_plugin_ref",
    "locked_item",
    "materialise",
]

_MANIFEST = ".claude-plugin/plugin.json"
_REF = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}@[a-z0-9][a-z0-9._-]{0,63}(?:@\S+)?\Z")
MAX_NODES = 256  # plugins one install resolves
MAX_DEPTH = 64  # plugins in one chain of dependencies


def is_plugin_ref(text: str) -> bool:
    """Whether `text` is ``NAME@MARKETPLACE`` (with an optional ``@RANGE``)."""
    return bool(_REF.match(text.strip()))


@model
class _Node:
    """One plugin of the resolved graph, fetched and made whole (or kept as installed)."""

    key: str  # name@marketplace
    planned: Planned | None  # None: kept as installed
    version: str | None
    requires: tuple[str, ...]
    notes: tuple[Diagnostic, ...] = ()


@dataclass
class _Walk:
    ctx: Context
    where: Scope
    lock: Lock
    family: str
    work: Path
    done: dict[str, _Node]
    asked: dict[str, list[tuple[Range, tuple[str, ...]]]]
    order: list[_Node]
    notes: list[Diagnostic]
    catalogues: dict[str, tuple[Known, Catalogue, tuple[Diagnostic, ...]]] = field(
        default_factory=dict
    )  # each marketplace's, read once a walk
    fetched: dict[tuple[str, str, str | None], Fetched] = field(default_factory=dict)
    signers: Signers | None = None  # an installed dependency counts only signed so


def install_plugin(
    ref: str,
    *,
    scope: str = "project",
    family: str = "satchel",
    force: bool = False,
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    review: Review | None = None,
    dependency: bool = False,
    signers: Signers | None = None,
) -> InstallResult:
    """Install the plugin ``NAME@MARKETPLACE`` and what it depends on into `scope`
    (`dependency`: only as something else's requirement, so `prune` may remove it);
    raise `InstallError` and write nothing when any of it is refused. `review` is
    asked about each tree that would replace an installed one (`satchel.install.
    _review`). `signers`: each plugin must carry a Sigstore bundle by one of them."""
    target = Target.make(
        scope=scope, family=family, layout=layout, settings=settings, environ=environ,
        progress=progress, review=review, signers=signers,
    )  # fmt: skip
    return install_plugin_at(target, ref, force=force, dependency=dependency)


def install_plugin_at(
    target: Target, ref: str, *, force: bool = False, dependency: bool = False
) -> InstallResult:
    """`install_plugin` into `target`."""
    ctx, family, signers = target.context, target.family, target.signers
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
    root = parse_requirement(ref)
    if root is None or root.marketplace is None:
        raise refuse("install.source.invalid", f"{ref!r} is not NAME@MARKETPLACE")
    where = target.where
    lock = read_lock(where.lock_path)
    with workspace(ctx.cache) as work:
        walk = _Walk(ctx, where, lock, family, work, {}, {}, [], [], signers=signers)
        _visit(walk, root, (), direct=not dependency)
        plans = [n.planned for n in walk.order if n.planned is not None]
        plans, unsigned = signed_plans(plans, signers, ctx.settings, within=work)
        allow_signed([p.entry for p in plans], ctx.layout)  # require_signed, per source
        check_targets(plans, lock, where, force=force)
        review_all(replacing(plans), target.review)
        notes = [*walk.notes, *(d for n in walk.order for d in n.notes), *lfs_pointers(plans)]
        notes += unsigned
        done = commit(plans, where, ctx.settings)
    return InstallResult(done, tuple(notes))


def install_from_spec(
    source: str | Source,
    *,
    skills: Sequence[str] = (),
    scope: str = "project",
    family: str = "satchel",
    force: bool = False,
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    review: Review | None = None,
    signers: Signers | None = None,
) -> InstallResult:
    """Install all of `source`, or the `skills` picked by name or folder, into `scope`
    (``project`` or ``user``) for `family` (``satchel``, ``agents`` or ``claude``), with
    the skills of the same source they require (``metadata.requires``), then each
    plugin they require from a marketplace (``name@marketplace``: a plugin that cannot
    be installed is an ``install.dependency.missing`` warning). Raise `InstallError`
    and leave the scope untouched when anything of the source is refused. `review` is
    asked about each tree that would replace an installed one, before anything is
    placed (see `satchel.install._review`). `signers`: every skill and plugin, the
    plugins required included, must carry a Sigstore bundle by one of them."""
    target = Target.make(
        scope=scope, family=family, layout=layout, settings=settings, environ=environ,
        progress=progress, review=review, signers=signers,
    )  # fmt: skip
    return install_from_spec_at(target, source, skills=skills, force=force)


def install_from_spec_at(
    target: Target, source: str | Source, *, skills: Sequence[str] = (), force: bool = False
) -> InstallResult:
    """`install_from_spec` into `target`."""
    source_text = source if isinstance(source, str) else source.spec()
    signers = target.signers
    signed: list[InstallResult] = []

    def signed_first(wanted: tuple[str, ...]) -> None:
        assert signers is not None
        signed.extend(_signed_plugins(wanted, signers, target, force, source_text))

    before = signed_first if signers is not None else None
    result = install_source_at(target, source, skills=skills, force=force, before=before)
    installed = [i for r in signed for i in r.installed] + list(result.installed)
    notes = [d for r in signed for d in r.diagnostics] + list(result.diagnostics)
    lock = read_lock(target.where.lock_path)
    for ref in () if signers is not None else result.wanted:
        dep = parse_requirement(ref)
        assert dep is not None and dep.marketplace is not None
        have = lock.find(dep.name, "plugin")
        if have is not None and have.marketplace == dep.marketplace:
            continue
        try:
            more = install_plugin_at(target, ref, force=force, dependency=True)
        except InstallError as e:
            why = e.diagnostic.message
            message = f"{ref} (required by a skill of {source_text}) is not installed: {why}"
            hint = f"satchel install {dep.name}@{dep.marketplace}"
            notes.append(diagnostic("install.dependency.missing", message, hint=hint))
            continue
        installed += more.installed
        notes += more.diagnostics
        lock = read_lock(target.where.lock_path)
    return InstallResult(tuple(installed), tuple(notes))


def _signed_plugins(
    wanted: tuple[str, ...], signers: Signers, target: Target, force: bool, source_text: str
) -> list[InstallResult]:
    """Under `signers`, each plugin of `wanted` installed and signed by one of them
    (or installed now, signed): any that cannot be refuses the install that requires
    it, with the reason."""
    settings, where = target.context.settings, target.where
    out = []
    for ref in wanted:
        dep = parse_requirement(ref)
        assert dep is not None and dep.marketplace is not None
        have = read_lock(where.lock_path).find(dep.name, "plugin")
        kept = have is not None and have.marketplace == dep.marketplace
        if kept and have is not None and _still_signed(have, where, signers, settings):
            continue
        try:
            out.append(install_plugin_at(target, ref, force=force, dependency=True))
        except InstallError as e:
            message = f"{ref} (required by a skill of {source_text}): {e.diagnostic.message}"
            raise refuse(e.diagnostic.code, message, hint=e.diagnostic.hint) from None
    return out


def _still_signed(entry: LockEntry, where: Scope, signers: Signers, settings: Settings) -> bool:
    """Whether the installed plugin `entry` is recorded signed by one of `signers`
    and its tree still verifies so."""
    locked = entry.signature
    if locked is None or not signers.allows(locked.identity, locked.issuer):
        return False
    if locked.kind == "cosign":
        return True
    tree = where.dir_for("plugin", entry.family) / entry.name
    got, _path, _why = verify_tree(
        tree, signers=signers, trust_root=settings.sigstore_trust_root,
        name=f"plugin {entry.name!r}", beside=False,
    )  # fmt: skip
    return got is not None


def _visit(walk: _Walk, dep: Dependency, chain: tuple[str, ...], *, direct: bool) -> str | None:
    """Resolve `dep` (asked for along `chain`) and what it needs; its key, or None when
    no added marketplace lists it (a warning, as Claude Code gives)."""
    market = dep.marketplace or (chain[-1].split("@", 1)[1] if chain else None)
    assert market is not None
    key = f"{dep.name}@{market}"
    path = (*chain, key)
    wanted = _range(dep, path)
    if wanted is not None:
        walk.asked.setdefault(key, []).append((wanted, path))
    if key in chain:
        message = f"a dependency cycle: {' -> '.join(path)}; each plugin is installed once"
        walk.notes.append(diagnostic("install.dependency.cycle", message))
    if key in walk.done:
        _check_ranges(key, walk.done[key].version, walk.asked.get(key, []))
        return key
    _bounded(walk, path)
    node = _kept(walk, dep.name, market, key) if not direct else None
    if node is None:
        node = _fetched(walk, dep.name, market, path, direct=direct)
    if node is None:
        return None
    _check_ranges(key, node.version, walk.asked.get(key, []))
    walk.done[key] = node
    if node.planned is not None:
        deps, _ = parse_dependencies(_manifest(node.planned.item.path))
        found = [_visit(walk, d, path, direct=False) for d in deps]
        requires = tuple("plugin:" + k.split("@", 1)[0] for k in found if k is not None)
        entry = replace(node.planned.entry, requires=requires)
        node = replace(node, planned=replace(node.planned, entry=entry), requires=requires)
        walk.done[key] = node
    walk.order.append(node)
    return key


def _bounded(walk: _Walk, path: tuple[str, ...]) -> None:
    """Refuse a chain deeper than `MAX_DEPTH`, or a plugin past the `MAX_NODES`th."""
    if len(path) > MAX_DEPTH:
        shown = " -> ".join([*path[:3], "...", path[-1]])
        message = (
            f"the dependencies of {path[0]} form a chain deeper than {MAX_DEPTH} plugins "
            f"({shown}); nothing was written"
        )
        raise refuse("install.dependency.limit", message)
    if len(walk.done) >= MAX_NODES:
        message = (
            f"{path[0]} needs more than {MAX_NODES} plugins in all (at {path[-1]}); "
            "nothing was written"
        )
        raise refuse("install.dependency.limit", message)


def _range(dep: Dependency, path: tuple[str, ...]) -> Range | None:
    if dep.version is None:
        return None
    try:
        return parse_range(dep.version)
    except ValueError as e:
        message = f"{' -> '.join(path)}: the version range {dep.version!r} cannot be read: {e}"
        raise refuse("install.dependency.conflict", message) from None


def _check_ranges(
    key: str, version: str | None, asked: Sequence[tuple[Range, tuple[str, ...]]]
) -> None:
    for wanted, path in asked:
        try:
            ok = version is not None and wanted.matches(parse_version(version))
        except ValueError:
            ok = False
        if not ok:
            by = " -> ".join(path)
            have = f"version {version}" if version else "no version"
            others = [f"{r} (by {' -> '.join(p[:-1]) or 'you'})" for r, p in asked]
            message = (
                f"{key} has {have}, which {wanted} ({by}) does not allow; "
                f"asked for: {', '.join(others)}"
            )
            raise refuse("install.dependency.conflict", message)


def _kept(walk: _Walk, name: str, market: str, key: str) -> _Node | None:
    """The dependency as already installed from the same marketplace, if it is."""
    entry = walk.lock.find(name, "plugin")
    if entry is None:
        return None
    if entry.marketplace != market:
        where = entry.marketplace or entry.source
        message = f"{key} is needed, but a plugin {name!r} is installed from {where}"
        raise refuse("install.dependency.conflict", message, hint=f"satchel remove {name} first")
    if walk.signers is not None and not _still_signed(
        entry, walk.where, walk.signers, walk.ctx.settings
    ):
        return None  # fetched again, and its signature checked
    target = walk.where.dir_for("plugin", entry.family) / entry.name
    version = _manifest(target).get("version")
    return _Node(key, None, version if isinstance(version, str) else None, entry.requires)


def _fetched(
    walk: _Walk, name: str, market: str, path: tuple[str, ...], *, direct: bool
) -> _Node | None:
    ctx, root = walk.ctx, len(path) == 1
    try:
        known, catalogue, notes = _catalogue(walk, market)
    except InstallError as e:
        if root:
            raise
        _missing(walk, path, e.diagnostic.message)
        return None
    entry = catalogue.entry(name)
    if entry is None:
        listed = ", ".join(e.name for e in catalogue.entries) or "nothing"
        message = f"the marketplace {market!r} has no plugin {name!r}"
        if root:
            raise refuse("install.skill.unknown", message, hint=f"it lists: {listed}")
        _missing(walk, path, message)
        return None
    src = source_for(known, catalogue, ctx, entry.name)
    allow_source(src, ctx.layout)  # the organisation's policy, before it is fetched
    sub = walk.work / str(len(walk.done))
    sub.mkdir()
    got, fresh = _fetch_once(walk, src, sub)
    folder = folder_of(got.tree, src.subdir)
    made, manifest = materialise(folder, entry, sub / "made", ctx.settings.limits)
    item = _item(made, entry, src)
    planned = _plan(item, src, got, walk, market, manifest, direct)
    version = _manifest(made).get("version") or entry.version
    return _Node(
        f"{name}@{market}",
        planned,
        version if isinstance(version, str) else None,
        (),
        (*notes, *(got.diagnostics if fresh else ()), *item.notes),
    )


def _catalogue(walk: _Walk, market: str) -> tuple[Known, Catalogue, tuple[Diagnostic, ...]]:
    """The added marketplace `market` and its catalogue, read once a walk; its notes
    are given the first time only."""
    if market in walk.catalogues:
        known, catalogue, _ = walk.catalogues[market]
        return known, catalogue, ()
    found = catalogue_of(walk.ctx, market)
    walk.catalogues[market] = found
    return found


def _fetch_once(walk: _Walk, src: Source, sub: Path) -> tuple[Fetched, bool]:
    """`src` fetched into `sub`, and True; or, for a source fetched before in this walk
    (the same kind, place and ref: another folder of one repository), that copy and
    False."""
    key = (src.kind, src.location, src.ref)
    got = walk.fetched.get(key)
    if got is not None:
        return got, False
    ctx = walk.ctx
    got = fetch(src, sub, ctx.settings, progress=ctx.progress, environ=ctx.environ)
    walk.fetched[key] = got
    return got, True


def _missing(walk: _Walk, path: tuple[str, ...], why: str) -> None:
    """Note a dependency no added marketplace lists; the dependent installs anyway."""
    message = f"{path[-1]} (needed by {' -> '.join(path[:-1])}) is not installed: {why}"
    hint = f"add the marketplace that lists it, then satchel install {path[-1]}"
    walk.notes.append(diagnostic("install.dependency.missing", message, hint=hint))


def _item(made: Path, entry: CatalogueEntry, src: Source) -> Item:
    item = item_at(made.parent, made.name, "plugin")
    if item.name != entry.name:
        message = f"the catalogue lists {entry.name!r}, but its plugin is named {item.name!r}"
        raise refuse("install.catalogue.source", message)
    return replace(item, folder=src.subdir)


def _plan(
    item: Item,
    src: Source,
    got: Fetched,
    walk: _Walk,
    market: str,
    manifest: str | None,
    direct: bool,
) -> Planned:
    planned = plan(item, src, got, walk.where, walk.family)
    old = walk.lock.find(item.name, "plugin")
    entry = replace(
        planned.entry,
        marketplace=market,
        manifest=manifest,
        direct=direct or (old is not None and old.direct),
    )
    return replace(planned, entry=entry)


def _manifest(folder: Path) -> dict[str, Any]:
    path = folder / _MANIFEST
    if not os.path.isfile(path):
        return {}
    data, _ = probe_json(path)
    return data if isinstance(data, dict) else {}


def materialise(
    folder: Path, entry: CatalogueEntry, into: Path, limits: Limits
) -> tuple[Path, str | None]:
    """`folder` copied to ``into/<name>``, with the manifest its catalogue `entry` makes
    written there; the manifest's text when satchel wrote one (None: the plugin's own)."""
    target = into / entry.name
    into.mkdir(parents=True, exist_ok=True)
    copy_tree(folder, target, limits)
    text = manifest_for(_manifest(target), entry, has_own=_has_format(target))
    if text is not None:
        (target / ".claude-plugin").mkdir(exist_ok=True)
        (target / _MANIFEST).write_text(text, encoding="utf-8")
    return target, text


def locked_item(tree: Path, entry: LockEntry, work: Path, limits: Limits) -> Item:
    """The item `entry` locks in the fetched `tree`: with the manifest satchel wrote
    for it from its catalogue, when it wrote one, so that it hashes as installed."""
    if entry.manifest is None:
        return item_at(tree, entry.folder, entry.kind)
    made = work / "made" / entry.name
    made.parent.mkdir(parents=True, exist_ok=True)
    copy_tree(folder_of(tree, entry.folder), made, limits)
    (made / ".claude-plugin").mkdir(exist_ok=True)
    (made / _MANIFEST).write_text(entry.manifest, encoding="utf-8")
    return replace(item_at(made.parent, made.name, "plugin"), folder=entry.folder)


def manifest_for(own: dict[str, Any], entry: CatalogueEntry, *, has_own: bool) -> str | None:
    """The manifest text `entry` makes of a plugin whose manifest is `own`, or None
    when the plugin's own stands as it is."""
    declared = {k: own[k] for k in COMPONENTS if k in own}
    extra = dict(entry.components)
    deps = entry.fields.get("dependencies")
    if not entry.strict:
        if declared:
            message = (
                f"{entry.name!r} is strict: false in its catalogue, but its plugin.json also "
                f"declares {', '.join(sorted(declared))}"
            )
            raise refuse("install.catalogue.conflict", message)
        base = {k: v for k, v in own.items() if k not in COMPONENTS}
        return _dump({**_identity(entry), **base, **extra, **_deps(own, deps)})
    if has_own and not extra and deps is None:
        return None
    merged = dict(own) if own else _identity(entry)
    for key, value in extra.items():
        merged[key] = _merge(merged.get(key), value)
    return _dump({**merged, **_deps(merged, deps)})


def _identity(entry: CatalogueEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"name": entry.name}
    if entry.version:
        out["version"] = entry.version
    if entry.description:
        out["description"] = entry.description
    return out


def _deps(own: Mapping[str, Any], deps: Any) -> dict[str, Any]:
    if deps is None:
        return {}
    mine = own.get("dependencies")
    return {"dependencies": _merge(mine, deps)}


def _merge(mine: Any, theirs: Any) -> Any:
    if mine is None:
        return theirs
    if isinstance(mine, list) and isinstance(theirs, list):
        return mine + [v for v in theirs if v not in mine]
    if isinstance(mine, dict) and isinstance(theirs, dict):
        return {**theirs, **mine}
    if isinstance(mine, str) and isinstance(theirs, list | str):
        return [mine, *(theirs if isinstance(theirs, list) else [theirs])]
    return mine


def _dump(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=True) + "\n"


def _has_format(folder: Path) -> bool:
    return detect(folder)[0] is not None
