"""An MCP server as declared: the value every config format and plugin format reads into."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._json import jsonable
from satchel.core._model import model
from satchel.foundations.origin import Origin, Originated

__all__ = ["McpServer", "Transport"]

Transport = Literal["stdio", "streamable-http", "sse"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_NO_TEXT: Mapping[str, str] = MappingProxyType({})
PLUGIN = Origin("plugin")  # a server of a plugin not named


@model
class McpServer(Originated):
    """One MCP server entry as declared (placeholders NOT expanded: the supervisor
    expands ``${PLUGIN_ROOT}``/``${PLUGIN_DATA}`` in `args`, `env` values and `cwd`).

    `command` is one token: a bare name looked up on PATH, or ``./x`` inside the plugin
    root (already checked to stay inside). `path` is the file that declared it.
    `origin` says where it came from: its `scope` is ``plugin`` (with the `plugin`
    that ships it), or for the host's own servers ``host`` (given by the host),
    ``project`` or ``user`` (a ``config.toml``).
    `enabled` False: declared but turned off (``enabled = false`` in a config)."""

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: _NO_TEXT)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=lambda: _NO_TEXT)
    origin: Origin = PLUGIN
    path: Path | None = None
    extras: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    enabled: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "transport": self.transport,
            "command": self.command,
            "args": list(self.args),
            "env": dict(self.env),
            "cwd": self.cwd,
            "url": self.url,
            "headers": dict(self.headers),
            "plugin": self.plugin,
            "path": None if self.path is None else str(self.path),
            "extras": jsonable(dict(self.extras)),
            "scope": self.scope,
            "enabled": self.enabled,
        }
