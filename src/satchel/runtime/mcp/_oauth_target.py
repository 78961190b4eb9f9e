"""Which remote MCP server ``satchel mcp login NAME`` / ``logout NAME`` means, and the
URL it connects to, found as the supervisor finds them: NAME is a server's bare name
(the first of that name, in precedence order) or a plugin's as
``plugin:<plugin>:<server>``; a plugin's userConfig values and the url's ``${VAR}``
are filled in (`satchel.runtime.mcp._supervisor`). A login is refused, as the
supervisor would not start it, for a server the organisation's policy refuses
(``policy.denied``: `satchel.assembly._policed.mcp_refusal`, or its name alone when `load()`
already left it out) or that is disabled (``mcp.oauth.disabled``); a logout is not,
so that the tokens of such a server can still be removed.

NAME may also be a server's URL (``https://...``, ``http://`` for a loopback host),
for a server no entry names: a skill server (``[skill_servers.<label>]``), an
``mcp+https://`` install source or a gateway's. The policy's ``url:`` patterns judge
it (a login to a URL the policy refuses is refused). Its login is kept by the URL
(`satchel.mcp._oauth_store.url_store`), which every path that connects to that URL
reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from satchel.assembly._policed import mcp_refusal
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.mcp._names import server_id
from satchel.mcp._parse import expand_url, url_problem
from satchel.plugins._options import option_values
from satchel.runtime.mcp._launch import LaunchRefused, with_options

if TYPE_CHECKING:
    from satchel.assembly._environment import Environment
    from satchel.mcp._spec import McpServer

__all__ = ["DISABLED", "NOT_REMOTE", "UNKNOWN", "Remote", "TargetRefused", "remote_target"]

UNKNOWN = "cli.mcp.unknown-server"
NOT_REMOTE = "mcp.oauth.not_remote"
DISABLED = "mcp.oauth.disabled"


@model
class Remote:
    """A remote server as it connects: its entry (options filled) and its URL."""

    server: McpServer
    url: str


class TargetRefused(Exception):
    """NAME names no remote server satchel can authorize for; `diagnostic` says why."""

    def __init__(self, found: Diagnostic) -> None:
        super().__init__(found.message)
        self.diagnostic = found


def remote_target(
    env: Environment, name: str, environ: Mapping[str, str], *, login: bool = True
) -> Remote:
    """The remote server `name` names in `env`, one satchel may connect to when
    `login` (a logout only removes tokens). Raises `TargetRefused`."""
    if "://" in name:
        remote = _by_url(name)
        refused = mcp_refusal(remote.server, env.policy) if login else None
        if refused is not None:
            raise TargetRefused(refused)
        return remote
    servers = env.mcp_servers.servers
    found = next((s for s in servers if server_id(s) == name), None) or next(
        (s for s in servers if s.name == name), None
    )
    refused = _refusal(env, found, name) if login else None
    if refused is not None:
        raise TargetRefused(refused)
    if found is None:
        known = ", ".join(server_id(s) for s in servers) or "none"
        message = f"no MCP server is named {name!r} (configured: {known})"
        raise TargetRefused(diagnostic(UNKNOWN, message))
    who = _who(found)
    if found.transport == "stdio" or found.url is None:
        message = f"{who} is a stdio server: it is started, not logged in to"
        raise TargetRefused(diagnostic(NOT_REMOTE, message, found.path))
    server = _filled(env, found)
    url = expand_url(server.url or "", environ)
    why = url_problem(url)
    if why is not None:
        message = f"{who}: its url, its variables filled in, {why}"
        raise TargetRefused(diagnostic(NOT_REMOTE, message, found.path))
    return Remote(server, url)


def _by_url(url: str) -> Remote:
    """The server at `url`, named by its canonical resource URL, its query masked (no
    entry names it)."""
    from satchel.foundations.origin import Origin
    from satchel.mcp._oauth_store import url_name
    from satchel.mcp._spec import McpServer

    why = url_problem(url)
    if why is not None:
        raise TargetRefused(diagnostic(NOT_REMOTE, f"the MCP server URL {why}"))
    named = McpServer(url_name(url), "streamable-http", url=url, origin=Origin("host"))
    return Remote(named, url)


def _refusal(env: Environment, found: McpServer | None, name: str) -> Diagnostic | None:
    """Why satchel may not connect to `found` (None: the server `name` that `env` does
    not list, which the policy may have left out): the policy's refusal, or its
    being disabled."""
    if found is None:
        bare = name.split(":", 2)[-1] if name.startswith("plugin:") else name
        return env.policy.check_mcp(bare)
    refused = mcp_refusal(found, env.policy)
    if refused is not None or found.enabled:
        return refused
    message = (
        f"{_who(found)} is disabled: satchel does not connect to it, so it is not logged in to"
    )
    return diagnostic(DISABLED, message, found.path)


def _filled(env: Environment, server: McpServer) -> McpServer:
    plugin = env.plugins.plugins.get(server.plugin) if server.plugin is not None else None
    if plugin is None:
        return server
    try:
        return with_options(server, plugin, option_values(env.layout, plugin))
    except LaunchRefused as refused:
        raise TargetRefused(refused.diagnostic) from None


def _who(server: McpServer) -> str:
    if server.plugin is not None:
        return f"MCP server {server.name!r} of plugin {server.plugin!r}"
    return f"MCP server {server.name!r}"
