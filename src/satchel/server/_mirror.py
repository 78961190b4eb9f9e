"""A Skills-extension server as a gateway source: its skills fetched when the gateway
starts, each file verified, and kept in a private directory served as a skills root.

A ``[sources.<label>]`` table of kind ``mcp`` names the server as a
``[skill_servers.<label>]`` table does (`satchel.mcp._served.server_from_table`:
``command`` and ``args``, or ``url``)::

    [sources.docs]
    kind = "mcp"
    command = "docs-skills-server"
    args = ["--root", "skills"]

`mirror` lists the server (``skills/list``), reads every file of every skill
(``resources/read``) and checks each against its manifest's size and digest
(`satchel.mcp._skills_client.fetch_listed`), then writes the files below
``<into>/<label>/<name>/``. The gateway serves that directory as one more skills root,
after the layout's, under the source's label, so the host profile's precedence, the
filter and every path rule apply to these skills as to any other; the files it serves
have the bytes, and so the digests, the server published. The copy is taken once per
process (each worker takes its own): a server's later changes are served after a
restart. A server that cannot be reached, or whose files are not what its manifest
says, is reported (``mcp.skills.*``) and serves nothing; two listed skills of one
name keep the first (``mcp.gateway.source.duplicate``); a skill whose files cannot be
written there (a file and a directory of one name) is not served, nothing of it kept
(``mcp.gateway.source.unwritable``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.mcp._skills_client import SkillServer, SkillsFailed, fetch_listed

__all__ = ["DUPLICATE", "UNWRITABLE", "mirror"]

DUPLICATE = "mcp.gateway.source.duplicate"
UNWRITABLE = "mcp.gateway.source.unwritable"


def mirror(server: SkillServer, into: Path) -> tuple[Path | None, list[Diagnostic]]:
    """Fetch every skill `server` lists into ``<into>/<label>``: that root (None when
    it cannot be made), and what went wrong (nothing is written for a server that
    failed)."""
    root = into / server.label
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        message = f"the skills of server {server.label!r} cannot be kept in {root}: {e.strerror}"
        return None, [diagnostic(UNWRITABLE, message)]
    try:
        skills, notes, files = fetch_listed(server)
    except SkillsFailed as e:
        return root, [e.diagnostic]
    found = list(notes)
    taken: set[str] = set()
    for skill in skills:
        if skill.name in taken:
            message = (
                f"skill server {server.label!r} lists two skills named {skill.name!r}; "
                f"{skill.uri} is not served"
            )
            found.append(diagnostic(DUPLICATE, message, severity="warning"))
            continue
        taken.add(skill.name)
        try:
            _write(root / skill.name, files[skill.path])
        except OSError as e:
            shutil.rmtree(root / skill.name, ignore_errors=True)  # never a part of a skill
            message = f"skill {skill.uri} of server {server.label!r} cannot be kept: {e.strerror}"
            found.append(diagnostic(UNWRITABLE, message))
    return root, found


def _write(directory: Path, files: dict[str, bytes]) -> None:
    """Each file below `directory` (its path was checked to stay inside the skill)."""
    for rel, data in files.items():
        target = directory.joinpath(*rel.split("/"))
        target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
