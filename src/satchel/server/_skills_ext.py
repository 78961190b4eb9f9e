"""The MCP Skills extension (``io.modelcontextprotocol/skills``, SEP-2640) in `satchel serve`.

Source: the extension's stable text, modelcontextprotocol/ext-skills,
``specification/stable/skills.mdx`` (commit 0682b7b). What it asks of a server:

    A server that declares this extension MUST implement `skills/list` and
    `skills/get`. A server that additionally declares `directoryRead: true` MUST
    implement `resources/directory/read`. [...] A server declaring this extension
    therefore MUST also declare the `resources` capability.

    `frontmatter` is the skill's `SKILL.md` YAML frontmatter rendered verbatim as a
    JSON object. [...] When `resources` is an array, it MUST be complete. It lists
    every file of the skill, each exactly once, including an entry whose `uri`
    equals the skill's top-level `uri`. [...] Digests are SHA-256 hashes of a
    file's raw bytes, formatted as `sha256:{hex}`.

    | Resources per skill       | 512 entries               |
    | Total file size per skill | 16 MiB (16,777,216 bytes) |
    Servers SHOULD NOT serve a skill that exceeds either limit.

    `ListSkillsResult` extends `CacheableResult`, so `ttlMs` and `cacheScope` are
    REQUIRED [...] An entry is atomic, and a skill's `resources` set is never split
    across pages. [...] A server whose skill catalog is large [...] MAY return an
    empty or partial listing.

    If the URI does not identify a skill the server serves, the server MUST return
    error `-32602` (Invalid params). [...] `resources/directory/read` [...] If the
    URI does not exist, or exists but is not a directory resource, the server MUST
    return error `-32602` (Invalid params). [...] Directory URIs are written without
    a trailing slash.

What satchel serves, and the choices the text leaves to a server:

* **Negotiation**: the server declares ``{"directoryRead": true}`` under
  ``capabilities.extensions`` (and ``resources``, which it always has). Only the
  2026-07-28 revision's capabilities carry ``extensions`` (the SDK drops the field
  from a 2025-11-25 ``initialize`` answer), so on a connection at an older revision
  the three methods are unknown methods (-32601): the extension was not declared
  there. The text specifies the extension "against base protocol revision
  2026-07-28 or later".
* **Which skills**: the ones ``resources/read`` serves (the session's skills, so a
  conditional skill no touched file has matched is held back; not those kept from
  the model by ``disable-model-invocation`` or a listing override), in precedence
  order, each at ``skill://<name>/SKILL.md`` (`satchel.server._map`). One is left
  out of ``skills/list``, and ``skills/get`` refuses it saying why, when it cannot
  be an entry the text allows: its name is not an Agent Skills name (lowercase
  letters, digits and single hyphens, at most 64; so a plugin's ``plugin:skill``,
  whose URI segment is not its frontmatter ``name``, is not served this way); its
  frontmatter ``name`` is not that name or it has no ``description``; its file is
  ``skill.md``; its frontmatter is not valid YAML or holds a value JSON cannot
  (a key that is not a string, ``.nan``, ``.inf``); it has more than 512 files or
  more than 16 MiB (an incomplete array is not allowed, and ``"dynamic"`` would be
  untrue of files on disk). ``resources/read`` still serves all of its files.
* **Frontmatter**: SKILL.md is read again on every call and its YAML parsed as
  satchel parses it (the core schema: no tags, no anchors, no duplicate keys), not
  taken from satchel's typed `Skill`. A date (``created: 2024-05-01``) stays the
  string that was written: JSON has no date, and a YAML 1.2 core-schema reader
  reads it as that string too.
* **Manifest**: SKILL.md, then every file ``resources/list`` names for the skill
  (`satchel.kinds.resources.list_resources`: no dot-directories, no ``node_modules``, no
  link that leads out, six levels deep at most), each read through
  `satchel.kinds.resources.read_resource` with the session's ``resource_cap``, so the
  digest is of the bytes ``resources/read`` returns. A file that read refuses (a
  hard link, over the cap) is not served, so it is not in the manifest.
* **Caching**: ``ttlMs`` 0 and ``cacheScope`` ``"private"`` on both results: entries
  are made from the files at the time of the call, the files may change at any time
  and no notification says so, and the listing depends on the session (conditional
  skills join it as files are touched).
* **Paging**: `SKILLS_PAGE` skills per ``skills/list`` page, `DIRECTORY_PAGE`
  children per ``resources/directory/read`` page; a cursor is the offset, as for
  ``resources/list``.
* **Directories**: a directory resource is the root of a served skill
  (``skill://<name>``) or a directory holding a file ``resources/list`` names for it;
  the children are those files and directories. The path is judged by the reader's
  rules first (``..``, absolute, a link that leads out are refused with their own
  codes); a file, or a directory holding no served file, is
  ``mcp.serve.directory.invalid``. Every refusal is error -32602.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import mcp_types as types

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import Refused
from satchel.foundations.frontmatter import parse
from satchel.index._render import model_visible
from satchel.kinds.resources import (
    check_relative,
    list_resources,
    quote,
    read_resource,
    resolve_file,
)
from satchel.server._map import SCHEME, parse_skill_uri, skill_uri
from satchel.server._wire import DIRECTORY_MIME, cursor, mcp_error, mime
from satchel.session import Session
from satchel.skills import Skill

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = [
    "CACHE_SCOPE",
    "DIRECTORY_PAGE",
    "EXTENSION",
    "MAX_SKILL_BYTES",
    "MAX_SKILL_RESOURCES",
    "SKILLS_PAGE",
    "TTL_MS",
    "Entry",
    "FileRecord",
    "SkillsExtension",
    "directory_page",
    "entry",
    "get_skill",
    "list_page",
]

EXTENSION = "io.modelcontextprotocol/skills"
SKILLS_PAGE = 25  # skills per skills/list page
DIRECTORY_PAGE = 500  # children per resources/directory/read page
MAX_SKILL_RESOURCES = 512  # the extension's limits per skill
MAX_SKILL_BYTES = 16 * 1024 * 1024
TTL_MS = 0
CACHE_SCOPE = "private"
SKILL_FILE = "SKILL.md"
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_T = TypeVar("_T")
Runner = Callable[["ServerRequestContext[Any, Any]", Callable[[Session], _T]], "Awaitable[_T]"]


@model
class FileRecord:
    """One file of a skill's manifest: its URI, ``sha256:<hex>`` and size in bytes."""

    uri: str
    digest: str
    size: int

    def wire(self) -> dict[str, Any]:
        return {"uri": self.uri, "digest": self.digest, "size": self.size}


@model
class Entry:
    """A ``Skill`` entry: the SKILL.md URI, its frontmatter as written, its files."""

    uri: str
    frontmatter: Mapping[str, Any]
    resources: tuple[FileRecord, ...]

    def wire(self) -> dict[str, Any]:
        return {
            "uri": self.uri,
            "frontmatter": dict(self.frontmatter),
            "resources": [r.wire() for r in self.resources],
        }


# -- entries ----------------------------------------------------------------------------


def entry(skill: Skill, cap: int) -> Entry | str:
    """The entry of `skill`, or why the extension does not serve it."""
    directory = skill.directory
    if directory is None or skill.path is None:
        return "it was defined in code and has no files"
    if skill.path.name != SKILL_FILE:
        return f"its file is {skill.path.name}, not {SKILL_FILE}"
    if len(skill.name) > 64 or not _NAME.fullmatch(skill.name):
        return (
            f"its name {quote(skill.name)} is not an Agent Skills name (lowercase letters, "
            "digits and single hyphens, at most 64), so its URI cannot end in its name"
        )
    try:
        top = read_resource(directory, SKILL_FILE, cap=cap)
        files, more = list_resources(directory, limit=MAX_SKILL_RESOURCES - 1)
    except Refused as e:
        return e.diagnostic.message
    fields = frontmatter(top.data)
    if isinstance(fields, str):
        return fields
    if fields.get("name") != skill.name:
        return f"its frontmatter name is {quote(str(fields.get('name')))}, not {quote(skill.name)}"
    description = fields.get("description")
    if not isinstance(description, str) or not description.strip():
        return "its frontmatter has no description"
    if more:
        return f"it has more than {MAX_SKILL_RESOURCES} files, the extension's limit per skill"
    records = [_record(skill.name, SKILL_FILE, top.data)]
    for path in files:
        try:
            found = read_resource(directory, path, cap=cap)
        except Refused:
            continue  # not served by resources/read, so not one of the skill's resources
        records.append(_record(skill.name, path, found.data))
    total = sum(r.size for r in records)
    if total > MAX_SKILL_BYTES:
        return f"its files come to {total:,} bytes, over the extension's 16 MiB per skill"
    return Entry(records[0].uri, fields, tuple(records))


def frontmatter(data: bytes) -> dict[str, Any] | str:
    """The frontmatter of a SKILL.md as a JSON object, or why it cannot be one."""
    parsed = parse(data)
    if parsed.fields is None or parsed.diagnostics:
        why = parsed.diagnostics[0].message if parsed.diagnostics else "it has none"
        return f"its frontmatter is not valid YAML: {why}"
    problem = _not_json(parsed.fields)
    if problem is not None:
        return f"its frontmatter holds {problem}, which JSON cannot"
    return parsed.fields


def _not_json(value: object) -> str | None:
    """What in `value` JSON cannot hold (a non-string key, NaN, infinity), if anything."""
    if value is None or isinstance(value, str | bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"the number {value}"
    if isinstance(value, list):
        return next((p for p in map(_not_json, value) if p is not None), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"a key that is not a string ({key!r})"
            problem = _not_json(item)
            if problem is not None:
                return problem
        return None
    return f"a {type(value).__name__}"


def _record(name: str, path: str, data: bytes) -> FileRecord:
    digest = f"sha256:{hashlib.sha256(data).hexdigest()}"
    return FileRecord(skill_uri(name, path), digest, len(data))


def _candidates(session: Session) -> list[Skill]:
    """The skills ``resources/read`` serves, in precedence order."""
    return [s for s in session.skills.values() if model_visible(s)]


# -- the methods, as plain values ----------------------------------------------------------


def list_page(session: Session, start: int) -> dict[str, Any]:
    """The ``skills/list`` result from the skill at offset `start`."""
    skills = _candidates(session)
    page = skills[start : start + SKILLS_PAGE]
    cap = session.activation.options.resource_cap
    entries = [e for e in (entry(s, cap) for s in page) if isinstance(e, Entry)]
    result: dict[str, Any] = {"resultType": "complete", "skills": [e.wire() for e in entries]}
    if start + SKILLS_PAGE < len(skills):
        result["nextCursor"] = str(start + SKILLS_PAGE)
    return {**result, "ttlMs": TTL_MS, "cacheScope": CACHE_SCOPE}


def get_skill(session: Session, uri: str) -> dict[str, Any] | Diagnostic:
    """The ``skills/get`` result for the SKILL.md at `uri`, or why no skill is served there."""
    found = _skill_at(session, uri)
    if isinstance(found, str):
        return _unknown_skill(uri, found)
    made = entry(found, session.activation.options.resource_cap)
    if isinstance(made, str):
        return _unknown_skill(uri, f"skill {quote(found.name)} is not served as a skill: {made}")
    skill = made.wire()
    return {"resultType": "complete", "skill": skill, "ttlMs": TTL_MS, "cacheScope": CACHE_SCOPE}


def _skill_at(session: Session, uri: str) -> Skill | str:
    try:
        name, path = parse_skill_uri(uri)
        skill = session.activation.find(name, for_model=True)
    except Refused as e:
        return e.diagnostic.message
    if path != SKILL_FILE:
        return f"a skill's URI ends in /{SKILL_FILE}"
    if skill.name != name:
        return f"the skill is named {quote(skill.name)}"
    return skill


def _unknown_skill(uri: str, why: str) -> Diagnostic:
    return diagnostic("mcp.serve.skill.unknown", f"no skill is served at {quote(uri)}: {why}")


def directory_page(
    session: Session, uri: str, start: int, limit: int
) -> dict[str, Any] | Diagnostic:
    """The ``resources/directory/read`` result for `uri` from the child at `start`,
    among the first `limit` files of the skill (as ``resources/list`` lists them)."""
    try:
        name, segments = _directory_uri(uri)
        skill = session.activation.find(name, for_model=True)
        directory = skill.directory
        if directory is None or skill.path is None:
            message = f"skill {skill.name!r} was defined in code and has no files"
            return diagnostic("resource.missing", message)
        files, _ = list_resources(directory, limit=limit)
        children = _children([skill.path.name, *files], segments)
        if segments and not children:
            resolve_file(directory, "/".join(segments))  # a path rule refuses it, or
            return _not_directory(uri, "it is a file")  # it is a file
    except Refused as e:
        if e.diagnostic.code == "resource.not-regular":
            return _not_directory(uri, "it holds no file the server serves")
        return e.diagnostic
    page = children[start : start + DIRECTORY_PAGE]
    resources = [_child(skill.name, segments, n, is_dir) for n, is_dir in page]
    result: dict[str, Any] = {"resultType": "complete", "resources": resources}
    if start + DIRECTORY_PAGE < len(children):
        result["nextCursor"] = str(start + DIRECTORY_PAGE)
    return result


def _directory_uri(uri: str) -> tuple[str, tuple[str, ...]]:
    """(skill name, directory segments) of ``skill://<name>`` or ``skill://<name>/<dir>``;
    the segments judged by the reader's path rules."""
    if uri.startswith(SCHEME) and "/" not in uri[len(SCHEME) :]:
        name, _ = parse_skill_uri(uri + "/")
        return name, ()
    name, path = parse_skill_uri(uri)
    return name, check_relative(path) if path else ()


def _children(files: list[str], segments: tuple[str, ...]) -> list[tuple[str, bool]]:
    """The direct children of the directory `segments` among `files`: (name, is a
    directory), sorted by name."""
    depth = len(segments)
    found: dict[str, bool] = {}
    for path in files:
        parts = tuple(path.split("/"))
        if len(parts) > depth and parts[:depth] == segments:
            found[parts[depth]] = found.get(parts[depth], False) or len(parts) > depth + 1
    return sorted(found.items())


def _child(name: str, segments: tuple[str, ...], child: str, is_dir: bool) -> dict[str, Any]:
    uri = skill_uri(name, "/".join((*segments, child)))
    return {"uri": uri, "name": child, "mimeType": DIRECTORY_MIME if is_dir else mime(child)}


def _not_directory(uri: str, why: str) -> Diagnostic:
    message = f"{quote(uri)} is not a directory resource: {why}"
    return diagnostic("mcp.serve.directory.invalid", message)


# -- on the wire ------------------------------------------------------------------------


class DirectoryParams(types.PaginatedRequestParams):
    """The params of ``resources/directory/read``."""

    uri: str


class SkillsExtension:
    """Declares the extension on a low-level `Server` and answers its three methods;
    `run` runs work on the activation state of the request's MCP session; a directory
    is read among the first `max_files` files of its skill."""

    def __init__(self, run: Runner[Any], max_files: int) -> None:
        self._run = run
        self._max_files = max_files

    def install(self, server: Server[Any]) -> None:
        server.extensions[EXTENSION] = {"directoryRead": True}
        server.add_request_handler("skills/list", types.PaginatedRequestParams, self._list)
        server.add_request_handler("skills/get", types.ReadResourceRequestParams, self._get)
        server.add_request_handler("resources/directory/read", DirectoryParams, self._directory)

    async def _list(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams
    ) -> dict[str, Any]:
        _negotiated(ctx, "skills/list")
        start = cursor(params.cursor)
        result: dict[str, Any] = await self._run(ctx, lambda s: list_page(s, start))
        return result

    async def _get(
        self, ctx: ServerRequestContext[Any, Any], params: types.ReadResourceRequestParams
    ) -> dict[str, Any]:
        _negotiated(ctx, "skills/get")
        uri = params.uri
        found: dict[str, Any] | Diagnostic = await self._run(ctx, lambda s: get_skill(s, uri))
        if isinstance(found, Diagnostic):
            raise mcp_error(found, uri)
        return found

    async def _directory(
        self, ctx: ServerRequestContext[Any, Any], params: DirectoryParams
    ) -> dict[str, Any]:
        _negotiated(ctx, "resources/directory/read")
        uri, start = params.uri, cursor(params.cursor)
        found: dict[str, Any] | Diagnostic = await self._run(
            ctx, lambda s: directory_page(s, uri, start, self._max_files)
        )
        if isinstance(found, Diagnostic):
            raise mcp_error(found, uri)
        return found


def _negotiated(ctx: ServerRequestContext[Any, Any], method: str) -> None:
    """Refuse `method` (-32601, an unknown method) on a connection at a revision before
    2026-07-28: its capabilities have no ``extensions``, so the extension was never
    declared there, and a client only calls it after seeing the declaration."""
    from mcp.shared.exceptions import MCPError
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        message = (
            f"{method} is served at protocol revision 2026-07-28 or later, where the "
            f"Skills extension is declared (this connection is at {ctx.protocol_version})"
        )
        raise MCPError(code=types.METHOD_NOT_FOUND, message=message)
