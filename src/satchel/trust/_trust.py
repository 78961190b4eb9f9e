"""Trusted folders: the user's list of projects whose executable parts may load.

The list lives in the client's user config directory
(``{config}/<client>/trusted-folders.json``) and nowhere else, so a project can never
mark itself trusted. A folder is trusted when it, or a folder above it, is on the list
(``satchel trust DIR``). In a folder that is not trusted nothing executable from the
project loads (its plugins, the workspace plugin; its skills run no ``!`cmd```), and
the user's skills, commands and agents win over the project's: a cloned repository
cannot shadow them.

A folder may carry pins: the digest of each executable item of the project when it was
trusted (`satchel.trust._approval`). An item that changed or is new since then is held back
until the folder is trusted again (threat model T03). `satchel trust` pins; a folder
trusted without `approved` runs what it holds.

The same list pins the header helpers the installer may run (``helpers``: host ->
`helper_digest` of the command's exact text, `approve_helper`), so one store holds
every approval the user gave; `satchel trust --header-helper HOST` writes it.

An unreadable or malformed list trusts nothing and says so (``config.trust.invalid``);
`trust` and `untrust` refuse to write over it, so nothing the user wrote is lost.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import loads
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import TrustStoreError
from satchel.core.layout import Layout
from satchel.foundations.origin import Pins, Trust
from satchel.hosts._rules import TRUST_LISTS
from satchel.hosts._trust import TrustListName, folder_verdicts

__all__ = [
    "STORE",
    "Pins",
    "TrustDecision",
    "TrustList",
    "approve_helper",
    "decide_trust",
    "forget_helper",
    "helper_digest",
    "read_trust",
    "store_path",
    "trust",
    "untrust",
]

STORE = "trusted-folders.json"
MAX_STORE = 1024 * 1024
VERSION = 1
_NO_PINS: Mapping[Path, Mapping[str, str]] = MappingProxyType({})
_NO_HELPERS: Mapping[str, str] = MappingProxyType({})


@model
class TrustList:
    """The folders on the user's list, and why the list could not be read, if so."""

    path: Path
    folders: tuple[Path, ...] = ()
    problem: Diagnostic | None = None
    approved: Mapping[Path, Mapping[str, str]] = field(default_factory=lambda: _NO_PINS)
    helpers: Mapping[str, str] = field(default_factory=lambda: _NO_HELPERS)

    def trusting(self, folder: str | os.PathLike[str]) -> Path | None:
        """The listed folder that makes `folder` trusted (itself or one above it)."""
        real = Path(os.path.realpath(folder))
        for listed in self.folders:
            if real == listed or real.is_relative_to(listed):
                return listed
        return None


@model
class TrustDecision:
    """What `load()` decided about the project: its `Trust`, why the user's list
    could not be read (if so), and the pins the project's executable parts are held
    to (None: the host decided, or the folder carries no pins)."""

    trust: Trust
    problems: tuple[Diagnostic, ...] = ()
    pins: Pins | None = None


def decide_trust(
    layout: Layout,
    *,
    given: bool | None,
    load_project: bool,
    hide_untrusted: bool = False,
    source: TrustListName = "satchel",
) -> TrustDecision:
    """Whether the project folder is trusted: as the host says (`given`), else as the
    user's list says (satchel's, or the host's own: `source`); `load_project` False
    hides the project's content either way, `hide_untrusted` when the folder is not
    trusted."""
    rule = {"load_project": load_project, "hide_untrusted": hide_untrusted}
    if given is not None:
        return TrustDecision(Trust.decide(folder=given, **rule))
    verdicts = TRUST_LISTS[source]
    if verdicts is not None:  # the host's own list of folder verdicts
        folder_trusted, problem = folder_verdicts(layout, verdicts)
        found = () if problem is None else (problem,)
        return TrustDecision(Trust.decide(folder=folder_trusted, **rule), found)
    listed = read_trust(layout)
    found = (listed.problem,) if listed.problem is not None else ()
    folder = listed.trusting(layout.project)
    trust = Trust.decide(folder=folder is not None, **rule)
    if folder is None:
        return TrustDecision(trust, found)
    approved = listed.approved.get(folder)
    return TrustDecision(trust, found, None if approved is None else Pins(folder, approved))


def store_path(layout: Layout) -> Path:
    """Where the list is kept: the client's user config directory."""
    return layout.config_home / layout.client / STORE


def read_trust(layout: Layout) -> TrustList:
    """The user's list; a list that cannot be read trusts nothing and carries why."""
    path = store_path(layout)
    if not os.path.lexists(path):
        return TrustList(path)  # nothing to open: no folder was ever trusted
    try:
        data = loads(read_bounded(path, MAX_STORE))
    except FileProblem as e:
        return TrustList(path, problem=_invalid(path, e.message))
    except ValueError as e:
        return TrustList(path, problem=_invalid(path, f"not JSON ({e})"))
    folders = data.get("folders") if isinstance(data, dict) else None
    if not isinstance(folders, list) or not all(isinstance(f, str) for f in folders):
        return TrustList(path, problem=_invalid(path, '"folders" is not a list of paths'))
    pins = _pins(data.get("approved", {}))
    if pins is None:
        why = '"approved" is not a map of folder -> {item: digest}'
        return TrustList(path, problem=_invalid(path, why))
    helpers = data.get("helpers", {})
    if not isinstance(helpers, dict) or not all(isinstance(v, str) for v in helpers.values()):
        return TrustList(path, problem=_invalid(path, '"helpers" is not a map of host -> digest'))
    listed = tuple(Path(f) for f in folders if os.path.isabs(f))
    return TrustList(
        path, listed, approved=MappingProxyType(pins), helpers=MappingProxyType(dict(helpers))
    )


def _pins(value: Any) -> dict[Path, Mapping[str, str]] | None:
    if not isinstance(value, dict):
        return None
    pins: dict[Path, Mapping[str, str]] = {}
    for folder, items in value.items():
        if not isinstance(items, dict) or not all(isinstance(v, str) for v in items.values()):
            return None
        pins[Path(folder)] = MappingProxyType(dict(items))
    return pins


def trust(
    layout: Layout, folder: str | os.PathLike[str], approved: Mapping[str, str] | None = None
) -> bool:
    """Put `folder` (its real path) on the list, pinned to `approved` (item -> digest,
    `satchel.trust._approval.digests`) when given, unpinned otherwise; False when it was
    already on the list (its pins are replaced all the same)."""
    current = _writable(layout)
    real = Path(os.path.realpath(folder))
    pins = {f: p for f, p in current.approved.items() if f != real}
    if approved is not None:
        pins[real] = approved
    added = real not in current.folders
    if added or pins != dict(current.approved):
        folders = [*current.folders, real] if added else list(current.folders)
        _write(current.path, folders, pins, current.helpers)
    return added


def untrust(layout: Layout, folder: str | os.PathLike[str]) -> bool:
    """Take `folder` off the list; False when it was not on it (a folder above it
    may still trust it: `TrustList.trusting` says which)."""
    current = _writable(layout)
    real = Path(os.path.realpath(folder))
    if real not in current.folders:
        return False
    pins = {f: p for f, p in current.approved.items() if f != real}
    _write(current.path, [f for f in current.folders if f != real], pins, current.helpers)
    return True


def helper_digest(host: str, command: str) -> str:
    """The pin of the header helper `command` for `host`: a sha256 of its exact text."""
    import hashlib  # only when a helper is approved or checked

    return hashlib.sha256(f"header-helper\0{host}\0{command}".encode()).hexdigest()


def approve_helper(layout: Layout, host: str, command: str) -> bool:
    """Pin `command` as the header helper satchel may run for `host`; False when
    exactly that text was already approved."""
    current = _writable(layout)
    digest = helper_digest(host, command)
    if current.helpers.get(host) == digest:
        return False
    helpers = {**current.helpers, host: digest}
    _write(current.path, list(current.folders), current.approved, helpers)
    return True


def forget_helper(layout: Layout, host: str) -> bool:
    """Drop the approval of `host`'s header helper; False when there was none."""
    current = _writable(layout)
    if host not in current.helpers:
        return False
    helpers = {h: d for h, d in current.helpers.items() if h != host}
    _write(current.path, list(current.folders), current.approved, helpers)
    return True


def _writable(layout: Layout) -> TrustList:
    current = read_trust(layout)
    if current.problem is not None:
        raise TrustStoreError(f"{current.problem.message}; fix or remove {current.path}")
    return current


def _invalid(path: Path, why: str) -> Diagnostic:
    message = f"{path.name} could not be read ({why}); no folder is trusted"
    return diagnostic("config.trust.invalid", message, path)


def _write(
    path: Path,
    folders: list[Path],
    pins: Mapping[Path, Mapping[str, str]],
    helpers: Mapping[str, str],
) -> None:
    """Replace the list atomically (a temporary file renamed over it), private to the user."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document: dict[str, Any] = {"version": VERSION, "folders": sorted(str(f) for f in folders)}
    if pins:
        document["approved"] = {
            str(f): dict(sorted(items.items())) for f, items in sorted(pins.items())
        }
    if helpers:
        document["helpers"] = dict(sorted(helpers.items()))
    import tempfile  # only when the trust list is written

    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{STORE}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(document, indent=2) + "\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
