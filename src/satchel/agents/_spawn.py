"""`SpawnSpec`: everything a host needs to start one agent, from its `AgentType`.

The preloaded skills are Claude Code's agent ``skills`` field: each named skill's whole
body is injected into the agent's context when it starts (not just listed), as
https://code.claude.com/docs/en/sub-agents says. A name is looked up as written, then,
for a plugin agent, as ``<plugin>:<name>``. Hooks scoped to an agent fire while it runs;
a ``Stop`` hook there fires as ``SubagentStop``, as Claude Code converts it (same page).

The environment judges an agent's hooks as it judges a skill's (`own_hooks`): the
spec hands a host only those satchel's runner would run (`SpawnSpec.hooks`), and keeps
the others, each with why (`SpawnSpec.held_hooks`): a project agent's hooks in a
folder that is not trusted, or new or changed since `satchel trust` pinned it, or
refused by the policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from satchel.agents._tools import map_tools
from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import SkillBodyError
from satchel.hooks._model import Hook, HookSet
from satchel.hooks._spec import HookSpec
from satchel.mcp._servers import McpServerSet
from satchel.mcp._spec import McpServer
from satchel.skills import Skill

__all__ = [
    "allowed_tools",
    "named_servers",
    "PreloadedSkill",
    "preload_skills",
    "SkillSource",
    "spawn_model",
    "SpawnSpec",
    "subagent_hooks",
]


class SkillSource(Protocol):
    """What a spawn reads of an `Environment`: its skills, its MCP servers, and how it
    judges an agent's own hooks (`Environment.own_hooks`)."""

    @property
    def skills(self) -> Mapping[str, Skill]: ...

    @property
    def mcp_servers(self) -> McpServerSet: ...

    def own_hooks(self, item: Any) -> HookSet: ...  # item: the `AgentType` spawned


@model
class PreloadedSkill:
    """One skill injected into the agent's context at spawn: its name and whole body."""

    name: str
    body: str


@model
class SpawnSpec:
    """One agent, ready to start. `tools` are canonical names with the disallowed ones
    taken out (None: every tool the session has, less `disallowed_tools`); `model` is
    as written (None: the session's, as `inherit` is); `skills` are the preloaded
    bodies in the order the file names them; `mcp_servers` the inline ones, then the
    named ones found in the environment; `hooks` the agent's own hooks that run while
    it does (a ``Stop`` hook as ``SubagentStop``), as satchel's runner would run them,
    and `held_hooks` those that do not, each skipped with its `Hook.why` (the project
    is not trusted, the hook changed since it was, the policy refuses it);
    `diagnostics` what could not be resolved."""

    name: str
    system_prompt: str
    tools: tuple[str, ...] | None
    disallowed_tools: tuple[str, ...]
    model: str | None
    effort: str | int | None
    max_turns: int | None
    permission_mode: str | None
    skills: tuple[PreloadedSkill, ...]
    mcp_servers: tuple[McpServer, ...]
    hooks: tuple[Hook, ...]
    memory: str | None
    initial_prompt: str | None
    background: bool
    isolation: str | None
    color: str | None
    diagnostics: tuple[Diagnostic, ...] = ()
    held_hooks: tuple[Hook, ...] = ()

    def prompt(self) -> str:
        """The agent's system prompt, then each preloaded skill's whole body in a
        ``<skill_content name="...">`` block: what the agent starts with."""
        blocks = (
            f'<skill_content name="{s.name}">\n{s.body}\n</skill_content>' for s in self.skills
        )
        return "\n\n".join(p for p in (self.system_prompt, *blocks) if p)

    def allows(self, tool: str) -> bool:
        """Whether the agent may use the host's tool `tool`: the canonical tools its
        name stands for (`map_tools`: ``Read`` is ``read_file``, an ``mcp__`` tool is
        ``mcp``; any other name stands for itself) meet `tools` (None: every tool)
        and none of `disallowed_tools`."""
        mapped = set(map_tools([tool])[0])
        if mapped & set(self.disallowed_tools):
            return False
        return self.tools is None or bool(mapped & set(self.tools))

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON-ready data."""
        return {
            "name": self.name,
            "system_prompt": self.system_prompt,
            "tools": None if self.tools is None else list(self.tools),
            "disallowed_tools": list(self.disallowed_tools),
            "model": self.model,
            "effort": self.effort,
            "max_turns": self.max_turns,
            "permission_mode": self.permission_mode,
            "skills": [{"name": s.name, "body": s.body} for s in self.skills],
            "mcp_servers": [s.to_json() for s in self.mcp_servers],
            "hooks": [h.to_json() for h in self.hooks],
            "held_hooks": [h.to_json() for h in self.held_hooks],
            "memory": self.memory,
            "initial_prompt": self.initial_prompt,
            "background": self.background,
            "isolation": self.isolation,
            "color": self.color,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def preload_skills(
    names: tuple[str, ...], namespace: str | None, env: SkillSource, path: Path | None
) -> tuple[tuple[PreloadedSkill, ...], list[Diagnostic]]:
    """The bodies of the skills `names` names, found in `env` (as written, then as
    ``<namespace>:<name>``), and what could not be found or read."""
    diags: list[Diagnostic] = []
    found = tuple(s for n in names if (s := _preload(n, namespace, env, path, diags)) is not None)
    return found, diags


def named_servers(
    names: tuple[str, ...], env: SkillSource, path: Path | None
) -> tuple[tuple[McpServer, ...], list[Diagnostic]]:
    """The MCP servers `names` names, found in `env`, and the names that are not."""
    diags: list[Diagnostic] = []
    found = tuple(m for n in names if (m := _server(n, env, path, diags)) is not None)
    return found, diags


def allowed_tools(
    tools: tuple[str, ...] | None, disallowed: tuple[str, ...]
) -> tuple[str, ...] | None:
    """`tools` less `disallowed` (None, every tool, stays None)."""
    return None if tools is None else tuple(t for t in tools if t not in disallowed)


def spawn_model(model: str | None) -> str | None:
    """The model to start with: None for the session's (``inherit`` too)."""
    return None if model is None or model.lower() == "inherit" else model


def subagent_hooks(hooks: tuple[HookSpec, ...]) -> tuple[HookSpec, ...]:
    """`hooks` as they fire inside the agent: ``Stop`` is ``SubagentStop``."""
    return tuple(replace(h, event="SubagentStop") if h.event == "Stop" else h for h in hooks)


def _preload(
    name: str, namespace: str | None, env: SkillSource, path: Path | None, diags: list[Diagnostic]
) -> PreloadedSkill | None:
    found = env.skills.get(name)
    if found is None and namespace is not None:
        found = env.skills.get(f"{namespace}:{name}")
    if found is None:
        message = f"the agent preloads skill {name!r}, which is not loaded; it is left out"
        diags.append(diagnostic("agent.preload.missing", message, path))
        return None
    try:
        return PreloadedSkill(found.name, found.body())
    except SkillBodyError as e:
        message = f"the agent preloads skill {name!r}, whose body cannot be read: {e}"
        diags.append(diagnostic("agent.preload.missing", message, path))
        return None


def _server(
    name: str, env: SkillSource, path: Path | None, diags: list[Diagnostic]
) -> McpServer | None:
    found = env.mcp_servers.get(name)
    if found is None:
        message = f"the agent names MCP server {name!r}, which is not configured; it is left out"
        diags.append(diagnostic("agent.mcp.missing", message, path))
    return found
