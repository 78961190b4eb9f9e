"""The `AgentType` value: one subagent type, whichever file or table it came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.agents._spawn import (
    SkillSource,
    SpawnSpec,
    allowed_tools,
    named_servers,
    preload_skills,
    spawn_model,
)
from satchel.core._json import jsonable
from satchel.core._model import model
from satchel.foundations.origin import NO_ORIGIN, Origin, Originated
from satchel.hooks._spec import HookSpec
from satchel.mcp._spec import McpServer

__all__ = ["AgentType", "FORMATS", "SAFETY_LEVELS", "ToolRule"]

# From the most to the least careful; None on an agent means the session's default.
SAFETY_LEVELS = ("read_only", "safe", "neutral", "destructive", "yolo")
FORMATS = ("claude", "vibe", "bundle", "config", "builtin")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@model
class ToolRule:
    """A Vibe ``[tools.<name>]`` table: a permission and command allow/deny lists."""

    permission: str | None = None
    allowlist: tuple[str, ...] = ()
    denylist: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "permission": self.permission,
            "allowlist": list(self.allowlist),
            "denylist": list(self.denylist),
        }


@model
class AgentType(Originated):
    """One subagent type.

    `instructions` is its system prompt. `tools` holds canonical names after mapping
    (None: it inherits every tool); `*_as_written` keep the file's own values.
    `model` is set only for a ``provider/model`` value (a Vibe ``active_model``: as
    written). `safety` is a ceiling from `SAFETY_LEVELS`, or None for the session's
    default. `format` is one of `FORMATS`; `origin` says where it was found: its
    `scope` and `family` (``project`` and ``.claude``, ``config``, ``plugin``), the
    `plugin` that ships it; `overrides_builtin`
    marks a user file or a config type that replaces a built-in type of the host.

    The spawn fields of a Claude Code file (`satchel.agents._spawnfields`): `skills` to
    preload, `mcp_servers` defined inline and `mcp_server_names` defined elsewhere,
    `hooks` scoped to the agent, `max_turns`, `permission_mode`, `memory` scope,
    `initial_prompt`, `background`, `effort` and `color`; `spawn_spec()` puts them
    together for a host.
    """

    name: str
    description: str
    instructions: str = ""
    tools: tuple[str, ...] | None = None
    tools_as_written: tuple[str, ...] | None = None
    disabled_tools: tuple[str, ...] = ()
    disabled_tools_as_written: tuple[str, ...] = ()
    model: str | None = None
    model_as_written: str | None = None
    safety: str | None = None
    safety_as_written: str | None = None
    isolation: str | None = None
    display_name: str | None = None
    tool_rules: Mapping[str, ToolRule] = field(default_factory=lambda: _EMPTY)
    format: str = "config"
    path: Path | None = None
    origin: Origin = NO_ORIGIN
    overrides_builtin: bool = False
    extras: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    skills: tuple[str, ...] = ()
    mcp_servers: tuple[McpServer, ...] = ()
    mcp_server_names: tuple[str, ...] = ()
    hooks: tuple[HookSpec, ...] = ()
    max_turns: int | None = None
    permission_mode: str | None = None
    memory: str | None = None
    initial_prompt: str | None = None
    background: bool = False
    effort: str | int | None = None
    color: str | None = None

    def spawn_spec(self, env: SkillSource) -> SpawnSpec:
        """What a host needs to start this agent: its preloaded skills' bodies read from
        `env`'s skills, its named MCP servers looked up in `env`'s servers, and its own
        hooks as `env` judges them (an `Environment`: `Environment.own_hooks`); what
        cannot be found is in `SpawnSpec.diagnostics`."""
        skills, missing = preload_skills(self.skills, self.origin.namespace, env, self.path)
        servers, unknown = named_servers(self.mcp_server_names, env, self.path)
        hooks = env.own_hooks(self)
        return SpawnSpec(
            name=self.name,
            system_prompt=self.instructions,
            tools=allowed_tools(self.tools, self.disabled_tools),
            disallowed_tools=self.disabled_tools,
            model=spawn_model(self.model or self.model_as_written),
            effort=self.effort,
            max_turns=self.max_turns,
            permission_mode=self.permission_mode,
            skills=skills,
            mcp_servers=self.mcp_servers + servers,
            hooks=hooks.loaded(),
            memory=self.memory,
            initial_prompt=self.initial_prompt,
            background=self.background,
            isolation=self.isolation,
            color=self.color,
            diagnostics=(*missing, *unknown, *hooks.diagnostics),
            held_hooks=tuple(h for h in hooks.hooks if not h.loaded),
        )

    def to_json(self) -> dict[str, Any]:
        """The agent type as JSON-ready data."""
        return {
            "name": self.name,
            "description": self.description,
            "instructions": self.instructions,
            "tools": _list_or_none(self.tools),
            "tools_as_written": _list_or_none(self.tools_as_written),
            "disabled_tools": list(self.disabled_tools),
            "disabled_tools_as_written": list(self.disabled_tools_as_written),
            "model": self.model,
            "model_as_written": self.model_as_written,
            "safety": self.safety,
            "safety_as_written": self.safety_as_written,
            "isolation": self.isolation,
            "display_name": self.display_name,
            "tool_rules": {name: rule.to_json() for name, rule in self.tool_rules.items()},
            "format": self.format,
            "path": None if self.path is None else str(self.path),
            "scope": self.scope,
            "family": self.family,
            "plugin": self.plugin,
            "overrides_builtin": self.overrides_builtin,
            "extras": jsonable(dict(self.extras)),
            "skills": list(self.skills),
            "mcp_servers": [s.to_json() for s in self.mcp_servers],
            "mcp_server_names": list(self.mcp_server_names),
            "hooks": [h.to_json() for h in self.hooks],
            "max_turns": self.max_turns,
            "permission_mode": self.permission_mode,
            "memory": self.memory,
            "initial_prompt": self.initial_prompt,
            "background": self.background,
            "effort": self.effort,
            "color": self.color,
        }


def _list_or_none(values: tuple[str, ...] | None) -> list[str] | None:
    return None if values is None else list(values)
