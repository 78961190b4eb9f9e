"""Judgements every agent format shares: names, descriptions, models, safety, tool lists.

Safety from a repository is capped (threat model invariant I2: an auto-approve key
is honoured only from user-level config or the host). A project or plugin agent
that asks for ``yolo`` (approve everything) gets ``destructive`` instead, with the
`agent.safety.capped` warning; a user file and the host config keep ``yolo``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from satchel.agents._model import SAFETY_LEVELS, AgentType
from satchel.agents._tools import CANONICAL_TOOLS, map_tools, safety_ceiling
from satchel.core.diagnostics import Diagnostic, Severity, diagnostic, type_name
from satchel.foundations.origin import Origin
from satchel.skills._fields import name_problem, split_tools

__all__ = [
    "cap_safety",
    "capped_safety",
    "claude_code_model",
    "CLAUDE_MODEL_ALIASES",
    "finish_agent",
    "instructions_problem",
    "judge_description",
    "judge_model",
    "judge_name",
    "judge_safety",
    "judge_shared",
    "judge_string",
    "loose_tool_list",
    "MAX_INSTRUCTIONS",
    "Problems",
    "resolve_tools",
    "SAFETY_CAP",
    "settle_safety",
    "UNTRUSTED_SCOPES",
]

MAX_INSTRUCTIONS = 64 * 1024  # bytes of UTF-8 (Vibe)
# Claude Code 2.1.332's model aliases (each also with a `[1m]` suffix), and an agent's `inherit`
CLAUDE_MODEL_ALIASES = frozenset(
    ("sonnet", "opus", "haiku", "fable", "best", "opusplan", "default", "inherit")
)
_ONE_M = re.compile(r"\[1m\]\Z", re.IGNORECASE)
_PROVIDER_MODEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/\S+\Z")
_USABLE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")
# layout.PROJECT and layout.PLUGIN: files a repository or a plugin supplies
UNTRUSTED_SCOPES = frozenset(("project", "plugin"))
SAFETY_CAP = "destructive"  # the most a project or plugin agent may ask for


class Problems:
    """The diagnostics for one agent; `failed` once an error means it is not loaded."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.diags: list[Diagnostic] = []
        self.failed = False

    def add(
        self,
        code: str,
        message: str,
        *,
        severity: Severity | None = None,
        hint: str | None = None,
    ) -> None:
        d = diagnostic(code, message, self.path, hint=hint, severity=severity)
        if d.severity == "error":
            self.failed = True
        self.diags.append(d)

    def invalid(self, message: str, *, hint: str | None = None) -> None:
        """An error: the agent is not loaded."""
        self.add("agent.invalid", message, hint=hint)


def judge_name(p: Problems, name: Any, *, label: str = "name", plugin: bool = False) -> str | None:
    """`name` when it can be used (with a warning when it breaks the lowercase
    kebab-case rule), else None and an error. A `plugin` agent's name may hold ``:``,
    each part then judged alone, as Claude Code loads such an agent."""
    if not isinstance(name, str):
        p.invalid(f"field `{label}` must be a string, not {type_name(name)}")
        return None
    parts = name.split(":") if plugin else [name]
    why = None
    if not name:
        why = "it is empty"
    elif ":" in name and not plugin:
        why = "it holds ':'"
    elif any(not part for part in parts):
        why = "it has an empty part between ':'"
    elif name.startswith("-"):
        why = "it starts with '-'"
    elif not all(_USABLE_NAME.match(part) for part in parts):
        why = "it may only hold letters, digits, '_', '.' and '-'"
    if why is not None:
        p.add(
            "agent.name.invalid",
            f"the {label} {name!r} cannot be used: {why}; the agent is skipped",
            severity="error",
        )
        return None
    problem = next(filter(None, map(name_problem, parts)), None)
    if problem is not None:
        p.add(
            "agent.name.invalid",
            f"the {label} {name!r} {problem}; it loads as written",
            hint="use lowercase letters, digits and single hyphens",
        )
    return name


def judge_description(
    p: Problems,
    value: Any,
    *,
    label: str = "`description`",
    missing: str,
    hint: str | None = None,
    max_chars: int | None = None,
) -> str | None:
    """The description, or None and an error. Absent is `missing` (with `hint`); so
    is blank, unless `max_chars` sets a 1-`max_chars` length rule (Vibe's)."""
    blank = isinstance(value, str) and not value.strip()
    if value is None or (blank and max_chars is None):
        p.invalid(missing, hint=hint)
        return None
    if not isinstance(value, str):
        p.invalid(f"{label} must be a string, not {type_name(value)}")
        return None
    if max_chars is not None and not 1 <= len(value) <= max_chars:
        p.invalid(f"{label} must be 1-{max_chars} characters; it has {len(value)}")
        return None
    return value


def claude_code_model(value: str) -> bool:
    """Whether Claude Code reads `value` as one of its own model names: an alias
    (`sonnet`, `opus[1m]`, `inherit`, ...) or a ``claude-`` model id."""
    name = _ONE_M.sub("", value.strip()).lower()
    return name in CLAUDE_MODEL_ALIASES or name.startswith("claude-")


def judge_model(
    p: Problems, value: Any, *, label: str = "`model`", claude: bool = False
) -> tuple[str | None, str | None]:
    """(model, as written): only ``provider/model`` is honoured; anything else means
    the session's model, with an info. In a Claude Code file (`claude`), Claude Code's
    own model names are normal: they too mean the session's model, without a word."""
    if value is None or value == "":
        return None, None
    if claude and isinstance(value, str) and claude_code_model(value):
        return None, value
    if not isinstance(value, str):
        p.add(
            "agent.model.alias",
            f"{label} is {type_name(value)}, not provider/model; the session model is used",
        )
        return None, None
    if _PROVIDER_MODEL.match(value):
        return value, value
    if value.lower() in CLAUDE_MODEL_ALIASES:
        message = f"{label} {value!r} is a Claude Code alias; the session model is used"
    else:
        message = f"{label} {value!r} is not in provider/model form; the session model is used"
    p.add("agent.model.alias", message, hint="write the model as provider/model")
    return None, value


def judge_safety(
    p: Problems, value: Any, *, allowed: Sequence[str] = SAFETY_LEVELS, label: str = "`safety`"
) -> str | None:
    """The safety level written in the file, or None; a bad one is an error."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in allowed:
        p.invalid(f"{label} must be one of {', '.join(allowed)}, not {value!r}")
        return None
    return value


def loose_tool_list(p: Problems, value: Any, *, label: str = "`tools`") -> tuple[str, ...] | None:
    """Claude Code's tool field: a comma (or blank) separated string, or a list of
    names. None when absent; an error for any other type."""
    if value is None:
        return None
    if isinstance(value, str):
        return tuple(split_tools(value))
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(tool for item in value for tool in split_tools(item))
    shown = type_name(value)
    if isinstance(value, list):
        shown = "a list holding " + type_name(next(v for v in value if not isinstance(v, str)))
    p.invalid(f"{label} must be a comma-separated string or a list of tool names, not {shown}")
    return None


def resolve_tools(
    p: Problems,
    written: tuple[str, ...] | None,
    tool_map: Mapping[str, Sequence[str]],
    *,
    label: str = "`tools`",
    known: Iterable[str] = CANONICAL_TOOLS,
) -> tuple[str, ...] | None:
    """The canonical names for `written`, reporting the names nothing maps and
    `known` does not hold."""
    if written is None:
        return None
    tools, unknown = map_tools(written, tool_map, known)
    if unknown:
        listed = ", ".join(unknown)
        p.add(
            "agent.tool.unknown",
            f"{label} names {listed}: neither a mapped tool nor a canonical name; kept as written",
        )
    return tools


def settle_safety(written: str | None, tools_as_written: tuple[str, ...] | None) -> str | None:
    """The safety the file chose, else the read_only ceiling of a listed toolset that
    cannot write, else None."""
    return written if written is not None else safety_ceiling(tools_as_written)


def cap_safety(
    agent: AgentType, *, untrusted: bool | None = None
) -> tuple[AgentType, Diagnostic | None]:
    """`agent` with ``yolo`` capped at ``destructive`` when it comes from a project or
    a plugin (`untrusted`, by default judged from its scope), and the warning; any
    other agent unchanged, with None."""
    if untrusted is None:
        untrusted = agent.scope in UNTRUSTED_SCOPES
    if agent.safety != "yolo" or not untrusted:
        return agent, None
    where = "a project file" if agent.scope == "project" else "a plugin"
    message = (
        f"agent {agent.name!r} asks for safety 'yolo' (approve everything), which {where} "
        f"cannot grant; it is capped at {SAFETY_CAP!r}"
    )
    hint = "to approve everything, define the agent in your user agents directory or host config"
    capped = diagnostic("agent.safety.capped", message, agent.path, hint=hint)
    return replace(agent, safety=SAFETY_CAP), capped


def capped_safety(p: Problems, agent: AgentType) -> AgentType:
    """`cap_safety` by the agent's scope, its warning added to `p`."""
    agent, capped = cap_safety(agent)
    if capped is not None:
        p.diags.append(capped)
    return agent


def instructions_problem(p: Problems, text: str, *, label: str = "`instructions`") -> None:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_INSTRUCTIONS:
        p.invalid(f"{label} is {size} bytes; the limit is {MAX_INSTRUCTIONS} (64 KiB)")


def judge_string(p: Problems, value: Any, label: str) -> str | None:
    """`value` when it is a string or absent; else None and an error naming `label`."""
    if value is None or isinstance(value, str):
        return value
    p.invalid(f"{label} must be a string, not {type_name(value)}")
    return None


def judge_shared(
    p: Problems,
    table: Mapping[str, Any],
    tool_map: Mapping[str, Sequence[str]],
    *,
    disabled_key: str,
    label: Callable[[str], str],
    claude: bool = False,
) -> AgentType:
    """The tools, disabled tools, model and safety of a Claude Code file (`claude`) or
    TOML table."""
    tools_written = loose_tool_list(p, table.get("tools"), label=label("tools"))
    off_written = loose_tool_list(p, table.get(disabled_key), label=label(disabled_key))
    tools = resolve_tools(p, tools_written, tool_map, label=label("tools"))
    off = resolve_tools(p, off_written, tool_map, label=label(disabled_key))
    model, model_written = judge_model(p, table.get("model"), label=label("model"), claude=claude)
    safety = judge_safety(p, table.get("safety"), label=label("safety"))
    return AgentType(
        name="",
        description="",
        tools=tools,
        tools_as_written=tools_written,
        disabled_tools=off or (),
        disabled_tools_as_written=off_written or (),
        model=model,
        model_as_written=model_written,
        safety=settle_safety(safety, tools_written),
        safety_as_written=safety,
    )


def finish_agent(
    p: Problems,
    agent: AgentType,
    name: str,
    description: str,
    *,
    origin: Origin,
    path: Path | None,
) -> tuple[AgentType, list[Diagnostic]]:
    """`agent` named (``<namespace>:<name>``, the namespace of its `origin`), described
    and placed, safety capped; `p`'s diags."""
    namespace = origin.namespace
    agent = replace(
        agent,
        name=name if namespace is None else f"{namespace}:{name}",
        description=description,
        path=path,
        origin=origin,
    )
    return capped_safety(p, agent), p.diags
