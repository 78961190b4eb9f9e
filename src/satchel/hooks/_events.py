"""Canonical hook events, the table of every host's events, and each host's names for them.

satchel names events in snake_case (mermaid's ``before_tool_use``). `CATALOGUE` is the
one table: one `Event` per event, with each host's spelling, the fields a hook receives
beside the common ones (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``), what a hook may answer, what its matcher tests, whether it can
block, and whether satchel fires it. The per-host tables below (`CLAUDE_EVENTS`,
`GEMINI_EVENTS`, ...) are read from it or kept beside it for the names only one host has.

Sources. Claude Code 2.1.332: its 34 events, their input schemas (the zod objects with
``hook_event_name``), their ``hookSpecificOutput`` schemas, the matcher field of each
event and the exit-code summaries, all read from the pinned binary's strings (and
checked by ``claude plugin validate --json``: tests/hooks/test_catalogue.py). Claude
Code 2.1.337 adds a 35th, ``Interrupt``, read from its binary the same way: it fires
once when an interrupt ends the main conversation's turn (not when Claude Code is
exiting or the work goes on by itself), with ``source`` (``user``, ``session``,
``system``: who stopped it, also what its matcher tests), ``reason`` (``stop``,
``permission_denied``, ``rewind``, ``other``) and, where known, ``via``
(``terminal``, ``client``); its output and exit codes are ignored. Observed: an SDK
program's interrupt of a running ``claude -p --input-format stream-json`` turn fires
it with ``source`` ``user``, ``reason`` ``stop``, ``via`` ``client``
(tests/hooks/test_interrupt_claude.py). 2.1.332 has no such event (its validator
warns about the name). Codex
0.171.0: https://developers.openai.com/codex/hooks (12 events, Claude Code's spelling,
the same hooks.json shape, so a Claude-format file names them; its inputs add
``model`` and ``turn_id``). Kimi writes Claude Code's names and has a few of its own.
Vibe writes ``pre_tool``; Gemini CLI ``BeforeTool`` (`GEMINI_EVENTS`: its
``HookEventName`` enum in google-gemini/gemini-cli packages/core/src/hooks/types.ts,
mapped by what docs/hooks/reference.md says each one does; ``BeforeModel``,
``AfterModel`` and ``BeforeToolSelection`` have no satchel event and keep their names).
Cursor: https://cursor.com/docs/agent/hooks. GitHub Copilot:
https://docs.github.com/en/copilot/reference/hooks-configuration (camelCase,
``userPromptSubmitted``, ``agentStop``), read from the documentation, not run.
`canonical` maps a host's name to satchel's; a name no table knows is kept as written
(a newer host's event) and reported by the loader, never fatal.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

from satchel._model import model

__all__ = [
    "BLOCKING",
    "CATALOGUE",
    "CLAUDE_EVENTS",
    "CONDITION_EVENTS",
    "CURSOR_EVENTS",
    "CURSOR_NAMES",
    "CURSOR_ONLY",
    "CURSOR_TOOLS",
    "EVENTS",
    "Event",
    "Fired",
    "GEMINI_EVENTS",
    "GEMINI_ONLY",
    "MATCH_FIELD",
    "TOOL_EVENTS",
    "VIBE_EVENTS",
    "canonical",
    "event_named",
    "host_name",
]

# Who fires an event: satchel itself (the session does, when it does the thing), the
# host through the runner (`HookRunner.run` with satchel's semantics), or nobody:
# satchel knows the event and its shape, and runs its hooks when a host dispatches it.
Fired = Literal["satchel", "runner", "recognised"]


@model
class Event:
    """One hook event: satchel's `name`, each host's spelling ("" where the host has no
    such event; Cursor may spell one event several ways), the `inputs` beside the
    common fields (``?`` marks an optional one), the `answers` a hook may give
    (``hookSpecificOutput`` keys, and ``decision`` where a top-level block counts),
    the payload field its `matcher` tests ("" = no matcher), what a block does
    (`blocks`, "" = observe-only) and who fires it."""

    name: str
    summary: str
    claude: str = ""
    codex: str = ""
    kimi: str = ""
    gemini: str = ""
    cursor: tuple[str, ...] = ()
    copilot: str = ""
    vibe: str = ""
    inputs: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    matcher: str = ""
    blocks: str = ""
    fired: Fired = "recognised"


_TOOL = ("tool_name", "tool_input", "tool_use_id")
_GATE = ("permissionDecision", "permissionDecisionReason")
_SWITCH = ("from_model", "to_model", "requested_model", "source", "context_tokens",
           "prompt_cache_warm", "cache_ttl", "estimated_cache_write_usd", "pricing")  # fmt: skip
_TASK = ("task_id", "task_subject", "task_description?", "teammate_name?", "team_name")

# One entry per event, Claude Code's order first, then the events only other hosts have.
CATALOGUE: tuple[Event, ...] = (
    Event("before_tool_use", "Before a tool call runs", claude="PreToolUse", codex="PreToolUse",
          kimi="PreToolUse", gemini="BeforeTool", copilot="preToolUse", vibe="pre_tool",
          cursor=("preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"),
          inputs=(*_TOOL, "mcp_server?"),
          answers=(*_GATE, "updatedInput", "additionalContext", "permissionDisplay"),
          matcher="tool_name", blocks="the call is refused", fired="runner"),
    Event("after_tool_use", "After a tool call succeeds", claude="PostToolUse",
          codex="PostToolUse", kimi="PostToolUse", gemini="AfterTool", copilot="postToolUse",
          vibe="post_tool",
          cursor=("postToolUse", "afterShellExecution", "afterMCPExecution", "afterFileEdit"),
          inputs=(*_TOOL, "tool_response", "duration_ms", "mcp_server?"),
          answers=("decision", "additionalContext", "updatedToolOutput", "updatedMCPToolOutput",
                   "classifierContext"),
          matcher="tool_name", fired="runner"),
    Event("after_tool_failure", "After a tool call fails", claude="PostToolUseFailure",
          kimi="PostToolUseFailure", cursor=("postToolUseFailure",),
          inputs=(*_TOOL, "error", "is_interrupt?", "duration_ms", "mcp_server?"),
          answers=("additionalContext",), matcher="tool_name", fired="runner"),
    Event("after_tool_batch", "After every tool call of a batch resolved",
          claude="PostToolBatch", inputs=("tool_calls",), answers=("additionalContext",),
          blocks="the agentic loop stops"),
    Event("notification", "When a notification is sent", claude="Notification",
          kimi="Notification", gemini="Notification",
          inputs=("message", "title?", "notification_type"), answers=("additionalContext",),
          matcher="notification_type", fired="runner"),
    Event("user_prompt_submit", "When the user submits a prompt", claude="UserPromptSubmit",
          codex="UserPromptSubmit", kimi="UserPromptSubmit", gemini="BeforeAgent",
          cursor=("beforeSubmitPrompt",), copilot="userPromptSubmitted",
          inputs=("prompt", "source", "session_title?"),
          answers=("decision", "additionalContext", "sessionTitle", "suppressOriginalPrompt"),
          blocks="the prompt is dropped", fired="runner"),
    Event("user_prompt_expansion", "When a slash command expands into a prompt",
          claude="UserPromptExpansion",
          inputs=("expansion_type", "command_name", "command_args", "command_source?", "prompt"),
          answers=("decision", "additionalContext", "suppressOriginalPrompt"),
          matcher="command_name", blocks="the prompt is not expanded", fired="satchel"),
    Event("session_start", "When a session starts", claude="SessionStart", codex="SessionStart",
          kimi="SessionStart", gemini="SessionStart", cursor=("sessionStart",),
          copilot="sessionStart", inputs=("source", "agent_type?", "model?", "session_title?"),
          answers=("additionalContext", "initialUserMessage", "sessionTitle", "watchPaths",
                   "reloadSkills"),
          matcher="source", fired="runner"),
    Event("pre_skill_shell_command", "Before a skill's !`cmd` line runs",
          claude="PreSkillShellCommand",
          inputs=(*_TOOL, "command_name", "command_source", "invoked_by"),
          answers=_GATE, matcher="tool_name", blocks="the command is skipped",
          fired="satchel"),
    Event("session_end", "When a session ends", claude="SessionEnd", codex="SessionEnd",
          kimi="SessionEnd", gemini="SessionEnd", cursor=("sessionEnd",), copilot="sessionEnd",
          inputs=("reason",), matcher="reason", fired="runner"),
    Event("stop", "Right before the agent concludes its response", claude="Stop", codex="Stop",
          kimi="Stop", gemini="AfterAgent", cursor=("stop",), copilot="agentStop",
          vibe="post_agent",
          inputs=("stop_hook_active", "last_assistant_message", "background_tasks",
                  "session_crons"),
          answers=("decision", "additionalContext"), blocks="the agent continues",
          fired="runner"),
    Event("stop_failure", "When a turn ends in an error", claude="StopFailure",
          kimi="StopFailure", inputs=("error", "error_details?", "last_assistant_message?"),
          matcher="error"),
    Event("interrupt", "When an interrupt ends the main conversation's turn",
          claude="Interrupt", codex="Interrupt", kimi="Interrupt",
          inputs=("source", "reason", "via?"), matcher="source"),
    Event("subagent_start", "When a subagent starts", claude="SubagentStart",
          codex="SubagentStart", kimi="SubagentStart", inputs=("agent_id", "agent_type"),
          answers=("additionalContext",), matcher="agent_type"),
    Event("subagent_stop", "Right before a subagent concludes", claude="SubagentStop",
          codex="SubagentStop", kimi="SubagentStop", cursor=("subagentStop",),
          copilot="subagentStop",
          inputs=("stop_hook_active", "agent_id", "agent_transcript_path", "agent_type",
                  "last_assistant_message", "background_tasks", "session_crons"),
          answers=("decision", "additionalContext"), matcher="agent_type",
          blocks="the subagent continues", fired="runner"),
    Event("pre_compact", "Before the conversation is compacted", claude="PreCompact",
          codex="PreCompact", kimi="PreCompact", gemini="PreCompress", cursor=("preCompact",),
          inputs=("trigger", "custom_instructions"), answers=("decision",), matcher="trigger",
          blocks="compaction does not happen", fired="runner"),
    Event("post_compact", "After the conversation was compacted", claude="PostCompact",
          codex="PostCompact", kimi="PostCompact", inputs=("trigger", "compact_summary"),
          matcher="trigger"),
    Event("pre_model_switch", "Before a requested model switch", claude="PreModelSwitch",
          inputs=_SWITCH, answers=_GATE, matcher="to_model",
          blocks="the model is not switched"),
    Event("post_model_switch", "After the session's model changed", claude="PostModelSwitch",
          inputs=_SWITCH, answers=("additionalContext",), matcher="to_model"),
    Event("permission_request", "When a permission dialog is shown",
          claude="PermissionRequest", codex="PermissionRequest", kimi="PermissionRequest",
          inputs=("tool_name", "tool_input", "permission_suggestions?", "mcp_server?",
                  "tool_kind", "mcp_skill"),
          answers=("decision",), matcher="tool_name", blocks="the call is denied"),
    Event("permission_denied", "After auto mode denied a tool call", claude="PermissionDenied",
          inputs=(*_TOOL, "reason", "mcp_server?"), answers=("retry",), matcher="tool_name"),
    Event("setup", "Repository setup, on init and maintenance", claude="Setup",
          inputs=("trigger",), answers=("additionalContext",), matcher="trigger"),
    Event("teammate_idle", "When a teammate is about to go idle", claude="TeammateIdle",
          inputs=("teammate_name", "team_name"), blocks="the teammate keeps working"),
    Event("task_created", "When a task is being created", claude="TaskCreated", inputs=_TASK,
          blocks="the task is not created"),
    Event("task_completed", "When a task is being marked completed", claude="TaskCompleted",
          inputs=_TASK, blocks="the task is not completed"),
    Event("elicitation", "When an MCP server asks the user for input", claude="Elicitation",
          inputs=("mcp_server_name", "message", "mode?", "url?", "elicitation_id?",
                  "requested_schema?"),
          answers=("action", "content"), matcher="mcp_server_name",
          blocks="the elicitation is declined"),
    Event("elicitation_result", "After the user answered an MCP elicitation",
          claude="ElicitationResult",
          inputs=("mcp_server_name", "elicitation_id?", "mode?", "action", "content?"),
          answers=("action", "content"), matcher="mcp_server_name",
          blocks="the answer becomes decline"),
    Event("config_change", "When configuration changes during a session",
          claude="ConfigChange", inputs=("source", "file_path?"), answers=("decision",),
          matcher="source", blocks="the change is not applied", fired="satchel"),
    Event("worktree_create", "Create an isolated worktree", claude="WorktreeCreate",
          inputs=("name",), answers=("worktreePath",)),
    Event("worktree_remove", "Remove a worktree", claude="WorktreeRemove",
          inputs=("worktree_path",)),
    Event("instructions_loaded", "When an instruction file is loaded",
          claude="InstructionsLoaded",
          inputs=("file_path", "memory_type", "load_reason", "globs?", "trigger_file_path?",
                  "parent_file_path?"),
          matcher="load_reason", fired="satchel"),
    Event("cwd_changed", "After the working directory changed", claude="CwdChanged",
          inputs=("old_cwd", "new_cwd"), answers=("watchPaths",)),
    Event("file_changed", "When a watched file changes", claude="FileChanged",
          inputs=("file_path", "event"), answers=("watchPaths",), matcher="file_path"),
    Event("directory_added", "After a working directory was added", claude="DirectoryAdded",
          inputs=("directory", "source"), matcher="source"),
    Event("message_display", "While assistant text is displayed", claude="MessageDisplay",
          inputs=("turn_id", "message_id", "index", "final", "delta"),
          answers=("displayContent",)),
    Event("user_prompt_queued", "When a prompt is queued behind a running turn",
          kimi="UserPromptQueued"),
    Event("turn_started", "When a turn starts", kimi="TurnStarted"),
    Event("permission_result", "After a permission request was answered",
          kimi="PermissionResult"),
    Event("session_heartbeat", "Periodically during a session", kimi="SessionHeartbeat"),
    Event("task_started", "When a task starts", kimi="TaskStarted"),
)  # fmt: skip

EVENTS: tuple[str, ...] = tuple(e.name for e in CATALOGUE)


def _names(spelling: str) -> Mapping[str, str]:
    found: dict[str, str] = {}
    for event in CATALOGUE:
        name = getattr(event, spelling)
        if name:
            found.setdefault(name, event.name)
    return MappingProxyType(found)


# Claude Code's names (Codex's are a subset, written in the same files) -> satchel's.
CLAUDE_EVENTS: Mapping[str, str] = MappingProxyType({**_names("claude"), **_names("codex")})
_KIMI_EVENTS: Mapping[str, str] = MappingProxyType({**CLAUDE_EVENTS, **_names("kimi")})
# Vibe's hooks.toml types -> satchel's (Vibe; post_agent is Claude Code's Stop).
VIBE_EVENTS: Mapping[str, str] = _names("vibe")
# Gemini CLI's names -> satchel's. BeforeAgent fires after the prompt is submitted,
# before planning (UserPromptSubmit); AfterAgent once a turn ends, and can send the
# agent back to work (Stop); PreCompress is PreCompact.
GEMINI_EVENTS: Mapping[str, str] = _names("gemini")
# Gemini CLI's events with no satchel event: kept by name.
GEMINI_ONLY = ("BeforeModel", "AfterModel", "BeforeToolSelection")
# Cursor's camelCase events -> satchel's (cursor.com/docs/agent/hooks). The shell, MCP,
# read and edit events are tool events of one kind of tool (`CURSOR_TOOLS`).
CURSOR_EVENTS: Mapping[str, str] = MappingProxyType(
    {name: event.name for event in CATALOGUE for name in event.cursor}
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
        "kimi": _KIMI_EVENTS,
        "vibe": VIBE_EVENTS,
        "gemini": GEMINI_EVENTS,
        "cursor": CURSOR_EVENTS,
        "satchel": MappingProxyType({e: e for e in EVENTS}),
    }
)
_CLAUDE_NAMES = {event: name for name, event in _KIMI_EVENTS.items()}
_VIBE_NAMES = {event: name for name, event in VIBE_EVENTS.items()}
_GEMINI_NAMES = {event: name for name, event in GEMINI_EVENTS.items()}

TOOL_EVENTS = frozenset(("before_tool_use", "after_tool_use", "after_tool_failure"))
# Events whose hooks' ``if`` rule is tested (Claude Code's hooks reference: the tool
# events, PermissionRequest and PermissionDenied; its 2.1.332 binary also reads the
# tool_name of PreSkillShellCommand, whose ``tool_input`` is ``{command}`` as Bash's).
CONDITION_EVENTS = TOOL_EVENTS | {"permission_request", "permission_denied",
                                  "pre_skill_shell_command"}  # fmt: skip
# The payload field a matcher is tested against (Claude Code's table); an event not
# listed has no matcher: a matcher written on it is ignored.
MATCH_FIELD: Mapping[str, str] = MappingProxyType(
    {e.name: e.matcher for e in CATALOGUE if e.matcher}
)
# Events a hook can block (deny, exit 2, decision "block"): the tool call is refused,
# the prompt erased, the agent made to continue, compaction stopped (`Event.blocks`).
# Every other event is observe-only: decisions are ignored; context and failures count.
BLOCKING = frozenset(e.name for e in CATALOGUE if e.blocks)


def canonical(event: str, dialect: str) -> str | None:
    """satchel's name for a host's `event` in `dialect` (``claude``, ``kimi``,
    ``vibe``, ``satchel``); None when that host's table does not know it."""
    return _TABLES.get(dialect, _TABLES["satchel"]).get(event)


def event_named(name: str) -> str:
    """satchel's name for an event a host or a user names (``PreToolUse``,
    ``pre_tool``, ``before_tool_use``, Kimi's ``TurnStarted``, Gemini CLI's
    ``BeforeTool``); a name no table knows stays as it is."""
    return _KIMI_EVENTS.get(name) or VIBE_EVENTS.get(name) or GEMINI_EVENTS.get(name) or name


def host_name(event: str, dialect: str) -> str:
    """The name a hook written for `dialect` expects in ``hook_event_name``: Claude
    Code's (``PreToolUse``) for every dialect but Vibe's (``pre_tool``) and Gemini
    CLI's (``BeforeTool``); an event no table knows keeps its own name."""
    if dialect == "vibe" and event in _VIBE_NAMES:
        return _VIBE_NAMES[event]
    if dialect == "gemini" and event in _GEMINI_NAMES:
        return _GEMINI_NAMES[event]
    return _CLAUDE_NAMES.get(event, event)
