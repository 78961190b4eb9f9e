"""`satchel mcp list`: the MCP servers a session would start, without starting them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from satchel.assembly._environment import Environment
from satchel.cli import _output as out
from satchel.cli._context import Here
from satchel.cli._exit import OK
from satchel.cli._mcp import held_back, origin, target, untrusted_note
from satchel.cli._params import json_option, located
from satchel.cli._plugin import masked_server
from satchel.cli._workspace import loaded, say_project
from satchel.mcp._names import server_id
from satchel.mcp._spec import McpServer
from satchel.runtime.mcp._catalog import ServerReport
from satchel.runtime.mcp._supervisor import McpSupervisor

WORDS = ("server", "from", "file", "transport", "protocol", "status", "tools", "login")
NOTE = (
    "Nothing was started: the status is what the configuration says; the protocol "
    "revision each speaks and its tools are found by `satchel mcp check`, which starts "
    "the servers."
)

PARAMS = (located(), json_option())


def run(
    *,
    here: Here,
    as_json: bool,
) -> int:
    """List the MCP servers configured for the project, without starting any.

    The host's config servers and the enabled plugins' ones, settled by name: each with
    where it comes from and the file that declares it, its transport, its status as
    configured (configured, disabled, declarative) and what it runs or where it is.
    Without --host the user's servers of every host's own config are listed too
    (Claude Code's ~/.claude.json, Gemini CLI's ~/.gemini/settings.json, Codex's
    ~/.codex/config.toml); with --host, that host's files, as it reads them. Env and
    header values are never printed. A remote server's login column says whether the
    system keyring holds tokens `satchel mcp login` kept for it (yes/no; "-" for a
    stdio server).
    `satchel mcp check` starts them and lists their tools."""
    env = loaded(here, read_held=True)
    reports = McpSupervisor(env).servers
    held = held_back(env)
    logins = {r.id: _login(env, r.server) for r in reports}
    if as_json:
        out.print_json(_document(env, reports, held, logins), env.mcp_servers.diagnostics)
        return OK
    say_project(env.layout, here.project)
    con = out.console()
    if not reports and env.trusted:
        out.note("No MCP servers are configured.")
    elif reports:
        grid = out.table(*WORDS, "runs")
        for r in reports:
            s = r.server
            row = (
                s.name,
                origin(s),
                config_file(s, env.layout.home),
                s.transport,
                "-",
                r.status,
                "-",
                {None: "-", True: "yes", False: "no"}[logins[r.id]],
                target(s),
            )
            grid.add_row(*(out.safe(c) for c in row))
        con.print(grid)
    home = env.layout.home
    for winner, loser in env.mcp_servers.shadowed:
        hidden, by = _where(loser, home), _where(winner, home)
        out.note(f"{loser.name} of {hidden} is hidden by the one of {by}.")
    if not env.trusted:
        out.note(untrusted_note(env, held))
    out.note(NOTE)
    return OK


def config_file(server: McpServer, home: Path) -> str:
    """The config file that declares a host server, ``~`` standing for `home` (``-``
    for a plugin's server, whose plugin says where it is, and for one given in code)."""
    if server.plugin is not None or server.path is None:
        return "-"
    path = server.path
    return "~/" + str(path.relative_to(home)) if path.is_relative_to(home) else out.shown(path)


def _where(server: McpServer, home: Path) -> str:
    """``user config (~/.claude.json)``: where a server comes from, and its file."""
    file = config_file(server, home)
    return origin(server) if file == "-" else f"{origin(server)} ({file})"


def _login(env: Environment, server: McpServer) -> bool | None:
    """Whether the keyring holds `satchel mcp login`'s tokens for a remote server (None
    for a stdio one); its URL found as a connection finds it."""
    import os

    from satchel.mcp._oauth_store import kept_login
    from satchel.runtime.mcp._oauth_target import TargetRefused, remote_target

    if server.transport == "stdio" or server.url is None:
        return None
    try:
        remote = remote_target(env, server_id(server), os.environ, login=False)
    except TargetRefused:
        return False
    return kept_login(env.layout, remote.server, remote.url)


def _document(
    env: Environment,
    reports: tuple[ServerReport, ...],
    held: tuple[str, ...],
    logins: dict[str, bool | None],
) -> dict[str, Any]:
    servers = [
        {
            "name": r.name,
            "id": r.id,
            "origin": origin(r.server),
            "plugin": r.server.plugin,
            "file": None if r.server.path is None else str(r.server.path),
            "scope": r.server.scope,
            "transport": r.server.transport,
            "status": r.status,
            "protocol": None,  # not known until the server runs
            "tools": None,
            "login": logins[r.id],
            "runs": target(r.server),
            "entry": masked_server(r.server.to_json()),
        }
        for r in reports
    ]
    return {
        "project": str(env.layout.project),
        "trusted": env.trusted,
        "held_back": list(held),
        "started": False,
        "servers": servers,
        "shadowed": [
            {
                "name": loser.name,
                "winner": origin(winner),
                "loser": origin(loser),
                "winner_file": None if winner.path is None else str(winner.path),
                "loser_file": None if loser.path is None else str(loser.path),
            }
            for winner, loser in env.mcp_servers.shadowed
        ],
    }
