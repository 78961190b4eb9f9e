"""What the plugin verbs share: reading one plugin as its author, telling a plugin
directory from a skill's, and keeping secrets out of what is printed.

An MCP server's ``env`` and ``headers`` values, its lenient extra fields and the query
of its URL may hold tokens: the command line prints their names only, and JSON
carries ``"***"`` in place of each value. Nothing here runs anything.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.plugins import Plugin, PluginSet, read_plugin
from satchel.plugins._directory import Finding

MASK = "***"
_SECRET_MAPS = ("env", "headers", "extras")


@model
class PluginCheck:
    """One plugin directory read as its author would: the plugin when it loaded,
    and every diagnostic (fatal ones included)."""

    path: Path
    plugin: Plugin | None
    diagnostics: tuple[Diagnostic, ...]
    directory: tuple[Finding, ...] | None = None  # --profile directory's findings

    @property
    def ok(self) -> bool:
        """Loaded, and no diagnostic is an error."""
        return self.plugin is not None and all(d.severity != "error" for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        """The entry `satchel validate --json` prints for a plugin."""
        return {
            "path": str(self.path),
            "name": None if self.plugin is None else self.plugin.name,
            "ok": self.ok,
            "kind": "plugin",
            "format": None if self.plugin is None else self.plugin.format,
            "diagnostics": [d.to_json() for d in self.diagnostics],
            **(
                {"directory": [f.to_json() for f in self.directory]}
                if self.directory is not None
                else {}
            ),
        }


def check_plugin(path: Path, *, strict: bool = False, executable: bool = True) -> PluginCheck:
    """Read the plugin directory at `path` (nothing is executed)."""
    root = Path(os.path.abspath(path))
    plugin, found = read_plugin(root, strict=strict, executable=executable)
    return PluginCheck(root, plugin, tuple(found))


def masked_plugin(doc: Mapping[str, Any]) -> dict[str, Any]:
    """`Plugin.to_json()` with every MCP server's secrets masked (see the module)."""
    out = dict(doc)
    out["mcp_servers"] = [masked_server(s) for s in doc.get("mcp_servers", [])]
    return out


def masked_set(plugins: PluginSet) -> dict[str, Any]:
    """`PluginSet.to_json()` with every plugin's secrets masked."""
    doc = plugins.to_json()
    doc["plugins"] = [masked_plugin(p) for p in doc["plugins"]]
    return doc


def masked_server(doc: Mapping[str, Any]) -> dict[str, Any]:
    """`McpServer.to_json()` with env, header and extra values made ``"***"`` and the
    URL's query hidden."""
    out = dict(doc)
    for key in _SECRET_MAPS:
        value = doc.get(key)
        if isinstance(value, Mapping):
            out[key] = {name: MASK for name in value}
    url = doc.get("url")
    if isinstance(url, str):
        out["url"] = masked_url(url)
    return out


def masked_url(url: str) -> str:
    """`url` with its query (``?token=...``) replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    if not parts.query:
        return url
    return urlunsplit(parts._replace(query=MASK))


_NOUNS = {
    "skills": ("skill", "skills"),
    "commands": ("command", "commands"),
    "agents": ("agent", "agents"),
    "mcp_servers": ("MCP server", "MCP servers"),
    "lsp_servers": ("language server", "language servers"),
    "monitors": ("monitor", "monitors"),
    "bin": ("bin/ program", "bin/ programs"),
    "hooks": ("hook", "hooks"),
    "knowledge": ("knowledge folder", "knowledge folders"),
    "libraries": ("library", "libraries"),
    "connectors": ("connector", "connectors"),
    "output_styles": ("output style", "output styles"),
    "themes": ("theme", "themes"),
    "channels": ("channel", "channels"),
    "workflows": ("workflow", "workflows"),
    "modules": ("hooks module", "hooks modules"),
    "apps": ("Codex app", "Codex apps"),
}


def components(plugin: Plugin) -> str:
    """``1 skill, 2 MCP servers``: what the plugin holds ("nothing" when empty)."""
    return counted(plugin.components())


def counted(counts: Mapping[str, int]) -> str:
    """``1 skill, 2 MCP servers`` for counts by `Plugin.components()` kind."""
    parts = [f"{n} {_NOUNS.get(kind, (kind, kind))[n != 1]}" for kind, n in counts.items() if n]
    return ", ".join(parts) or "nothing"
