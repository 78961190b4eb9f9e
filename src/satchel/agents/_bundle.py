"""Agent types as TOML tables: a plugin bundle's ``types.toml`` (``[types.<name>]``,
mermaid) and a host config's ``[agents.types.<name>]``, which have the same shape.

Keys: ``description`` (required), ``instructions`` (or ``prompt`` or
``system_prompt``, one of them), ``tools`` (mapped like Claude Code's),
``disabled_tools``, ``model``, ``safety``, ``isolation``, ``display_name``. Any other
key is kept in `extras`. ``model`` is honoured in ``provider/model`` form only, as
for Claude Code. A bundle's types are a plugin's, so a ``yolo`` safety is capped at
``destructive`` (`agent.safety.capped`); the host config's types keep it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel.agents._fields import (
    Problems,
    finish_agent,
    instructions_problem,
    judge_description,
    judge_name,
    judge_shared,
    judge_string,
)
from satchel.agents._model import AgentType
from satchel.agents._read import read_agent_file, toml_table
from satchel.agents._tools import DEFAULT_TOOL_MAP
from satchel.core.diagnostics import Diagnostic, diagnostic, type_name
from satchel.foundations.origin import NO_ORIGIN, Origin

__all__ = [
    "BUNDLE_FIELDS",
    "config_agents",
    "load_bundle",
    "MAX_BUNDLE_FILE",
    "MAX_TYPES",
    "parse_bundle",
    "typed_agent",
]

MAX_BUNDLE_FILE = 1024 * 1024
PLUGIN_ORIGIN = Origin("plugin")  # a bundle file read with no plugin named
CONFIG_ORIGIN = Origin("config")  # a host config's agent tables
MAX_TYPES = 128
INSTRUCTION_KEYS = ("instructions", "prompt", "system_prompt")
BUNDLE_FIELDS = frozenset(
    (
        "description", *INSTRUCTION_KEYS, "tools", "disabled_tools", "model", "safety",
        "isolation", "display_name",
    )
)  # fmt: skip


def load_bundle(
    path: Path,
    *,
    origin: Origin = PLUGIN_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[list[AgentType], list[Diagnostic]]:
    """Read the bundle file at `path` (at most 1 MiB) into agent types."""
    data, diags = read_agent_file(path, cap=MAX_BUNDLE_FILE)
    if data is None:
        return [], diags
    return parse_bundle(data, path, origin=origin, tool_map=tool_map)


def parse_bundle(
    data: bytes,
    path: Path,
    *,
    origin: Origin = PLUGIN_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[list[AgentType], list[Diagnostic]]:
    """The ``[types.<name>]`` tables of a bundle file, in file order (at most 128)."""
    doc, problem = toml_table(data, path)
    if problem is not None:
        return [], [problem]
    diags = [
        diagnostic("agent.field.unknown", f"unknown key `{key}` is ignored", path)
        for key in doc
        if key != "types"
    ]
    types = doc.get("types", {})
    if not isinstance(types, dict):
        message = f"`types` must be a table of [types.<name>] tables, not {type_name(types)}"
        return [], [*diags, diagnostic("agent.invalid", message, path)]
    agents, more = _tables(
        types,
        path,
        fmt="bundle",
        origin=origin,
        tool_map=tool_map,
        where="types",
    )
    return agents, diags + more


def config_agents(
    types: Mapping[str, Mapping[str, Any]],
    *,
    path: Path | None = None,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[list[AgentType], list[Diagnostic]]:
    """A host config's ``[agents.types.<name>]`` tables, already parsed, as agent
    types of format ``config`` (`path` is the config file, for messages)."""
    return _tables(
        types,
        path,
        fmt="config",
        origin=CONFIG_ORIGIN,
        tool_map=tool_map,
        where="agents.types",
        limit=None,
    )


def _tables(
    types: Mapping[str, Any],
    path: Path | None,
    *,
    fmt: str,
    origin: Origin,
    tool_map: Mapping[str, Sequence[str]],
    where: str,
    limit: int | None = MAX_TYPES,
) -> tuple[list[AgentType], list[Diagnostic]]:
    agents: list[AgentType] = []
    diags: list[Diagnostic] = []
    names = list(types)
    if limit is not None and len(names) > limit:
        message = f"{len(names)} agent types in one file; only the first {limit} are read"
        diags.append(diagnostic("agent.limit", message, path))
        names = names[:limit]
    for name in names:
        agent, more = typed_agent(
            name,
            types[name],
            path,
            fmt=fmt,
            origin=origin,
            tool_map=tool_map,
            where=where,
        )
        diags.extend(more)
        if agent is not None:
            agents.append(agent)
    return agents, diags


def typed_agent(
    name: str,
    table: Any,
    path: Path | None,
    *,
    fmt: str = "bundle",
    origin: Origin = NO_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
    where: str = "types",
) -> tuple[AgentType | None, list[Diagnostic]]:
    """One ``[<where>.<name>]`` table judged and built into an agent type."""
    p = Problems(path)
    label = f"[{where}.{name}]"
    if not isinstance(table, Mapping):
        p.invalid(f"{label} must be a table, not {type_name(table)}")
        return None, p.diags
    checked = judge_name(p, name, label=f"{label} name")
    description = judge_description(
        p,
        table.get("description"),
        label=f"{label} description",
        missing=f"{label} has no description, so no model would know when to use it",
    )
    agent = _judged(p, label, table, tool_map)
    if p.failed or checked is None or description is None:
        return None, p.diags
    agent = replace(agent, format=fmt)
    return finish_agent(p, agent, checked, description, origin=origin, path=path)


def _judged(
    p: Problems, label: str, table: Mapping[str, Any], tool_map: Mapping[str, Sequence[str]]
) -> AgentType:
    """Everything but the name, description and origin, judged (they are left for
    the caller)."""
    instructions = _instructions(p, label, table)
    agent = judge_shared(
        p, table, tool_map, disabled_key="disabled_tools", label=lambda key: f"{label} {key}"
    )
    return replace(
        agent,
        instructions=instructions,
        isolation=judge_string(p, table.get("isolation"), f"{label} isolation"),
        display_name=judge_string(p, table.get("display_name"), f"{label} display_name"),
        extras=MappingProxyType({k: v for k, v in table.items() if k not in BUNDLE_FIELDS}),
    )


def _instructions(p: Problems, label: str, table: Mapping[str, Any]) -> str:
    given = [key for key in INSTRUCTION_KEYS if key in table]
    if len(given) > 1:
        p.invalid(f"{label} sets {' and '.join(given)}; they are one field, write only one")
        return ""
    if not given:
        return ""
    value = table[given[0]]
    if not isinstance(value, str):
        p.invalid(f"{label} {given[0]} must be a string, not {type_name(value)}")
        return ""
    instructions_problem(p, value, label=f"{label} {given[0]}")
    return value
