"""The source tree of one install, as it is now: read in place when it is on disk (a
folder, a marketplace's folder or clone), else fetched read-only into a temporary
folder that is removed when the check is done.

A remote source needs the network: with `offline` it is not fetched
(``outdated.source.offline``), but a plugin satchel installed from a marketplace whose
copy it keeps is read from that copy, as satchel last fetched it. The policy's
``[sources]`` and ``[marketplaces]`` rules are asked first
(``outdated.source.refused``); every fetch gets what is left of one overall deadline
(`Deadline`), and a fetch that fails or passes it is ``outdated.source.unreachable``.
A marketplace that no longer lists the plugin, or a record naming no source, is
``outdated.source.unknown``.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import InstallError
from satchel.core.layout import Layout
from satchel.install._catalogue import read_catalogue
from satchel.install._contents import folder_of
from satchel.install._fetch import fetch
from satchel.install._marketplaces import entry_spec
from satchel.install._plugin_install import locked_item
from satchel.install._policy import allow_listing, allow_marketplace
from satchel.install._settings import Settings
from satchel.install._sources import Source, parse_source
from satchel.reports.outdated._model import Install, Origin, State

__all__ = ["Deadline", "Found", "source_tree"]


@model
class Deadline:
    """One deadline for every fetch of a run: `seconds` from `start` (monotonic)."""

    seconds: float
    start: float

    @classmethod
    def begin(cls, seconds: float) -> Deadline:
        return cls(seconds, time.monotonic())

    def left(self) -> float:
        return self.seconds - (time.monotonic() - self.start)


@model
class Found:
    """Where the source tree is (None: not read, `state` and `diagnostics` say why),
    what was read (`source`: a path, or a source spec) and whether that needed the
    network."""

    tree: Path | None
    source: str | None = None
    network: bool = False
    state: State = "current"
    diagnostics: tuple[Diagnostic, ...] = ()


@model
class Reader:
    """What reading sources needs: the layout, the settings, the environment given to
    git, whether the network may be used, and the run's deadline."""

    layout: Layout
    settings: Settings
    environ: Mapping[str, str]
    offline: bool
    deadline: Deadline


@contextmanager
def source_tree(install: Install, reader: Reader) -> Iterator[Found]:
    """The source tree of `install` while the block runs (see the module docstring)."""
    with ExitStack() as stack:
        yield _find(install, reader, stack)


def _find(install: Install, reader: Reader, stack: ExitStack) -> Found:
    origin = install.origin
    if origin is None:
        why = install.why or "its installer recorded no source"
        return _unknown(install, why)
    try:
        if origin.spec is not None:
            return _from_spec(install, origin.spec, reader, stack)
        return _from_marketplace(install, origin, reader, stack)
    except _Stop as stop:
        return stop.found


class _Stop(Exception):
    """A source that cannot be read; `found` says why."""

    def __init__(self, found: Found) -> None:
        super().__init__(found.state)
        self.found = found


def _unknown(install: Install, why: str) -> Found:
    message = f"{install.installer}'s {install.kind} {install.id!r}: {why}"
    found = (_d("outdated.source.unknown", message, install),)
    return Found(None, state="unknown-source", diagnostics=found)


def _d(code: str, message: str, install: Install) -> Diagnostic:
    return diagnostic(code, message, install.root)


def _parse(spec: str, reader: Reader) -> Source:
    layout = reader.layout
    return parse_source(spec, cwd=layout.cwd, home=layout.home, settings=reader.settings)


def _from_spec(install: Install, spec: str, reader: Reader, stack: ExitStack) -> Found:
    try:
        src = _parse(spec, reader)
    except InstallError as e:
        why = f"its recorded source is not one satchel reads: {e}"
        raise _Stop(_unknown(install, why)) from None
    if install.lock is not None:
        return _locked(install, src, reader, stack)
    if src.kind == "local":
        return _local(install, src)
    allow = lambda: allow_listing(src, reader.layout)  # noqa: E731
    tree = _fetched(install, src, reader, stack, allow)
    return Found(folder_of(tree, src.subdir), src.spec(), network=True)


def _local(install: Install, src: Source) -> Found:
    top = Path(src.location)
    if not os.path.isdir(top):
        message = f"{install.installer}'s {install.kind} {install.id!r}: its source {top} is gone"
        raise _Stop(_gone(message, str(top), install, network=False))
    try:
        tree = folder_of(top, src.subdir)
    except InstallError as e:
        raise _Stop(_unreachable(install, src.spec(), e, network=False)) from None
    return Found(tree, str(tree))


def _locked(install: Install, src: Source, reader: Reader, stack: ExitStack) -> Found:
    """A satchel install: its source fetched (a folder is copied) and its item taken
    as `update` takes it, with the manifest satchel wrote for it."""
    entry = install.lock
    assert entry is not None
    network = src.kind != "local"
    recorded = src  # the policy is asked about the source installed from
    allow = lambda: allow_listing(recorded, reader.layout)  # noqa: E731
    work = _work(stack)
    copy = _kept_copy(install, src, reader)
    if copy is not None:  # offline: the marketplace as satchel last fetched it
        src, network = Source("local", str(copy), subdir=src.subdir), False
    tree = _fetched(install, src, reader, stack, allow, work=work)
    try:
        item = locked_item(tree, entry, work, reader.settings.limits)
    except InstallError as e:
        raise _Stop(_unreachable(install, src.spec(), e, network=network)) from None
    shown = src.spec() if network else str(Path(src.location) / entry.folder)
    return Found(item.path, shown, network=network)


def _kept_copy(install: Install, src: Source, reader: Reader) -> Path | None:
    """Offline, satchel's copy of the marketplace a plugin was installed from, when
    the plugin is a folder of that marketplace's own source."""
    origin = install.origin
    if not reader.offline or origin is None or origin.clone is None or src.kind == "local":
        return None
    known = _known_source(reader, origin.marketplace)
    if known is None or (known.kind, known.location) != (src.kind, src.location):
        return None
    return origin.clone


def _known_source(reader: Reader, name: str | None) -> Source | None:
    from satchel.install._installer import Context
    from satchel.install._marketplaces import added

    ctx = Context.make(reader.layout, reader.settings, reader.environ)
    try:
        known = next((k for k in added(ctx) if k.name == name), None)
        return None if known is None else _parse(known.source, reader)
    except InstallError:
        return None


def _work(stack: ExitStack) -> Path:
    return Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="satchel-outdated-")))


def _fetched(
    install: Install,
    src: Source,
    reader: Reader,
    stack: ExitStack,
    allow: Callable[[], None],
    *,
    work: Path | None = None,
) -> Path:
    """`src` fetched into a temporary folder, within the policy and the deadline."""
    network = src.kind != "local"
    spec = src.spec()
    if network and reader.offline:
        message = (
            f"{install.installer}'s {install.kind} {install.id!r} was not checked: its "
            f"source {spec} needs the network (run without --offline)"
        )
        raise _Stop(
            Found(
                None, spec, True, "not-checked", (_d("outdated.source.offline", message, install),)
            )
        )
    try:
        allow()
    except InstallError as e:
        message = f"{install.installer}'s {install.kind} {install.id!r} was not checked: {e}"
        refused = (_d("outdated.source.refused", message, install),)
        raise _Stop(Found(None, spec, network, "not-checked", refused)) from None
    left = reader.deadline.left()
    if left <= 0:
        message = (
            f"{install.installer}'s {install.kind} {install.id!r}: the overall deadline of "
            f"{reader.deadline.seconds:g} s passed before {spec} was fetched"
        )
        raise _Stop(_gone(message, spec, install, network=network))
    settings = dataclasses.replace(
        reader.settings,
        deadline=min(reader.settings.deadline, left),
        timeout=min(reader.settings.timeout, left),
    )
    into = (work or _work(stack)) / "fetched"
    into.mkdir()
    try:
        return fetch(src, into, settings, environ=reader.environ).tree
    except InstallError as e:
        raise _Stop(_unreachable(install, spec, e, network=network)) from None


def _unreachable(install: Install, spec: str, e: InstallError, *, network: bool) -> Found:
    message = f"{install.installer}'s {install.kind} {install.id!r}: {spec} was not read: {e}"
    return _gone(message, spec, install, network=network)


def _gone(message: str, spec: str, install: Install, *, network: bool) -> Found:
    found = (_d("outdated.source.unreachable", message, install),)
    return Found(None, spec, network, "source-unreachable", found)


def _from_marketplace(install: Install, origin: Origin, reader: Reader, stack: ExitStack) -> Found:
    """The plugin's entry in its marketplace: the catalogue read from its copy on disk
    (or fetched when there is none), then the entry's folder in it, or its own source."""
    root, where, network = _catalogue_root(install, origin, reader, stack)
    catalogue, problems = read_catalogue(root)
    entry = None if catalogue is None else catalogue.entry(origin.entry or install.name)
    if catalogue is None or entry is None:
        why = (
            f"marketplace {origin.marketplace!r} ({where}) no longer lists it"
            if catalogue is not None
            else f"marketplace {origin.marketplace!r} ({where}) has no catalogue"
        )
        found = _unknown(install, why)
        return dataclasses.replace(found, diagnostics=(*found.diagnostics, *problems))
    if entry.source.kind in ("path", "local"):
        try:
            tree = folder_of(catalogue.root, (entry.source.path or "").removeprefix("./"))
        except InstallError as e:
            raise _Stop(_unreachable(install, str(catalogue.root), e, network=False)) from None
        rel = tree.relative_to(catalogue.root).as_posix()
        shown = str(tree) if not network else f"{where} ({rel})"
        return Found(tree, shown, network=network)
    return _from_spec(install, entry_spec(entry.source), reader, stack)


def _catalogue_root(
    install: Install, origin: Origin, reader: Reader, stack: ExitStack
) -> tuple[Path, str, bool]:
    """The marketplace's folder, how to name it, and whether it was fetched."""
    if origin.clone is not None:
        return origin.clone, str(origin.clone), False
    spec = origin.marketplace_spec
    if spec is None:
        raise _Stop(_unknown(install, f"marketplace {origin.marketplace!r} records no source"))
    src = _parse(spec, reader)
    if src.kind == "local":
        return _local(install, src).tree or Path(src.location), src.location, False
    allow = lambda: allow_marketplace(spec, reader.layout)  # noqa: E731
    tree = _fetched(install, src, reader, stack, allow)
    return folder_of(tree, src.subdir), spec, True
