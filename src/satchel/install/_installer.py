"""`install_source`: fetch a source, pick, validate, stage, then place atomically
(`satchel.install.install_from_spec` is this, then the plugins its skills require).

Order of work, so that a refusal anywhere leaves the scope as it was:

1. parse the source (``install.source.invalid``), and ask the organisation's policy
   (``policy.denied``: `satchel.install._policy`);
2. fetch and unpack it in a private workspace (every archive and git rule applies);
3. find its skills and plugins, keep the picks (``install.skill.unknown``);
4. validate each with satchel's own parsers (``install.skill.invalid``); a plugin
   that will not load all it declares is installed whole with a warning
   (``install.plugin.partial``);
   check each one's Sigstore signature: with `signers`, one bundle must verify
   and be theirs (``install.signature.*``: `satchel.install._signatures`);
5. check every destination: a directory the lock does not list is not replaced
   without ``force`` (``install.skill.exists``), nor one differing only in case;
6. only then copy each tree beside its destination and rename it into place, and
   write the lock file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.layout import PROJECT, Layout
from satchel.install._contents import Item, scan_items
from satchel.install._errors import refuse
from satchel.install._fetch import fetch
from satchel.install._fetched import Fetched
from satchel.install._http import Progress
from satchel.install._lock import Lock, LockEntry, held, placing, read_lock, write_lock
from satchel.install._oci_verify import frozen_signers, same_signer
from satchel.install._policy import allow_signed, allow_source, signers_to_verify
from satchel.install._requires import Required, with_required
from satchel.install._review import Review, Reviewed, review_all
from satchel.install._scope import FAMILIES, Scope, scope_for
from satchel.install._settings import Settings
from satchel.install._signatures import Signers, exactly, signed_tree, verify_tree
from satchel.install._sources import Source, parse_source
from satchel.install._staging import place, workspace
from satchel.install._tree import tree_hash
from satchel.skills._fields import name_problem

__all__ = [
    "Context",
    "InstallResult",
    "Installed",
    "Target",
    "install_source",
    "install_source_at",
    "signed_plans",
]

_PLUGIN_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\Z")
_LFS = b"version https://git-lfs.github.com/spec/v1"


@model
class Context:
    """What every install action needs: the layout, the settings, the environment
    given to git, and an optional progress callback for downloads."""

    layout: Layout
    settings: Settings
    environ: Mapping[str, str] = field(default_factory=dict)
    progress: Progress | None = None

    @classmethod
    def make(
        cls,
        layout: Layout | None = None,
        settings: Settings | None = None,
        environ: Mapping[str, str] | None = None,
        progress: Progress | None = None,
    ) -> Context:
        env = dict(os.environ if environ is None else environ)
        return cls(
            layout or Layout.default(env=env),
            settings or Settings.from_env(env),
            env,
            progress,
        )

    @property
    def cache(self) -> Path:
        """Where workspaces are made: ``<user cache>/<client>/staging``."""
        written = self.layout.write_root  # <user cache>/<client>/skills
        base = written.parent if written else self.layout.home / ".cache" / self.layout.client
        return base / "staging"

    def parse(self, text: str | Source) -> Source:
        if isinstance(text, Source):
            return text
        return parse_source(
            text, cwd=self.layout.cwd, home=self.layout.home, settings=self.settings
        )


@model
class Target:
    """Where an install action works and what it asks first: its `context` (layout,
    settings, environment, progress), the `scope` and tool `family` it installs into,
    the `review` asked about each tree that would replace an installed one, and the
    `signers` each skill and plugin must be signed by (None: anyone or no one). The
    library's keyword forms (`install_source` ...) build one; the CLI builds one per
    invocation."""

    context: Context
    scope: str = "project"
    family: str = "satchel"
    review: Review | None = None
    signers: Signers | None = None

    @classmethod
    def make(
        cls,
        *,
        scope: str = "project",
        family: str = "satchel",
        layout: Layout | None = None,
        settings: Settings | None = None,
        environ: Mapping[str, str] | None = None,
        progress: Progress | None = None,
        review: Review | None = None,
        signers: Signers | None = None,
    ) -> Target:
        """The target the keyword forms' arguments name (`Context.make` fills in
        what is not given)."""
        ctx = Context.make(layout, settings, environ, progress)
        return cls(ctx, scope, family, review, signers)

    @property
    def where(self) -> Scope:
        """The scope installed into, for the context's layout."""
        return scope_for(self.context.layout, self.scope)


@model
class Installed:
    """One skill or plugin written: where, and whether it replaced a tree."""

    entry: LockEntry
    path: Path
    replaced: bool

    def to_json(self) -> dict[str, Any]:
        return {**self.entry.to_json(), "path": str(self.path), "replaced": self.replaced}


@model
class InstallResult:
    """What an install wrote, and the warnings it gave."""

    installed: tuple[Installed, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    wanted: tuple[str, ...] = ()  # plugins its skills require, NAME@MARKETPLACE[@RANGE]

    def to_json(self) -> dict[str, Any]:
        return {
            "installed": [i.to_json() for i in self.installed],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


@model
class Planned:
    """An item checked and ready to place, with its lock entry."""

    item: Item
    target: Path
    entry: LockEntry


def install_source(
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
    before: Callable[[tuple[str, ...]], None] | None = None,
) -> InstallResult:
    """Install all of `source`, or the `skills` picked by name or folder (with the
    skills of the same source they require), into `scope`
    (``project`` or ``user``) for `family` (``satchel``, ``agents`` or ``claude``).
    Raise `InstallError` and leave the scope untouched when anything is refused.
    `review` is asked about each tree that would replace an installed one, before
    anything is placed (see `satchel.install._review`). `signers`: each skill and
    plugin must carry a Sigstore bundle that verifies and is by one of them.
    `before` is called with the plugins the skills require (``name@marketplace``)
    once all else is checked, before anything is placed: what it raises refuses the
    install."""
    target = Target.make(
        scope=scope, family=family, layout=layout, settings=settings, environ=environ,
        progress=progress, review=review, signers=signers,
    )  # fmt: skip
    return install_source_at(target, source, skills=skills, force=force, before=before)


def install_source_at(
    target: Target,
    source: str | Source,
    *,
    skills: Sequence[str] = (),
    force: bool = False,
    before: Callable[[tuple[str, ...]], None] | None = None,
) -> InstallResult:
    """`install_source` into `target`."""
    ctx, family = target.context, target.family
    src = ctx.parse(source)
    allow_source(src, ctx.layout)  # the organisation's policy, before anything is fetched
    signers = signers_to_verify(src, ctx.layout, target.signers)  # and its require_signed
    where = target.where
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
    lock = read_lock(where.lock_path)
    fetching = signers
    if signers is None and not force:
        fetching = _locked_oci_signers(lock, src, ctx.settings)
    with workspace(ctx.cache) as work:
        got = fetch(
            src, work, ctx.settings, progress=ctx.progress, environ=ctx.environ, signers=fetching
        )
        found, cut = scan_items(got.tree, src.subdir)
        need = with_required(found, pick(found, [*skills, *src.skills], src), src.spec())
        items = list(need.items)
        plans = [_linked(plan(i, src, got, where, family), need, lock) for i in items]
        plans, unsigned = signed_plans(plans, signers, ctx.settings, within=got.tree)
        if signers is None and not force:
            kept_signers(plans, lock, ctx.settings, within=got.tree)
        allow_signed([p.entry for p in plans], ctx.layout)
        check_targets(plans, lock, where, force=force)
        review_all(replacing(plans), target.review)
        notes = [*got.diagnostics, *cut, *need.notes, *(d for i in items for d in i.notes)]
        notes += [*moved(plans, lock), *lfs_pointers(plans), *unsigned]
        wanted = tuple(str(d) for d in need.plugins)
        if before is not None:
            before(wanted)
        done = commit(plans, where, ctx.settings)
    return InstallResult(done, tuple(notes), wanted)


def _linked(planned: Planned, need: Required, lock: Lock) -> Planned:
    """`planned` with what it requires, and marked when only a requirement."""
    name = planned.entry.name
    old = lock.find(name, planned.entry.kind)
    direct = name not in need.added or (old is not None and old.direct)
    entry = replace(planned.entry, requires=need.requires.get(name, ()), direct=direct)
    return replace(planned, entry=entry)


def pick(items: list[Item], picks: Sequence[str], src: Source) -> list[Item]:
    """The items picked (all when `picks` is empty); unknown picks are refused."""
    if not items:
        raise refuse("install.skill.none", f"{src.spec()} holds no skill or plugin")
    if not picks:
        return items
    unknown = [p for p in picks if not any(i.matches(p) for i in items)]
    if unknown:
        names = ", ".join(sorted({i.name for i in items}))
        message = f"{src.spec()} has no skill {', '.join(map(repr, unknown))}"
        raise refuse("install.skill.unknown", message, hint=f"it holds: {names}")
    return [i for i in items if any(i.matches(p) for p in picks)]


def plan(item: Item, src: Source, got: Fetched, where: Scope, family: str) -> Planned:
    """Validate `item` and say where it goes and what the lock will record."""
    if not item.ok:
        errors = [d for d in item.diagnostics if d.severity == "error"] or list(item.diagnostics)
        why = "; ".join(f"{d.code}: {d.message}" for d in errors[:3]) or "it does not load"
        raise refuse("install.skill.invalid", f"{item.kind} {item.folder or item.name!r}: {why}")
    bad = name_problem(item.name) if item.kind == "skill" else _plugin_name(item.name)
    if bad is not None:
        raise refuse("install.skill.invalid", f"{item.kind} name {item.name!r} {bad}")
    entry = LockEntry(
        name=item.name,
        kind=item.kind,
        family=family,
        source=got.source or src.spec(),
        ref=src.ref,
        resolved=got.pins.get(item.folder, got.resolved),
        integrity=got.integrity,
        folder=item.folder,
        hash=tree_hash(item.path, source=True),
        signature=got.signature,
    )
    return Planned(item, where.dir_for(item.kind, family) / item.name, entry)


def signed_plans(
    plans: Sequence[Planned], signers: Signers | None, settings: Settings, *, within: Path
) -> tuple[list[Planned], list[Diagnostic]]:
    """Each plan with the signature its tree carries (`signed_tree`), its hash taken
    again when a bundle beside it was copied in; refuse the first that `signers`
    does not allow. The warnings of bundles that did not verify come back."""
    out: list[Planned] = []
    notes: list[Diagnostic] = []
    for p in plans:
        if p.entry.signature is not None and p.entry.signature.kind == "cosign":
            out.append(p)  # an OCI artifact's signature, checked as it was fetched
            continue
        name = f"{p.entry.kind} {p.entry.name!r}"
        got, found = signed_tree(
            p.item.path,
            signers=signers,
            trust_root=settings.sigstore_trust_root,
            name=name,
            within=within,
        )
        errors = [d for d in found if d.severity == "error"]
        if errors:  # its path is in the workspace, about to go: the message names it
            raise refuse(errors[0].code, errors[0].message)
        notes += [replace(d, path=None) for d in found]  # its path is in the workspace
        if got is not None:
            entry = replace(p.entry, signature=got, hash=tree_hash(p.item.path, source=True))
            p = replace(p, entry=entry)
        out.append(p)
    return out, notes


def _locked_oci_signers(lock: Lock, src: Source, settings: Settings) -> Signers | None:
    """Whom an OCI artifact installed again accepts when the lock records it signed
    (see `frozen_signers`), so that `kept_signers` can compare."""
    for e in lock.entries:
        if e.source == src.spec() and e.signature is not None and e.signature.kind == "cosign":
            shown = f"{e.kind} {e.name!r} from {e.source}"
            return frozen_signers(e.signature, settings.signer_keys, shown)
    return None


def kept_signers(plans: Sequence[Planned], lock: Lock, settings: Settings, *, within: Path) -> None:
    """Refuse, as ``update`` and ``--frozen`` do, a plan replacing a lock entry that
    records a signer when the new tree is not signed by that same identity and issuer
    (``install.signature.changed``), or not signed at all."""
    for p in plans:
        old = lock.find(p.entry.name, p.entry.kind)
        if old is None or old.signature is None:
            continue
        if old.signature.kind == "cosign":
            same_signer(old.signature, p.entry.signature, f"{old.kind} {old.name!r}")
        else:
            same_tree_signer(p.item.path, old, settings, within=within)


def same_tree_signer(tree: Path, entry: LockEntry, settings: Settings, *, within: Path) -> None:
    """Refuse a locked entry that records a signer when `tree` is not signed by that
    same identity and issuer any more (``install.signature.changed``), or not signed
    at all (``install.signature.missing`` or ``.invalid``)."""
    locked = entry.signature
    if locked is None or locked.kind == "cosign":  # an OCI artifact's: checked as fetched
        return
    name = f"{entry.kind} {entry.name!r}"
    trust = settings.sigstore_trust_root
    got, problems = signed_tree(
        tree, signers=exactly(locked), trust_root=trust, name=name, within=within
    )
    if got is not None:
        return
    anyone, _path, _why = verify_tree(tree, signers=None, trust_root=trust, name=name)
    if anyone is not None:
        message = (
            f"{name} from {entry.source} was signed by {locked.identity} (issuer "
            f"{locked.issuer}) when it was locked, and is signed by {anyone.identity} "
            f"(issuer {anyone.issuer}) now"
        )
        raise refuse("install.signature.changed", message)  # `tree` is in the workspace
    raise refuse(problems[0].code, problems[0].message)


def _plugin_name(name: str) -> str | None:
    return None if _PLUGIN_NAME.match(name) else "is not a plain lowercase directory name"


def check_targets(plans: Sequence[Planned], lock: Lock, where: Scope, *, force: bool) -> None:
    """Refuse before writing anything: a name twice, a directory satchel did not
    install (without `force`), a same-named entry of another family, a case twin."""
    seen: set[tuple[str, str]] = set()
    listed: dict[Path, list[str]] = {}  # each directory listed once, however many plans
    for p in plans:
        if where.name == PROJECT and _outside(p.target.parent, where.layout.project):
            message = f"{p.target.parent} leads out of the project {where.layout.project}"
            raise refuse("install.root.escape", message, p.target.parent)
        key = (p.entry.kind, p.entry.name)
        if key in seen:
            raise refuse("install.skill.invalid", f"the source has two {key[0]}s named {key[1]!r}")
        seen.add(key)
        ours = lock.find(p.entry.name, p.entry.kind)
        if ours is not None and ours.family != p.entry.family:
            message = f"{p.entry.name!r} is installed for the {ours.family} family; remove it first"
            raise refuse("install.skill.exists", message, p.target)
        if os.path.lexists(p.target) and ours is None and not force:
            message = f"{p.target} exists and was not installed by satchel"
            raise refuse("install.skill.exists", message, p.target, hint="--force replaces it")
        twin = _case_twin(p.target, listed)
        if twin is not None:
            message = f"{twin} differs from {p.entry.name!r} only in case"
            raise refuse("install.skill.exists", message, p.target)


def replacing(plans: Iterable[Planned]) -> list[Reviewed]:
    """The plans that would replace a tree in place, as a review sees them."""
    return [
        Reviewed(p.entry.name, p.entry.kind, p.target, p.item.path)
        for p in plans
        if os.path.lexists(p.target)
    ]


def _outside(root: Path, project: Path) -> bool:
    """Whether `root` (or its nearest existing ancestor) really lies outside `project`."""
    probe = root
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    real, top = os.path.realpath(probe), os.path.realpath(project)
    return not (real == top or real.startswith(top + os.sep))


def _case_twin(target: Path, listed: dict[Path, list[str]]) -> str | None:
    names = listed.get(target.parent)
    if names is None:
        try:
            names = listed[target.parent] = os.listdir(target.parent)
        except OSError:
            return None
    folded = target.name.casefold()
    return next((n for n in names if n != target.name and n.casefold() == folded), None)


def moved(plans: Iterable[Planned], lock: Lock) -> list[Diagnostic]:
    """``install.ref.moved`` for each item whose locked ref now names another commit."""
    out = []
    for p in plans:
        old = lock.find(p.entry.name, p.entry.kind)
        if (
            old is not None
            and old.source == p.entry.source
            and old.ref is not None
            and old.resolved not in (None, p.entry.resolved)
        ):
            message = (
                f"{p.entry.source} was {old.resolved} when {p.entry.name!r} was installed "
                f"and is {p.entry.resolved} now"
            )
            out.append(diagnostic("install.ref.moved", message, p.target))
    return out


def lfs_pointers(plans: Iterable[Planned]) -> list[Diagnostic]:
    """``install.git.lfs-pointer`` for each small file that is a Git LFS pointer."""
    out = []
    for p in plans:
        for path in sorted(p.item.path.rglob("*")):
            if path.is_symlink() or not path.is_file() or path.stat().st_size > 1024:
                continue
            if path.read_bytes().startswith(_LFS):
                rel = path.relative_to(p.item.path).as_posix()
                message = f"{p.entry.name}/{rel} is a Git LFS pointer; its content was not fetched"
                out.append(diagnostic("install.git.lfs-pointer", message, p.target / rel))
    return out


def commit(plans: Sequence[Planned], where: Scope, settings: Settings) -> tuple[Installed, ...]:
    """Place every planned tree, then write the lock with their entries: all while
    holding the lock file, into the lock as it is then (the one read before the
    fetch may be older: another install may have written since)."""
    done = []
    with held(where.lock_path, settings.lock_wait):
        lock = read_lock(where.lock_path)
        for p in plans:
            with placing(where.lock_path, p.entry):
                replaced = place(p.item.path, p.target, settings.limits)
            done.append(Installed(p.entry, p.target, replaced))
        write_lock(where.lock_path, lock.put_all(p.entry for p in plans))
    return tuple(done)
