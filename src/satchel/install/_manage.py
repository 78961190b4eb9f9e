"""After an install: update, frozen install, remove and verify, all from the lock.

- `update` fetches each locked source at its ref again (a branch or tag may have
  moved), and replaces what changed, listing the files added, removed and changed.
  A tree edited since it was installed is not overwritten without ``force``.
- One rule says whether an installed tree is as satchel left it (`installed_state`):
  ``ok`` when it is a directory (not a symlink) hashing to its entry's hash (modes
  included, see `satchel.install._tree`), ``missing`` when nothing is there,
  ``modified`` otherwise. `verify` reports it; `update` refuses to overwrite a
  ``modified`` tree without ``force`` even when the source did not move (with
  ``force`` it is restored), and puts back a ``missing`` one; `install_frozen`
  restores any tree that is not ``ok``.
- `install_frozen` fetches each entry at its locked commit (or npm version and
  integrity) and installs it only if the tree hashes to the locked value; every
  entry is checked before anything is written.
- `remove` deletes only a directory the lock lists, never through a symlink.
- `verify` hashes each installed tree and reports those that changed or are gone.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import Layout
from satchel.install._errors import refuse
from satchel.install._fetch import fetch
from satchel.install._http import Progress
from satchel.install._installer import (
    Installed,
    InstallResult,
    Planned,
    Target,
    lfs_pointers,
    plan,
    same_tree_signer,
    signed_plans,
)
from satchel.install._lock import (
    Lock,
    LockEntry,
    held,
    placing,
    read_lock,
    read_placed,
    settle,
    write_lock,
)
from satchel.install._mcp import check_locked
from satchel.install._oci_verify import frozen_signers, same_signer
from satchel.install._plugin_install import locked_item
from satchel.install._policy import allow_signed, allow_source
from satchel.install._review import Review, Reviewed, review_all
from satchel.install._scope import FAMILIES, Scope
from satchel.install._settings import Settings
from satchel.install._signatures import exactly, verify_tree
from satchel.install._staging import place, remove_tree, workspace
from satchel.install._tree import entries, tree_hash

__all__ = [
    "Change",
    "Checked",
    "install_frozen",
    "install_frozen_at",
    "installed_at",
    "installed_state",
    "prune",
    "prune_at",
    "remove",
    "remove_at",
    "update",
    "update_at",
    "verify",
    "verify_at",
]


@model
class Change:
    """What an update found for one entry: the commits (or versions) before and
    after, and the files added, removed and changed (empty when up to date)."""

    entry: LockEntry
    before: str | None
    after: str | None
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()  # warnings, as install gives them

    @property
    def updated(self) -> bool:
        return bool(self.added or self.removed or self.changed) or self.before != self.after

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.entry.name,
            "kind": self.entry.kind,
            "source": self.entry.source,
            "before": self.before,
            "after": self.after,
            "updated": self.updated,
            "added": list(self.added),
            "removed": list(self.removed),
            "changed": list(self.changed),
        }


@model
class Checked:
    """One installed tree's state on disk: ``ok``, ``modified`` or ``missing`` for a
    lock entry (`entry`), ``signature`` for one whose tree is intact but no longer
    signed as the entry records, ``unlisted`` for a tree satchel placed that the lock
    does not hold (no `entry`)."""

    name: str
    kind: str
    path: Path
    status: str
    entry: LockEntry | None = None
    diagnostics: tuple[Diagnostic, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "path": str(self.path),
            "status": self.status,
            "hash": None if self.entry is None else self.entry.hash,
            "signature": _signature_json(self.entry),
        }


def _signature_json(entry: LockEntry | None) -> dict[str, Any] | None:
    signature = None if entry is None else entry.signature
    return None if signature is None else signature.to_json()


def installed_state(path: Path, expected: str) -> tuple[str, str]:
    """``ok``, ``missing`` or ``modified`` (see the module docstring), and why."""
    if not os.path.lexists(path):
        return "missing", "is not installed at"
    if os.path.islink(path):
        return "modified", "was replaced by a symlink at"
    if not os.path.isdir(path):
        return "modified", "was replaced by a file at"
    if tree_hash(path) != expected:
        return "modified", "was changed since it was installed at"
    return "ok", "is intact at"


def installed_at(where: Scope, entry: LockEntry) -> Path:
    """The directory `entry` is installed in, in scope `where`."""
    return where.dir_for(entry.kind, entry.family) / entry.name


def _groups(items: Sequence[LockEntry], *, pinned: bool) -> dict[tuple[Any, ...], list[LockEntry]]:
    groups: dict[tuple[Any, ...], list[LockEntry]] = {}
    for e in items:
        key = (e.source, e.resolved, e.integrity) if pinned else (e.source,)
        groups.setdefault(key, []).append(e)
    return groups


def install_frozen(
    *,
    scope: str = "project",
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> InstallResult:
    """Install exactly what the scope's lock records; refuse (``install.integrity``)
    before writing anything when a fetched tree does not hash to its locked value."""
    target = Target.make(
        scope=scope, layout=layout, settings=settings, environ=environ, progress=progress
    )
    return install_frozen_at(target)


def install_frozen_at(target: Target) -> InstallResult:
    """`install_frozen` into `target`."""
    ctx, where = target.context, target.where
    if not os.path.lexists(where.lock_path):
        message = f"there is no lock file at {where.lock_path}, so --frozen has nothing to install"
        hint = "install a source first (satchel install SOURCE), or give the right --scope"
        raise refuse("install.lock.missing", message, where.lock_path, hint=hint)
    lock = read_lock(where.lock_path)
    groups = list(_groups(lock.entries, pinned=True).values())
    for group in groups:  # the organisation's policy, before anything is fetched
        first = group[0]
        allow_source(
            ctx.parse(first.source), ctx.layout, pin=first.resolved, integrity=first.integrity
        )
        allow_signed(group, ctx.layout)  # the signers the lock records, against require_signed
    with workspace(ctx.cache) as work:
        plans: list[Planned] = []
        notes: list[Diagnostic] = []
        for n, group in enumerate(groups):
            first = group[0]
            sub = work / str(n)
            sub.mkdir()
            check_locked(ctx.parse(first.source), where, ctx.layout)
            shown = f"{first.kind} {first.name!r} from {first.source}"
            signers = frozen_signers(first.signature, ctx.settings.signer_keys, shown)
            got = fetch(
                ctx.parse(first.source), sub, ctx.settings, pin=first.resolved,
                integrity=first.integrity, progress=ctx.progress, environ=ctx.environ,
                signers=signers,
            )  # fmt: skip
            same_signer(first.signature, got.signature, shown)
            notes += got.diagnostics
            for entry in group:
                item = locked_item(got.tree, entry, sub, ctx.settings.limits)
                same_tree_signer(item.path, entry, ctx.settings, within=got.tree)
                actual = tree_hash(item.path, source=True)
                if actual != entry.hash:
                    message = (
                        f"{entry.kind} {entry.name!r} from {entry.source} hashes to {actual}, "
                        f"not the locked {entry.hash}"
                    )
                    raise refuse("install.integrity", message, installed_at(where, entry))
                plans.append(Planned(item, installed_at(where, entry), entry))
        notes += lfs_pointers(plans)
        done = _place_frozen(plans, where, ctx.settings)
    return InstallResult(tuple(done), tuple(notes))


def _place_frozen(plans: Sequence[Planned], where: Scope, settings: Settings) -> list[Installed]:
    """Place each locked tree that is not intact, holding the lock as every install
    does (the lock itself is not rewritten: it already holds these entries)."""
    done = []
    with held(where.lock_path, settings.lock_wait):
        for p in plans:
            if _intact(p.target, p.entry.hash):
                continue
            with placing(where.lock_path, p.entry):
                replaced = place(p.item.path, p.target, settings.limits)
            done.append(Installed(p.entry, p.target, replaced))
        settle(where.lock_path)
    return done


def _intact(path: Path, expected: str) -> bool:
    return installed_state(path, expected)[0] == "ok"


def update(
    names: Sequence[str] = (),
    *,
    scope: str = "project",
    force: bool = False,
    layout: Layout | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    review: Review | None = None,
    dry_run: bool = False,
) -> tuple[Change, ...]:
    """Fetch each locked source (or those of `names`) at its ref again and install
    what changed; return one `Change` per entry looked at. `review` is asked about
    each changed tree before any is placed (see `satchel.install._review`); with
    `dry_run` nothing is placed and a tree edited since it was installed is compared
    as it is on disk."""
    target = Target.make(
        scope=scope, layout=layout, settings=settings, environ=environ, progress=progress,
        review=review,
    )  # fmt: skip
    return update_at(target, names, force=force, dry_run=dry_run)


def update_at(
    target: Target, names: Sequence[str] = (), *, force: bool = False, dry_run: bool = False
) -> tuple[Change, ...]:
    """`update` in `target` (its scope, asking its review)."""
    ctx, where, review = target.context, target.where, target.review
    lock = read_lock(where.lock_path)
    chosen = _named(lock, names)
    changes: list[Change] = []
    plans: list[Planned] = []
    groups = list(_groups(chosen, pinned=False).values())
    for group in groups:  # the organisation's policy, before anything is fetched
        allow_source(ctx.parse(group[0].source), ctx.layout)
    with workspace(ctx.cache) as work:
        for n, group in enumerate(groups):
            sub = work / str(n)
            sub.mkdir()
            src = ctx.parse(group[0].source)
            check_locked(src, where, ctx.layout)
            if src.kind == "wellknown":  # a site's index: only the entries installed
                src = replace(src, skills=tuple(e.folder for e in group))
            first = group[0]
            shown = f"{first.kind} {first.name!r} from {first.source}"
            signers = frozen_signers(first.signature, ctx.settings.signer_keys, shown)
            got = fetch(
                src, sub, ctx.settings, progress=ctx.progress, environ=ctx.environ,
                signers=signers,
            )  # fmt: skip
            same_signer(first.signature, got.signature, shown)
            for entry in group:
                item = locked_item(got.tree, entry, sub, ctx.settings.limits)
                fresh = plan(replace(item, name=entry.name), src, got, where, entry.family)
                fresh = replace(fresh, entry=_kept_fields(fresh.entry, entry))
                fresh, unverified = _signed_again(fresh, entry, ctx.settings, within=got.tree)
                allow_signed([fresh.entry], ctx.layout)
                change = _compare(entry, fresh, installed_at(where, entry), force=force or dry_run)
                changes.append(replace(change, diagnostics=tuple(unverified)))
                if change.updated:
                    plans.append(fresh)
        review_all(
            (Reviewed(p.entry.name, p.entry.kind, p.target, p.item.path) for p in plans), review
        )
        if plans and not dry_run:
            _replace_all(plans, where, ctx.settings)
    return tuple(changes)


def _signed_again(
    fresh: Planned, old: LockEntry, settings: Settings, *, within: Path
) -> tuple[Planned, list[Diagnostic]]:
    """`fresh` with its signature: by the signer `old` records, when it records one
    (``install.signature.changed`` when another signs it now), else any bundle's;
    and the ``install.signature.unverified`` warnings of bundles that do not verify."""
    if old.signature is not None:
        same_tree_signer(fresh.item.path, old, settings, within=within)
    allowed = exactly(old.signature) if old.signature is not None else None
    signed, unverified = signed_plans([fresh], allowed, settings, within=within)
    return signed[0], unverified


def _replace_all(plans: Sequence[Planned], where: Scope, settings: Settings) -> None:
    """Place each updated tree and put its entry in the lock as it is now, holding it."""
    with held(where.lock_path, settings.lock_wait):
        lock = read_lock(where.lock_path)
        for p in plans:
            with placing(where.lock_path, p.entry):
                place(p.item.path, p.target, settings.limits)
        write_lock(where.lock_path, lock.put_all(p.entry for p in plans))


def _kept_fields(new: LockEntry, old: LockEntry) -> LockEntry:
    """`new` with what an update does not change: its marketplace, manifest,
    dependencies and whether it was installed directly."""
    return replace(
        new,
        marketplace=old.marketplace,
        manifest=old.manifest,
        requires=old.requires,
        direct=old.direct,
    )


def _named(lock: Lock, names: Sequence[str]) -> list[LockEntry]:
    if not names:
        return list(lock.entries)
    out = []
    for name in names:
        found = [e for e in lock.entries if e.name == name]
        if not found:
            raise refuse("install.not-installed", f"{name!r} is not in the lock file")
        out += found
    return out


def _compare(entry: LockEntry, fresh: Planned, target: Path, *, force: bool) -> Change:
    new = fresh.entry
    state, why = installed_state(target, entry.hash)
    if state == "modified" and not force:
        message = f"{entry.kind} {entry.name!r} {why} {target}; --force overwrites it"
        raise refuse("install.integrity", message, target)
    if new.hash == entry.hash and state == "ok":
        return Change(entry, entry.resolved, new.resolved)
    old = entries(target) if os.path.isdir(target) and not os.path.islink(target) else {}
    now = entries(fresh.item.path, source=True)
    return Change(
        new,
        entry.resolved,
        new.resolved,
        added=tuple(sorted(set(now) - set(old))),
        removed=tuple(sorted(set(old) - set(now))),
        changed=tuple(sorted(k for k in set(old) & set(now) if old[k] != now[k])),
    )


def remove(
    name: str,
    *,
    scope: str = "project",
    layout: Layout | None = None,
    force: bool = False,
) -> LockEntry:
    """Delete the skill or plugin `name` that satchel installed in `scope`, and its
    lock entry; return the entry. Refused (``install.dependency.required``) while
    another installed entry needs it, unless `force`."""
    return remove_at(Target.make(scope=scope, layout=layout, environ={}), name, force=force)


def remove_at(target: Target, name: str, *, force: bool = False) -> LockEntry:
    """`remove` from `target`'s scope."""
    ctx, where = target.context, target.where
    if read_lock(where.lock_path).find(name) is None:  # nothing to hold the lock for
        raise refuse("install.not-installed", f"{name!r} is not in the lock file", where.lock_path)
    with held(where.lock_path, ctx.settings.lock_wait):
        return _remove(where, name, force=force)


def _remove(where: Scope, name: str, *, force: bool) -> LockEntry:
    lock = read_lock(where.lock_path)
    entry = lock.find(name)
    if entry is None:
        raise refuse("install.not-installed", f"{name!r} is not in the lock file", where.lock_path)
    needing = [e.name for e in lock.entries if entry.key in e.requires and e != entry]
    if needing and not force:
        message = f"{entry.kind} {name!r} is needed by {', '.join(needing)}"
        hint = f"remove {', '.join(needing)} first, or pass --force"
        raise refuse("install.dependency.required", message, where.lock_path, hint=hint)
    _delete(where, entry)
    write_lock(where.lock_path, lock.drop(entry))
    return entry


def prune(*, scope: str = "project", layout: Layout | None = None) -> tuple[LockEntry, ...]:
    """Delete every entry of `scope` installed only as a dependency that nothing
    installed needs any more (repeatedly, so a chain goes whole); return them."""
    return prune_at(Target.make(scope=scope, layout=layout, environ={}))


def prune_at(target: Target) -> tuple[LockEntry, ...]:
    """`prune` in `target`'s scope."""
    ctx, where = target.context, target.where
    if not read_lock(where.lock_path).entries:  # nothing to hold the lock for
        return ()
    with held(where.lock_path, ctx.settings.lock_wait):
        return _prune(where)


def _prune(where: Scope) -> tuple[LockEntry, ...]:
    lock = read_lock(where.lock_path)
    gone: list[LockEntry] = []
    while True:
        needed = {k for e in lock.entries for k in e.requires}
        loose = [e for e in lock.entries if not e.direct and e.key not in needed]
        if not loose:
            break
        for entry in loose:
            _delete(where, entry)
            lock = lock.drop(entry)
            gone.append(entry)
    if gone:
        write_lock(where.lock_path, lock)
    return tuple(gone)


def _delete(where: Scope, entry: LockEntry) -> None:
    """Delete `entry`'s installed tree, never through a symlink."""
    target = installed_at(where, entry)
    if os.path.islink(target):
        message = f"{target} is a symlink, not the directory satchel installed; it is left alone"
        raise refuse("install.skill.exists", message, target)
    if os.path.lexists(target):
        remove_tree(target)


def verify(
    *, scope: str = "project", layout: Layout | None = None, settings: Settings | None = None
) -> tuple[Checked, ...]:
    """Hash each installed tree of `scope` against its lock entry, check the Sigstore
    signature of each entry that records one (status ``signature``: it no longer
    verifies, is by another signer, or signs another digest than the tree's), and
    report each tree satchel placed that the lock does not hold
    (``install.lock.unlisted``)."""
    return verify_at(Target.make(scope=scope, layout=layout, settings=settings, environ={}))


def verify_at(target: Target) -> tuple[Checked, ...]:
    """`verify` in `target`'s scope."""
    ctx, where = target.context, target.where
    lock = read_lock(where.lock_path)
    out = []
    for entry in lock.entries:
        path = installed_at(where, entry)
        state, why = installed_state(path, entry.hash)
        if state == "ok":
            problems = _signature_problems(path, entry, ctx.settings)
            status = "signature" if problems else state
            out.append(Checked(entry.name, entry.kind, path, status, entry, problems))
            continue
        message = f"{entry.kind} {entry.name!r} {why} {path}"
        if state == "modified":
            message += f": it no longer matches its locked hash {entry.hash}"
        problem = diagnostic("install.integrity", message, path)
        out.append(Checked(entry.name, entry.kind, path, state, entry, (problem,)))
    return (*out, *_unlisted(where, lock))


def _signature_problems(path: Path, entry: LockEntry, settings: Settings) -> tuple[Diagnostic, ...]:
    """Why the installed tree of `entry` is no longer signed as its lock records."""
    locked = entry.signature
    if locked is None or locked.kind == "cosign":  # in the registry: checked at install
        return ()
    name = f"{entry.kind} {entry.name!r}"
    signers = exactly(locked)
    got, _path, problems = verify_tree(
        path, signers=signers, trust_root=settings.sigstore_trust_root, name=name, beside=False
    )
    if got is None:
        return problems
    if got.digest != locked.digest:
        message = f"{name} is signed over {got.digest}, not the locked {locked.digest}"
        return (diagnostic("install.signature.invalid", message, path),)
    return ()


def _unlisted(where: Scope, lock: Lock) -> list[Checked]:
    """The trees satchel recorded placing, still there, that no lock entry holds."""
    out = []
    for kind, family, name in read_placed(where.lock_path):
        if family not in FAMILIES or lock.find(name, kind) is not None:
            continue
        path = where.dir_for(kind, family) / name
        if not os.path.lexists(path):
            continue
        message = (
            f"{kind} {name!r} is installed at {path}, but {where.lock_path.name} does not "
            "list it, so update, remove and install --frozen do not know it"
        )
        hint = f"install it again with --force to pin it, or delete {path}"
        problem = diagnostic("install.lock.unlisted", message, path, hint=hint)
        out.append(Checked(name, kind, path, "unlisted", None, (problem,)))
    return out
