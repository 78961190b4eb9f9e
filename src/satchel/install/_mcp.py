"""Installing and browsing from an MCP server that serves the Skills extension.

``mcp+stdio:COMMAND ARGS...`` starts the command (the user's own command line, in the
current directory, with satchel's scrubbed environment) and ``mcp+https://URL`` connects
over streamable HTTP; `satchel.mcp._skills_client` speaks the extension
(``io.modelcontextprotocol/skills``, SEP-2640) and verifies every file.

- Browsing reads ``skills/list`` only: no file is fetched (the extension's *Lazy
  Retrieval*). Each skill is listed with its ``<skill-path>`` as its folder, so two skills
  of one server that share a name (``acme/refunds``, ``beta/refunds``) stay apart and
  are picked by path (the extension's *Names*: never one silently preferred).
- Installing fetches each listed skill's files with ``resources/read`` into the
  staging tree at ``<skill-path>/<file>``, each checked against its manifest's size and
  sha256 digest, ``SKILL.md`` first, its frontmatter compared with the entry's before
  any other file of the skill is read; one file that is not what the manifest says
  refuses the install (``mcp.skills.mismatch``, naming the file), and nothing is
  written. Dynamic skills (``"resources": "dynamic"``) have nothing to verify and are
  declined (``mcp.skills.dynamic``).
- Every path the server gives (a skill's ``<skill-path>``, each file's path) is judged
  by the archive extractor's rule when the listing is read (``mcp.skills.path``). A
  server that gives one that would leave the staging tree is not trusted with any
  skill: the install is refused before any file is read, as an archive with one such
  entry is, and nothing is written.
- The lock entry's ``source`` is the server (``mcp+stdio:...`` or ``mcp+https://...``)
  and its ``resolved`` is the skill's manifest digest (`RemoteSkill.digest`: sha256
  over the sorted ``<path> <digest> <size>`` lines of its files), so ``satchel update``
  re-lists the server and reinstalls a skill whose manifest changed.

An installed skill is a copy the user chose to install, like one from git: it loads as
a local skill from then on, and the lock keeps where it came from.

A project's ``skills.lock`` is the project's: a ``mcp+stdio:`` command it records is
run by ``satchel update`` and ``satchel install --frozen`` only when the project is
trusted (`check_locked`; ``install.source.untrusted`` otherwise), as a project's own
MCP servers start only in a trusted project.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from satchel.core.diagnostics import Diagnostic
from satchel.core.layout import PROJECT, Layout
from satchel.install._errors import InstallError, refuse
from satchel.install._fetched import Fetched
from satchel.install._scope import Scope
from satchel.install._sources import Source
from satchel.mcp._skills_client import (
    RemoteSkill,
    SkillServer,
    SkillsFailed,
    fetch_listed,
    list_skills,
)
from satchel.trust._trust import read_trust

__all__ = ["check_locked", "fetch_mcp", "listed_mcp", "server_of"]


def server_of(source: Source, *, timeout: float = 60.0) -> SkillServer:
    """The skill server an ``mcp`` source names, labelled by its spec."""
    if source.location.startswith("stdio:"):
        argv = tuple(shlex.split(source.location[len("stdio:") :]))
        return SkillServer(source.spec(), command=argv, cwd=Path.cwd(), timeout=timeout)
    return SkillServer(source.spec(), url=source.location, timeout=timeout)


def check_locked(source: Source, where: Scope, layout: Layout) -> None:
    """Refuse a ``mcp+stdio:`` source of a project lock in a project not trusted."""
    if source.kind != "mcp" or not source.location.startswith("stdio:"):
        return
    if where.name != PROJECT or read_trust(layout).trusting(layout.project) is not None:
        return
    message = (
        f"{where.lock_path} names the command {source.location[len('stdio:') :]!r}, and the "
        f"project {layout.project} is not trusted"
    )
    hint = f"review it, then run satchel trust {layout.project}"
    raise refuse("install.source.untrusted", message, where.lock_path, hint=hint)


def listed_mcp(source: Source) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...]]:
    """The server's skills (``skills/list`` only); `InstallError` when it fails."""
    try:
        return list_skills(server_of(source))
    except SkillsFailed as e:
        raise InstallError(e.diagnostic) from None


def fetch_mcp(source: Source, work: Path) -> Fetched:
    """Every listed skill's files, verified, in ``work/tree/<skill-path>/``; `pins`
    maps each skill's folder to its manifest digest."""
    server = server_of(source)
    tree = work / "tree"
    tree.mkdir()
    try:
        skills, notes, files = fetch_listed(server, whole=True)
    except SkillsFailed as e:
        raise InstallError(e.diagnostic) from None
    for skill in skills:
        _write(tree, skill, files[skill.path])
    pins = {s.path: s.digest for s in skills}
    return Fetched(tree, None, None, notes, pins)


def _write(tree: Path, skill: RemoteSkill, files: dict[str, bytes]) -> None:
    """The verified `files` below ``tree/<skill-path>``; every path was judged by the
    archive extractor's rule when the entry was read (`_skills_client`). A nested skill's
    files are also its enclosing skill's (the extension's *Nested Skills*): a file
    already written with the same bytes is left as it is; other bytes refuse."""
    base = tree.joinpath(*skill.path.split("/"))
    for rel, data in files.items():
        target = base.joinpath(*rel.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except FileExistsError:
            if target.is_file() and not target.is_symlink() and target.read_bytes() == data:
                continue
            why = f"{rel} differs from the same file of another skill of the server"
            message = f"skill {skill.name!r} ({skill.uri}) of server {skill.server!r}: {why}"
            raise refuse("mcp.skills.mismatch", message) from None
        with os.fdopen(fd, "wb") as out:
            out.write(data)
