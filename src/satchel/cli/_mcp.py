"""What the MCP verbs share: where a server comes from, what it runs, its JSON with
secrets masked (env and header values, a URL's query: see `satchel.cli._plugin`).

A server may echo its own environment on stderr, which failure messages quote: each
env and header value of its entry (4 characters or more) is masked there too."""

from __future__ import annotations

import shlex
from dataclasses import replace
from typing import Any

from satchel.cli._plugin import MASK, masked_server, masked_url
from satchel.diagnostics import Diagnostic
from satchel.mcp.catalog import ServerReport
from satchel.plugins.model import McpServer

_SHORTEST_SECRET = 4
ORIGINS = {"host": "host config", "project": "project config", "user": "user config"}


def origin(server: McpServer) -> str:
    """``plugin deploy-kit``, ``user config`` ..."""
    if server.plugin is not None:
        return f"plugin {server.plugin}"
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
