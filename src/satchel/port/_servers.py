"""MCP servers as each target's manifest or ``mcp.json`` spells them, by the
target host's `satchel.hosts.McpDialect`.

The `McpServer` values hold the portable spellings (``${PLUGIN_ROOT}``, a plugin file
as ``./x``). Claude Code's shape (``.mcp.json``: ``command``/``args``/``env``/``cwd``,
or ``type`` ``http``/``sse`` with ``url`` and ``headers``) is the default; a closed
dialect (Agent Plugins 1.0's schema, Gemini CLI's) leaves any other field out and
reports it; a dialect names each remote transport's ``type`` and URL key (Gemini CLI:
``httpUrl`` for streamable HTTP, ``url`` for SSE); a relative dialect (Kimi Code)
keeps ``./x`` commands and a ``cwd`` of ``./x``; a refused transport (Mistral Vibe's
``sse``) drops the server. A target that documents no placeholder for the plugin root
or its data directory in MCP entries keeps ``${PLUGIN_ROOT}`` or ``${PLUGIN_DATA}``
as written, and says so.
"""

from __future__ import annotations

import json
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from satchel.mcp._spec import McpServer
from satchel.port._plan import Plan
from satchel.port._targets import Target
from satchel.port._text import placeholders

__all__ = ["MCP_SCHEMA", "server_entries"]

MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
_ROOT = "${PLUGIN_ROOT}"
_DATA = "${PLUGIN_DATA}"


def server_entries(plan: Plan, servers: tuple[McpServer, ...]) -> dict[str, Any]:
    """The ``mcpServers`` object for `plan`'s target; a server it cannot hold is
    dropped, and a field it has no room for is left out, each with its diagnostic."""
    entries: dict[str, Any] = {}
    for server in servers:
        if server.transport in plan.target.mcp.refused:
            message = (
                f"MCP server {server.name!r}: {plan.target.title} refuses the "
                f"{server.transport} transport"
            )
            plan.drop("mcp_server", server.name, "port.mcp.transport", message, server.path)
            continue
        entry, left_out = _entry(server, plan.target)
        notes = []
        if left_out:
            listed = ", ".join(left_out)
            notes.append(f"{plan.target.title} has no room for {listed}, left out")
        if plan.target.data is None and _DATA in json.dumps(entry):
            notes.append(
                f"{plan.target.title} has no plugin data directory, {_DATA} is kept as written"
            )
        if notes:
            message = f"MCP server {server.name!r}: {'; '.join(notes)}"
            plan.drop("mcp_server", server.name, "port.mcp.field", message, server.path)
        entries[server.name] = entry
    return entries


def _entry(server: McpServer, target: Target) -> tuple[dict[str, Any], list[str]]:
    """One server's entry, and the fields left out."""
    extras = dict(server.extras)
    left_out: list[str] = []
    if target.mcp.closed:
        left_out += sorted(extras)
        extras = {}
    entry = (
        _stdio(server, target, left_out) if server.transport == "stdio" else _remote(server, target)
    )
    return {**entry, **extras}, left_out


def _spelled(text: str, target: Target) -> str:
    return placeholders(text, target.root, target.data)


def _stdio(server: McpServer, target: Target, left_out: list[str]) -> dict[str, Any]:
    if target.mcp.starts_in_project and _in_root(server):
        server = _from_root(server)
    if target.mcp.ignores_cwd and server.cwd is not None:
        server = _without_cwd(server, target, left_out)
    command = server.command or ""
    entry: dict[str, Any] = {} if target.mcp.stdio_type is None else {"type": target.mcp.stdio_type}
    rooted = target.mcp.rooted and not target.mcp.relative
    if command.startswith("./") and target.root is not None and rooted:
        entry["command"] = target.root + command[1:]
    else:
        entry["command"] = command
    if server.args:
        entry["args"] = [_spelled(a, target) for a in server.args]
    if server.env:
        entry["env"] = {k: _spelled(v, target) for k, v in server.env.items()}
    if server.cwd is not None:
        cwd = _cwd(server.cwd, target)
        if cwd is None:
            left_out.append(f"cwd {server.cwd!r}")
        else:
            entry["cwd"] = cwd
    return entry


def _in_root(server: McpServer) -> bool:
    """Whether the server names plugin files and starts in the plugin's folder (or
    names none), so its plugin files can be written relative to that folder."""
    texts = [server.command or "", *server.args, *server.env.values()]
    named = (server.command or "").startswith("./") or any(_ROOT in t for t in texts)
    return named and server.cwd in (None, _ROOT, "./", ".")


def _from_root(server: McpServer) -> McpServer:
    """The server with its plugin files relative to the plugin's folder, started there
    (``cwd: "./"``): for a host that starts it elsewhere and sets no root for it."""

    def rel(text: str) -> str:
        return text.replace(_ROOT + "/", "./").replace(_ROOT, ".")

    return replace(
        server,
        command=rel(server.command or ""),
        args=tuple(rel(a) for a in server.args),
        env=MappingProxyType({k: rel(v) for k, v in server.env.items()}),
        cwd="./",
    )


def _without_cwd(server: McpServer, target: Target, left_out: list[str]) -> McpServer:
    """The server with no ``cwd``, for a host that ignores it: one started in the
    plugin's folder has its ``./x`` arguments below the root placeholder; another
    ``cwd`` is said (`left_out`)."""
    if server.cwd not in (_ROOT, "./", ".") or target.root is None:
        left_out.append(f"cwd {server.cwd!r}")
        return replace(server, cwd=None)

    def rooted(text: str) -> str:
        return _ROOT + text[1:] if text.startswith("./") else text

    return replace(server, args=tuple(rooted(a) for a in server.args), cwd=None)


def _cwd(cwd: str, target: Target) -> str | None:
    if not target.mcp.relative:
        return _spelled(cwd, target)
    if cwd == _ROOT:
        return "./"
    if cwd.startswith(_ROOT + "/"):
        return "./" + cwd[len(_ROOT) + 1 :]
    return cwd if cwd.startswith("./") else None


def _remote(server: McpServer, target: Target) -> dict[str, Any]:
    kind, key = target.mcp.remote.get(server.transport, (server.transport, "url"))
    entry: dict[str, Any] = {} if kind is None else {"type": kind}
    entry[key] = server.url or ""
    if server.headers:
        entry["headers"] = dict(server.headers)
    return entry
