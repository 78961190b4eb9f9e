"""Claude Code's subagent format: ``agents/*.md``, frontmatter plus a system prompt.

Claude Code skips a file silently when its name holds ``:`` or starts with ``-``,
when it has a name but no description, or when its YAML is bad. satchel skips the
same files but says why. A name that breaks the lowercase kebab-case rule but can
still be typed loads, with a warning. Unquoted ``: `` in a description (common in
real agent files with ``<example>`` blocks) loads through the frontmatter colon
fallback, with its warning; so does a description whose lines run on at column 0
(``<example>``, ``user:`` and ``assistant:`` lines) up to the next field Claude Code
knows (`CLAUDE_CODE_KEYS`), where Claude Code itself would drop every field.
YAML that even the fallback cannot read skips a project or user agent, as Claude Code
does; a plugin agent then loads as Claude Code loads it: named after its file,
described ``Agent from <plugin> plugin``, every other field dropped, with the YAML
error as a warning. A plugin agent file with no frontmatter at its top (none at all,
or an HTML comment before it) loads the same way, the whole file its prompt, with
``frontmatter.missing`` as a warning; and a plugin agent's name may hold ``:``
(Claude Code 2.1.332 lists ``name: a:b`` in plugin ``p`` as ``p:a:b``). A written
``\\n`` (backslash, n) in a description is a line break, as Claude Code reads it.
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
    judge_description,
    judge_name,
    judge_shared,
    judge_string,
)
from satchel.agents._model import AgentType
from satchel.agents._spawnfields import SPAWN_KEYS, judge_spawn_fields
from satchel.agents._tools import DEFAULT_TOOL_MAP
from satchel.core.diagnostics import Diagnostic, recast
from satchel.foundations import frontmatter
from satchel.foundations.origin import NO_ORIGIN, Origin

__all__ = ["claude_agent", "CLAUDE_CODE_KEYS", "CLAUDE_FIELDS", "parse_claude"]

CLAUDE_FIELDS = (
    frozenset(("name", "description", "tools", "disallowedTools", "model", "isolation", "safety"))
    | SPAWN_KEYS
)
# Every frontmatter field Claude Code 2.1.332 reads in an agent file (its agent schema,
# plus a plugin agent's `when_to_use`), and satchel's `safety`: a line at column 0
# naming one of these starts a field; any other line may continue a value.
CLAUDE_CODE_KEYS = CLAUDE_FIELDS | frozenset(
    ("color", "effort", "permissionMode", "mcpServers", "hooks", "maxTurns",
     "autoCompactWindow", "skills", "initialPrompt", "memory", "background", "omitClaudeMd",
     "observer", "observerMessage", "observeToolResults", "observeSubagents", "experimental",
     "when_to_use", "when-to-use")
)  # fmt: skip
_NO_DESCRIPTION = (
    "the agent has no description, so no model would know when to delegate to it; it is skipped"
)


def parse_claude(
    data: bytes,
    path: Path,
    *,
    origin: Origin = NO_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """The agent in the Markdown file `data` (read from `path`, found at `origin`), or
    None and why."""
    parsed = frontmatter.parse(data, path, keys=CLAUDE_CODE_KEYS)
    diags = list(parsed.diagnostics)
    fields = parsed.fields
    plugin = origin.plugin
    if fields is None and plugin is not None and _unreadable_yaml(diags):
        fields = {"description": f"Agent from {plugin} plugin"}  # named after the file
        diags = [_fields_dropped(d) for d in diags]
    elif fields is None and plugin is not None and _no_frontmatter(diags):
        fields = {"description": f"Agent from {plugin} plugin"}  # the whole file its prompt
        diags = [_read_whole(d) for d in diags]
    if fields is None:
        return None, diags
    problem = frontmatter.check_text(data, 0, path)
    if problem is not None:
        return None, [*diags, problem]
    body = frontmatter.decode_body(data, parsed.body_start)
    agent, more = claude_agent(
        fields,
        body,
        path,
        origin=origin,
        tool_map=tool_map,
    )
    return agent, diags + more


def _unreadable_yaml(diags: Sequence[Diagnostic]) -> bool:
    """Whether the frontmatter was there but is not YAML (not refused for safety)."""
    return [d.code for d in diags] == ["frontmatter.yaml.syntax"]


def _no_frontmatter(diags: Sequence[Diagnostic]) -> bool:
    """Whether the file has no frontmatter at its top (none at all, or text such as an
    HTML comment before the first ``---``)."""
    return [d.code for d in diags] == ["frontmatter.missing"]


def _read_whole(d: Diagnostic) -> Diagnostic:
    message = (
        f"{d.message}; the plugin agent loads as Claude Code loads it: named after its file, "
        "the whole file its prompt"
    )
    return recast(d, "warning", message=message)


def _fields_dropped(d: Diagnostic) -> Diagnostic:
    message = (
        f"{d.message}; the plugin agent loads as Claude Code loads it: named after its file, "
        "every other field dropped"
    )
    hint = "quote the description, or write it as a | block with its lines indented"
    return recast(d, "warning", message=message, hint=hint)


def claude_agent(
    fields: Mapping[str, Any],
    instructions: str,
    path: Path,
    *,
    origin: Origin = NO_ORIGIN,
    tool_map: Mapping[str, Sequence[str]] = DEFAULT_TOOL_MAP,
) -> tuple[AgentType | None, list[Diagnostic]]:
    """Judge parsed frontmatter `fields` and build the agent when it is usable."""
    p = Problems(path)
    if "name" in fields:
        name = judge_name(p, fields["name"], plugin=origin.plugin is not None)
    else:
        name = judge_name(p, path.stem, label="file name")
    description = judge_description(
        p, fields.get("description"), label="field `description`", missing=_NO_DESCRIPTION,
        hint="add a description: line saying when to use this agent",
    )  # fmt: skip
    if name is None or description is None:
        return None, p.diags
    agent = _judged(p, fields, tool_map, origin, path)
    if p.failed:
        return None, p.diags
    agent = replace(agent, instructions=instructions)
    return finish_agent(
        p,
        agent,
        name,
        description.replace("\\n", "\n"),  # a written `\n` is a line break, as in Claude Code
        origin=origin,
        path=path,
    )


def _judged(
    p: Problems,
    fields: Mapping[str, Any],
    tool_map: Mapping[str, Sequence[str]],
    origin: Origin,
    path: Path,
) -> AgentType:
    """The agent's tools, model, safety, spawn fields and extras, judged; name,
    description and origin are left for the caller. A wrongly typed isolation fails
    closed (the agent would run unisolated); an unknown one is dropped, as Claude Code
    drops it."""
    agent = judge_shared(
        p,
        fields,
        tool_map,
        disabled_key="disallowedTools",
        label=lambda key: f"`{key}`",
        claude=True,
    )
    if judge_string(p, fields.get("isolation"), "field `isolation`") is None and p.failed:
        return agent
    spawn = judge_spawn_fields(p, fields, origin=origin, path=path)
    return replace(
        agent,
        **spawn.as_fields(),
        format="claude",
        extras=MappingProxyType({k: v for k, v in fields.items() if k not in CLAUDE_FIELDS}),
    )
