"""Content-bound approval of a project's served skills (the Skills extension's
*Security Considerations*: "When a host persists any per-skill user approval, it MUST
be bound to the entry's `resources` set (every `uri` and `digest`) observed at the
moment of approval"; a different set "MUST" be treated as revoked and asked again).

`satchel trust` pins a project's executable items (`satchel.trust._approval`); the skills a
server of the project's own ``[skill_servers]`` lists are pinned with them, one pin per
file of each skill's manifest: ``served ["<label>", "<skill uri>", "<file uri>"]`` ->
the file's ``sha256:`` digest, so the pins of one skill are its whole set of (URI,
digest). At each load of that folder a served skill whose set is not the pinned one (a
file rotated, added or removed), or that has no pins (new since the trust), is held
back: it is not loaded, and ``mcp.skills.changed`` names the skill, its server and each
file that changed, until `satchel trust` approves the set again. Each such server's
declaration (``skill-server <label>``: its command, args, cwd, env, URL, headers and
named skills) is pinned too, as a project MCP server's is: a server whose declaration
changed, or that is new since the trust, is not started (``trust.changed``), so its
command does not run before it is approved. Servers the user
configures, or the host passes to ``load()``, are the user's own, as the user's MCP
servers are: nothing of theirs is pinned.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.origin import Pins
from satchel.mcp._served import ServedSkill
from satchel.mcp._skill_server import SkillServer
from satchel.skills import Skill

if TYPE_CHECKING:
    from satchel.mcp._skills_client import RemoteSkill

__all__ = ["SERVED", "SERVER", "held_served", "held_servers", "served_key", "served_pins"]

SERVED = "served"
SERVER = "skill-server"


def served_key(label: str, skill: str, file: str) -> str:
    """How the file `file` of the skill `skill` (URIs) of server `label` is pinned."""
    return f"{SERVED} {json.dumps([label, skill, file])}"


def served_pins(skills: Iterable[Skill]) -> dict[str, str]:
    """Key -> digest of each file of every skill a project's server serves, and of
    the declaration of each such server."""
    found: dict[str, str] = {}
    for s, remote in _project(skills):
        assert s.server is not None
        found[f"{SERVER} {s.server.label}"] = _declared(s.server)
        for f in remote.files:
            found[served_key(remote.server, remote.uri, f.uri)] = f.digest
    return found


def held_servers(
    servers: Sequence[SkillServer], pins: Pins | None
) -> tuple[tuple[SkillServer, ...], tuple[Diagnostic, ...]]:
    """`servers` without the project's whose declaration is not the one pinned (none
    held without `pins`), and a ``trust.changed`` for each one held back."""
    if pins is None:
        return tuple(servers), ()
    kept: list[SkillServer] = []
    found: list[Diagnostic] = []
    for server in servers:
        key = f"{SERVER} {server.label}"
        if not server.project or pins.approved.get(key) == _declared(server):
            kept.append(server)
            continue
        what = "changed" if key in pins.approved else "is new"
        message = (
            f"{key} {what} since {pins.folder} was trusted; it does not run until "
            f"`satchel trust {pins.folder}` approves it again"
        )
        found.append(diagnostic("trust.changed", message))
    return tuple(kept), tuple(found)


def _declared(server: SkillServer) -> str:
    """The sha256 of how the project declares `server`."""
    import hashlib  # only when a project declares a skill server

    declared = {
        "command": list(server.command),
        "url": server.url,
        "cwd": None if server.cwd is None else str(server.cwd),
        "env": dict(sorted(server.env.items())),
        "headers": dict(sorted(server.headers.items())),
        "skills": list(server.references),
    }
    text = json.dumps(declared, sort_keys=True)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def held_served(
    skills: Iterable[Skill], approved: Mapping[str, str], folder: Path
) -> tuple[frozenset[str], tuple[Diagnostic, ...]]:
    """The names of the project's served skills whose (URI, digest) set is not the one
    pinned in `approved` when `folder` was trusted, and why each is held back."""
    pinned: dict[tuple[str, str], dict[str, str]] = {}
    for key, digest in approved.items():
        if key.startswith(f"{SERVED} "):
            label, skill, file = json.loads(key[len(SERVED) + 1 :])
            pinned.setdefault((label, skill), {})[file] = digest
    held: list[str] = []
    found: list[Diagnostic] = []
    for s, remote in _project(skills):
        now = {f.uri: f.digest for f in remote.files}
        before = pinned.get((remote.server, remote.uri))
        if before == now:
            continue
        held.append(s.name)
        found.append(_changed(s.name, remote, before, now, folder))
    return frozenset(held), tuple(found)


def _project(skills: Iterable[Skill]) -> Iterator[tuple[ServedSkill, RemoteSkill]]:
    """Each skill a server of the project's own config serves, with its entry."""
    for s in skills:
        if isinstance(s, ServedSkill) and s.server is not None and s.server.project:
            assert s.remote is not None
            yield s, s.remote


def _changed(
    name: str,
    remote: RemoteSkill,
    before: Mapping[str, str] | None,
    now: Mapping[str, str],
    folder: Path,
) -> Diagnostic:
    what = f"skill {name!r} ({remote.uri}) of server {remote.server!r}"
    again = f"it does not load until `satchel trust {folder}` approves it again"
    if before is None:
        message = f"{what} is new since {folder} was trusted; {again}"
        return diagnostic("mcp.skills.changed", message)
    rows = [f"{u} changed" for u in sorted(now) if u in before and before[u] != now[u]]
    rows += [f"{u} added" for u in sorted(now) if u not in before]
    rows += [f"{u} removed" for u in sorted(before) if u not in now]
    message = f"{what} changed since {folder} was trusted: {', '.join(rows)}; {again}"
    return diagnostic("mcp.skills.changed", message)
