"""The fields of a Claude Code agent file that shape how the agent is spawned:
``skills``, ``mcpServers``, ``hooks``, ``maxTurns``, ``permissionMode``, ``memory``,
``initialPrompt``, ``background``, ``isolation``, ``effort`` and ``color``.

The rules are Claude Code 2.1.332's, read from its agent loader (the zod schema and
the per-field checks in the pinned binary, ``.tools/claude-code-2.1.332/claude``) and
from https://code.claude.com/docs/en/sub-agents. Claude Code drops a bad value and
loads the agent (it logs the reason to its debug log); satchel does the same and says
why with `agent.field.invalid` (warning). A plugin agent's ``permissionMode``,
``hooks``, ``mcpServers`` and ``initialPrompt`` are ignored, as Claude Code ignores
them, with `agent.field.ignored` (warning).

One rule differs on purpose: ``permissionMode: bypassPermissions`` (approve every
tool call) is honoured from a user file only; a project file cannot grant it (threat
model invariant I2, as for ``safety: yolo``), so it becomes ``default`` with
`agent.safety.capped`. Claude Code honours it from a project file too.

An integer ``effort`` is accepted when positive; Claude Code's exact bounds on it are
not verified.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from satchel.agents._fields import Problems
from satchel.core._model import model
from satchel.core._text import yes_or_no
from satchel.core.diagnostics import type_name
from satchel.foundations.origin import Origin
from satchel.hooks._parse import claude_hooks
from satchel.hooks._spec import HookSpec
from satchel.mcp._parse import claude_servers
from satchel.mcp._spec import McpServer

__all__ = [
    "AGENT_COLORS",
    "EFFORT_LEVELS",
    "ISOLATION_MODES",
    "MEMORY_SCOPES",
    "PERMISSION_MODES",
    "PLUGIN_IGNORED",
    "SPAWN_KEYS",
    "SpawnFields",
    "judge_spawn_fields",
]

PERMISSION_MODES = ("acceptEdits", "auto", "bypassPermissions", "default", "dontAsk", "plan")
EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
MEMORY_SCOPES = ("user", "project", "local")
ISOLATION_MODES = ("worktree", "remote")
AGENT_COLORS = ("red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan")
# What Claude Code ignores in a plugin's agent file ("Use .claude/agents/ for this level
# of control"); it ignores the observer keys there too, which satchel does not read.
PLUGIN_IGNORED = ("permissionMode", "hooks", "mcpServers", "initialPrompt")
SPAWN_KEYS = frozenset(
    ("skills", "mcpServers", "hooks", "maxTurns", "permissionMode", "memory",
     "initialPrompt", "background", "isolation", "effort", "color")
)  # fmt: skip
_BYPASS = "bypassPermissions"


@model
class SpawnFields:
    """The spawn fields of one agent file, judged (a dropped value is its default)."""

    skills: tuple[str, ...] = ()
    mcp_servers: tuple[McpServer, ...] = ()
    mcp_server_names: tuple[str, ...] = ()
    hooks: tuple[HookSpec, ...] = ()
    max_turns: int | None = None
    permission_mode: str | None = None
    memory: str | None = None
    initial_prompt: str | None = None
    background: bool = False
    isolation: str | None = None
    effort: str | int | None = None
    color: str | None = None

    def as_fields(self) -> dict[str, Any]:
        """These values by field name: `AgentType` has a field of each name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def judge_spawn_fields(
    p: Problems, fields: Mapping[str, Any], *, origin: Origin, path: Path
) -> SpawnFields:
    """The spawn fields of a Claude Code agent's frontmatter `fields`, found at `origin`."""
    fields = _plugin_view(p, fields, origin)
    names, inline = _mcp(p, fields.get("mcpServers"), origin, path)
    return SpawnFields(
        skills=_skills(p, fields.get("skills")),
        mcp_servers=inline,
        mcp_server_names=names,
        hooks=_hooks(p, fields.get("hooks"), path, origin),
        max_turns=_max_turns(p, fields.get("maxTurns")),
        permission_mode=_permission_mode(p, fields.get("permissionMode"), origin),
        memory=_one_of(p, "memory", fields.get("memory"), MEMORY_SCOPES),
        initial_prompt=_initial_prompt(p, fields.get("initialPrompt")),
        background=_background(p, fields.get("background")),
        isolation=_one_of(p, "isolation", fields.get("isolation"), ISOLATION_MODES),
        effort=_effort(p, fields.get("effort")),
        color=_one_of(p, "color", fields.get("color"), AGENT_COLORS),
    )


def _plugin_view(p: Problems, fields: Mapping[str, Any], origin: Origin) -> Mapping[str, Any]:
    if origin.plugin is None:
        return fields
    for key in PLUGIN_IGNORED:
        if key in fields:
            p.add(
                "agent.field.ignored",
                f"field `{key}` is ignored in a plugin's agent, as Claude Code ignores it",
                hint="define the agent in .claude/agents/ to use it",
            )
    return {k: v for k, v in fields.items() if k not in PLUGIN_IGNORED}


def _dropped(p: Problems, key: str, value: Any, rule: str) -> None:
    p.add("agent.field.invalid", f"field `{key}` {_shown(value)} {rule}; it is dropped")


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, (str, int, float, bool)) else f"({type_name(value)})"


def _skills(p: Problems, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [s.strip() for s in value.split(",")] if isinstance(value, str) else value
    if not isinstance(items, list):
        _dropped(p, "skills", value, "must be a list of skill names")
        return ()
    names: list[str] = []
    for item in items:
        if isinstance(item, str) and item.strip():
            names.append(item.strip())
        else:
            _dropped(p, "skills", item, "holds an item that is not a skill name")
    return tuple(dict.fromkeys(names))


def _mcp(
    p: Problems, value: Any, origin: Origin, path: Path
) -> tuple[tuple[str, ...], tuple[McpServer, ...]]:
    """The servers named (defined elsewhere) and the servers defined inline."""
    if value is None:
        return (), ()
    if not isinstance(value, list):
        _dropped(p, "mcpServers", value, "must be a list of server names or {name: server}")
        return (), ()
    names: list[str] = []
    inline: list[McpServer] = []
    root = origin.path or path.parent
    for item in value:
        if isinstance(item, str) and item.strip():
            names.append(item.strip())
        elif isinstance(item, dict) and item:
            servers, diags = claude_servers(item, root=root, plugin=origin.plugin or "", path=path)
            inline.extend(servers)
            p.diags.extend(diags)
        else:
            _dropped(p, "mcpServers", item, "holds an item that is not a name or {name: server}")
    return tuple(names), tuple(inline)


def _hooks(p: Problems, value: Any, path: Path, origin: Origin) -> tuple[HookSpec, ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        _dropped(p, "hooks", value, "must be an object (event -> matcher groups)")
        return ()
    hooks, diags = claude_hooks({"hooks": value}, path, origin.plugin or "")
    p.diags.extend(diags)
    return hooks


def _max_turns(p: Problems, value: Any) -> int | None:
    if value is None:
        return None
    number = value
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if isinstance(number, int) and not isinstance(number, bool) and number > 0:
        return number
    _dropped(p, "maxTurns", value, "must be a positive integer")
    return None


def _permission_mode(p: Problems, value: Any, origin: Origin) -> str | None:
    if value == "manual":
        value = "default"  # Claude Code's older name for it
    mode = _one_of(p, "permissionMode", value, PERMISSION_MODES)
    if mode == _BYPASS and origin.scope == "project":
        p.add(
            "agent.safety.capped",
            "field `permissionMode` 'bypassPermissions' (approve every tool call) cannot be "
            "granted by a project file; it is 'default'",
            hint="to approve everything, define the agent in your user agents directory",
        )
        return "default"
    return mode


def _one_of(p: Problems, key: str, value: Any, allowed: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value in allowed:
        return value
    _dropped(p, key, value, f"must be one of {', '.join(allowed)}")
    return None


def _initial_prompt(p: Problems, value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        _dropped(p, "initialPrompt", value, "must be a string")
        return None
    return value if value.strip() else None


def _background(p: Problems, value: Any) -> bool:
    if value is None:
        return False
    meaning = yes_or_no(value)
    if meaning is not None:
        return meaning
    _dropped(p, "background", value, "must be true or false")
    return False


def _effort(p: Problems, value: Any) -> str | int | None:
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    text = str(value).strip().lower() if isinstance(value, str) else None
    if text == "med":
        text = "medium"
    if text in EFFORT_LEVELS:
        return text
    if text is not None and text.isdigit() and int(text) > 0:
        return int(text)
    _dropped(p, "effort", value, f"must be one of {', '.join(EFFORT_LEVELS)} or a positive integer")
    return None
