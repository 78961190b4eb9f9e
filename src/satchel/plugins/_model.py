"""The plugin model: one value for every manifest format, with each component parsed.

Parsing only: nothing here starts a process. MCP servers and hooks are data that the
runtime (the MCP supervisor, the hook runner) acts on later, and only for trusted,
enabled plugins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from satchel.agents import AgentType
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.hooks._spec import HookSpec
from satchel.hosts._vocabulary import FORMATS, Format
from satchel.kinds._instructions._model import InstructionFile
from satchel.kinds.commands import Command
from satchel.mcp._spec import McpServer, Transport
from satchel.plugins._kinds import Channel, HooksModule, OutputStyle, Theme, Workflow
from satchel.plugins._lsp import LspServer
from satchel.skills._model import Skill

__all__ = [
    "FORMATS",
    "App",
    "Channel",
    "Connector",
    "Format",
    "HookSpec",
    "HooksModule",
    "Knowledge",
    "Library",
    "LspServer",
    "McpServer",
    "Monitor",
    "OutputStyle",
    "Plugin",
    "PluginSettings",
    "Theme",
    "ToolOverride",
    "Transport",
    "UserOption",
    "Workflow",
]


_EMPTY: Mapping[str, Any] = MappingProxyType({})
_NO_TEXT: Mapping[str, str] = MappingProxyType({})

OptionType = Literal["string", "number", "boolean", "directory", "file"]
OptionValue = str | int | float | bool | tuple[str, ...]
MASK = "***"  # what a sensitive option's value is shown as


@model
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


@model
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


@model
class Connector:
    """A managed connector the plugin requires, with the tools it uses."""

    id: str
    tools: tuple[str, ...] = ()
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "tools": list(self.tools), "plugin": self.plugin}


@model
class App:
    """A Codex app (a ChatGPT connector) a plugin declares in its ``.app.json``: the
    key it is listed under, the connector id, the capabilities it asks for."""

    name: str
    id: str
    capabilities: tuple[str, ...] = ()
    path: Path | None = None
    plugin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "id": self.id,
            "capabilities": list(self.capabilities),
            "path": None if self.path is None else str(self.path),
            "plugin": self.plugin,
        }


@model
class UserOption:
    """One ``userConfig`` option of a plugin. `choices` is the manifest's ``options``
    list (the only values the field takes), empty when it has none."""

    key: str
    type: OptionType
    title: str
    description: str
    required: bool = False
    default: OptionValue | None = None
    multiple: bool = False
    sensitive: bool = False
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    plugin: str | None = None

    @property
    def env_name(self) -> str:
        """The variable a hook or MCP server reads it from: ``CLAUDE_PLUGIN_OPTION_<KEY>``."""
        return "CLAUDE_PLUGIN_OPTION_" + re.sub(r"[^A-Za-z0-9_]", "_", self.key).upper()

    def to_json(self) -> dict[str, Any]:
        """The option; a sensitive option's default is masked."""
        default: Any = list(self.default) if isinstance(self.default, tuple) else self.default
        if self.sensitive and default is not None:
            default = MASK
        return {
            "key": self.key,
            "type": self.type,
            "title": self.title,
            "description": self.description,
            "required": self.required,
            "default": default,
            "multiple": self.multiple,
            "sensitive": self.sensitive,
            "min": self.min,
            "max": self.max,
            "options": list(self.choices),
            "env": self.env_name,
            "plugin": self.plugin,
        }


@model
class PluginSettings:
    """A Claude Code plugin's default settings: the manifest's ``settings`` object, then
    the root ``settings.json`` over it, key by key. Only `agent` (the plugin agent the
    main thread runs as) and `subagent_status_line` are applied; `sources` are the
    files that set them."""

    agent: str | None = None
    subagent_status_line: Mapping[str, Any] | None = None
    sources: tuple[Path, ...] = ()

    def to_json(self) -> dict[str, Any]:
        line = self.subagent_status_line
        return {
            "agent": self.agent,
            "subagentStatusLine": None if line is None else dict(line),
            "sources": [str(p) for p in self.sources],
        }


@model
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


@model
class ToolOverride:
    """Vibe's `toolOverrides` entry: rename a discovered tool and set its exposure."""

    key: str
    name: str | None = None
    exposure: Literal["programmatic", "direct", "direct_and_programmatic"] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "exposure": self.exposure}


@model
class Plugin:
    """One plugin, whatever its manifest format.

    `name` is the plugin's name; `namespace` prefixes its skills, commands, agents and
    knowledge (``<namespace>:<name>``; Vibe's `toolNamespace`, else the name). Skills
    keep their own `name`; `qualified(skill)` gives the namespaced one. `diagnostics`
    are the non-fatal problems of its parts (a fatal problem means no `Plugin`).
    `installed` is the installing host's id (``name@marketplace``) for a plugin read
    from ``~/.claude/plugins`` or ``~/.codex/plugins/cache`` (None for any other)."""

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
    apps: tuple[App, ...] = ()  # a Codex plugin's apps (.app.json)
    settings: PluginSettings | None = None  # a Claude Code plugin's default settings
    default_enabled: bool = True  # Claude Code's defaultEnabled
    lsp_servers: tuple[LspServer, ...] = ()
    tool_overrides: tuple[ToolOverride, ...] = ()
    output_styles: tuple[OutputStyle, ...] = ()
    themes: tuple[Theme, ...] = ()
    channels: tuple[Channel, ...] = ()
    workflows: tuple[Workflow, ...] = ()
    modules: tuple[HooksModule, ...] = ()  # hooks modules (ES modules), recognised, never run
    user_config: tuple[UserOption, ...] = ()  # Claude Code's userConfig options
    monitors: tuple[Monitor, ...] = ()
    bin: tuple[str, ...] = ()  # the file names in bin/ (Claude Code puts bin/ on PATH)
    instructions: Path | None = None  # a plugin-wide INSTRUCTIONS.md (listed, not loaded)
    rules: tuple[InstructionFile, ...] = ()  # a Cursor plugin's rules, with their conditions
    diagnostics: tuple[Diagnostic, ...] = ()
    enabled: bool = True
    data_dir: Path | None = None  # PLUGIN_DATA: computed at load, created before a run
    installed: str | None = None  # a host's id for a plugin it installed (name@marketplace)

    def qualified(self, name: str) -> str:
        """`name` in the plugin's namespace: ``<namespace>:<name>``."""
        return f"{self.namespace}:{name}"

    def components(self) -> dict[str, int]:
        """How many of each component the plugin holds (for listings); a kind Claude Code
        added later (output styles, themes, channels, workflows, modules) only when held."""
        return {
            "skills": len(self.skills),
            "commands": len(self.commands),
            "agents": len(self.agents),
            "mcp_servers": len(self.mcp_servers),
            "hooks": len(self.hooks),
            "knowledge": len(self.knowledge),
            "libraries": len(self.libraries),
            "connectors": len(self.connectors),
            "apps": len(self.apps),
            "lsp_servers": len(self.lsp_servers),
            "monitors": len(self.monitors),
            "bin": len(self.bin),
            **{kind: len(found) for kind, found in self._kinds().items() if found},
        }

    def _kinds(self) -> dict[str, tuple[Any, ...]]:
        """Claude Code's later kinds, listed and counted only when the plugin has them."""
        return {
            "output_styles": self.output_styles,
            "themes": self.themes,
            "channels": self.channels,
            "workflows": self.workflows,
            "modules": self.modules,
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
            **({"apps": [a.to_json() for a in self.apps]} if self.apps else {}),
            **({"settings": self.settings.to_json()} if self.settings else {}),
            **({} if self.default_enabled else {"default_enabled": False}),
            "lsp_servers": [s.to_json() for s in self.lsp_servers],
            "tool_overrides": [o.to_json() for o in self.tool_overrides],
            **{
                kind: [x.to_json() for x in found] for kind, found in self._kinds().items() if found
            },
            **(
                {"user_config": [o.to_json() for o in self.user_config]} if self.user_config else {}
            ),
            "monitors": [m.to_json() for m in self.monitors],
            "bin": list(self.bin),
            "instructions": None if self.instructions is None else str(self.instructions),
            **({"rules": [r.to_json() for r in self.rules]} if self.rules else {}),
            "data_dir": None if self.data_dir is None else str(self.data_dir),
            **({"installed": self.installed} if self.installed else {}),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
