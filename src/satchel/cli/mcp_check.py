"""`satchel mcp check`: start the MCP servers, handshake, show what each offers, stop."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._mcp import held_back, origin, report_json, scrubbed, untrusted_note
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project
from satchel.cli.mcp_login import interactive, show_authorization
from satchel.mcp._names import exposed_name
from satchel.mcp._sdk import INSTALL_HINT, sdk_available
from satchel.runtime.mcp._catalog import ServerReport
from satchel.runtime.mcp._supervisor import DEFAULT_TIMEOUT, McpSupervisor

if TYPE_CHECKING:
    from rich.console import Console

    from satchel.core.diagnostics import Diagnostic
    from satchel.runtime.mcp._oauth import Authorization

SDK_MISSING = "cli.mcp.sdk-missing"
WORDS = ("server", "from", "transport", "protocol", "status", "tools", "prompts", "resources")

PARAMS = (
    located(),
    click.Option(
        ["--server"],
        multiple=True,
        metavar="NAME",
        help=(
            "Start only the server of this name: a plugin's as plugin:PLUGIN:SERVER, or "
            "by its bare name (repeatable; default: every server)."
        ),
    ),
    click.Option(
        ["--timeout"],
        type=click.FloatRange(min=0, min_open=True),
        default=DEFAULT_TIMEOUT,
        show_default=True,
        help="Seconds each server has to start and finish the MCP handshake.",
    ),
    json_option(),
)


def run(
    *,
    here: Here,
    server: tuple[str, ...],
    timeout: float,
    as_json: bool,
) -> int:
    """Start the MCP servers, show what each offers, and stop them.

    Every enabled server (or only those named with --server) starts at once and
    gets --timeout seconds to finish the MCP handshake. Each running server's tools
    (under the names a host sees, mcp__<server>__<tool>), prompts (as slash
    commands) and resources are listed, with the protocol revision it speaks
    (2026-07-28, or the 2025-11-25 handshake it falls back to); a server that
    fails is reported with why and the others go on. On a terminal, a remote server
    that needs a new OAuth authorization (more scopes, a refused or missing login)
    gets it in the browser, as satchel mcp login does. Every server process is
    stopped before the command returns. Exit 1 when a server failed. Uses the MCP
    SDK, a dependency of satchel."""
    if not sdk_available():
        message = f"starting MCP servers needs the mcp SDK, which is not installed; {INSTALL_HINT}"
        return out.fail(SDK_MISSING, message, as_json=as_json)
    import anyio

    env = loaded(here, read_held=True)
    authorize = _authorize if interactive() else None  # a person to open the page
    supervisor = McpSupervisor(env, timeout=timeout, only=server or None, authorize=authorize)
    anyio.run(_start_and_stop, supervisor)
    reports = supervisor.servers
    found = (
        *(d for r in reports for d in scrubbed(r)),
        *supervisor.diagnostics[_failures(reports) :],
    )
    held = held_back(env)
    if as_json:
        document = {"project": str(env.layout.project), "trusted": env.trusted}
        out.print_json({**document, "held_back": list(held), **_document(reports, found)})
    else:
        say_project(env.layout, here.project)
        _print(out.console(), reports, found, named=bool(server), trusted=env.trusted)
        if not env.trusted:
            out.note(untrusted_note(env, held))
    return PROBLEMS if any(r.status == "failed" for r in reports) else OK


def _authorize(request: Authorization) -> None:
    """A remote server needs a new OAuth authorization: its URL on stderr, and in a
    browser."""
    show_authorization(request.server, request.url, browse=True)


def _failures(reports: tuple[ServerReport, ...]) -> int:
    """How many of the supervisor's diagnostics are the servers' own (they come first)."""
    return sum(len(r.diagnostics) for r in reports)


async def _start_and_stop(supervisor: McpSupervisor) -> None:
    async with supervisor:
        pass


def _document(reports: tuple[ServerReport, ...], found: tuple[Diagnostic, ...]) -> dict[str, Any]:
    return {
        "started": True,
        "servers": [report_json(r) for r in reports],
        "diagnostics": [d.to_json() for d in found],
    }


def _print(
    con: Console,
    reports: tuple[ServerReport, ...],
    found: tuple[Diagnostic, ...],
    *,
    named: bool,
    trusted: bool,
) -> None:
    if not reports:
        if named or trusted:
            out.note("No MCP servers " + ("of these names." if named else "are configured."))
        return
    grid = out.table(*WORDS)
    for r in reports:
        up = r.status in ("running", "stopped")
        counts = (len(r.tools), len(r.prompts), len(r.resources)) if up else ("-",) * 3
        status = "ok" if up else r.status
        protocol = r.protocol or "-"
        row = (r.name, origin(r.server), r.server.transport, protocol, status, *map(str, counts))
        grid.add_row(*(out.safe(c) for c in row))
    con.print(grid)
    for r in reports:
        if r.status in ("running", "stopped"):
            _offers(con, r)
    if found:
        con.print()
        out.diagnostic_report(con, found)


def _offers(con: Console, r: ServerReport) -> None:
    """What a running server offers: a row per tool, prompt and resource, each
    description whole (a terminal wraps it)."""
    who = r.server_name or "?"
    version = f" {r.server_version}" if r.server_version else ""
    con.print()
    con.print(out.safe(f"{r.name} ({who}{version})", style="bold"))
    grid = out.table("offers", "name", "description", whole=2)
    for tool in r.tools:
        note = "" if tool.exposure == "direct_and_programmatic" else f" [{tool.exposure}]"
        renamed = tool.name != exposed_name(r.server, tool.tool)
        shown = tool.name + (f" (the server's {tool.tool})" if renamed else "")
        grid.add_row("tool", out.safe(shown + note), out.safe(out.one_line(tool.description)))
    for prompt in r.prompts:
        grid.add_row("prompt", out.safe(prompt.command), out.safe(out.one_line(prompt.description)))
    for resource in r.resources:
        about = out.one_line(resource.description or resource.name)
        grid.add_row("resource", out.safe(resource.uri), out.safe(about))
    con.print(grid)
