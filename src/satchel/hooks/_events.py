"""Canonical hook events and the table from each host's names to them.

satchel names events in snake_case (mermaid's ``before_tool_use``). Claude Code and
Kimi write ``PreToolUse``; Vibe writes ``pre_tool``; Gemini CLI ``BeforeTool``
(`GEMINI_EVENTS`: its ``HookEventName`` enum in google-gemini/gemini-cli
packages/core/src/hooks/types.ts, mapped by what docs/hooks/reference.md says each one
does; ``BeforeModel``, ``AfterModel`` and ``BeforeToolSelection`` have no satchel
event and keep their names). `canonical` maps a host's name to
satchel's; a name no table knows is kept as written (a newer host's event) and
reported by the loader, never fatal. Each event also says what its matcher filters on
(`MATCH_FIELD`) and whether a hook can block it (`BLOCKING`, Claude Code's table).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "BLOCKING",
    "CLAUDE_EVENTS",
    "CURSOR_EVENTS",
    "CURSOR_NAMES",
    "CURSOR_ONLY",
    "CURSOR_TOOLS",
    "EVENTS",
    "GEMINI_EVENTS",
    "GEMINI_ONLY",
    "MATCH_FIELD",
    "TOOL_EVENTS",
    "VIBE_EVENTS",
    "canonical",
    "event_named",
    "host_name",
]

EVENTS: tuple[str, ...] = (
    "session_start",
    "user_prompt_submit",
    "before_tool_use",
    "after_tool_use",
    "after_tool_failure",
    "stop",
    "subagent_stop",
    "pre_compact",
    "notification",
    "session_end",
    "pre_skill_shell_command",
)

# Claude Code's names (Kimi uses the same ones) -> satchel's.
CLAUDE_EVENTS: Mapping[str, str] = MappingProxyType(
    {
        "SessionStart": "session_start",
        "UserPromptSubmit": "user_prompt_submit",
        "PreToolUse": "before_tool_use",
        "PostToolUse": "after_tool_use",
        "PostToolUseFailure": "after_tool_failure",
        "Stop": "stop",
        "SubagentStop": "subagent_stop",
        "PreCompact": "pre_compact",
        "Notification": "notification",
        "SessionEnd": "session_end",
        "PreSkillShellCommand": "pre_skill_shell_command",
    }
)
# Vibe's hooks.toml types -> satchel's (Vibe; post_agent is Claude Code's Stop).
VIBE_EVENTS: Mapping[str, str] = MappingProxyType(
    {"pre_tool": "before_tool_use", "post_tool": "after_tool_use", "post_agent": "stop"}
)
# Gemini CLI's names -> satchel's. BeforeAgent fires after the prompt is submitted,
# before planning (UserPromptSubmit); AfterAgent once a turn ends, and can send the
# agent back to work (Stop); PreCompress is PreCompact.
GEMINI_EVENTS: Mapping[str, str] = MappingProxyType(
    {
        "SessionStart": "session_start",
        "BeforeAgent": "user_prompt_submit",
        "BeforeTool": "before_tool_use",
        "AfterTool": "after_tool_use",
        "AfterAgent": "stop",
        "PreCompress": "pre_compact",
        "Notification": "notification",
        "SessionEnd": "session_end",
    }
)
# Gemini CLI's events with no satchel event: kept by name.
GEMINI_ONLY = ("BeforeModel", "AfterModel", "BeforeToolSelection")
# Cursor's camelCase events -> satchel's (cursor.com/docs/agent/hooks). The shell, MCP,
# read and edit events are tool events of one kind of tool (`CURSOR_TOOLS`).
CURSOR_EVENTS: Mapping[str, str] = MappingProxyType(
    {
        "sessionStart": "session_start",
        "beforeSubmitPrompt": "user_prompt_submit",
        "preToolUse": "before_tool_use",
        "beforeShellExecution": "before_tool_use",
        "beforeMCPExecution": "before_tool_use",
        "beforeReadFile": "before_tool_use",
        "postToolUse": "after_tool_use",
        "afterShellExecution": "after_tool_use",
        "afterMCPExecution": "after_tool_use",
        "afterFileEdit": "after_tool_use",
        "postToolUseFailure": "after_tool_failure",
        "stop": "stop",
        "subagentStop": "subagent_stop",
        "preCompact": "pre_compact",
        "sessionEnd": "session_end",
    }
)
# The tools a Cursor event of one kind of tool stands for, as a matcher on satchel's
# (Claude Code's) tool names.
CURSOR_TOOLS: Mapping[str, str] = MappingProxyType(
    {
        "beforeShellExecution": "Bash",
        "afterShellExecution": "Bash",
        "beforeMCPExecution": "mcp__.*",
        "afterMCPExecution": "mcp__.*",
        "beforeReadFile": "Read",
        "afterFileEdit": "Edit|MultiEdit|Write",
    }
)
# satchel's event -> the Cursor event that carries it in general (the first of
# `CURSOR_EVENTS` for it: ``preToolUse`` for every tool, not ``beforeShellExecution``).
CURSOR_NAMES: Mapping[str, str] = MappingProxyType(
    {
        event: name
        for name, event in reversed(list(CURSOR_EVENTS.items()))
        if name not in CURSOR_TOOLS
    }
)
# Cursor's events with no satchel event: kept by name.
CURSOR_ONLY = ("subagentStart", "afterAgentResponse", "afterAgentThought",
               "beforeTabFileRead", "afterTabFileEdit")  # fmt: skip
_TABLES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "claude": CLAUDE_EVENTS,
        "kimi": CLAUDE_EVENTS,
        "vibe": VIBE_EVENTS,
        "gemini": GEMINI_EVENTS,
        "cursor": CURSOR_EVENTS,
        "satchel": MappingProxyType({e: e for e in EVENTS}),
    }
)
_CLAUDE_NAMES = {event: name for name, event in CLAUDE_EVENTS.items()}
_VIBE_NAMES = {event: name for name, event in VIBE_EVENTS.items()}
_GEMINI_NAMES = {event: name for name, event in GEMINI_EVENTS.items()}

TOOL_EVENTS = frozenset(("before_tool_use", "after_tool_use", "after_tool_failure"))
# The payload field a matcher is tested against (Claude Code's table); an event not
# listed has no matcher: a matcher written on it is ignored.
MATCH_FIELD: Mapping[str, str] = MappingProxyType(
    {
        "before_tool_use": "tool_name",
        "after_tool_use": "tool_name",
        "after_tool_failure": "tool_name",
        "session_start": "source",
        "session_end": "reason",
        "pre_compact": "trigger",
        "notification": "notification_type",
        "subagent_stop": "agent_type",
        "pre_skill_shell_command": "tool_name",
    }
)
# Events a hook can block (deny, exit 2, decision "block"): the tool call is refused,
# the prompt erased, the agent made to continue, compaction stopped. Every other event
# is observe-only: decisions are ignored; context and failures still count.
BLOCKING = frozenset(
    ("before_tool_use", "user_prompt_submit", "stop", "subagent_stop", "pre_compact",
     "pre_skill_shell_command")
)  # fmt: skip


def canonical(event: str, dialect: str) -> str | None:
    """satchel's name for a host's `event` in `dialect` (``claude``, ``kimi``,
    ``vibe``, ``satchel``); None when that host's table does not know it."""
    return _TABLES.get(dialect, _TABLES["satchel"]).get(event)


def event_named(name: str) -> str:
    """satchel's name for an event a host or a user names (``PreToolUse``,
    ``pre_tool``, ``before_tool_use``); a name no table knows stays as it is."""
    return CLAUDE_EVENTS.get(name) or VIBE_EVENTS.get(name) or name


def host_name(event: str, dialect: str) -> str:
    """The name a hook written for `dialect` expects in ``hook_event_name``: Claude
    Code's (``PreToolUse``) for every dialect but Vibe's (``pre_tool``) and Gemini
    CLI's (``BeforeTool``); an event no table knows keeps its own name."""
    if dialect == "vibe" and event in _VIBE_NAMES:
        return _VIBE_NAMES[event]
    if dialect == "gemini" and event in _GEMINI_NAMES:
        return _GEMINI_NAMES[event]
    return _CLAUDE_NAMES.get(event, event)
