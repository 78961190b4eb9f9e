"""Running MCP servers: `McpSupervisor(environment)` starts the host's and trusted plugins'
servers, lists their tools, prompts and resources, and gates every call. See docs/mcp.md."""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.core.errors import McpUnavailable
    from satchel.mcp._sdk import sdk_available
    from satchel.runtime.mcp._blocking import BlockingSupervisor
    from satchel.runtime.mcp._catalog import (
        McpPrompt,
        McpResource,
        McpTool,
        ServerReport,
        ToolResult,
    )
    from satchel.runtime.mcp._deferral import ToolSearch
    from satchel.runtime.mcp._events import ElicitAnswer, Elicitation, McpEvent
    from satchel.runtime.mcp._oauth import Authorization
    from satchel.runtime.mcp._supervisor import McpSupervisor
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.runtime.mcp._blocking": ("BlockingSupervisor",),
            "satchel.runtime.mcp._catalog": (
                "McpPrompt",
                "McpResource",
                "McpTool",
                "ServerReport",
                "ToolResult",
            ),
            "satchel.runtime.mcp._deferral": ("ToolSearch",),
            "satchel.runtime.mcp._events": ("ElicitAnswer", "Elicitation", "McpEvent"),
            "satchel.runtime.mcp._oauth": ("Authorization",),
            "satchel.core.errors": ("McpUnavailable",),
            "satchel.mcp._sdk": ("sdk_available",),
            "satchel.runtime.mcp._supervisor": ("McpSupervisor",),
        },
    )

__all__ = [
    "Authorization",
    "BlockingSupervisor",
    "ElicitAnswer",
    "Elicitation",
    "McpEvent",
    "McpPrompt",
    "McpResource",
    "McpSupervisor",
    "McpTool",
    "McpUnavailable",
    "ServerReport",
    "ToolResult",
    "ToolSearch",
    "sdk_available",
]
