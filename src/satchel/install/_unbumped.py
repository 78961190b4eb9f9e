"""Whether a plugin's content changed after its current version was released.

A host that caches a plugin by its version string keeps serving the old copy of a
plugin whose content changed under the same version. Read-only, from git
(`satchel.install._git_read`):

1. The release is a tag for the current version, when one exists: ``{name}--v{version}``
   (what ``claude plugin tag`` writes), and for a plugin at the repository's root also
   ``v{version}`` and ``{version}``.
2. Otherwise it is the last commit that set the manifest's current version: the
   newest run of commits of the manifest file that hold that version, walked back to
   the oldest of them (at most `HISTORY` commits). A manifest whose version differs from
   every committed one is a bump not yet committed: nothing to say.

The plugin folder's files at the release are then compared with the working tree
(committed and uncommitted changes, files git ignores left out), by git's own blob
hash of each file as git would store it (`satchel.install._git_files`: line endings,
``ident``, ``core.filemode``), computed here so that git never reads the working tree.
A change gives ``plugin.version.unbumped`` with the number of later commits and the
files that differ (the first `SHOWN`). A file of the release that git stores through
a filter (Git LFS) or an encoding is not compared: one ``plugin.version.unchecked``
info names them. No repository or no git: nothing. A shallow clone without a tag, a
git failure or a folder past the limits: one ``plugin.version.unchecked`` info saying
why.
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core import _toml
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import MAX_MANIFEST
from satchel.install._git_files import (
    MAX_BYTES,
    MAX_FILES,
    UNKNOWN,
    Entry,
    changed,
    committed,
    working,
)
from satchel.install._git_read import DEADLINE, Repo, open_repo
from satchel.plugins import Plugin

__all__ = ["HISTORY", "MAX_BYTES", "MAX_FILES", "SHOWN", "release_tags", "unbumped"]

HISTORY = 50  # commits of the manifest read back at most
SHOWN = 5  # changed files named in the message
_GLOB = frozenset("*?[\\")


@model
class Release:
    """The commit the current version was released at, and how (``tagged alpha--v1.0.0``,
    ``set in commit 1a2b3c4``)."""

    commit: str
    how: str


def release_tags(name: str, version: str, at_top: bool) -> tuple[str, ...]:
    """The tag names that release `version` of plugin `name`, preferred first."""
    tags = (f"{name}--v{version}", f"v{version}", version) if at_top else (f"{name}--v{version}",)
    return tuple(t for t in tags if not (_GLOB & set(t)) and not t.startswith("-"))


def unbumped(
    plugin: Plugin,
    manifest: str,
    environ: Mapping[str, str],
    deadline: float = DEADLINE,
) -> tuple[Diagnostic, ...]:
    """``plugin.version.unbumped`` when `plugin` changed after its version was released
    (`manifest`: its manifest file, relative to its root); see the module docstring."""
    version = plugin.version
    repo = open_repo(plugin.root, environ, deadline) if version else None
    if repo is None or version is None:
        return ()
    rel = _relative(plugin.root, repo.top)
    if rel is None:
        return ()
    release = _tagged(repo, plugin.name, version, rel)
    if release is None and repo.problem is None:
        if repo.shallow:
            why = "the clone is shallow and no tag marks the release"
            hint = "fetch the whole history (git fetch --unshallow), or tag the release"
            return (_unchecked(plugin, manifest, why, hint),)
        release = _set_in(repo, posixpath.join(rel, manifest) if rel else manifest, version)
    if release is None:
        return () if repo.problem is None else (_unchecked(plugin, manifest, repo.problem),)
    return _compared(repo, plugin, manifest, rel, release, environ)


def _compared(
    repo: Repo,
    plugin: Plugin,
    manifest: str,
    rel: str,
    release: Release,
    environ: Mapping[str, str],
) -> tuple[Diagnostic, ...]:
    then = _tree(repo, release.commit, rel)
    work = _work(repo, rel, environ)
    head = _tree(repo, "HEAD", rel) if release.commit != repo.head else then
    count = repo.git("rev-list", "--count", f"{release.commit}..HEAD", "--", rel or ".")
    if then is None or head is None or count is None or work is None:
        why = repo.problem or (
            f"the plugin folder holds more than {MAX_FILES:,} files or {MAX_BYTES >> 20} MiB"
        )
        return (_unchecked(plugin, manifest, why),)
    differ = changed(then, work)
    unknown = sorted(p for p, entry in work.items() if entry == UNKNOWN and p in then)
    said = []
    if differ:
        uncommitted = bool(changed(head, work))
        said.append(_warning(plugin, manifest, release, differ, int(count), uncommitted))
    if unknown:
        said.append(_filtered(plugin, manifest, unknown))
    return tuple(said)


def _warning(
    plugin: Plugin,
    manifest: str,
    release: Release,
    changed: list[str],
    commits: int,
    uncommitted: bool,
) -> Diagnostic:
    later = [f"{commits} later commit{'s' if commits != 1 else ''}"] if commits else []
    since = " and ".join([*later, *(["uncommitted changes"] if uncommitted else [])])
    since = since or "the release is not in the history of HEAD"
    files = "1 file differs" if len(changed) == 1 else f"{len(changed)} files differ"
    message = (
        f"plugin {plugin.name!r} changed after version {plugin.version} was {release.how}: "
        f"{since}; {files}: {_shown(changed)}"
    )
    hint = (
        f"bump `version` in {manifest}: a host that caches plugins by version (Claude Code "
        f"does) keeps serving the copy of {plugin.version}"
    )
    return diagnostic("plugin.version.unbumped", message, plugin.root / manifest, hint=hint)


def _filtered(plugin: Plugin, manifest: str, unknown: list[str]) -> Diagnostic:
    files = "1 file" if len(unknown) == 1 else f"{len(unknown)} files"
    message = (
        f"whether plugin {plugin.name!r} changed after version {plugin.version} was released "
        f"is not checked for {files} git stores through a filter or an encoding: "
        f"{_shown(unknown)}"
    )
    hint = (
        "satchel runs no filter of the repository's, so it cannot tell what git stores for "
        f"them; bump `version` in {manifest} when they change"
    )
    return diagnostic("plugin.version.unchecked", message, plugin.root / manifest, hint=hint)


def _shown(paths: list[str]) -> str:
    shown = ", ".join(paths[:SHOWN])
    return shown + (f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")


def _unchecked(plugin: Plugin, manifest: str, why: str, hint: str | None = None) -> Diagnostic:
    message = (
        f"whether plugin {plugin.name!r} changed after version {plugin.version} was released "
        f"is not checked: {why}"
    )
    return diagnostic("plugin.version.unchecked", message, plugin.root / manifest, hint=hint)


def _relative(root: Path, top: Path) -> str | None:
    """`root` relative to the work tree's `top`, in git's form (``""`` at the top)."""
    rel = os.path.relpath(os.path.realpath(root), os.path.realpath(top))
    if rel == os.curdir:
        return ""
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return rel.replace(os.sep, "/")


def _tagged(repo: Repo, name: str, version: str, rel: str) -> Release | None:
    """The release a tag names, the preferred form first."""
    tags = release_tags(name, version, at_top=not rel)
    if not tags:
        return None
    fmt = "--format=%(refname:strip=2)%00%(*objectname)%00%(objectname)"
    out = repo.git("for-each-ref", fmt, *(f"refs/tags/{t}" for t in tags))
    found: dict[str, str] = {}
    for line in (out or "").splitlines():
        ref, peeled, target = [*line.split("\0"), "", ""][:3]
        found[ref] = peeled or target
    chosen = next((t for t in tags if found.get(t)), None)
    return None if chosen is None else Release(found[chosen], f"tagged {chosen}")


def _set_in(repo: Repo, path: str, version: str) -> Release | None:
    """The oldest commit of the newest run of `path`'s commits holding `version`."""
    out = repo.git("log", f"-n{HISTORY}", "--format=%H", "--", path)
    release = None
    for commit in (out or "").split():
        if _version_at(repo, commit, path) != version:
            break
        release = Release(commit, f"set in commit {commit[:7]}")
    return release


def _version_at(repo: Repo, commit: str, path: str) -> str | None:
    """The ``version`` the manifest `path` holds at `commit` (None: absent or unreadable)."""
    text = repo.git("cat-file", "blob", f"{commit}:{path}", cap=MAX_MANIFEST, may_fail=True)
    if not text:
        return None
    data: Any = None
    with contextlib.suppress(ValueError, RecursionError):  # TooDeep is a ValueError
        data = _toml.loads(text) if path.endswith(".toml") else json.loads(text)
    value = data.get("version") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def _tree(repo: Repo, commit: str, rel: str) -> dict[str, Entry] | None:
    """The files of the plugin folder at `commit`: path in the folder -> (mode, blob)."""
    files = committed(repo, commit, rel or ".")
    return None if files is None else {_inside(p, rel): e for p, e in files.items()}


def _work(repo: Repo, rel: str, environ: Mapping[str, str]) -> dict[str, Entry] | None:
    """The plugin folder's files in the work tree (`satchel.install._git_files.working`):
    path in the folder -> (mode, blob)."""
    files = working(repo, environ, rel or ".")
    return None if files is None else {_inside(p, rel): e for p, e in files.items()}


def _inside(path: str, rel: str) -> str:
    return path[len(rel) + 1 :] if rel else path
