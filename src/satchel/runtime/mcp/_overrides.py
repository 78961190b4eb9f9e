"""A Vibe plugin's ``toolOverrides`` applied to the tools its MCP servers offer (Vibe).

Each key is a tool name as a server of the plugin discovered it (the server's own
name, not the ``mcp__...`` one). ``name`` renames the tool: the last part of the
host's name becomes it (``mcp__plugin_kit_api__lookup`` → ``mcp__plugin_kit_api__search``).
``exposure`` sets how the model may reach it (``programmatic``, ``direct`` or
``direct_and_programmatic``; without an override a tool is
``direct_and_programmatic``). A key that matches no tool gives
``plugin.tool_override.unused`` -- only when every server of the plugin is running,
as a key may name a tool of a server that failed to start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.mcp._names import normalized
from satchel.plugins._model import Plugin, ToolOverride
from satchel.runtime.mcp._catalog import McpTool

__all__ = ["UNUSED", "apply_overrides"]

UNUSED = "plugin.tool_override.unused"


def apply_overrides(
    plugin: Plugin, tools: Sequence[McpTool], *, complete: bool
) -> tuple[tuple[McpTool, ...], tuple[Diagnostic, ...]]:
    """`tools` (all of `plugin`'s) with the plugin's overrides applied; `complete`:
    every server of the plugin is running, so an unmatched key is reported."""
    by_key = {o.key: o for o in plugin.tool_overrides}
    out = tuple(_applied(t, by_key.get(t.tool)) for t in tools)
    if not complete:
        return out, ()
    seen = {t.tool for t in tools}
    path = plugin.root / "plugin.json"
    found = tuple(
        diagnostic(UNUSED, _unused(plugin, o.key, sorted(seen)), path)
        for o in plugin.tool_overrides
        if o.key not in seen
    )
    return out, found


def _applied(tool: McpTool, override: ToolOverride | None) -> McpTool:
    if override is None:
        return tool
    name = tool.name
    if override.name is not None:
        name = tool.name.rsplit("__", 1)[0] + "__" + normalized(override.name)
    return replace(tool, name=name, exposure=override.exposure or tool.exposure)


def _unused(plugin: Plugin, key: str, tools: Sequence[str]) -> str:
    offered = ", ".join(repr(t) for t in tools) if tools else "none"
    return (
        f"toolOverrides key {key!r} of plugin {plugin.name!r} matches no tool of its MCP "
        f"servers (they offer: {offered})"
    )
