"""`satchel tag`: the ``{name}--v{version}`` git tag of a plugin release, after checks.

Claude Code resolves a plugin's versions by the tags ``{name}--v{version}`` of its
repository (``claude plugin tag`` writes them). `plan_tag(path)` checks what that
command checks, in its order, and more:

1. `path` is a plugin (any format satchel reads): else ``tag.plugin.missing``; it
   loads without an error and its manifest gives its ``name``: else
   ``tag.plugin.invalid``;
2. every catalogue of the plugin's folder and of each folder above it, up to the work
   tree's top, agrees with the manifest and with the others about it
   (`satchel.install._agreement`: names, versions, sources, listed in each): else the
   findings and ``tag.catalogue.disagree``;
3. the version is the manifest's, else a listing entry's: else ``tag.version.missing``;
   it is a semantic version (semver 2.0.0, a leading ``v`` allowed, as Claude Code
   allows it): else ``tag.version.invalid``; the tag is a valid git ref
   name: else ``tag.name.invalid``;
4. the plugin is in a git work tree (``tag.repository.missing``) whose HEAD holds the
   plugin's manifest (``tag.plugin.uncommitted``), in which no file below the plugin's
   folder or of a catalogue listing it differs from HEAD, untracked files included
   (``tag.tree.dirty``), and the tag is not there yet (``tag.exists``). The files are
   hashed by satchel (`satchel.install._git_files`), so that no program of the
   repository's runs; one git stores through a filter is compared only for being there
   (``tag.tree.unchecked``, a warning); files git ignores below the plugin's folder
   are named (``tag.tree.ignored``, a warning).

`create_tag(plan)` then runs ``git tag -a -m "{name} {version}" -- TAG HEAD`` and, with
`push`, ``git push REMOTE refs/tags/TAG``, with the user's git config (the tagger's
name, credentials) and no hook. Every git command runs through the one subprocess
primitive.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.process import run_process
from satchel.install._agreement import Finding, agreement, catalogues_at
from satchel.install._catalogue import CATALOGUE_FILES
from satchel.install._git_files import MAX_BYTES, MAX_FILES, UNKNOWN, changed, committed, working
from satchel.install._git_read import Repo, config_env, open_repo
from satchel.install._listed_version import MAX_LEVELS
from satchel.plugins._detect import is_plugin_dir
from satchel.plugins._model import Plugin
from satchel.plugins._read import manifest_file, read_plugin

__all__ = ["TagPlan", "TagResult", "create_tag", "plan_tag"]

_REMOTE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*\Z")
# semver 2.0.0's own pattern, with the leading ``v`` Claude Code also takes (2.1.337)
_ID = r"(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
_SEMVER = re.compile(
    r"v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    rf"(?:-{_ID}(?:\.{_ID})*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?\Z"
)
_PASSED_ON = ("GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "SSH_AUTH_SOCK")
GIT_DEADLINE = 60.0


@model
class TagPlan:
    """What would be tagged: the plugin's `name` and `version` (and where the version
    was read, `version_from`), the `tag`, the annotation `message`, the plugin's
    `root`, the work tree's `top`, the catalogue files listing the plugin and the
    warnings (`notes`) said with it."""

    name: str
    version: str
    version_from: str
    tag: str
    message: str
    root: Path
    top: Path
    catalogues: tuple[str, ...] = ()
    notes: tuple[Diagnostic, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "plugin": self.name,
            "version": self.version,
            "version_from": self.version_from,
            "tag": self.tag,
            "message": self.message,
            "root": str(self.root),
            "git_root": str(self.top),
            "catalogues": list(self.catalogues),
        }


@model
class TagResult:
    """The `plan` (None: refused before one was made), whether the tag was `created`
    and `pushed`, and the diagnostics (an error: refused or failed)."""

    plan: TagPlan | None
    diagnostics: tuple[Diagnostic, ...] = ()
    created: bool = False
    pushed: bool = False

    @property
    def ok(self) -> bool:
        return self.plan is not None and not any(d.severity == "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "plan": None if self.plan is None else self.plan.to_json(),
            "created": self.created,
            "pushed": self.pushed,
        }


def plan_tag(path: str | os.PathLike[str], environ: Mapping[str, str]) -> TagResult:
    """The tag `path`'s plugin would get, or the refusal; see the module docstring."""
    start = Path(os.path.abspath(path))
    loaded = _loaded(start)
    if isinstance(loaded, TagResult):
        return loaded
    plugin, manifest = loaded
    real = os.path.realpath(plugin.root)
    findings: list[Finding] = []
    listing: list[tuple[Path, str | None]] = []  # catalogue file, the entry's version
    for folder in _folders(start):
        found, _ = agreement(folder)
        findings += [f for f in found if _about(f, real, plugin.name)]
        listing += _listing(folder, real, plugin.name)
    if findings:
        said = [f.diagnostic for f in findings]
        message = (
            f"the catalogues and {plugin.name}'s {manifest} disagree "
            f"({len(said)} finding{'s' if len(said) != 1 else ''}); nothing is tagged"
        )
        return _refused(*said, diagnostic("tag.catalogue.disagree", message, start))
    version, version_from = plugin.version, manifest
    if version is None:
        given = next(((p, v) for p, v in listing if v is not None), None)
        if given is None:
            message = (
                f"{plugin.name} has no version to tag: its {manifest} and its entries give none"
            )
            hint = f"set `version` in {manifest}"
            return _refused(diagnostic("tag.version.missing", message, start, hint=hint))
        version, version_from = given[1], _rel_file(given[0])
    return _checked(plugin.name, manifest, version, version_from, Path(real), listing, environ)


def _loaded(start: Path) -> tuple[Plugin, str] | TagResult:
    """The plugin at `start` and its manifest (relative to it), or the refusal: not a
    plugin, loaded with an error, or a manifest that gives no name."""
    if not is_plugin_dir(start):
        message = f"{start.name or start} is not a plugin folder"
        return _refused(diagnostic("tag.plugin.missing", message, start))
    plugin, said = read_plugin(start)
    errors = [d for d in (*said, *(plugin.diagnostics if plugin else ())) if d.severity == "error"]
    if plugin is None or errors:
        message = f"{start.name} does not load as a plugin without errors; nothing is tagged"
        return _refused(*dict.fromkeys(errors), diagnostic("tag.plugin.invalid", message, start))
    manifest = manifest_file(plugin)
    if manifest is None or not plugin.manifest.get("name"):
        message = f"{start.name}'s {manifest or 'folder'} gives no `name` to tag"
        hint = "set `name` in the plugin's manifest"
        return _refused(diagnostic("tag.plugin.invalid", message, start, hint=hint))
    return plugin, manifest


def _checked(
    name: str,
    manifest: str,
    version: str,
    version_from: str,
    root: Path,
    listing: list[tuple[Path, str | None]],
    environ: Mapping[str, str],
) -> TagResult:
    if _SEMVER.match(version) is None:
        message = f"version {version!r} is not a semantic version (major.minor.patch)"
        return _refused(diagnostic("tag.version.invalid", message, root))
    tag = f"{name}--v{version}"
    repo = open_repo(root, environ)
    if repo is None:
        message = f"{root.name} is not in a git work tree with a commit"
        return _refused(diagnostic("tag.repository.missing", message, root))
    if repo.git("check-ref-format", f"refs/tags/{tag}", may_fail=True) is None:
        message = f"{tag!r} is not a valid git tag name"
        return _refused(diagnostic("tag.name.invalid", message, root))
    folder = _git_path(root, repo.top)
    paths = list(dict.fromkeys([folder, *(_git_path(p, repo.top) for p, _ in listing)]))
    head = committed(repo, "HEAD", *paths)
    work = working(repo, environ, *paths)
    ignored = repo.git(
        "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", folder
    )  # fmt: skip
    if head is None or work is None or ignored is None:
        why = repo.problem or f"the files pass {MAX_FILES:,} or {MAX_BYTES >> 20} MiB"
        message = f"whether uncommitted changes affect this release is not known: {why}"
        return _refused(diagnostic("tag.tree.dirty", message, root))
    kept = posixpath.normpath(posixpath.join(folder, manifest))
    if kept not in head:
        message = f"{name}'s manifest {kept} is not in HEAD, so the tag would not hold the plugin"
        hint = "commit the plugin (a .gitignore that names its folder keeps it out)"
        return _refused(diagnostic("tag.plugin.uncommitted", message, root, hint=hint))
    differ = changed(head, work)
    if differ:
        message = f"uncommitted changes affect this release: {_shown(differ)}"
        hint = "commit them first, so that the tag names the version released"
        return _refused(diagnostic("tag.tree.dirty", message, root, hint=hint))
    if _exists(repo, tag):
        message = f"tag {tag} already exists"
        hint = f"bump the version in {version_from}"
        return _refused(diagnostic("tag.exists", message, root, hint=hint))
    catalogues = tuple(dict.fromkeys(os.path.relpath(p, repo.top) for p, _ in listing))
    notes = _notes(root, sorted(p for p, e in work.items() if e == UNKNOWN), ignored)
    plan = TagPlan(
        name, version, version_from, tag, f"{name} {version}", root, repo.top, catalogues, notes
    )
    return TagResult(plan, notes)


def _notes(root: Path, unknown: list[str], ignored: str) -> tuple[Diagnostic, ...]:
    """The warnings of a plan: files whose content is not compared (git stores them
    through a filter or an encoding), files git ignores below the plugin's folder."""
    said = []
    if unknown:
        message = (
            "whether these files changed is not checked, as git stores them through a "
            f"filter or an encoding: {_shown(unknown)}"
        )
        hint = "satchel runs no filter of the repository's; commit them before tagging"
        said.append(diagnostic("tag.tree.unchecked", message, root, hint=hint))
    left = [n for n in ignored.split("\0") if n]
    if left:
        message = f"files git ignores below {root.name} are not in the release: {_shown(left)}"
        said.append(diagnostic("tag.tree.ignored", message, root))
    return tuple(said)


def _shown(paths: list[str]) -> str:
    return ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")


def _git_path(path: Path, top: Path) -> str:
    """`path` relative to the work tree's `top`, in git's form (``.`` at the top)."""
    return os.path.relpath(path, top).replace(os.sep, "/")


def create_tag(
    plan: TagPlan, environ: Mapping[str, str], *, push: bool = False, remote: str = "origin"
) -> TagResult:
    """Create `plan`'s annotated tag at HEAD and, with `push`, push it to `remote`."""
    if push and _REMOTE.match(remote) is None:
        message = f"{remote!r} is not a remote name; nothing is tagged"
        return TagResult(plan, (*plan.notes, diagnostic("tag.git.failed", message, plan.root)))
    env = {**config_env(environ), **{k: environ[k] for k in _PASSED_ON if k in environ}}
    env["GIT_TERMINAL_PROMPT"] = "0"
    base = ["git", "-c", "core.hooksPath=/dev/null", "-c", "tag.gpgSign=false"]
    made = run_process(
        [*base, "tag", "-a", "-m", plan.message, "--", plan.tag, "HEAD"],
        cwd=plan.top, env=env, timeout=GIT_DEADLINE,
    )  # fmt: skip
    if not made.ok:
        message = f"git tag failed: {_last_line(made.stderr)}"
        return TagResult(plan, (*plan.notes, diagnostic("tag.git.failed", message, plan.root)))
    if not push:
        return TagResult(plan, plan.notes, created=True)
    sent = run_process(
        [*base, "push", remote, f"refs/tags/{plan.tag}"],
        cwd=plan.top,
        env=env,
        timeout=GIT_DEADLINE,
    )
    if not sent.ok:
        message = f"tag {plan.tag} was created, but git push failed: {_last_line(sent.stderr)}"
        return TagResult(
            plan, (*plan.notes, diagnostic("tag.git.failed", message, plan.root)), created=True
        )
    return TagResult(plan, plan.notes, created=True, pushed=True)


def _refused(*said: Diagnostic) -> TagResult:
    return TagResult(None, said)


def _folders(start: Path) -> Iterator[Path]:
    """`start`, then each folder above it up to the work tree's top; only `start`
    when no ``.git`` is found within `MAX_LEVELS`."""
    chain = [start, *start.parents][: MAX_LEVELS + 1]
    top = next((i for i, p in enumerate(chain) if os.path.lexists(p / ".git")), 0)
    yield from chain[: top + 1]


def _about(finding: Finding, real: str, name: str) -> bool:
    return finding.folder == real or (finding.folder is None and finding.name == name)


def _listing(folder: Path, real: str, name: str) -> list[tuple[Path, str | None]]:
    """The catalogue files at `folder` that list the plugin (by a relative source to
    its folder, or by its name from elsewhere), each with the entry's version."""
    found = []
    for catalogue in catalogues_at(folder)[0]:
        for entry in catalogue.entries:
            source = entry.source
            if source.kind == "path" and source.path is not None:
                listed = os.path.realpath(catalogue.root / source.path) == real
            else:
                listed = entry.name == name
            if listed:
                found.append((catalogue.path, entry.version))
    return found


def _rel_file(path: Path) -> str:
    return next(
        (rel for rel in CATALOGUE_FILES.values() if path.as_posix().endswith(rel)), path.name
    )


def _exists(repo: Repo, tag: str) -> bool:
    out = repo.git("for-each-ref", "--format=%(refname)", f"refs/tags/{tag}")
    return (out or "").strip() == f"refs/tags/{tag}"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"
