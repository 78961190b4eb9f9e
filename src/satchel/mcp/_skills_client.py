"""A client of the MCP Skills extension: list a server's skills and fetch them, verified.

The extension is ``io.modelcontextprotocol/skills`` (SEP-2640), specified in
modelcontextprotocol/ext-skills ``specification/stable/skills.mdx``. What this module
holds to, section by section:

- *Capability Negotiation*: "Clients issue `skills/list` and `skills/get` only after
  observing the server's declaration." A server that does not declare the extension in
  ``capabilities.extensions`` is refused (``mcp.skills.unsupported``) before any call.
- *Listing Skills*: "the request accepts an optional `cursor`, and when the result
  includes `nextCursor` the client passes it back". Every page is read (at most
  `MAX_PAGES`; a cursor seen twice ends the listing).
- *Skill Entries*, *Resource Mapping*: "The final segment of `<skill-path>` MUST equal
  the skill's `name`"; "An entry with no `resources` at all, or with any value other
  than an array or `"dynamic"`, is invalid, and hosts MUST NOT load it"; "Each `uri`
  MUST be the skill's `SKILL.md` or a file within the skill's directory". An entry that
  breaks one is refused (``mcp.skills.invalid``) and the others load.
- Paths: every path a server gives, the ``<skill-path>`` of a skill's URI and each
  file's path relative to it, is judged by the rule satchel's archive extractor applies
  to an entry (`satchel.foundations._contain.entry_parts`: no backslash or NUL, not absolute, no
  ``..`` segment, within the depth and length limits), and must be written plainly (no
  empty or ``.`` segment); two files of one skill that differ only in case or Unicode
  form are one file twice. An entry that breaks it is refused (``mcp.skills.path``)
  before any file is read, so a copy written below ``<tree>/<skill-path>/<file>`` stays
  in its tree.
- *Limits*: 512 resources and 16 MiB per skill; a skill past either is declined with
  why, before any file is read.
- *Resources*, ``"dynamic"``: "Hosts MAY decline to load such skills". satchel declines
  them (``mcp.skills.dynamic``, a warning): a dynamic skill cannot be pinned, verified
  nor content-bound, and satchel installs and activates only what it can verify.
- *Integrity and Verification*: "When a host retrieves a file listed in a skill's
  `resources`, it MUST verify the content against that entry's `digest` and `size`";
  "hosts MUST NOT use the unverified content". A mismatch refuses the skill
  (``mcp.skills.mismatch``, naming the file). Each file is read with a bound its
  listed size gives (`_bound`): an answer that passes it is not read on
  (`satchel.mcp._transports.Wire.bound`), and is a mismatch naming the file, so a
  server cannot make satchel hold more than that. *Frontmatter Verification*: the fetched
  ``SKILL.md``'s frontmatter is compared with the entry's, before any other file of the
  skill is read; a difference is a mismatch.
- *Lazy Retrieval*: "Hosts MUST NOT retrieve a skill's files ahead of need".
  `list_skills` reads no file; `fetch_files` reads the files asked for.
- *Skill URIs*, *Names*: a skill's identity is (server label, uri); the label is the
  host's (`SkillServer.label`), never the server's self-reported ``serverInfo.name``.

A server at a URL gets the OAuth login kept for that URL, or for a server of any name
at it (`satchel.mcp._oauth_store.url_store`), sent only once the server asks for
authorization, refreshed when it has expired (`satchel.mcp._oauth_kept.KeptAuth`);
nothing here starts an authorization. A server that asks and gets no usable login is
``mcp.skills.authorization_required``, naming ``satchel mcp login <URL>``.

The transports are satchel's own (`satchel.mcp._transports`; a stdio server is started
by `satchel.foundations.process._spawn.spawn_process` in its own process group with the scrubbed
environment). The server is spoken to at the revision it speaks (`satchel.mcp._connect`:
2026-07-28 through ``server/discover``, else the 2025-11-25 handshake). Everything here
is sync at its face (one event loop per call).
"""

from __future__ import annotations

import base64
import concurrent.futures
import contextlib
import hashlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations._contain import entry_parts, folded
from satchel.mcp._skill_server import SkillServer

__all__ = [
    "ESCAPES",
    "EXTENSION",
    "MAX_FILES",
    "MAX_PAGES",
    "MAX_TOTAL",
    "RemoteFile",
    "RemoteSkill",
    "SkillServer",
    "SkillsFailed",
    "fetch_files",
    "fetch_listed",
    "list_skills",
]

EXTENSION = "io.modelcontextprotocol/skills"
ESCAPES = "mcp.skills.path"  # an entry's path would leave the tree it is written to
MAX_FILES = 512  # resources per skill (spec: Limits)
MAX_TOTAL = 16 * 1024 * 1024  # bytes per skill (spec: Limits)
MAX_PAGES = 250  # skills/list pages read at most
_ENVELOPE = 64 * 1024  # bytes of an answer's JSON-RPC envelope beside a file's content
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}\Z")
_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?\Z")
_T = TypeVar("_T")

if TYPE_CHECKING:
    from satchel.foundations.process._spawn import LongProcess
    from satchel.mcp._oauth_kept import KeptAuth
    from satchel.mcp._transports import Wire

AUTHORIZATION = "mcp.skills.authorization_required"


@model
class RemoteFile:
    """One file of a skill's manifest: its `uri`, its path `rel` inside the skill
    directory (POSIX), its ``sha256:<hex>`` `digest` and `size` in bytes."""

    uri: str
    rel: str
    digest: str
    size: int


@model
class RemoteSkill:
    """One verified-shape entry of a server's listing (no file read yet).

    `path` is the ``<skill-path>`` (``acme/billing/refunds``); its last segment is
    `name`. `files` is the complete manifest, SKILL.md first."""

    server: str
    uri: str
    path: str
    name: str
    frontmatter: Mapping[str, Any]
    files: tuple[RemoteFile, ...]

    @property
    def description(self) -> str:
        value = self.frontmatter.get("description")
        return value if isinstance(value, str) else ""

    @property
    def digest(self) -> str:
        """One digest of the whole manifest: sha256 over the sorted lines
        ``<rel> <digest> <size>``, so any file rotated, added or removed changes it."""
        lines = sorted(f"{f.rel} {f.digest} {f.size}\n" for f in self.files)
        return "sha256:" + hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()


class SkillsFailed(Exception):
    """The server could not be used at all; `diagnostic` says why."""

    def __init__(self, found: Diagnostic) -> None:
        super().__init__(found.message)
        self.diagnostic = found


def list_skills(server: SkillServer) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...]]:
    """Every skill `server` lists (all pages), with a diagnostic for each entry refused
    or declined; raise `SkillsFailed` when the server cannot be reached or does not
    declare the extension. No file is read."""

    async def run(
        session: Any, wire: Wire
    ) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...]]:
        rows = await _pages(session)
        listed = {row.get("uri") for row in rows if isinstance(row, dict)}
        skills, notes = _judged(server.label, rows)
        confirmed, unknown = await _confirmed(session, server, [
            uri for uri in server.references if uri not in listed
        ])  # fmt: skip
        more, refused = _judged(server.label, confirmed)
        return (*skills, *more), (*notes, *unknown, *refused)

    return _run(server, run)


async def _confirmed(
    session: Any, server: SkillServer, uris: Sequence[str]
) -> tuple[list[Any], list[Diagnostic]]:
    """The ``skills/get`` entry of each of `uris`, and why a server serves none."""
    from mcp.shared.exceptions import MCPError

    rows: list[Any] = []
    unknown: list[Diagnostic] = []
    for uri in uris:
        try:
            result = await _call(session, "skills/get", {"uri": uri})
        except MCPError as e:
            message = f"skill server {server.label!r} serves no skill at {uri}: {e.message}"
            unknown.append(diagnostic("mcp.skills.unknown", message))
            continue
        rows.append(result.get("skill"))
    return rows, unknown


def fetch_listed(
    server: SkillServer, *, whole: bool = False
) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...], dict[str, dict[str, bytes]]]:
    """`list_skills`, then every listed skill's files, verified as `fetch_files` does,
    over one session; the files are keyed by each skill's path. `whole`: the server is
    taken whole or not at all, so an entry whose path would leave its tree
    (``mcp.skills.path``) fails it (`SkillsFailed`) before any file is read."""

    async def run(
        session: Any, wire: Wire
    ) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...], dict[str, dict[str, bytes]]]:
        skills, notes = _judged(server.label, await _pages(session))
        escapes = [n for n in notes if n.code == ESCAPES]
        if whole and escapes:
            raise SkillsFailed(escapes[0])
        files = {s.path: await _files(session, wire, s, s.files) for s in skills}
        return skills, notes, files

    return _run(server, run)


def fetch_files(
    server: SkillServer, skill: RemoteSkill, rels: Sequence[str] | None = None
) -> dict[str, bytes]:
    """The bytes of `skill`'s files (all of them, or the `rels` asked for), each verified
    against its manifest entry, SKILL.md's frontmatter against the entry's; raise
    `SkillsFailed` (``mcp.skills.mismatch``, naming the file) on the first that is
    not what the manifest says, or is not in it."""
    wanted = [f for f in skill.files if rels is None or f.rel in rels]
    missing = [r for r in rels or () if not any(f.rel == r for f in skill.files)]
    if missing:
        raise SkillsFailed(_mismatch(skill, f"{missing[0]} is not in the skill's manifest"))

    async def run(session: Any, wire: Wire) -> dict[str, bytes]:
        return await _files(session, wire, skill, wanted)

    return _run(server, run)


# -- one session per call ------------------------------------------------------------


def _run(server: SkillServer, body: Callable[[Any, Wire], Awaitable[_T]]) -> _T:
    """`body(session, wire)` on a fresh session to `server`, in an event loop of its own (a
    worker thread when the caller already runs one)."""
    import anyio

    from satchel.mcp._sdk import require_sdk

    require_sdk()

    wire = _wire()
    auth = _auth(server)

    async def main() -> _T:
        with anyio.fail_after(server.timeout):
            # the process starts while the SDK is imported
            async with _started(server) as proc, _session(server, wire, proc, auth) as session:
                return await body(session, wire)

    def go() -> _T:
        try:
            return anyio.run(main)
        except Exception as e:  # noqa: BLE001  # any failure of the server is one diagnostic
            inner = _innermost(e)
            if isinstance(inner, SkillsFailed):
                raise inner from None
            if (
                wire.status is not None
                and auth is not None
                and not (auth.stored and not auth.refused)
            ):
                raise SkillsFailed(_unauthorized(server, wire.status, auth)) from None
            if isinstance(inner, TimeoutError):
                why = f"did not answer within {server.timeout:g} s"
                raise SkillsFailed(_failed(server, why)) from None
            raise SkillsFailed(_failed(server, str(inner) or type(inner).__name__)) from None

    try:
        import asyncio

        asyncio.get_running_loop()
    except RuntimeError:
        return go()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(go).result()


def _auth(server: SkillServer) -> KeptAuth | None:
    """The kept OAuth login of a server at a URL (read only if it asks for one)."""
    if server.url is None:
        return None
    from satchel.mcp._oauth_kept import KeptAuth
    from satchel.mcp._oauth_store import service_of, url_store

    return KeptAuth(url_store(service_of(server.client), server.url), server.url)


def _unusable(auth: KeptAuth | None) -> bool:
    """Whether the server asked for authorization and the kept login did not give it
    (none kept, or refused past refreshing)."""
    return auth is not None and auth.stored is not None and (not auth.stored or auth.refused)


def _unauthorized(server: SkillServer, status: int, auth: KeptAuth) -> Diagnostic:
    """The server asked for authorization, and no kept login gave it."""
    why = (
        "it refused the authorization satchel keeps for its URL, which could not be refreshed"
        if auth.stored
        else "it needs authorization, and satchel keeps none for its URL"
    )
    message = f"skill server {server.label!r} ({server.shown()}) answered HTTP {status}: {why}"
    return diagnostic(AUTHORIZATION, message, hint=f"run `satchel mcp login {server.url}`")


@contextlib.asynccontextmanager
async def _session(
    server: SkillServer, wire: Wire, proc: LongProcess | None, auth: KeptAuth | None
) -> AsyncIterator[Any]:
    """The session to `server`, at the revision it speaks (`satchel.mcp._connect`),
    once it is seen to declare the extension."""
    from satchel.mcp._connect import client

    streams = _streams(server, wire, proc, auth)
    async with client(streams, extensions=(EXTENSION,)) as connection:
        declared = getattr(connection.server_capabilities, "extensions", None) or {}
        if EXTENSION not in declared:
            found = diagnostic(
                "mcp.skills.unsupported",
                f"skill server {server.label!r} ({server.shown()}) does not declare {EXTENSION}",
            )
            raise SkillsFailed(found)
        yield connection.session


@contextlib.asynccontextmanager
async def _streams(
    server: SkillServer, wire: Wire, proc: LongProcess | None, auth: KeptAuth | None
) -> AsyncIterator[Any]:
    from satchel.mcp._transports import remote_streams, stdio_streams

    if proc is None:
        assert server.url is not None
        async with remote_streams(
            "streamable-http", server.url, server.headers, wire, timeout=server.timeout, auth=auth
        ) as streams:
            yield streams
        return
    async with stdio_streams(proc, wire, grace=2.0) as streams:
        yield streams


@contextlib.asynccontextmanager
async def _started(server: SkillServer) -> AsyncIterator[LongProcess | None]:
    """A stdio server's process (None for a server at a URL), started before the MCP SDK
    is imported so that the two start-ups overlap, and stopped when the block ends (the
    transport stops it first; stopping twice is nothing)."""
    if server.url is not None:
        yield None
        return
    import os

    import anyio

    from satchel.foundations.process._env import base_env, overlay_env
    from satchel.foundations.process._spawn import spawn_process

    env, _ = overlay_env(base_env(os.environ), server.env)
    cwd = server.cwd or Path.cwd()
    proc, problems = await spawn_process(server.command, cwd=cwd, env=env)
    if proc is None:
        why = problems[0].message if problems else "it could not be started"
        raise SkillsFailed(_failed(server, why))
    try:
        yield proc
    finally:
        with anyio.CancelScope(shield=True):
            await proc.stop(2.0)


async def _pages(session: Any) -> list[Any]:
    rows: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        params: dict[str, Any] = {} if cursor is None else {"cursor": cursor}
        page = await _call(session, "skills/list", params)
        found = page.get("skills")
        if isinstance(found, list):
            rows.extend(found)
        cursor = page.get("nextCursor")
        if not isinstance(cursor, str) or cursor in seen:
            break
        seen.add(cursor)
    return rows


async def _call(session: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
    import mcp_types
    from pydantic import TypeAdapter

    request = mcp_types.Request[dict[str, Any], str](method=method, params=params)
    result = await session.send_request(request, TypeAdapter(dict[str, Any]))
    assert isinstance(result, dict)
    return result


async def _files(
    session: Any, wire: Wire, skill: RemoteSkill, files: Sequence[RemoteFile]
) -> dict[str, bytes]:
    """The verified bytes of `files`; ``SKILL.md`` (listed first) has its frontmatter
    compared with the entry's before any other file of the skill is read."""
    got: dict[str, bytes] = {}
    for f in files:
        got[f.rel] = _verified(skill, f, await _read(session, wire, skill, f))
        if f.rel == "SKILL.md":
            _same_frontmatter(skill, got[f.rel])
    return got


def _bound(size: int) -> int:
    """The most bytes one answer carrying a file of `size` bytes can take: each byte as
    a six-character JSON escape (base64 takes less), and room for the envelope."""
    return 6 * size + _ENVELOPE


async def _read(session: Any, wire: Wire, skill: RemoteSkill, f: RemoteFile) -> bytes:
    wire.bound = _bound(f.size)
    try:
        result = await _call(session, "resources/read", {"uri": f.uri})
    except Exception:
        if wire.over is None:
            raise
        why = (
            f"{f.rel} is {f.size} bytes in its manifest, and the server's answer for it "
            f"went past {wire.over} bytes"
        )
        raise SkillsFailed(_mismatch(skill, why)) from None
    finally:
        wire.bound = None
    contents = result.get("contents")
    for item in contents if isinstance(contents, list) else []:
        if not isinstance(item, dict) or item.get("uri") != f.uri:
            continue
        if isinstance(item.get("text"), str):
            return str(item["text"]).encode("utf-8")
        if isinstance(item.get("blob"), str):
            try:
                return base64.b64decode(item["blob"], validate=True)
            except ValueError:
                break
    raise SkillsFailed(_mismatch(skill, f"{f.rel}: the server sent no content for {f.uri}"))


# -- judging entries and content -------------------------------------------------------


def _judged(label: str, rows: list[Any]) -> tuple[tuple[RemoteSkill, ...], tuple[Diagnostic, ...]]:
    skills: list[RemoteSkill] = []
    notes: list[Diagnostic] = []
    for row in rows:
        entry, note = _entry(label, row)
        if entry is not None:
            skills.append(entry)
        if note is not None:
            notes.append(note)
    return tuple(skills), tuple(notes)


def _entry(label: str, row: Any) -> tuple[RemoteSkill | None, Diagnostic | None]:
    """The entry `row` as a `RemoteSkill`, or None and why it is refused or declined."""
    if not isinstance(row, dict) or not isinstance(row.get("uri"), str):
        return None, _invalid(label, "(an entry)", "it has no uri")
    uri: str = row["uri"]
    front = row.get("frontmatter")
    scheme, sep, rest = uri.partition("://")
    if not sep or not scheme or not rest.endswith("/SKILL.md"):
        return None, _invalid(label, uri, "its uri is not <scheme>://<skill-path>/SKILL.md")
    path = rest[: -len("/SKILL.md")]
    outside = _outside(path)
    if outside is not None:
        return None, _escapes(label, uri, f"its path {path!r} {outside}")
    name = path.rsplit("/", 1)[-1]
    if not isinstance(front, dict) or not isinstance(front.get("description"), str):
        return None, _invalid(label, uri, "its frontmatter has no name and description")
    if front.get("name") != name:
        why = f"the last segment of its path, {name!r}, is not its name {front.get('name')!r}"
        return None, _invalid(label, uri, why)
    if not _NAME.match(name) or "--" in name:
        return None, _invalid(label, uri, f"{name!r} is not a skill name")
    resources = row.get("resources")
    if resources == "dynamic":
        message = (
            f"skill {name!r} ({uri}) of server {label!r} is dynamic: it has no manifest to "
            "verify, so satchel does not load it"
        )
        return None, diagnostic("mcp.skills.dynamic", message)
    if not isinstance(resources, list):
        return None, _invalid(label, uri, "its resources are neither a list nor 'dynamic'")
    files, problem = _manifest(label, f"{scheme}://{path}/", uri, resources)
    if problem is not None:
        return None, problem
    return RemoteSkill(label, uri, path, name, dict(front), files), None


def _manifest(
    label: str, root: str, uri: str, rows: list[Any]
) -> tuple[tuple[RemoteFile, ...], Diagnostic | None]:
    """The files of the manifest `rows` of the skill `uri` (its files' URIs start with
    `root`), SKILL.md first, or why the skill is refused."""
    escape = _escape(root, rows)
    if escape is not None:
        return (), _escapes(label, uri, escape)
    files, why = _listed_files(root, uri, rows)
    return files, None if why is None else _invalid(label, uri, why)


def _escape(root: str, rows: list[Any]) -> str | None:
    """Why the first file of `rows` whose path would leave the tree does (alone, or
    below the skill's path), or None."""
    top = root.partition("://")[2]
    for row in rows:
        uri = row.get("uri") if isinstance(row, dict) else None
        if isinstance(uri, str) and uri.startswith(root):
            outside = _outside(uri[len(root) :]) or _outside(top + uri[len(root) :])
            if outside is not None:
                return f"{uri} {outside}"
    return None


def _listed_files(
    root: str, uri: str, rows: list[Any]
) -> tuple[tuple[RemoteFile, ...], str | None]:
    if len(rows) > MAX_FILES:
        return (), f"it has {len(rows)} files, more than the {MAX_FILES} a skill may have"
    files: list[RemoteFile] = []
    seen: set[str] = set()
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("uri"), str):
            return (), "a resource has no uri"
        digest, size = row.get("digest"), row.get("size")
        if not isinstance(digest, str) or not _DIGEST.match(digest):
            return (), f"{row['uri']} has no sha256:<64 lowercase hex> digest"
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return (), f"{row['uri']} has no size"
        if not row["uri"].startswith(root):
            return (), f"{row['uri']} is not within the skill directory"
        rel = row["uri"][len(root) :]
        key = folded(tuple(rel.split("/")))
        if key in seen:
            return (), f"{row['uri']} is listed twice"
        seen.add(key)
        files.append(RemoteFile(row["uri"], rel, digest, size))
    if uri not in {f.uri for f in files}:
        return (), "its resources do not list its SKILL.md"
    total = sum(f.size for f in files)
    if total > MAX_TOTAL:
        return (), f"its files total {total} bytes, more than the {MAX_TOTAL} a skill may have"
    files.sort(key=lambda f: (f.rel != "SKILL.md", f.rel))
    return tuple(files), None


def _outside(value: str) -> str | None:
    """Why the path `value` a server gives would not stay in the tree it is written to
    (`entry_parts`, the archive extractor's rule), or is not written plainly."""
    parts = entry_parts(value)
    if isinstance(parts, str):
        return parts
    if "/".join(parts) != value:
        return "has an empty or '.' segment"
    return None


def _verified(skill: RemoteSkill, f: RemoteFile, data: bytes) -> bytes:
    if len(data) != f.size:
        why = f"{f.rel} is {len(data)} bytes, not the {f.size} its manifest gives"
        raise SkillsFailed(_mismatch(skill, why))
    found = "sha256:" + hashlib.sha256(data).hexdigest()
    if found != f.digest:
        raise SkillsFailed(
            _mismatch(skill, f"{f.rel} has {found}, not the {f.digest} its manifest gives")
        )
    return data


def _same_frontmatter(skill: RemoteSkill, data: bytes) -> None:
    from satchel.foundations.frontmatter import parse

    fields = parse(data).fields
    if fields != dict(skill.frontmatter):
        raise SkillsFailed(_mismatch(skill, "SKILL.md's frontmatter is not the entry's"))


def _invalid(label: str, uri: str, why: str) -> Diagnostic:
    return diagnostic("mcp.skills.invalid", f"skill {uri} of server {label!r} is refused: {why}")


def _escapes(label: str, uri: str, why: str) -> Diagnostic:
    return diagnostic(ESCAPES, f"skill {uri} of server {label!r} is refused: {why}")


def _mismatch(skill: RemoteSkill, why: str) -> Diagnostic:
    message = f"skill {skill.name!r} ({skill.uri}) of server {skill.server!r} is refused: {why}"
    return diagnostic("mcp.skills.mismatch", message)


def _failed(server: SkillServer, why: str) -> Diagnostic:
    message = f"skill server {server.label!r} ({server.shown()}) failed: {why}"
    return diagnostic("mcp.skills.failed", message)


def _wire() -> Wire:
    from satchel.mcp._transports import Wire

    return Wire()


def _innermost(e: BaseException) -> BaseException:
    """`e` with any task group's exception groups unwrapped (the first of each)."""
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e
