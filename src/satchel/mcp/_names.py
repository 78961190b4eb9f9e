"""The names a host sees for MCP servers, tools and prompts: Claude Code's, so that
hook matchers and allowed-tools patterns written for Claude Code match.

A host server is known by its own name, a plugin's by ``plugin:<plugin>:<server>``
(`server_id`, as Claude Code registers it), so two plugins may each declare a
``lookup`` server and both run. A host server's tool is ``mcp__<server>__<tool>``;
a plugin server's is ``mcp__plugin_<plugin>_<server>__<tool>``. Every character
outside ``[A-Za-z0-9_-]`` in each part of a tool name becomes ``_``, as Claude Code
does. Prompts take the same form and join the slash commands as
``/mcp__<server>__<prompt>`` (mermaid).
"""

from __future__ import annotations

import re

from satchel.mcp._spec import McpServer

__all__ = ["exposed_name", "normalized", "server_id", "server_key"]

_OUTSIDE = re.compile(r"[^A-Za-z0-9_-]")


def normalized(part: str) -> str:
    """`part` with every character outside ``[A-Za-z0-9_-]`` made ``_``."""
    return _OUTSIDE.sub("_", part)


def server_id(server: McpServer) -> str:
    """The server's name among all servers: ``<server>`` for the host's own,
    ``plugin:<plugin>:<server>`` for a plugin's."""
    if server.plugin is None:
        return server.name
    return f"plugin:{server.plugin}:{server.name}"


def server_key(server: McpServer) -> str:
    """The middle of the names: ``<server>`` or ``plugin_<plugin>_<server>``."""
    if server.plugin is None:
        return normalized(server.name)
    return f"plugin_{normalized(server.plugin)}_{normalized(server.name)}"


def exposed_name(server: McpServer, name: str) -> str:
    """The name a host sees for the tool or prompt `name` of `server`."""
    return f"mcp__{server_key(server)}__{normalized(name)}"
