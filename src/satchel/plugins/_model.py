"""The plugin model: one value for every manifest format, with each component parsed.

Parsing only: nothing here starts a process. MCP servers and hooks are data that the
runtime (the MCP supervisor, the hook runner) acts on later, and only for trusted,
enabled plugins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from satchel._instructions._model import InstructionFile
from satchel.agents import AgentType
from satchel.commands import Command
from satchel.diagnostics import Diagnostic
from satchel.hooks._spec import HookSpec
from satchel.mcp._spec import McpServer, Transport
from satchel.skills._model import Skill

__all__ = [
    "FORMATS",
    "Connector",
    "Format",
    "HookSpec",
    "Knowledge",
    "Library",
    "McpServer",
    "Monitor",
    "Plugin",
    "ToolOverride",
    "Transport",
]

Format = Literal[
    "agent-plugins",
    "bundle",
    "claude",
    "codex",
    "cursor",
    "gemini",
    "kimi",
    "opencode",
    "workspace",
]
FORMATS: tuple[Format, ...] = get_args(Format)

_EMPTY: Mapping[str, Any] = MappingProxyType({})
_NO_TEXT: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A Vibe knowledge folder: ``ai.mistral.vibe/knowledge/<name>/KNOWLEDGE.md``."""

    name: str
    description: str
    path: Path
    display_name: str | None = None
    icon: str | None = None
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "path": str(self.path),
            "display_name": self.display_name,
            "icon": self.icon,
            "plugin": self.plugin,
        }


@dataclass(frozen=True, slots=True)
class Library:
    """A Vibe library: an import alias and the source inside the plugin it names."""

    language: Literal["node", "python"]
    alias: str
    path: Path
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "alias": self.alias,
            "path": str(self.path),
            "plugin": self.plugin,
        }


@dataclass(frozen=True, slots=True)
class Connector:
    """A managed connector the plugin requires, with the tools it uses."""

    id: str
    tools: tuple[str, ...] = ()
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "tools": list(self.tools), "plugin": self.plugin}


@dataclass(frozen=True, slots=True)
class Monitor:
    """A Claude Code plugin monitor: a shell `command` the host runs in the background
    for the session, each stdout line an event. `when` is ``always`` (armed at session
    start) or ``on-skill-invoke:<skill>`` (armed when that skill is first activated);
    `path` is the file that declares it (``monitors/monitors.json`` or the manifest)."""

    name: str
    command: str
    description: str
    when: str = "always"
    plugin: str | None = None
    path: Path | None = None

    @property
    def skill(self) -> str | None:
        """The skill whose activation arms it (None: it arms at session start)."""
        return self.when.partition(":")[2] if self.when != "always" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "command": self.command,
            "description": self.description,
            "when": self.when,
            "plugin": self.plugin,
        }


@dataclass(frozen=True, slots=True)
class ToolOverride:
    """Vibe's `toolOverrides` entry: rename a discovered tool and set its exposure."""

    key: str
    name: str | None = None
    exposure: Literal["programmatic", "direct", "direct_and_programmatic"] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "exposure": self.exposure}


@dataclass(frozen=True, slots=True)
class Plugin:
    """One plugin, whatever its manifest format.

    `name` is the plugin's name; `namespace` prefixes its skills, commands, agents and
    knowledge (``<namespace>:<name>``; Vibe's `toolNamespace`, else the name). Skills
    keep their own `name`; `qualified(skill)` gives the namespaced one. `diagnostics`
    are the non-fatal problems of its parts (a fatal problem means no `Plugin`).
    `installed` is Claude Code's id (``name@marketplace``) for a plugin read from
    ``~/.claude/plugins`` (None for any other)."""

    name: str
    root: Path
    format: Format
    namespace: str
    scope: str = ""
    manifest: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    version: str | None = None
    description: str | None = None
    vibe: bool = False  # the ai.mistral.vibe extension is present
    skills: tuple[Skill, ...] = ()
    commands: tuple[Command, ...] = ()
    agents: tuple[AgentType, ...] = ()
    mcp_servers: tuple[McpServer, ...] = ()
    hooks: tuple[HookSpec, ...] = ()
    knowledge: tuple[Knowledge, ...] = ()
    libraries: tuple[Library, ...] = ()
    connectors: tuple[Connector, ...] = ()
    tool_overrides: tuple[ToolOverride, ...] = ()
    monitors: tuple[Monitor, ...] = ()
    bin: tuple[str, ...] = ()  # the file names in bin/ (Claude Code puts bin/ on PATH)
    instructions: Path | None = None  # a plugin-wide INSTRUCTIONS.md (listed, not loaded)
    rules: tuple[InstructionFile, ...] = ()  # a Cursor plugin's rules, with their conditions
    diagnostics: tuple[Diagnostic, ...] = ()
    enabled: bool = True
    data_dir: Path | None = None  # PLUGIN_DATA: computed at load, created before a run
    installed: str | None = None  # Claude Code's id for a plugin it installed (name@marketplace)

    def qualified(self, name: str) -> str:
        """`name` in the plugin's namespace: ``<namespace>:<name>``."""
        return f"{self.namespace}:{name}"

    def components(self) -> dict[str, int]:
        """How many of each component the plugin holds (for listings)."""
        return {
            "skills": len(self.skills),
            "commands": len(self.commands),
            "agents": len(self.agents),
            "mcp_servers": len(self.mcp_servers),
            "hooks": len(self.hooks),
            "knowledge": len(self.knowledge),
            "libraries": len(self.libraries),
            "connectors": len(self.connectors),
            "monitors": len(self.monitors),
            "bin": len(self.bin),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "root": str(self.root),
            "format": self.format,
            "namespace": self.namespace,
            "scope": self.scope,
            "version": self.version,
            "description": self.description,
            "vibe": self.vibe,
            "enabled": self.enabled,
            "components": self.components(),
            "skills": [self.qualified(s.name) for s in self.skills],
            "commands": [c.name for c in self.commands],
            "agents": [a.name for a in self.agents],
            "mcp_servers": [s.to_json() for s in self.mcp_servers],
            "hooks": [h.to_json() for h in self.hooks],
            "knowledge": [k.to_json() for k in self.knowledge],
            "libraries": [lib.to_json() for lib in self.libraries],
            "connectors": [c.to_json() for c in self.connectors],
            "tool_overrides": [o.to_json() for o in self.tool_overrides],
            "monitors": [m.to_json() for m in self.monitors],
            "bin": list(self.bin),
            "instructions": None if self.instructions is None else str(self.instructions),
            **({"rules": [r.to_json() for r in self.rules]} if self.rules else {}),
            "data_dir": None if self.data_dir is None else str(self.data_dir),
            **({"installed": self.installed} if self.installed else {}),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
