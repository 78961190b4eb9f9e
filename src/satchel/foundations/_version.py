"""The version of satchel (one place; the package and its MCP client and server report it)."""

__version__ = "0.1.0"
