"""What running MCP servers offer a host, as plain frozen values (no SDK types).

`McpTool`, `McpPrompt` and `McpResource` carry the name the host sees (Claude Code's
``mcp__...``, `satchel.mcp._names`) beside the server's own; `ServerReport` says how
one server fared; `ToolResult` is what a call gave.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.mcp._names import server_id
from satchel.mcp._spec import McpServer

__all__ = [
    "DEFAULT_EXPOSURE",
    "Exposure",
    "McpPrompt",
    "McpResource",
    "McpTool",
    "PromptArgument",
    "ServerReport",
    "Status",
    "ToolResult",
]

Exposure = Literal["programmatic", "direct", "direct_and_programmatic"]
DEFAULT_EXPOSURE: Exposure = "direct_and_programmatic"  # an override only restricts it
# configured: would start (nothing started yet); disabled: ``enabled = false`` in a
# config; declarative: the host loads without running anything (`Options.executable`);
# refused: the organisation's policy refuses it (docs/policy.md).
Status = Literal["configured", "disabled", "declarative", "refused", "running", "failed", "stopped"]
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class McpTool:
    """One tool: `name` for the host (``mcp__<server>__<tool>``, or the `toolOverrides`
    name), `tool` the server's own name, `exposure` as `toolOverrides` set it."""

    name: str
    tool: str
    server: str
    plugin: str | None
    description: str = ""
    input_schema: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    exposure: Exposure = DEFAULT_EXPOSURE

    @property
    def direct(self) -> bool:
        """Whether the model may call it directly (not only from code)."""
        return self.exposure != "programmatic"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tool": self.tool,
            "server": self.server,
            "plugin": self.plugin,
            "description": self.description,
            "inputSchema": dict(self.input_schema),
            "exposure": self.exposure,
        }


@model
class PromptArgument:
    name: str
    description: str = ""
    required: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "required": self.required}


@model
class McpPrompt:
    """One prompt; `command` is the slash command it joins (``/mcp__<server>__<prompt>``)."""

    name: str
    prompt: str
    server: str
    plugin: str | None
    description: str = ""
    arguments: tuple[PromptArgument, ...] = ()

    @property
    def command(self) -> str:
        return "/" + self.name

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "command": self.command,
            "prompt": self.prompt,
            "server": self.server,
            "plugin": self.plugin,
            "description": self.description,
            "arguments": [a.to_json() for a in self.arguments],
        }


@model
class McpResource:
    uri: str
    name: str
    server: str
    plugin: str | None
    description: str = ""
    mime_type: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "uri": self.uri,
            "name": self.name,
            "server": self.server,
            "plugin": self.plugin,
            "description": self.description,
            "mimeType": self.mime_type,
        }


@model
class ServerReport:
    """How one server fared: its status, what it offers, and why it failed if it did.
    `stderr` is the start of what a stdio server wrote there (capped); `protocol`, the
    MCP revision it was spoken to at (None until it ran)."""

    server: McpServer
    status: Status
    tools: tuple[McpTool, ...] = ()
    prompts: tuple[McpPrompt, ...] = ()
    resources: tuple[McpResource, ...] = ()
    server_name: str | None = None  # what the server calls itself (serverInfo)
    server_version: str | None = None
    instructions: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    stderr: str = ""
    protocol: str | None = None  # the revision it speaks: 2026-07-28 or 2025-11-25

    @property
    def name(self) -> str:
        return self.server.name

    @property
    def id(self) -> str:
        """The server's name among all servers (``plugin:<plugin>:<server>`` for a
        plugin's, `satchel.mcp._names.server_id`)."""
        return server_id(self.server)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "id": self.id,
            "plugin": self.server.plugin,
            "scope": self.server.scope,
            "transport": self.server.transport,
            "status": self.status,
            "serverInfo": {"name": self.server_name, "version": self.server_version},
            "protocolVersion": self.protocol,
            "instructions": self.instructions,
            "tools": [t.to_json() for t in self.tools],
            "prompts": [p.to_json() for p in self.prompts],
            "resources": [r.to_json() for r in self.resources],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "stderr": self.stderr,
        }


@model
class ToolResult:
    """What a call gave: MCP content blocks as JSON, and whether it is an error.
    `denied`: the gate refused it and the server was not called (`reason` says why)."""

    name: str
    content: tuple[Mapping[str, Any], ...] = ()
    structured: Mapping[str, Any] | None = None
    is_error: bool = False
    denied: bool = False
    reason: str | None = None

    @property
    def text(self) -> str:
        """The text blocks of the content, joined by newlines."""
        return "\n".join(str(c.get("text", "")) for c in self.content if c.get("type") == "text")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "content": [dict(c) for c in self.content],
            "structuredContent": None if self.structured is None else dict(self.structured),
            "isError": self.is_error,
            "denied": self.denied,
            "reason": self.reason,
        }


def error_result(name: str, reason: str, *, denied: bool = False) -> ToolResult:
    """An error result whose one text block is `reason` (the server was not called,
    or the call failed before it answered)."""
    block: Mapping[str, Any] = MappingProxyType({"type": "text", "text": reason})
    return ToolResult(name, (block,), is_error=True, denied=denied, reason=reason)
