"""MCP: the servers a session would start (the host's and its plugins'), settled by name.

`host_servers` reads the host's ``[mcp_servers.<name>]`` tables; `settle_servers`
merges them with the enabled plugins' servers. Nothing here starts a process.
"""

from satchel.mcp._config import host_servers
from satchel.mcp._servers import McpServerSet, settle_servers

__all__ = ["McpServerSet", "host_servers", "settle_servers"]
