"""What the MCP verbs share: where a server comes from, what it runs, its JSON with
secrets masked (env and header values, a URL's query: see `satchel.cli._plugin`).

A server may echo its own environment on stderr, which failure messages quote: each
env and header value of its entry (4 characters or more) is masked there too."""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from satchel.assembly._environment import Environment
from satchel.cli._plugin import MASK, masked_server, masked_url
from satchel.cli._workspace import trust_command
from satchel.core.diagnostics import Diagnostic
from satchel.mcp._spec import McpServer

if TYPE_CHECKING:  # doctor reads what trust holds back here without the runtime
    from satchel.runtime.mcp._catalog import ServerReport

_SHORTEST_SECRET = 4
ORIGINS = {"host": "host config", "project": "project config", "user": "user config"}


def origin(server: McpServer) -> str:
    """``plugin deploy-kit``, ``user config``, ``local config`` ..."""
    if server.plugin is not None:
        return f"plugin {server.plugin}"
    if server.origin.family:  # another host's file: that host's word for its scope
        return f"{server.origin.family} config"
    return ORIGINS.get(server.scope, server.scope)


def target(server: McpServer) -> str:
    """What the server runs (command and args) or where it is (the URL, query masked)."""
    if server.url is not None:
        return masked_url(server.url)
    return shlex.join((server.command or "", *server.args))


def report_json(report: ServerReport) -> dict[str, Any]:
    """`ServerReport.to_json()` with where it comes from and its entry, masked."""
    doc = report.to_json()
    doc["origin"] = origin(report.server)
    doc["entry"] = masked_server(report.server.to_json())
    doc["stderr"] = scrub(report.server, report.stderr)
    doc["diagnostics"] = [d.to_json() for d in scrubbed(report)]
    return doc


def scrub(server: McpServer, text: str) -> str:
    """`text` with each env and header value of `server` (4+ characters) masked."""
    for value in sorted((*server.env.values(), *server.headers.values()), key=len, reverse=True):
        if len(value) >= _SHORTEST_SECRET:
            text = text.replace(value, MASK)
    return text


def scrubbed(report: ServerReport) -> list[Diagnostic]:
    """The report's diagnostics with their messages scrubbed."""
    return [replace(d, message=scrub(report.server, d.message)) for d in report.diagnostics]


def held_back(env: Environment) -> tuple[str, ...]:
    """The names of the MCP servers the project would add if it were trusted (its
    config's and its plugins', which the one load read and held back:
    `McpServerSet.held`): () in a trusted folder."""
    have = {s.name for s in env.mcp_servers.servers}
    held = (s.name for s in env.mcp_servers.held if s.name not in have)
    return tuple(dict.fromkeys(held))


def untrusted_note(env: Environment, names: tuple[str, ...]) -> str:
    """What an untrusted folder holds back of MCP servers, and how to trust it."""
    how = f"`{trust_command(env.layout)}` trusts it"
    if not names:
        return f"The project is not trusted, so its MCP servers would not load; {how}."
    listed = ", ".join(names)
    noun = "server is" if len(names) == 1 else "servers are"
    return f"{len(names)} MCP {noun} held back because the project is not trusted: {listed}; {how}."
