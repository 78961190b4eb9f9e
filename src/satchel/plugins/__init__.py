"""Plugins: every manifest format read into one `Plugin`, with each component parsed.

    plugin, diagnostics = read_plugin(path)

`detect` picks the format from a table of markers (Agent Plugins 1.0 ``plugin.json``
first); one adapter per format reads it (`satchel.plugins.native`, ``bundle``,
``claude``, ``codex``, ``cursor``, ``kimi``, ``opencode``); the component parsers (MCP servers,
hooks, knowledge, libraries, connectors) are public for hosts that read those files
on their own. Parsing only: nothing here starts a process.
"""

from satchel.plugins.config import enabled_plugins
from satchel.plugins.connectors import load_connectors
from satchel.plugins.data import data_dir, ensure_data_dir
from satchel.plugins.detect import DETECTION, FORMAT_ORDER, NATIVE_SCHEMA, Detection, Marker, detect
from satchel.plugins.discover import PluginSet, load_plugins
from satchel.plugins.hooks import parse_claude_hooks, parse_kimi_hooks, parse_vibe_hooks
from satchel.plugins.knowledge import load_knowledge
from satchel.plugins.libraries import drop_colliding, load_libraries
from satchel.plugins.mcp import (
    load_server_files,
    parse_claude_mcp,
    parse_mcp_json,
    parse_server_tables,
)
from satchel.plugins.model import (
    FORMATS,
    Connector,
    Format,
    HookSpec,
    Knowledge,
    Library,
    McpServer,
    Plugin,
    ToolOverride,
    Transport,
)
from satchel.plugins.native import RESERVED_NAMESPACES, typescript_identifier
from satchel.plugins.read import LOADERS, read_plugin
from satchel.plugins.workspace import load_workspace

__all__ = [
    "Connector",
    "data_dir",
    "detect",
    "DETECTION",
    "Detection",
    "drop_colliding",
    "enabled_plugins",
    "ensure_data_dir",
    "Format",
    "FORMAT_ORDER",
    "FORMATS",
    "HookSpec",
    "Knowledge",
    "Library",
    "load_connectors",
    "load_knowledge",
    "load_libraries",
    "load_plugins",
    "load_server_files",
    "load_workspace",
    "LOADERS",
    "Marker",
    "McpServer",
    "NATIVE_SCHEMA",
    "parse_claude_hooks",
    "parse_claude_mcp",
    "parse_kimi_hooks",
    "parse_mcp_json",
    "parse_server_tables",
    "parse_vibe_hooks",
    "Plugin",
    "PluginSet",
    "read_plugin",
    "RESERVED_NAMESPACES",
    "ToolOverride",
    "Transport",
    "typescript_identifier",
]
