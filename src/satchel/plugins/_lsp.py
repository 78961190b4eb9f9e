"""A language server a plugin declares: the value `.lsp.json` and manifest
``lspServers`` entries are read into (`satchel.plugins.components._lsp` reads them).

Data only: nothing here starts a process. `satchel.runtime.lsp` starts a server, for a
trusted, enabled plugin, and speaks the Language Server Protocol to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model

__all__ = ["LspServer", "LspTransport"]

LspTransport = Literal["stdio", "socket"]

_NO_TEXT: Mapping[str, str] = MappingProxyType({})


@model
class LspServer:
    """One language server entry as declared (``${PLUGIN_ROOT}``/``${PLUGIN_DATA}``
    kept unexpanded, as in `McpServer`: the runtime expands them in `args`, `env`
    values and `workspace_folder`).

    `command` is one token: a bare name looked up on PATH, an absolute path, or ``./x``
    inside the plugin root. `extensions` maps a file extension (``.py``) to the
    language id the server is told (``python``). Timeouts are in milliseconds, as
    Claude Code reads them; None: the runtime's default. `path` is the file that
    declared it, `plugin` the plugin that ships it."""

    name: str
    command: str
    extensions: Mapping[str, str]
    args: tuple[str, ...] = ()
    transport: LspTransport = "stdio"
    env: Mapping[str, str] = field(default_factory=lambda: _NO_TEXT)
    initialization_options: Any = None
    settings: Any = None
    workspace_folder: str | None = None
    startup_timeout: int | None = None
    shutdown_timeout: int | None = None
    restart_on_crash: bool = False
    max_restarts: int | None = None
    plugin: str | None = None
    path: Path | None = None

    @property
    def languages(self) -> tuple[str, ...]:
        """The language ids it serves, each once, in declared order."""
        return tuple(dict.fromkeys(self.extensions.values()))

    def language_of(self, file: str | PurePath) -> str | None:
        """The language id of `file` by its extension (case as declared), or None."""
        suffix = PurePath(file).suffix
        return self.extensions.get(suffix) if suffix else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "command": self.command,
            "args": list(self.args),
            "extensions": dict(self.extensions),
            "languages": list(self.languages),
            "transport": self.transport,
            "env": dict(self.env),
            "initialization_options": self.initialization_options,
            "settings": self.settings,
            "workspace_folder": self.workspace_folder,
            "startup_timeout": self.startup_timeout,
            "shutdown_timeout": self.shutdown_timeout,
            "restart_on_crash": self.restart_on_crash,
            "max_restarts": self.max_restarts,
            "plugin": self.plugin,
            "path": None if self.path is None else str(self.path),
        }
