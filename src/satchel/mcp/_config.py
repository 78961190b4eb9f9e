"""The host's own MCP servers: ``[mcp_servers.<name>]`` tables (mermaid, Codex's shape).

From, highest precedence first: the tables the host passes (`load(mcp_servers=...)`,
scope ``host``), the project's ``.satchel/config.toml`` (trusted projects only, scope
``project``), the files the host profile keeps its servers in up to its last project
file (a project's ``.mcp.json``; Claude Code's local scope in ``~/.claude.json``:
`satchel.mcp._hosts`), the user's ``config.toml`` (scope ``user``), and the rest of the
host's files (the user's servers of Claude Code, Gemini CLI ...); then a host's own
config files when its profile names them (`satchel.foundations._host_state.HostState.mcp_servers`:
Codex's ``[mcp_servers.<name>]`` in the ``.codex/config.toml`` of each project folder
the host reads, the working directory's first, then ``~/.codex/config.toml``)::

    [mcp_servers.github]
    command = "npx"
    args = ["-y", "@modelcontextprotocol/server-github"]
    env = { GITHUB_TOKEN = "..." }
    cwd = "tools"            # relative: to the project root
    enabled = true           # false: declared, not started (and it still hides a
                             # plugin's server of that name)

    [mcp_servers.docs]
    url = "https://docs.example.com/mcp"
    headers = { Authorization = "Bearer ..." }   # or http_headers, as Codex names it

``type`` (or ``transport``) is ``stdio``, ``streamable-http`` (or ``http``) or ``sse``,
else implied by ``command`` or ``url``. Any command is accepted; an environment
variable that injects code (``LD_PRELOAD``, ``NODE_OPTIONS``...) only from the user's
and the host's own config, never from the project's. Values are kept as written
(Claude Code's ``${VAR}`` expansion in ``.mcp.json`` is not done). Other fields
(Codex's ``startup_timeout_sec``, ``tool_timeout_sec`` ...) are kept in `extras`. A bad
entry is skipped with ``config.mcp.invalid``; nothing starts here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.core.layout import Layout
from satchel.foundations._config import config_files, invalid, read_config
from satchel.foundations._contain import Bad
from satchel.foundations._host_files import StateFiles
from satchel.foundations._host_state import HostState, dotted, host_config
from satchel.foundations.origin import Origin, as_scope
from satchel.foundations.process._env import is_dangerous_env
from satchel.mcp._hosts import INVALID, McpFile, host_file_tables
from satchel.mcp._parse import (
    check_args,
    check_command,
    check_headers,
    check_url,
    inferred_transport,
)
from satchel.mcp._spec import McpServer

__all__ = ["INVALID", "host_servers"]

SECTION = "mcp_servers"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_KNOWN = frozenset(
    ("type", "transport", "command", "args", "env", "cwd", "url", "headers", "http_headers")
)
_NO_EXTRAS: Mapping[str, Any] = MappingProxyType({})


def host_servers(
    layout: Layout,
    *,
    given: Mapping[str, Any],
    trust_project: bool,
    files: Sequence[McpFile] = (),
    environ: Mapping[str, str] | None = None,
    state: StateFiles | None = None,
    host_state: HostState | None = None,
) -> tuple[tuple[McpServer, ...], list[Diagnostic]]:
    """Every host server in precedence order (a name may appear more than once: the
    first is the one that counts, `satchel.mcp._servers` settles it): the given ones,
    the project's ``config.toml``, the host's own `files` up to the last project one
    (`satchel.mcp._hosts`), the user's ``config.toml``, the rest of `files`.
    `environ` [the process's] says where Claude Code's managed folder is; `state` the
    load's other-host state files (each read once); `host_state`: a host's own config
    files are read too, after satchel's (Codex's)."""
    found: list[McpServer] = []
    problems: list[Diagnostic] = []
    sources = [*_sources(layout, given, trust_project, files, environ, problems, state)]
    if host_state is not None and host_state.mcp_servers is not None:
        sources += _state_sources(layout, host_state, trust_project)
    for scope, tables, path, label in sources:
        if not isinstance(tables, dict):
            why = f"[{SECTION}] must be a table, not {type_name(tables)}"
            problems.append(invalid(why, path) if path else diagnostic(INVALID, why))
            continue
        for name, entry in tables.items():
            try:
                found.append(_server(name, entry, scope, path, label))
            except Bad as bad:
                message = f"MCP server {name!r}: {bad}; the entry is skipped"
                problems.append(diagnostic(INVALID, message, path))
    return tuple(found), problems


def _sources(
    layout: Layout,
    given: Mapping[str, Any],
    trust_project: bool,
    files: Sequence[McpFile],
    environ: Mapping[str, str] | None,
    problems: list[Diagnostic],
    state: StateFiles | None,
) -> Iterator[tuple[str, Any, Path | None, str]]:
    yield "host", dict(given), None, ""
    user, *project = config_files(layout, trust_project=trust_project)
    above, below = host_file_tables(
        layout, files, trust_project=trust_project, environ=environ, problems=problems, state=state
    )
    for path in project:
        document = read_config(path, problems)
        if SECTION in document:
            yield "project", document[SECTION], path, ""
    yield from above
    document = read_config(user, problems)
    if SECTION in document:
        yield "user", document[SECTION], user, ""
    yield from below


def _state_sources(
    layout: Layout, state: HostState, trust_project: bool
) -> Iterator[tuple[str, Any, Path | None, str]]:
    """The host's own ``[mcp_servers]`` tables, the nearest project folder's first, then
    the user's (a config file that cannot be read is reported once, where the plugins
    it installs are read)."""
    assert state.mcp_servers is not None
    config = host_config(layout, state, trust_project=trust_project)
    for path, document in reversed(config.layers()):
        tables = dotted(document, state.mcp_servers)
        if tables is not None:
            yield ("user" if path == config.user_path else "project"), tables, path, ""


def _server(name: object, entry: Any, scope: str, path: Path | None, label: str) -> McpServer:
    """One entry as a server; `label` the host's word for the file's scope (``local``
    ...), kept as its origin's family (empty for satchel's own config)."""
    if not isinstance(name, str) or not name.strip() or _CONTROL.search(name):
        raise Bad("a server name must be non-blank, without control characters")
    if not isinstance(entry, dict):
        raise Bad(f"the entry must be a table, not {type_name(entry)}")
    kinds = {entry[k] for k in ("transport", "type") if isinstance(entry.get(k), str)}
    if len(kinds) > 1:
        raise Bad("transport and type disagree")
    transport = inferred_transport(entry, entry.get("transport", entry.get("type")))
    enabled = entry.get("enabled", True)
    if not isinstance(enabled, bool):
        raise Bad("enabled must be true or false")
    extras = {k: v for k, v in entry.items() if k not in _KNOWN and k != "enabled"}
    common: dict[str, Any] = {
        "path": path,
        "origin": Origin(as_scope(scope), label, path=path),
        "enabled": enabled,
        "extras": MappingProxyType(extras) if extras else _NO_EXTRAS,
    }
    if transport != "stdio":
        return McpServer(name, transport, url=check_url(entry), headers=_headers(entry), **common)
    return McpServer(
        name,
        transport,
        command=check_command(entry),
        args=check_args(entry),
        env=_env(entry, scope),
        cwd=_cwd(entry),
        **common,
    )


def _env(entry: Mapping[str, Any], scope: str) -> Mapping[str, str]:
    """The entry's env. The project's may not set a variable that injects code (the
    user's own config may: it is theirs)."""
    value = entry.get("env", {})
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise Bad("env must be a table whose values are strings")
    for name, text in value.items():
        if not name or "=" in name or "\0" in name or "\0" in text:
            raise Bad(f"env name {name!r} or its value is not valid in an environment")
        if scope == "project" and is_dangerous_env(name):
            why = "it can make the server process run code its command does not name"
            raise Bad(f"env sets {name}, which a project may not set: {why}")
    return MappingProxyType(dict(value))


def _cwd(entry: Mapping[str, Any]) -> str | None:
    value = entry.get("cwd")
    if value is None:
        return None
    if not isinstance(value, str) or not value or "\0" in value:
        raise Bad("cwd must be a non-empty string")
    return value


def _headers(entry: Mapping[str, Any]) -> Mapping[str, str]:
    if "headers" in entry and "http_headers" in entry:
        raise Bad("give headers or http_headers, not both")
    return check_headers({"headers": entry.get("headers", entry.get("http_headers", {}))})
