"""A Gemini CLI extension's ``mcpServers``: Gemini's server shape read into `McpServer`.

Gemini CLI's rules (google-gemini/gemini-cli: ``MCPServerConfig`` in
packages/core/src/config/config.ts, the transport choice in
packages/core/src/tools/mcp-client.ts, ``filterMcpConfig`` and the variables in
packages/cli/src/config/extension-manager.ts and extensions/variables.ts):

* Transport: ``httpUrl`` is streamable HTTP (it wins over ``url``, which is then
  ignored); ``url`` with ``type: "sse"`` is SSE, ``url`` with any other ``type`` or
  none is streamable HTTP; else ``command`` is stdio. An entry with only ``tcp``
  (WebSocket) is ``plugin.mcp.transport_unsupported``.
* ``trust`` is not allowed in an extension: Gemini CLI drops it, and so does satchel.
  ``timeout``, ``description``, ``includeTools``, ``excludeTools``, ``oauth``,
  ``authProviderType`` and the rest go to `McpServer.extras`, not applied.
* Variables, in ``command``, ``args``, ``env`` values, ``cwd``, ``url``, ``httpUrl``
  and ``headers`` values: ``${extensionPath}`` becomes ``${PLUGIN_ROOT}`` (so
  ``${extensionPath}/server`` as a command is ``./server``) and ``${/}`` and
  ``${pathSeparator}`` become ``/``. ``${workspacePath}`` has no MCP placeholder in
  satchel: it is kept as written with ``plugin.mcp.variable_unexpanded``. Gemini CLI
  also fills ``$VAR``/``${VAR}`` from the environment; satchel keeps them as written,
  as it keeps Claude Code's.

Then every entry follows the rules of a manifest's inline servers
(`satchel.mcp._parse.parse_server_tables`): a ``cwd`` inside the root, no code-injecting
``env`` name, an http(s) URL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.mcp._parse import Result, parse_server_tables

__all__ = ["GEMINI_VARIABLES", "parse_gemini_servers", "translated"]

GEMINI_VARIABLES = {"${extensionPath}": "${PLUGIN_ROOT}", "${/}": "/", "${pathSeparator}": "/"}
_VARIABLE = re.compile("|".join(re.escape(v) for v in GEMINI_VARIABLES))
_WORKSPACE = "${workspacePath}"


def parse_gemini_servers(
    servers: Mapping[str, Any], *, root: Path, plugin: str, path: Path, resolved: bool = False
) -> Result:
    """The servers of a ``gemini-extension.json``'s ``mcpServers`` object (see the module
    docstring). `resolved`: `root` is already a real path."""
    tables: dict[str, Any] = {}
    notes: list[Diagnostic] = []
    for name, entry in servers.items():
        tables[name] = translated(entry) if isinstance(entry, dict) else entry
        if isinstance(entry, dict) and _WORKSPACE in repr(entry):
            message = (
                f"MCP server {name!r} uses ${{workspacePath}}, which satchel does not expand "
                "for a server; it is kept as written"
            )
            notes.append(diagnostic("plugin.mcp.variable_unexpanded", message, path))
    found, diags = parse_server_tables(
        tables, root=root, plugin=plugin, path=path, resolved=resolved
    )
    return found, [*notes, *diags]


def translated(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A Gemini entry in the shape of an inline server table (also the shape of the
    servers of Gemini CLI's ``settings.json``, `satchel.mcp._hosts`)."""
    out = {k: _paths(v) for k, v in entry.items() if k != "trust"}
    kind = out.pop("type", None)
    if isinstance(out.get("httpUrl"), str):
        out["url"] = out.pop("httpUrl")
        out["type"] = "http"
    elif "url" in out:
        out["type"] = "sse" if kind == "sse" else "http"
    elif "command" not in out and "tcp" in out:
        out["type"] = "websocket"  # refused as a transport satchel does not start
    elif kind is not None:
        out["gemini_type"] = kind  # it names a URL's transport; kept, not used
    return out


def _paths(value: Any) -> Any:
    """`value` with Gemini CLI's path variables made satchel's, in strings, lists of
    strings and maps of strings (one pass per string)."""
    if isinstance(value, str):
        return _VARIABLE.sub(lambda m: GEMINI_VARIABLES[m.group()], value)
    if isinstance(value, list):
        return [_paths(v) if isinstance(v, str) else v for v in value]
    if isinstance(value, dict):
        return {k: _paths(v) if isinstance(v, str) else v for k, v in value.items()}
    return value
