"""A plugin's inventory in Claude Code's shape: the ``provides`` object of ``claude
plugin validate --json`` (2.1.332), one key per component kind, in its order.

Ids are lists of strings, sorted (as Claude Code lists output styles); hooks and MCP
servers are objects with the fields Claude Code shows: a hook's ``event``,
``matcher`` (when it has one), ``type`` and its handler's own field (``command``,
``url``, ``prompt``, or ``server`` and ``tool``); a server's ``name``, ``type``
(``stdio``, ``http``, ``sse``), ``target`` (the command or URL) and ``args`` (when it
has some), sorted by name; a language server's ``name``, ``command`` and ``args``
(when it has some), sorted by name; a monitor's ``name`` and ``command``, in declared
order; a hooks module's ``path`` from the plugin root; ``bin`` the file names in
``bin/``, sorted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from satchel.hooks._spec import HookSpec
from satchel.mcp._spec import McpServer
from satchel.plugins._lsp import LspServer
from satchel.plugins._model import Plugin

__all__ = ["KINDS", "inventory"]

_TYPES = {"stdio": "stdio", "streamable-http": "http", "sse": "sse"}


def inventory(plugin: Plugin) -> dict[str, list[Any]]:
    """The plugin's ``provides``: every key of `KINDS`, in Claude Code's order."""
    return {key: list(kind(plugin)) for key, kind in KINDS.items()}


def _hook(hook: HookSpec) -> dict[str, Any]:
    entry: dict[str, Any] = {"event": hook.event}
    if hook.matcher is not None:
        entry["matcher"] = hook.matcher
    entry["type"] = hook.type
    params = hook.params
    if hook.type == "http":
        entry["url"] = params.get("url", hook.command)
    elif hook.type in ("prompt", "agent"):
        entry["prompt"] = params.get("prompt", hook.command)
    elif hook.type == "mcp_tool":
        entry["server"], entry["tool"] = params.get("server"), params.get("tool")
    else:
        entry["command"] = hook.command
    return entry


def _server(server: McpServer) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": server.name,
        "type": _TYPES.get(server.transport, server.transport),
        "target": server.command if server.transport == "stdio" else server.url,
    }
    if server.args:
        entry["args"] = list(server.args)
    return entry


def _lsp(server: LspServer) -> dict[str, Any]:
    """A language server as Claude Code lists it: its name, command and args (if any)."""
    entry: dict[str, Any] = {"name": server.name, "command": server.command}
    if server.args:
        entry["args"] = list(server.args)
    return entry


# key -> how the plugin lists it, in Claude Code's order.
KINDS: Mapping[str, Callable[[Plugin], list[Any]]] = MappingProxyType(
    {
        "modules": lambda p: [{"path": m.relative} for m in p.modules],
        "hooks": lambda p: [_hook(h) for h in p.hooks],
        "mcpServers": lambda p: [_server(s) for s in sorted(p.mcp_servers, key=lambda s: s.name)],
        "lspServers": lambda p: [_lsp(s) for s in sorted(p.lsp_servers, key=lambda s: s.name)],
        "monitors": lambda p: [{"name": m.name, "command": m.command} for m in p.monitors],
        "skills": lambda p: sorted(p.qualified(s.name) for s in p.skills),
        "commands": lambda p: sorted(c.name for c in p.commands),
        "agents": lambda p: sorted(a.name for a in p.agents),
        "outputStyles": lambda p: sorted(s.id for s in p.output_styles),
        "themes": lambda p: sorted(t.id for t in p.themes),
        "workflows": lambda p: sorted(w.id for w in p.workflows),
        "bin": lambda p: sorted(p.bin),
    }
)
