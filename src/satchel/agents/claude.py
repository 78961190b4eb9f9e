"""Claude Code's subagent format: ``agents/*.md``, frontmatter plus a system prompt.

Claude Code skips a file silently when its name holds ``:`` or starts with ``-``,
when it has a name but no description, or when its YAML is bad. satchel skips the
same files but says why. A name that breaks the lowercase kebab-case rule but can
still be typed loads, with a warning. Unquoted ``: `` in a description (common in
real agent files with ``<example>`` blocks) loads through the frontmatter colon
fallback, with its warning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from satchel import frontmatter
from satchel.agents.fields import (
    Problems,
    capped_safety,
    judge_description,
    judge_model,
    judge_name,
    judge_safety,
    loose_tool_list,
    resolve_tools,
    settle_safety,
)
from satchel.agents.model import AgentType
from satchel.agents.tools import DEFAULT_TOOL_MAP
from satchel.diagnostics import Diagnostic, type_name

__all__ = ["claude_agent", "CLAUDE_FIELDS", "parse_claude"]

CLAUDE_FIELDS = frozenset(
    ("name", "description", "tools", "disallowedTools", "model", "isolation", "safety")
)
_NO_DESCRIPTION = (
    "the agent has no description, so no model would know when to delegate to it; it is skipped"
)


def parse_claude(
    data: bytes,
    path: Path,
    *,
    scope: str = "",
    family: str = "",
    namespace: str | None = None,
    plugin: str | None = None,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """The agent in the Markdown file `data` (read from `path`), or None and why."""
    parsed = frontmatter.parse(data, path)
    diags = list(parsed.diagnostics)
    if parsed.fields is None:
        return None, diags
    problem = frontmatter.check_text(data, 0, path)
    if problem is not None:
        return None, [*diags, problem]
    body = frontmatter.decode_body(data, parsed.body_start)
    agent, more = claude_agent(
        parsed.fields,
        body,
        path,
        scope=scope,
        family=family,
        namespace=namespace,
        plugin=plugin,
        tool_map=tool_map,
    )
    return agent, diags + more


def claude_agent(
    fields: Mapping[str, Any],
    instructions: str,
    path: Path,
    *,
    scope: str = "",
    family: str = "",
    namespace: str | None = None,
    plugin: str | None = None,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """Judge parsed frontmatter `fields` and build the agent when it is usable."""
    p = Problems(path)
    if "name" in fields:
        name = judge_name(p, fields["name"])
    else:
        name = judge_name(p, path.stem, label="file name")
    description = judge_description(
        p, fields.get("description"), label="field `description`", missing=_NO_DESCRIPTION,
        hint="add a description: line saying when to use this agent",
    )  # fmt: skip
    if name is None or description is None:
        return None, p.diags
    agent = _judged(p, fields, tool_map)
    if p.failed:
        return None, p.diags
    agent = replace(
        agent,
        name=name if namespace is None else f"{namespace}:{name}",
        description=description,
        instructions=instructions,
        path=path,
        scope=scope,
        family=family,
        plugin=plugin,
    )
    return capped_safety(p, agent), p.diags


def _judged(
    p: Problems, fields: Mapping[str, Any], tool_map: Mapping[str, Sequence[str]]
) -> AgentType:
    """The agent's tools, model, safety, isolation and extras, judged; name,
    description and origin are left for the caller."""
    tools_written = loose_tool_list(p, fields.get("tools"), label="`tools`")
    disabled_written = loose_tool_list(p, fields.get("disallowedTools"), label="`disallowedTools`")
    tools = resolve_tools(p, tools_written, tool_map, label="`tools`")
    disabled = resolve_tools(p, disabled_written, tool_map, label="`disallowedTools`")
    model, model_written = judge_model(p, fields.get("model"))
    safety_written = judge_safety(p, fields.get("safety"))
    return AgentType(
        name="",
        description="",
        tools=tools,
        tools_as_written=tools_written,
        disabled_tools=disabled or (),
        disabled_tools_as_written=disabled_written or (),
        model=model,
        model_as_written=model_written,
        safety=settle_safety(safety_written, tools_written),
        safety_as_written=safety_written,
        isolation=_isolation(p, fields.get("isolation")),
        format="claude",
        extras=MappingProxyType({k: v for k, v in fields.items() if k not in CLAUDE_FIELDS}),
    )


def _isolation(p: Problems, value: Any) -> str | None:
    """Kept as written; a wrong type fails closed (the agent would run unisolated)."""
    if value is None or isinstance(value, str):
        return value
    p.invalid(f"field `isolation` must be a string, not {type_name(value)}")
    return None
