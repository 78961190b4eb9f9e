"""Live skills from Skills-extension servers: ``[skill_servers.<label>]`` and
``load(skill_servers=...)``.

A host names each server with a label of its own (the extension's *Skill URIs*: "the
identity of an MCP-served skill is ... the pair of the host's identity for the
originating server and the skill's `uri`")::

    [skill_servers.docs]
    command = "docs-skills-server"      # stdio: command and args, as [mcp_servers]
    args = ["--root", "skills"]
    cwd = "tools"                       # relative: to the project root
    env = { DOCS_TOKEN = "..." }

    [skill_servers.remote]
    url = "https://skills.example.com/mcp"   # streamable HTTP (http:// for loopback only)
    headers = { Authorization = "Bearer ..." }
    skills = ["skill://acme/refunds/SKILL.md"]  # named by URI: confirmed with skills/get

From, highest precedence first: the tables the host passes, the project's
``.satchel/config.toml`` (only when the project is trusted to run things, as for
``[mcp_servers]``: a project's server starts nothing otherwise), and the user's
``config.toml``. A label given twice counts once (the first).

`served_skills` lists each server with ``skills/list`` and reads no file (*Lazy
Retrieval*); each URI of ``skills`` the listing does not hold is an explicit reference
the host confirms with ``skills/get`` (*Resource Mapping*: "from an explicit reference
... that the host confirms with `skills/get`"), loaded like a listed one, or reported
(``mcp.skills.unknown``, with the server's error) when the server serves no skill
there. Each skill becomes a `ServedSkill` named ``<label>:<name>`` (the
extension's *Names*: names resolve within a per-origin namespace, by the host's
label), or ``<label>:<skill-path>`` when two entries of one listing share the name;
its origin is scope ``mcp`` with the label as family and namespace. A served skill's
bare name that is also a local skill's (a plugin's ``<plugin>:<name>`` counts by its
``<name>``), or another server's, is reported (``mcp.skills.shadowed``); nothing is
hidden, and no served skill takes another's name: where a local skill already holds
``<label>:<name>`` (a plugin named like the label), the served one is
``mcp:<label>:<name>``, reported with the same code.

`ServedSkill.body()` fetches ``SKILL.md`` on activation and verifies its size, digest
and frontmatter against the entry; anything else is `SkillBodyError`
(``mcp.skills.mismatch``). `ServedSkill.file()` does the same for one other file of
the manifest, when the model reads it (``load_skill`` with ``resource``,
``skills_read``): a path the manifest does not list is ``resource.missing``.
``allowed-tools`` and every field beyond the name, description, license and metadata
are ignored (*Security Considerations*: "the Agent Skills `allowed-tools` field MUST
be ignored for MCP-origin skills unless the user has
explicitly approved that grant").
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.errors import ResourceError, SkillBodyError
from satchel.core.layout import Layout
from satchel.foundations import frontmatter
from satchel.foundations._config import config_files, read_config
from satchel.foundations._net import is_loopback
from satchel.foundations.origin import Origin
from satchel.foundations.precedence import fold_name
from satchel.mcp._skill_server import SkillServer
from satchel.skills import Skill

if TYPE_CHECKING:
    from satchel.mcp._skills_client import RemoteSkill

__all__ = ["SECTION", "ServedSkill", "server_from_table", "served_skills", "skill_servers"]

SECTION = "skill_servers"
INVALID = "config.skill_servers.invalid"


@model(eq=False)
class ServedSkill(Skill):
    """A skill a skills server lists: metadata from its entry; `body()` fetches and
    verifies ``SKILL.md`` from `server` when the skill is activated."""

    server: SkillServer | None = None
    remote: RemoteSkill | None = None

    def body(self) -> str:
        """The body of the server's ``SKILL.md``, fetched now and verified."""
        from satchel.mcp._skills_client import SkillsFailed, fetch_files

        assert self.server is not None and self.remote is not None
        try:
            data = fetch_files(self.server, self.remote, ["SKILL.md"])["SKILL.md"]
        except SkillsFailed as e:
            raise SkillBodyError(e.diagnostic) from None
        where = frontmatter.locate(data, complete=True)
        return frontmatter.decode_body(data, where.body_start) if where.status == "ok" else ""

    def file(self, rel: str, cap: int) -> bytes:
        """The bytes of the file `rel` of the skill's manifest (a path relative to the
        skill, ``./`` allowed), fetched now and verified against its size and digest;
        raise `ResourceError` for a file the manifest does not list or one over `cap`
        bytes, `SkillBodyError` when the server does not give what it promised."""
        from satchel.mcp._skills_client import SkillsFailed, fetch_files

        assert self.server is not None and self.remote is not None
        wanted = rel.removeprefix("./")
        listed = next((f for f in self.remote.files if f.rel == wanted), None)
        if listed is None:
            server = self.server.label
            message = f"{rel!r} is not a file of skill {self.name!r} on server {server!r}"
            raise ResourceError(diagnostic("resource.missing", message))
        if listed.size > cap:
            message = f"{rel!r} is {listed.size:,} bytes, over the cap of {cap:,} bytes"
            raise ResourceError(diagnostic("resource.too-large", message))
        try:
            return fetch_files(self.server, self.remote, [wanted])[wanted]
        except SkillsFailed as e:
            raise SkillBodyError(e.diagnostic) from None


def skill_servers(
    layout: Layout, *, given: Mapping[str, Any], trust_project: bool
) -> tuple[tuple[SkillServer, ...], list[Diagnostic]]:
    """Every configured skill server, highest precedence first, each label once."""
    found: dict[str, SkillServer] = {}
    problems: list[Diagnostic] = []
    user = config_files(layout, trust_project=False)[0]
    for tables, path in _sources(layout, given, trust_project, problems):
        if not isinstance(tables, dict):
            why = f"[{SECTION}] must be a table, not {type_name(tables)}"
            problems.append(diagnostic(INVALID, why, path))
            continue
        for label, entry in tables.items():
            server, why = server_from_table(str(label), entry, layout.project)
            if server is None:
                message = f"skill server {label!r}: {why}; the entry is skipped"
                problems.append(diagnostic(INVALID, message, path))
            elif server.label not in found:
                project = path not in (None, user)
                found[server.label] = replace(server, project=project, client=layout.client)
    return tuple(found.values()), problems


def _sources(
    layout: Layout, given: Mapping[str, Any], trust_project: bool, problems: list[Diagnostic]
) -> Iterator[tuple[Any, Path | None]]:
    if given:
        yield dict(given), None
    user, *project = config_files(layout, trust_project=trust_project)
    for path in (*project, user):
        document = read_config(path, problems)
        if SECTION in document:
            yield document[SECTION], path


def server_from_table(label: str, entry: Any, base: Path) -> tuple[SkillServer | None, str]:
    """The server one ``[skill_servers.<label>]``-shaped table names (a relative
    ``cwd`` read from `base`), or None and why it names none."""
    if not label or ":" in label or "/" in label:
        return None, "a label is a plain name without ':' or '/'"
    if not isinstance(entry, dict):
        return None, f"it must be a table, not {type_name(entry)}"
    url, command, args = entry.get("url"), entry.get("command"), entry.get("args", [])
    env, headers = entry.get("env", {}), entry.get("headers", {})
    if not _strings(env) or not _strings(headers):
        return None, "env and headers are tables of strings"
    references = entry.get("skills", [])
    if not isinstance(references, list) or not all(_skill_uri(u) for u in references):
        return None, "skills is a list of <scheme>://<skill-path>/SKILL.md URIs"
    if isinstance(url, str) and command is None:
        parts = urlsplit(url)
        plain = parts.scheme == "http" and is_loopback(parts.hostname or "")
        if not parts.hostname or (parts.scheme != "https" and not plain):
            return None, "url is an https:// URL (http:// only for a loopback host)"
        return SkillServer(label, url=url, headers=dict(headers), references=tuple(references)), ""
    if not isinstance(command, str) or not command or url is not None:
        return None, "it needs a command (with args) or a url, not both"
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return None, "args is a list of strings"
    cwd = entry.get("cwd", ".")
    if not isinstance(cwd, str):
        return None, "cwd is a string"
    where = Path(os.path.normpath(base / cwd))
    found = SkillServer(label, command=(command, *args), cwd=where, env=dict(env))
    return replace(found, references=tuple(references)), ""


def _skill_uri(value: Any) -> bool:
    return isinstance(value, str) and "://" in value and value.endswith("/SKILL.md")


def _strings(table: Any) -> bool:
    return isinstance(table, dict) and all(isinstance(v, str) for v in table.values())


def served_skills(
    servers: tuple[SkillServer, ...], local: Mapping[str, Skill]
) -> tuple[dict[str, ServedSkill], list[Diagnostic]]:
    """Each server's listed skills, named ``<label>:<name>`` (see the module
    docstring); a clash with a `local` skill or another server's is reported, and a
    name a `local` skill already holds (a plugin's ``<plugin>:<name>``) is never taken:
    the served skill is ``mcp:<label>:<name>`` then."""
    from satchel.mcp._skills_client import SkillsFailed

    out: dict[str, ServedSkill] = {}
    problems: list[Diagnostic] = []
    taken: dict[str, list[Skill]] = {}  # folded bare name -> the local skills holding it
    for skill in local.values():
        taken.setdefault(fold_name(skill.name.rpartition(":")[2]), []).append(skill)
    held = {fold_name(name): skill for name, skill in local.items()}
    seen: dict[str, str] = {}  # folded bare name -> the first server label listing it
    for server in servers:
        try:
            listed, notes = list_of(server)
        except SkillsFailed as e:
            problems.append(e.diagnostic)
            continue
        problems += notes
        counts: dict[str, int] = {}
        for r in listed:
            counts[r.name] = counts.get(r.name, 0) + 1
        for r in listed:
            wanted = f"{server.label}:{r.name if counts[r.name] == 1 else r.path}"
            name = _free(wanted, held)
            out[name] = _value(server, r, name)
            kept = repr(name) + ("" if name == wanted else f", since {wanted!r} is a local skill's")
            problems += _clash(server.label, r, kept, taken, seen)
    return out, problems


def _free(name: str, held: Mapping[str, Skill]) -> str:
    """`name`, or ``mcp:<name>`` (again, until it is free) when a local skill holds it."""
    while fold_name(name) in held:
        name = f"mcp:{name}"
    return name


def list_of(server: SkillServer) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...]]:
    from satchel.mcp._skills_client import list_skills

    return list_skills(server)


def _clash(
    label: str, r: RemoteSkill, kept: str, taken: Mapping[str, list[Skill]], seen: dict[str, str]
) -> list[Diagnostic]:
    key = fold_name(r.name)
    others = [f"the local skill {s.name!r}" for s in taken.get(key, ())]
    first = seen.setdefault(key, label)
    if first != label:
        others.append(f"a skill of server {first!r}")
    if not others:
        return []
    message = (
        f"skill {r.name!r} ({r.uri}) of server {label!r} has the name of "
        f"{' and '.join(others)}: it is kept as {kept}, and neither replaces the other"
    )
    return [diagnostic("mcp.skills.shadowed", message)]


def _value(server: SkillServer, r: RemoteSkill, name: str) -> ServedSkill:
    front = r.frontmatter
    license_ = front.get("license")
    metadata = front.get("metadata")
    meta = (
        {str(k): str(v) for k, v in metadata.items() if not str(k).startswith("io.model")}
        if isinstance(metadata, dict)
        else {}
    )
    return ServedSkill(
        name=name,
        description=r.description,
        license=license_ if isinstance(license_, str) else None,
        metadata=meta,
        origin=Origin("mcp", family=server.label, namespace=server.label),
        server=server,
        remote=r,
    )
