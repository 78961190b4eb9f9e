"""The values of the plugin component kinds Claude Code 2.1.332 added beyond skills,
commands, agents, hooks and MCP servers: output styles, themes, channels, workflows
and hooks modules. Their readers are in `satchel.plugins.components` (one module per
kind, whose docstring cites where each fact comes from); these are only the values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.foundations._segments import ContextSegment

__all__ = [
    "SEGMENT_ID",
    "Channel",
    "HooksModule",
    "OutputStyle",
    "StyleScope",
    "Theme",
    "Workflow",
]

StyleScope = Literal["plugin", "user", "project"]

SEGMENT_ID = "agent.output-style"
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class OutputStyle:
    """One output style: its `name` (frontmatter, else the file stem), `description`,
    the body `text`, its two flags, the file, and the plugin it came from (None for a
    user or project style). `id` is ``<plugin>:<name>`` for a plugin's style."""

    name: str
    text: str
    path: Path
    scope: StyleScope = "plugin"
    description: str | None = None
    keep_coding_instructions: bool = False
    force_for_plugin: bool = False
    plugin: str | None = None

    @property
    def id(self) -> str:
        return self.name if self.plugin is None else f"{self.plugin}:{self.name}"

    @property
    def replaces_system_prompt(self) -> bool:
        """Whether the host's own coding instructions give way to this style."""
        return not self.keep_coding_instructions

    def segment(self) -> ContextSegment:
        """The style as the system prompt's ``agent.output-style`` segment (kind
        ``output_style``, stable for the session)."""
        return ContextSegment(SEGMENT_ID, "output_style", "session", self.text)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "keep_coding_instructions": self.keep_coding_instructions,
            "force_for_plugin": self.force_for_plugin,
            "scope": self.scope,
            "path": str(self.path),
            "plugin": self.plugin,
        }


@model
class Theme:
    """One theme file: `name` is its file stem (the id's part), `title` and `base`
    its own ``name`` and ``base`` fields when they are strings."""

    name: str
    path: Path
    title: str | None = None
    base: str | None = None
    plugin: str | None = None

    @property
    def id(self) -> str:
        return self.name if self.plugin is None else f"{self.plugin}:{self.name}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "base": self.base,
            "path": str(self.path),
            "plugin": self.plugin,
        }


@model
class Channel:
    """One channel: the plugin's MCP server it binds and that channel's options."""

    server: str
    user_config: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"server": self.server, "user_config": dict(self.user_config), "plugin": self.plugin}


@model
class Workflow:
    """One workflow script: the `name` and `description` of its ``meta``, the file."""

    name: str
    path: Path
    description: str | None = None
    plugin: str | None = None

    @property
    def id(self) -> str:
        return self.name if self.plugin is None else f"{self.plugin}:{self.name}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "path": str(self.path),
            "plugin": self.plugin,
        }


@model
class HooksModule:
    """One hooks module: the file, its path from the plugin root (`relative`, the
    id Claude Code lists), the hooks file naming it, the events its text hooks."""

    path: Path
    relative: str
    declared: Path
    events: tuple[str, ...] = ()
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.relative,
            "file": str(self.path),
            "declared": str(self.declared),
            "events": list(self.events),
            "plugin": self.plugin,
        }
