"""Vibe's TOML subagents: one ``<name>.toml`` per agent, the rules of Vibe Step 7.

Vibe 3.0.3 reads snake_case keys (``schema_version``, ``agent_type``...); Vibe
writes camelCase (``schemaVersion``, ``agentType``...). Both spellings load; a file
that writes one key both ways is refused. The name is the file stem, namespaced
``<namespace>:<stem>`` for a plugin. Every broken rule is reported, each with its
own message; unknown keys are warned about and ignored. An empty ``enabled_tools``
means what it means to Vibe: no restriction.

``active_model`` names a model in the host's config, as it does in Vibe (Vibe's
own example is ``activeModel = "mistral-medium-3.5"``), so it is kept as written and
honoured, with no `agent.model.alias`. The ``provider/model`` rule is mermaid's for
Claude Code's ``model:`` and holds for the Claude Code and bundle formats only.

Tool names are Vibe's own (``bash``, ``grep``, ``search_replace``...): they pass
through as written, like canonical names, without `agent.tool.unknown` (see
`satchel.agents._tools.VIBE_KNOWN`). A ``yolo`` safety from a project or plugin file
is capped at ``destructive`` (`agent.safety.capped`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.agents._fields import (
    Problems,
    finish_agent,
    instructions_problem,
    judge_description,
    judge_model,
    judge_safety,
    resolve_tools,
    settle_safety,
)
from satchel.agents._model import AgentType, ToolRule
from satchel.agents._read import toml_table
from satchel.agents._tools import DEFAULT_TOOL_MAP, VIBE_KNOWN
from satchel.core.diagnostics import Diagnostic, type_name
from satchel.foundations.origin import NO_ORIGIN, Origin

__all__ = [
    "MAX_DESCRIPTION",
    "MAX_TOOL_NAMES",
    "parse_vibe",
    "SPELLINGS",
    "TOOL_PERMISSIONS",
    "vibe_agent",
    "VIBE_SAFETY",
]

VIBE_SAFETY = ("safe", "neutral", "destructive", "yolo")
TOOL_PERMISSIONS = ("always", "ask", "never")  # Vibe's ToolPermission values
MAX_DESCRIPTION = 300
MAX_TOOL_NAMES = 128
KEBAB = r"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$"
_KEBAB = re.compile(KEBAB)
# snake_case key -> its camelCase spelling (None: one word, one spelling)
SPELLINGS: Mapping[str, str | None] = MappingProxyType(
    {
        "schema_version": "schemaVersion",
        "agent_type": "agentType",
        "display_name": "displayName",
        "description": None,
        "safety": None,
        "active_model": "activeModel",
        "instructions": None,
        "enabled_tools": "enabledTools",
        "disabled_tools": "disabledTools",
        "tools": None,
    }
)
_RULE_KEYS = ("permission", "allowlist", "denylist")
_NO_DESCRIPTION = f"`description` is missing; it must be 1-{MAX_DESCRIPTION} characters"

# a key as the file wrote it, and its value
_Field = tuple[str, Any]


def parse_vibe(
    data: bytes,
    path: Path,
    *,
    origin: Origin = NO_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """The agent in the TOML file `data` (read from `path`), or None and why."""
    fields, problem = toml_table(data, path)
    if problem is not None:
        return None, [problem]
    return vibe_agent(
        fields,
        path,
        origin=origin,
        tool_map=tool_map,
    )


def vibe_agent(
    fields: Mapping[str, Any],
    path: Path,
    *,
    origin: Origin = NO_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """Judge a parsed Vibe agent table (from `path`) and build the agent if it is valid."""
    p = Problems(path)
    values = _header(p, path, fields)
    description = judge_description(
        p, _value(values, "description"), missing=_NO_DESCRIPTION, max_chars=MAX_DESCRIPTION
    )
    agent = _judged(p, values, tool_map)
    if p.failed or description is None:
        return None, p.diags
    return finish_agent(
        p,
        agent,
        path.stem,
        description,
        origin=origin,
        path=path,
    )


def _header(p: Problems, path: Path, fields: Mapping[str, Any]) -> dict[str, _Field]:
    """The file name, the key spellings, `schema_version` and `agent_type` checked;
    each known key under its snake_case name."""
    if not _KEBAB.match(path.stem):
        p.add(
            "agent.name.invalid",
            f"the file name {path.name!r} is not lowercase kebab-case ({KEBAB})",
            severity="error",
        )
    values = _keys(p, fields)
    _schema_version(p, values.get("schema_version"))
    _agent_type(p, values.get("agent_type"))
    return values


def _judged(
    p: Problems, values: Mapping[str, _Field], tool_map: Mapping[str, Sequence[str]]
) -> AgentType:
    """Everything but the name, description and origin, judged (they are left for
    the caller)."""
    safety = _safety(p, values.get("safety"))
    display_name = _string(p, values.get("display_name"))
    instructions = _string(p, values.get("instructions")) or ""
    instructions_problem(p, instructions)
    model = _active_model(p, values.get("active_model"))
    enabled = _tool_list(p, values.get("enabled_tools")) or None  # [] means every tool
    disabled = _tool_list(p, values.get("disabled_tools"))
    rules = _tool_rules(p, values.get("tools"))
    tools = _resolve(p, values, "enabled_tools", enabled, tool_map)
    off = _resolve(p, values, "disabled_tools", disabled, tool_map)
    return AgentType(
        name="",
        description="",
        instructions=instructions,
        tools=tools,
        tools_as_written=enabled,
        disabled_tools=off or (),
        disabled_tools_as_written=disabled or (),
        model=model,
        model_as_written=model,
        safety=settle_safety(safety, enabled),
        safety_as_written=safety,
        display_name=display_name,
        tool_rules=MappingProxyType(rules),
        format="vibe",
    )


def _keys(p: Problems, fields: Mapping[str, Any]) -> dict[str, _Field]:
    """Each known key under its snake_case name, with the spelling the file used."""
    camel = {c: s for s, c in SPELLINGS.items() if c is not None}
    values: dict[str, _Field] = {}
    for key, value in fields.items():
        snake = key if key in SPELLINGS else camel.get(key)
        if snake is None:
            p.add("agent.field.unknown", f"unknown key `{key}` is ignored")
        elif snake in values:
            p.invalid(
                f"`{snake}` and `{SPELLINGS[snake]}` are two spellings of one key; write only one"
            )
        else:
            values[snake] = (key, value)
    return values


def _label(values: Mapping[str, _Field], snake: str) -> str:
    field = values.get(snake)
    return f"`{snake if field is None else field[0]}`"


def _value(values: Mapping[str, _Field], snake: str) -> Any:
    field = values.get(snake)
    return None if field is None else field[1]


def _safety(p: Problems, field: _Field | None) -> str | None:
    if field is None:
        return None
    return judge_safety(p, field[1], allowed=VIBE_SAFETY, label=f"`{field[0]}`")


def _active_model(p: Problems, field: _Field | None) -> str | None:
    """The model as written: Vibe resolves the name in its own config. Only a value
    that is not a string is dropped, with the info."""
    if field is None or isinstance(field[1], str):
        return None if field is None else field[1] or None
    judge_model(p, field[1], label=f"`{field[0]}`")
    return None


def _resolve(
    p: Problems,
    values: Mapping[str, _Field],
    snake: str,
    written: tuple[str, ...] | None,
    tool_map: Mapping[str, Sequence[str]],
) -> tuple[str, ...] | None:
    label = _label(values, snake)
    return resolve_tools(p, written, tool_map, label=label, known=VIBE_KNOWN)


def _schema_version(p: Problems, field: _Field | None) -> None:
    if field is None:
        p.invalid("`schema_version` must be 1; it is missing")
    elif field[1] != 1 or isinstance(field[1], bool | float):
        p.invalid(f"`{field[0]}` must be 1, not {field[1]!r}")


def _agent_type(p: Problems, field: _Field | None) -> None:
    if field is None:
        p.invalid('`agent_type` must be "subagent"; it is missing')
    elif field[1] != "subagent":
        p.invalid(f'`{field[0]}` must be "subagent", not {field[1]!r}')


def _string(p: Problems, field: _Field | None) -> str | None:
    if field is None:
        return None
    if not isinstance(field[1], str):
        p.invalid(f"`{field[0]}` must be a string, not {type_name(field[1])}")
        return None
    return field[1]


def _tool_list(p: Problems, field: _Field | None) -> tuple[str, ...] | None:
    """A list of tool names: strings, none empty, none twice, at most 128."""
    if field is None:
        return None
    key, value = field
    if not isinstance(value, list):
        p.invalid(f"`{key}` must be a list of tool names, not {type_name(value)}")
        return None
    seen: set[str] = set()
    for item in value:
        if not isinstance(item, str):
            p.invalid(f"`{key}` must hold only tool names, not {type_name(item)}")
            continue
        if not item.strip():
            p.invalid(f"`{key}` holds an empty tool name")
        elif item in seen:
            p.invalid(f"`{key}` holds {item!r} more than once")
        seen.add(item)
    if len(value) > MAX_TOOL_NAMES:
        p.invalid(f"`{key}` holds {len(value)} names; the limit is {MAX_TOOL_NAMES}")
    return tuple(v for v in value if isinstance(v, str))


def _tool_rules(p: Problems, field: _Field | None) -> dict[str, ToolRule]:
    """The ``[tools.<name>]`` tables."""
    if field is None:
        return {}
    if not isinstance(field[1], dict):
        p.invalid(f"`tools` must be a table of [tools.<name>] tables, not {type_name(field[1])}")
        return {}
    rules: dict[str, ToolRule] = {}
    for name, table in field[1].items():
        where = f"[tools.{name}]" if name else '[tools.""]'
        if not name.strip():
            p.invalid(f"{where} names no tool")
        elif not isinstance(table, dict):
            p.invalid(f"{where} must be a table, not {type_name(table)}")
        else:
            rules[name] = _tool_rule(p, where, table)
    return rules


def _tool_rule(p: Problems, where: str, table: Mapping[str, Any]) -> ToolRule:
    for key in table:
        if key not in _RULE_KEYS:
            p.add("agent.field.unknown", f"{where} unknown key `{key}` is ignored")
    permission = table.get("permission")
    if permission is not None and permission not in TOOL_PERMISSIONS:
        p.invalid(
            f"{where} permission must be one of {', '.join(TOOL_PERMISSIONS)}, not {permission!r}"
        )
        permission = None
    lists: dict[str, tuple[str, ...]] = {}
    for key in ("allowlist", "denylist"):
        value = table.get(key, [])
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            lists[key] = tuple(value)
        else:
            p.invalid(f"{where} {key} must be a list of strings")
            lists[key] = ()
    return ToolRule(permission, lists["allowlist"], lists["denylist"])
