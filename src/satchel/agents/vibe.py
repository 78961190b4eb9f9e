"""Vibe's TOML subagents: one ``<name>.toml`` per agent, the rules of seed 003 Step 7.

Vibe 3.0.3 reads snake_case keys (``schema_version``, ``agent_type``...); seed 003
writes camelCase (``schemaVersion``, ``agentType``...). Both spellings load; a file
that writes one key both ways is refused. The name is the file stem, namespaced
``<namespace>:<stem>`` for a plugin. Every broken rule is reported, each with its
own message; unknown keys are warned about and ignored. An empty ``enabled_tools``
means what it means to Vibe: no restriction.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel import frontmatter
from satchel.agents.fields import (
    Problems,
    instructions_problem,
    judge_model,
    judge_safety,
    resolve_tools,
    settle_safety,
)
from satchel.agents.model import AgentType, ToolRule
from satchel.agents.tools import DEFAULT_TOOL_MAP
from satchel.diagnostics import Diagnostic, type_name

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
_BOM = "\ufeff"

# a key as the file wrote it, and its value
_Field = tuple[str, Any]


def parse_vibe(
    data: bytes,
    path: Path,
    *,
    namespace: str | None = None,
    scope: str = "",
    family: str = "",
    plugin: str | None = None,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """The agent in the TOML file `data` (read from `path`), or None and why."""
    problem = frontmatter.check_text(data, 0, path)
    if problem is not None:
        return None, [problem]
    p = Problems(path)
    try:
        fields = tomllib.loads(data.decode("utf-8").removeprefix(_BOM))
    except tomllib.TOMLDecodeError as e:
        p.invalid(f"not valid TOML: {e}")
        return None, p.diags
    except RecursionError:
        p.invalid("the TOML nests too deep to read")
        return None, p.diags
    return vibe_agent(
        fields,
        path,
        namespace=namespace,
        scope=scope,
        family=family,
        plugin=plugin,
        tool_map=tool_map,
    )


def vibe_agent(
    fields: Mapping[str, Any],
    path: Path,
    *,
    namespace: str | None = None,
    scope: str = "",
    family: str = "",
    plugin: str | None = None,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """Judge a parsed Vibe agent table (from `path`) and build the agent if it is valid."""
    p = Problems(path)
    stem = path.stem
    if not _KEBAB.match(stem):
        p.add(
            "agent.name.invalid",
            f"the file name {path.name!r} is not lowercase kebab-case ({KEBAB})",
            severity="error",
        )
    values = _keys(p, fields)
    _schema_version(p, values.get("schema_version"))
    _agent_type(p, values.get("agent_type"))
    description = _description(p, values.get("description"))
    safety_field = values.get("safety")
    safety = None
    if safety_field is not None:
        safety = judge_safety(p, safety_field[1], allowed=VIBE_SAFETY, label=f"`{safety_field[0]}`")
    display_name = _string(p, values.get("display_name"))
    instructions = _string(p, values.get("instructions")) or ""
    instructions_problem(p, instructions)
    model_field = values.get("active_model")
    model, model_written = (None, None)
    if model_field is not None:
        model, model_written = judge_model(p, model_field[1], label=f"`{model_field[0]}`")
    enabled = _tool_list(p, values.get("enabled_tools")) or None  # [] means every tool
    disabled = _tool_list(p, values.get("disabled_tools"))
    rules = _tool_rules(p, values.get("tools"))
    tools = resolve_tools(p, enabled, tool_map, label=_label(values, "enabled_tools"))
    off = resolve_tools(p, disabled, tool_map, label=_label(values, "disabled_tools"))
    if p.failed or description is None:
        return None, p.diags
    agent = AgentType(
        name=stem if namespace is None else f"{namespace}:{stem}",
        description=description,
        instructions=instructions,
        tools=tools,
        tools_as_written=enabled,
        disabled_tools=off or (),
        disabled_tools_as_written=disabled or (),
        model=model,
        model_as_written=model_written,
        safety=settle_safety(safety, enabled),
        safety_as_written=safety,
        display_name=display_name,
        tool_rules=MappingProxyType(rules),
        format="vibe",
        path=path,
        scope=scope,
        family=family,
        plugin=plugin,
    )
    return agent, p.diags


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


def _description(p: Problems, field: _Field | None) -> str | None:
    if field is None:
        p.invalid(f"`description` is missing; it must be 1-{MAX_DESCRIPTION} characters")
        return None
    value = field[1]
    if not isinstance(value, str):
        p.invalid(f"`description` must be a string, not {type_name(value)}")
        return None
    if not 1 <= len(value) <= MAX_DESCRIPTION:
        p.invalid(f"`description` must be 1-{MAX_DESCRIPTION} characters; it has {len(value)}")
        return None
    return value


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
