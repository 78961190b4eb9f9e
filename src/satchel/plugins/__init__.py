"""Plugins: every manifest format read into one `Plugin`, with each component parsed.

    plugin, diagnostics = read_plugin(path)

`detect` picks the format from a table of markers (Agent Plugins 1.0 ``plugin.json``
first); one adapter per format reads it (`satchel.plugins.formats._native`, ``bundle``,
``claude``, ``codex``, ``cursor``, ``kimi``, ``opencode``); the component parsers (MCP servers,
hooks, knowledge, libraries, connectors, Codex apps, default settings) are public for
hosts that read those files on their own; `main_agent` says which agent type Claude
Code's main thread runs as. Parsing only: nothing here starts a process.

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.hooks._parse import parse_claude_hooks, parse_kimi_hooks, parse_vibe_hooks
    from satchel.hooks._spec import HookSpec
    from satchel.mcp._parse import (
        load_server_files,
        parse_claude_mcp,
        parse_mcp_json,
        parse_server_tables,
    )
    from satchel.mcp._spec import McpServer, Transport
    from satchel.plugins._config import enabled_plugins
    from satchel.plugins._data import data_dir, ensure_data_dir
    from satchel.plugins._detect import (
        DETECTION,
        FORMAT_ORDER,
        NATIVE_SCHEMA,
        Detection,
        Marker,
        detect,
    )
    from satchel.plugins._discover import PluginSet, load_plugins
    from satchel.plugins._inventory import inventory
    from satchel.plugins._kinds import Channel, HooksModule, OutputStyle, Theme, Workflow
    from satchel.plugins._lsp import LspServer
    from satchel.plugins._main_agent import MainAgent, main_agent
    from satchel.plugins._model import (
        FORMATS,
        App,
        Connector,
        Format,
        Knowledge,
        Library,
        Monitor,
        Plugin,
        PluginSettings,
        ToolOverride,
        UserOption,
    )
    from satchel.plugins._read import LOADERS, read_plugin
    from satchel.plugins._workspace import load_workspace
    from satchel.plugins.components._apps import load_apps
    from satchel.plugins.components._connectors import load_connectors
    from satchel.plugins.components._knowledge import load_knowledge
    from satchel.plugins.components._libraries import drop_colliding, load_libraries
    from satchel.plugins.components._settings import load_settings
    from satchel.plugins.formats._native import RESERVED_NAMESPACES, typescript_identifier
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.plugins._config": ("enabled_plugins",),
            "satchel.plugins.components._apps": ("load_apps",),
            "satchel.plugins.components._connectors": ("load_connectors",),
            "satchel.plugins.components._settings": ("load_settings",),
            "satchel.plugins._main_agent": ("MainAgent", "main_agent"),
            "satchel.plugins._data": ("data_dir", "ensure_data_dir"),
            "satchel.plugins._detect": (
                "DETECTION",
                "FORMAT_ORDER",
                "NATIVE_SCHEMA",
                "Detection",
                "Marker",
                "detect",
            ),
            "satchel.hooks._spec": ("HookSpec",),
            "satchel.mcp._spec": ("McpServer", "Transport"),
            "satchel.plugins._discover": ("PluginSet", "load_plugins"),
            "satchel.plugins._inventory": ("inventory",),
            "satchel.plugins._kinds": (
                "Channel",
                "HooksModule",
                "OutputStyle",
                "Theme",
                "Workflow",
            ),
            "satchel.hooks._parse": ("parse_claude_hooks", "parse_kimi_hooks", "parse_vibe_hooks"),
            "satchel.plugins.components._knowledge": ("load_knowledge",),
            "satchel.plugins.components._libraries": ("drop_colliding", "load_libraries"),
            "satchel.mcp._parse": (
                "load_server_files",
                "parse_claude_mcp",
                "parse_mcp_json",
                "parse_server_tables",
            ),
            "satchel.plugins._lsp": ("LspServer",),
            "satchel.plugins._model": (
                "FORMATS",
                "App",
                "Connector",
                "Format",
                "Knowledge",
                "Library",
                "Monitor",
                "Plugin",
                "PluginSettings",
                "ToolOverride",
                "UserOption",
            ),
            "satchel.plugins.formats._native": ("RESERVED_NAMESPACES", "typescript_identifier"),
            "satchel.plugins._read": ("LOADERS", "read_plugin"),
            "satchel.plugins._workspace": ("load_workspace",),
        },
    )

__all__ = [
    "App",
    "Channel",
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
    "HooksModule",
    "inventory",
    "Knowledge",
    "Library",
    "load_apps",
    "load_connectors",
    "load_knowledge",
    "load_libraries",
    "load_plugins",
    "load_server_files",
    "load_settings",
    "load_workspace",
    "LOADERS",
    "LspServer",
    "main_agent",
    "MainAgent",
    "Marker",
    "McpServer",
    "Monitor",
    "NATIVE_SCHEMA",
    "OutputStyle",
    "parse_claude_hooks",
    "parse_claude_mcp",
    "parse_kimi_hooks",
    "parse_mcp_json",
    "parse_server_tables",
    "parse_vibe_hooks",
    "Plugin",
    "PluginSet",
    "PluginSettings",
    "read_plugin",
    "RESERVED_NAMESPACES",
    "Theme",
    "ToolOverride",
    "Transport",
    "typescript_identifier",
    "UserOption",
    "Workflow",
]
