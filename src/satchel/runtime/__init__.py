"""The runtime layer: what runs. Hooks (`HookRunner`) and MCP servers (`McpSupervisor`);
processes start only here, through `satchel.process`, and only for trusted scopes."""

from satchel.runtime.hooks import HookRunner
from satchel.runtime.mcp import BlockingSupervisor, McpSupervisor

__all__ = ["BlockingSupervisor", "HookRunner", "McpSupervisor"]
