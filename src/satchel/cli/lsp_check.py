"""`satchel lsp check`: start language servers, initialise them, show what each says, stop."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK, PROBLEMS
from satchel.cli._lsp import picked, scopes, untrusted_note
from satchel.cli._params import json_option, located
from satchel.cli._workspace import loaded, say_project
from satchel.plugins._options import option_values

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment
    from satchel.plugins._lsp import LspServer
    from satchel.runtime.lsp._client import LspReport

WORDS = ("server", "plugin", "status", "reports", "capabilities")

PARAMS = (
    click.Argument(["name"], required=False, metavar="[NAME]"),
    located(),
    click.Option(
        ["--timeout"],
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        help="Seconds each server has to answer initialize (default: its startupTimeout, else 30).",
    ),
    json_option(),
)


def run(
    *,
    name: str | None,
    here: Here,
    timeout: float | None,
    as_json: bool,
) -> int:
    """Start the language servers, show what each reports, and stop them.

    Every server the enabled plugins declare (or only NAME: SERVER, or PLUGIN:SERVER)
    is started in turn, sent initialize, initialized and its settings, and asked to
    shut down: its name, version and capabilities are shown, or why it failed. Every
    server process is stopped before the command returns. Exit 1 when a server failed."""
    env = loaded(here)
    servers = picked(env.lsp_servers, name)
    reports = asyncio.run(_check_all(env, servers, timeout))
    found = [d for r in reports for d in r.diagnostics]
    failed = any(r.status == "failed" for r in reports)
    if as_json:
        where = scopes(env)
        document = {
            "project": str(env.layout.project),
            "trusted": env.trusted,
            "started": True,
            "servers": [_report_json(r, where.get(r.server.plugin, "")) for r in reports],
        }
        out.print_json(document, found)
        return PROBLEMS if failed else OK
    say_project(env.layout, here.project)
    _print(reports, named=name is not None)
    if not env.trusted:
        out.note(untrusted_note(env))
    return PROBLEMS if failed else OK


async def _check_all(
    env: Environment, servers: tuple[LspServer, ...], timeout: float | None
) -> list[LspReport]:
    from satchel.runtime.lsp._client import LspReport, check_lsp

    plugins = {p.name: p for p in env.plugins.enabled()}
    reports: list[LspReport] = []
    for server in servers:
        plugin = plugins.get(server.plugin or "")
        if plugin is None:  # not reached: every listed server's plugin is enabled
            reports.append(LspReport(server, "failed"))
            continue
        project = Path(env.layout.project)
        options = option_values(env.layout, plugin)
        report = await check_lsp(server, plugin, project=project, timeout=timeout, options=options)
        reports.append(report)
    return reports


def _report_json(report: LspReport, scope: str) -> dict[str, Any]:
    return {
        "id": f"{report.server.plugin}:{report.server.name}",
        "scope": scope,
        **report.to_json(),
    }


def _print(reports: list[LspReport], *, named: bool) -> None:
    con = out.console()
    if not reports:
        out.note("No language servers " + ("of this name." if named else "are declared."))
        return
    grid = out.table(*WORDS)
    for r in reports:
        who = " ".join(filter(None, (r.server_name, r.server_version))) or "-"
        caps = ", ".join(sorted(r.capabilities)) if r.status == "ok" else "-"
        row = (r.server.name, r.server.plugin or "", r.status, who, caps)
        grid.add_row(*(out.safe(c) for c in row))
    con.print(grid)
    found = [d for r in reports for d in r.diagnostics]
    if found:
        con.print()
        out.diagnostic_report(con, found)
