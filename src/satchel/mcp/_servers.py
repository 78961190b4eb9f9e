"""Every MCP server a session would start: the host's and the enabled plugins', settled
by name (mermaid: a same-named server in your config wins, with a warning).

Order of precedence: host servers (given, then the project's config, then the user's),
then each enabled plugin's in plugin precedence order. Among the host's servers the
first of a name is kept. A plugin's server is namespaced by its plugin
(``plugin:<plugin>:<server>``, `satchel.mcp._names.server_id`, as Claude Code names
it), so two plugins that each declare a ``lookup`` server both keep it; only a host
server of the same name hides it (``mcp.server.shadowed``, warning), so a plugin can
never replace a server the user configured, and a config entry with
``enabled = false`` turns a plugin's server of that name off.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.foundations.precedence import Loss, Source, settle
from satchel.mcp._names import server_id
from satchel.mcp._spec import McpServer

__all__ = ["McpServerSet", "settle_servers"]


@model
class McpServerSet:
    """The servers that count, in precedence order, and (winner, loser) for each hidden
    one. `held` are the servers the trust decision holds back (an untrusted project's
    config's and plugins'), read as declared and settled as a trusted load would:
    listed, never among `servers`, so nothing starts them, looks them up by name or
    lets them hide another; `held_shadowed` the (held, hidden) pairs of the servers
    each would hide, `held_diagnostics` what went wrong reading them."""

    servers: tuple[McpServer, ...] = ()
    shadowed: tuple[tuple[McpServer, McpServer], ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    held: tuple[McpServer, ...] = ()
    held_shadowed: tuple[tuple[McpServer, McpServer], ...] = ()
    held_diagnostics: tuple[Diagnostic, ...] = ()

    def enabled(self) -> tuple[McpServer, ...]:
        """The servers a supervisor starts."""
        return tuple(s for s in self.servers if s.enabled)

    def get(self, name: str) -> McpServer | None:
        """The server known as `name` (``plugin:<plugin>:<server>`` for a plugin's),
        else the first of that bare name, if any."""
        return next((s for s in self.servers if server_id(s) == name), None) or next(
            (s for s in self.servers if s.name == name), None
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "servers": [s.to_json() for s in self.servers],
            "shadowed": [
                {"name": loser.name, "winner": _origin(winner), "loser": _origin(loser)}
                for winner, loser in self.shadowed
            ],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


class ServerSource(Protocol):
    """What server settling reads of a plugin (a `satchel.plugins.Plugin` is one)."""

    @property
    def mcp_servers(self) -> tuple[McpServer, ...]: ...


def settle_servers(
    host: Iterable[McpServer], plugins: Iterable[ServerSource], problems: Iterable[Diagnostic] = ()
) -> McpServerSet:
    """The host's servers (the first of each name kept), then each plugin's under its
    plugin's namespace, unless a host server has its name.

    Server names compare exactly, not by `fold_name` as other names do: a server's
    name is kept as written in its tools' names (``mcp__<server>__<tool>``), and
    `McpServerSet.get` and the supervisor's `only` match it exactly, so ``GitHub`` and
    ``github`` are two servers and both start."""
    mine = tuple(host)
    names = frozenset(s.name for s in mine)
    settled = settle(
        (Source(mine, tuple(problems)), Source([s for p in plugins for s in p.mcp_servers])),
        key=lambda server: server.name if server.name in names else server_id(server),
        lost=lambda clash: Loss(_shadowed(clash.winner, clash.loser)),
    )
    return McpServerSet(settled.winners, settled.pairs(), settled.diagnostics)


def _shadowed(winner: McpServer, loser: McpServer) -> Diagnostic:
    message = (
        f"MCP server {loser.name!r} of {_origin(loser)} is hidden by the one of {_origin(winner)}"
    )
    return diagnostic("mcp.server.shadowed", message, loser.path)


def _origin(server: McpServer) -> str:
    """Where a server comes from, in words: ``plugin 'kit'``, ``the user's config`` ..."""
    if server.scope == "plugin":
        return f"plugin {server.plugin!r}"
    if server.scope == "host" or server.path is None:
        return "the host's config"
    return f"the {server.scope}'s {server.path.name}"
