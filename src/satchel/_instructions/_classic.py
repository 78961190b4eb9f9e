"""The two modes satchel had first: ``satchel`` (AGENTS.md, else a Claude file, the
client's own file last) and ``codex`` (Codex's walk and its 32 KiB cap). What each
reads is in the package docstring and in `MODES`."""

from __future__ import annotations

from pathlib import Path

from satchel._files import same_file
from satchel._instructions._model import Kind, Scope
from satchel._instructions._read import AGENTS, CLAUDE, Loader, boundary, client_file, project_dirs
from satchel.diagnostics import diagnostic

OVERRIDE = "AGENTS.override.md"
_CODEX: tuple[tuple[str, Kind], ...] = ((OVERRIDE, "override"), (AGENTS, "agents"))


def satchel_mode(loader: Loader, trust_project: bool) -> None:
    user = loader.layout.config_home / loader.layout.client
    levels: list[tuple[Scope, Path, tuple[Path, ...]]] = [
        ("user", user, (user / CLAUDE, loader.layout.home / ".claude" / CLAUDE))
    ]
    own = client_file(loader.layout.client)
    loader.user_paths = {user / AGENTS, *levels[0][2], *([user / own] if own else [])}
    if trust_project:
        levels += [
            ("project", d, (d / CLAUDE, d / ".claude" / CLAUDE))
            for d in project_dirs(loader.layout, loader.layout.ancestors)
        ]
    for scope, directory, claudes in levels:
        _agents_or_claude(loader, scope, directory / AGENTS, claudes)
    if own is not None:
        for scope, directory, _ in levels:
            loader.load(directory / own, scope, "client")


def _agents_or_claude(
    loader: Loader, scope: Scope, agents: Path, claudes: tuple[Path, ...]
) -> None:
    if loader.load(agents, scope, "agents"):
        skipped = next((c for c in claudes if loader.exists(c, scope)), None)
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
    for claude in claudes:
        if loader.load(claude, scope, "claude"):
            return


def codex_mode(
    loader: Loader, trust_project: bool, max_total: int, fallback: tuple[str, ...] = ()
) -> None:
    """Codex's files: `fallback` names the project files read in a folder that holds
    neither AGENTS.override.md nor AGENTS.md (Codex's ``project_doc_fallback_filenames``,
    first found wins); `max_total` caps the project's files (``project_doc_max_bytes``:
    0 reads none)."""
    names = (*_CODEX, *((n, "agents") for n in fallback if n not in (OVERRIDE, AGENTS)))
    codex = loader.layout.home / ".codex"
    loader.user_paths = {codex / OVERRIDE, codex / AGENTS}
    for name, kind in _CODEX:
        text = loader.read(codex / name, "user")
        if text is not None and loader.add(codex / name, "user", kind, text):
            break
    if not trust_project or max_total <= 0:
        return
    dirs = project_dirs(loader.layout, walk=True)
    budget = max_total
    for i, directory in enumerate(dirs):
        for name, kind in names:
            path = directory / name
            if budget == 0 and loader.exists(path, "project"):
                return _truncated(loader, max_total, path, None, dirs[i:], names)
            text = loader.read(path, "project")
            if text is None:
                continue
            data = text.encode("utf-8")
            if len(data) > budget:
                kept = boundary(data, budget)
                loader.add(path, "project", kind, data[:kept].decode("utf-8"), cut=True)
                return _truncated(loader, max_total, path, (kept, len(data)), dirs[i + 1 :], names)
            if loader.add(path, "project", kind, text):
                budget -= len(data)
            break


def _truncated(
    loader: Loader,
    cap: int,
    path: Path,
    cut: tuple[int, int] | None,
    later: list[Path],
    names: tuple[tuple[str, Kind], ...] = _CODEX,
) -> None:
    """Report the cap: what was cut from `path`, and the files in `later` not read."""
    parts = []
    if cut is not None:
        kept, size = cut
        left = size - kept
        parts.append(
            f"{loader.label(path, 'project')} was cut after {kept} of {size} bytes "
            f"({left} left out)"
        )
    unread = [loader.label(p, "project") for d in later if (p := _codex_file(loader, d, names))]
    if unread:
        files = "file" if len(unread) == 1 else "files"
        parts.append(f"{len(unread)} later {files} not read: {', '.join(unread)}")
    if parts:
        verb = "reached" if cut is None else "passed"
        message = f"instruction files {verb} the {cap}-byte cap: {'; '.join(parts)}"
        loader.diags.append(diagnostic("instructions.truncated", message, path))


def _codex_file(
    loader: Loader, directory: Path, names: tuple[tuple[str, Kind], ...]
) -> Path | None:
    return next((directory / n for n, _ in names if loader.exists(directory / n, "project")), None)
