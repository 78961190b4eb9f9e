"""A hook as a host file declares it: the value every hook format reads into."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._json import jsonable
from satchel.core._model import model
from satchel.hosts._vocabulary import HookFormat

__all__ = ["HANDLER_TYPES", "HandlerType", "HookSpec"]

HandlerType = Literal["command", "http", "mcp_tool", "prompt", "agent", "python"]
HANDLER_TYPES: tuple[HandlerType, ...] = (
    "command", "http", "mcp_tool", "prompt", "agent", "python"
)  # fmt: skip

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class HookSpec:
    """One hook as a host file declares it (run later by the hooks runtime).

    `event` is the host's own event name (``PreToolUse``, ``pre_tool``, ``BeforeTool``,
    ...); `format` says whose (``claude``, ``vibe``, ``kimi``, ``gemini``, ``cursor``,
    ``satchel``: one host definition's `HookDialect.format`). `command`
    is the shell command (or argv[0] when `args` is given: Claude Code's exec form).
    `timeout` in seconds.

    `type` is the handler's kind (Claude Code's ``type``): ``command``, ``http``,
    ``mcp_tool``, ``prompt``, ``agent``, or ``python`` (a callable registered in code,
    `satchel.hooks.HookMatcher`). For a handler that is not a command, `command` is the
    text that names it (the ``url``, ``server/tool``, the ``prompt``, the callable's
    qualified name) and `params` holds its own fields as written (``url``, ``headers``,
    ``allowedEnvVars``; ``server``, ``tool``, ``input``; ``prompt``, ``model``)."""

    event: str
    command: str
    format: HookFormat
    matcher: str | None = None
    args: tuple[str, ...] | None = None
    timeout: float | None = None
    name: str | None = None
    strict: bool = False
    condition: str | None = None  # Claude Code's `if` permission rule
    description: str | None = None
    fail_mode: str | None = None  # Kimi's; "closed" for Claude Code's onFailure: block
    plugin: str | None = None
    path: Path | None = None
    extras: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    type: HandlerType = "command"
    params: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "command": self.command,
            "format": self.format,
            "matcher": self.matcher,
            "args": None if self.args is None else list(self.args),
            "timeout": self.timeout,
            "name": self.name,
            "strict": self.strict,
            "if": self.condition,
            "description": self.description,
            "fail_mode": self.fail_mode,
            "plugin": self.plugin,
            "path": None if self.path is None else str(self.path),
            "extras": jsonable(dict(self.extras)),
            "type": self.type,
            "params": jsonable(dict(self.params)),
        }
