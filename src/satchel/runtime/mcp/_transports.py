"""The MCP client transports, kept in `satchel.mcp._transports` (below the runtime, so
that the skills client there shares them); this name stays for the supervisor."""

from __future__ import annotations

from satchel.mcp._transports import (
    MAX_MESSAGE_DEPTH,
    TOO_DEEP,
    Streams,
    Wire,
    remote_streams,
    stdio_streams,
)

__all__ = ["MAX_MESSAGE_DEPTH", "TOO_DEEP", "Streams", "Wire", "remote_streams", "stdio_streams"]
