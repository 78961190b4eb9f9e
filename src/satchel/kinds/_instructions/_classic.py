"""The two readers of a single file a folder: ``agents-else-claude`` (satchel's
rule: AGENTS.md, else a Claude file, the client's own file last) and ``first-file``
(Codex's: the first file that reads, the project's sharing a cap). Which files each
reads is the rule's (`satchel.hosts.InstructionRule`); the package docstring says
what each does."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from satchel.core._files import same_file
from satchel.core.diagnostics import diagnostic
from satchel.hosts._instructions import InstructionRule, InstructionSource
from satchel.kinds._instructions._hosts import places, user_files, user_folder, walk_dirs
from satchel.kinds._instructions._model import Kind, Scope
from satchel.kinds._instructions._read import Loader, boundary, normal

_OWN: Kind = "client"  # the client's own file, read after every level


def agents_else_claude(
    loader: Loader,
    rule: InstructionRule,
    trust_project: bool,
    names: Sequence[str],
    max_total: int,
) -> None:
    """At each level the first source (AGENTS.md), else the first of the others that
    reads; the client's own file of every level last."""
    user = user_folder(loader.layout, rule)
    levels: list[tuple[Scope, Path, tuple[InstructionSource, ...]]] = []
    if user is not None:
        levels.append(("user", user, rule.user))
        loader.user_paths = user_files(loader, rule, names)
    if trust_project:
        levels += [("project", d, rule.project) for d in walk_dirs(loader, rule)]
    for scope, directory, sources in levels:
        first, *rest = [
            (p, s.kind)
            for s in sources
            if s.kind != _OWN
            for p in places(loader, s, directory, names)
        ]
        _agents_or_claude(loader, scope, first, tuple(rest))
    for scope, directory, sources in levels:
        for source in sources:
            if source.kind == _OWN:
                for path in places(loader, source, directory, names):
                    loader.load(path, scope, _OWN)


def _agents_or_claude(
    loader: Loader,
    scope: Scope,
    first: tuple[Path, Kind],
    others: tuple[tuple[Path, Kind], ...],
) -> None:
    agents, kind = first
    if loader.load(agents, scope, kind):
        skipped = next((c for c, _ in others if loader.exists(c, scope)), None)
        if skipped is not None and not same_file(skipped, agents):
            loader.diags.append(
                diagnostic(
                    "instructions.replaced",
                    f"{loader.label(skipped, scope)} was not read because "
                    f"{loader.label(agents, scope)} is there",
                    skipped,
                    hint="AGENTS.md is read in its place; keep the two in step",
                )
            )
        return
    for claude, other in others:
        if loader.load(claude, scope, other):
            return


def first_file(
    loader: Loader,
    rule: InstructionRule,
    trust_project: bool,
    names: Sequence[str],
    max_total: int,
) -> None:
    """In the user's folder and in each project folder, the first source that reads
    (`InstructionRule.skip_empty_user`: in the user's, the first that is not empty);
    the project's files share `max_total` bytes."""
    user = user_folder(loader.layout, rule)
    if user is not None:
        loader.user_paths = user_files(loader, rule, names)
        for path, kind in _candidates(loader, rule.user, user, names):
            text = loader.read(path, "user")
            if text is None:
                continue
            if loader.add(path, "user", kind, text) or not rule.skip_empty_user:
                break
    if not trust_project or max_total <= 0:  # a cap of 0 reads no project file
        return
    dirs = walk_dirs(loader, rule)
    budget = max_total
    for i, directory in enumerate(dirs):
        for path, kind in _candidates(loader, rule.project, directory, names):
            if budget == 0 and loader.exists(path, "project"):
                unread = later_files(loader, rule, dirs[i:], names)
                return _truncated(loader, max_total, path, None, unread)
            text = loader.read(path, "project")
            if text is None:
                continue
            data = loader.raw.get(path, b"") if text else b""  # the cap counts raw bytes
            if len(data) > budget:
                kept = boundary(data, budget)
                part = normal(data[:kept]) or ""
                loader.add(path, "project", kind, part, cut=True, size=kept)
                later = later_files(loader, rule, dirs[i + 1 :], names)
                return _truncated(loader, max_total, path, (kept, len(data)), later)
            if loader.add(path, "project", kind, text, size=len(data)):
                budget -= len(data)
            break


def _candidates(
    loader: Loader, sources: Sequence[InstructionSource], folder: Path, names: Sequence[str]
) -> list[tuple[Path, Kind]]:
    return [(p, s.kind) for s in sources for p in places(loader, s, folder, names)]


def later_files(
    loader: Loader, rule: InstructionRule, dirs: Sequence[Path], names: Sequence[str]
) -> list[Path]:
    """The file each of `dirs` would have given: the first of the rule's there."""
    found = []
    for d in dirs:
        there = [p for p, _ in _candidates(loader, rule.project, d, names)]
        found += [p for p in there if loader.exists(p, "project")][:1]
    return found


def _truncated(
    loader: Loader, cap: int, path: Path, cut: tuple[int, int] | None, unread: list[Path]
) -> None:
    """Report the cap: what was cut from `path`, and the `unread` files."""
    parts = []
    if cut is not None:
        kept, size = cut
        left = size - kept
        parts.append(
            f"{loader.label(path, 'project')} was cut after {kept} of {size} bytes "
            f"({left} left out)"
        )
    labels = [loader.label(p, "project") for p in unread]
    if labels:
        files = "file" if len(labels) == 1 else "files"
        parts.append(f"{len(labels)} later {files} not read: {', '.join(labels)}")
    if parts:
        verb = "reached" if cut is None else "passed"
        message = f"instruction files {verb} the {cap}-byte cap: {'; '.join(parts)}"
        loader.diags.append(diagnostic("instructions.truncated", message, path))
