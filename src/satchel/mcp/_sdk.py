"""Whether the ``mcp`` SDK is there: `sdk_available`, and `require_sdk` before starting
a server (`McpUnavailable` says how to install it). Nothing here imports the SDK."""

from __future__ import annotations

from satchel.core.errors import McpUnavailable

__all__ = ["INSTALL_HINT", "McpUnavailable", "require_sdk", "sdk_available"]

INSTALL_HINT = "install it: pip install 'satchel[mcp]'"


def sdk_available() -> bool:
    """Whether the ``mcp`` SDK can be imported (without importing it)."""
    import importlib.util

    try:
        return importlib.util.find_spec("mcp") is not None
    except (ImportError, ValueError):  # a parent package broken, or the module blocked
        return False


def require_sdk() -> None:
    """Raise `McpUnavailable` when the ``mcp`` SDK is not installed."""
    if not sdk_available():
        raise McpUnavailable(f"starting MCP servers needs the mcp SDK; {INSTALL_HINT}")
