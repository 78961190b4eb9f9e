"""MCP servers as each target's manifest or ``mcp.json`` spells them.

The `McpServer` values hold the portable spellings (``${PLUGIN_ROOT}``, a plugin file
as ``./x``). Claude Code's shape (``.mcp.json``: ``command``/``args``/``env``/``cwd``,
or ``type`` ``http``/``sse`` with ``url`` and ``headers``) is Codex's, Cursor's and
Kimi's too; Agent Plugins 1.0's ``mcp.json`` is closed (its schema), so any other
field is left out and reported; Gemini CLI names a streamable HTTP endpoint
``httpUrl`` and an SSE one ``url`` (https://geminicli.com/docs/extensions/reference).
Kimi's ``cwd`` must start with ``./`` (its plugins.md). Mistral Vibe refuses ``sse``.
A target that documents no placeholder for the plugin root or its data directory in
MCP entries (Codex; Kimi Code; Gemini CLI's data) keeps ``${PLUGIN_ROOT}`` or
``${PLUGIN_DATA}`` as written, and says so.
"""

from __future__ import annotations

import json
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
        if server.transport == "sse" and plan.target.name == "vibe":
            message = f"MCP server {server.name!r}: Mistral Vibe refuses the sse transport"
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
    if target.format in ("agent-plugins", "gemini"):
        left_out += sorted(extras)
        extras = {}
    entry = (
        _stdio(server, target, left_out) if server.transport == "stdio" else _remote(server, target)
    )
    return {**entry, **extras}, left_out


def _spelled(text: str, target: Target) -> str:
    return placeholders(text, target.root, target.data)


def _stdio(server: McpServer, target: Target, left_out: list[str]) -> dict[str, Any]:
    command = server.command or ""
    if target.format == "agent-plugins":
        entry: dict[str, Any] = {"type": "stdio", "command": command}
    elif command.startswith("./") and target.root is not None and target.format != "kimi":
        entry = {"command": target.root + command[1:]}
    else:
        entry = {"command": command}
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


def _cwd(cwd: str, target: Target) -> str | None:
    if target.format != "kimi":
        return _spelled(cwd, target)
    if cwd == _ROOT:
        return "./"
    if cwd.startswith(_ROOT + "/"):
        return "./" + cwd[len(_ROOT) + 1 :]
    return cwd if cwd.startswith("./") else None


def _remote(server: McpServer, target: Target) -> dict[str, Any]:
    url = server.url or ""
    if target.format == "gemini":
        key = "httpUrl" if server.transport == "streamable-http" else "url"
        entry: dict[str, Any] = {key: url}
    elif target.format == "agent-plugins":
        entry = {"type": server.transport, "url": url}
    else:
        entry = {"type": "http" if server.transport == "streamable-http" else "sse", "url": url}
    if server.headers:
        entry["headers"] = dict(server.headers)
    return entry
