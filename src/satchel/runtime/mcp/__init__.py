"""Running MCP servers: `McpSupervisor(environment)` starts the host's and trusted plugins'
servers, lists their tools, prompts and resources, and gates every call. See docs/mcp.md."""

from satchel.runtime.mcp._blocking import BlockingSupervisor
from satchel.runtime.mcp._catalog import McpPrompt, McpResource, McpTool, ServerReport, ToolResult
from satchel.runtime.mcp._supervisor import McpSupervisor, McpUnavailable, sdk_available

__all__ = [
    "BlockingSupervisor",
    "McpPrompt",
    "McpResource",
    "McpSupervisor",
    "McpTool",
    "McpUnavailable",
    "ServerReport",
    "ToolResult",
    "sdk_available",
]
