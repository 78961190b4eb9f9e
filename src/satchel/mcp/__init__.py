"""MCP: the servers a session would start (the host's and its plugins'), settled by name.

`host_servers` reads the host's ``[mcp_servers.<name>]`` tables; `settle_servers`
merges them with the enabled plugins' servers. Nothing here starts a process.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.mcp._config import host_servers
    from satchel.mcp._servers import McpServerSet, settle_servers
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.mcp._config": ("host_servers",),
            "satchel.mcp._servers": ("McpServerSet", "settle_servers"),
        },
    )

__all__ = ["McpServerSet", "host_servers", "settle_servers"]
