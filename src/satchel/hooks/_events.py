"""Canonical hook events, the table of every host's events, and each host's names for them.

satchel names events in snake_case (mermaid's ``before_tool_use``). `CATALOGUE` is the
one table: one `Event` per event, with each host's spelling, the fields a hook receives
beside the common ones (``session_id``, ``transcript_path``, ``cwd``,
``hook_event_name``), what a hook may answer, what its matcher tests, whether it can
block, and whether satchel fires it. Each host's names are its definition's
(`satchel.hosts`: `HookDialect.events`, one module per host); the catalogue's
spellings and the tables below (`CLAUDE_EVENTS`, `GEMINI_EVENTS`, ...) are read from
them.

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
from functools import cache
from types import MappingProxyType
from typing import Any, Literal

from satchel.core._model import model
from satchel.hosts._claude_code import CLAUDE_CODE_HOOKS, CLAUDE_HOOK_EVENTS
from satchel.hosts._codex import CODEX_HOOKS
from satchel.hosts._copilot import COPILOT_HOOKS
from satchel.hosts._cursor import CURSOR_HOOK_EVENTS, CURSOR_HOOKS, CURSOR_ONLY, CURSOR_TOOLS
from satchel.hosts._dialects import hook_dialect, hook_dialects
from satchel.hosts._gemini import GEMINI_HOOK_EVENTS, GEMINI_HOOKS, GEMINI_ONLY
from satchel.hosts._hooks import HookDialect, reverse
from satchel.hosts._kimi import KIMI_HOOKS
from satchel.hosts._satchel import SATCHEL_HOOKS
from satchel.hosts._vibe import VIBE_HOOK_EVENTS, VIBE_HOOKS

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


def _spelled(dialect: HookDialect, event: str) -> str:
    """The host's name for `event` in `dialect`'s own table ("" when it has none)."""
    return reverse(dialect.events or {}).get(event, "")


def _event(name: str, summary: str, **shape: Any) -> Event:
    """`Event` `name` with each host's spelling read off its definition."""
    return Event(
        name,
        summary,
        claude=_spelled(CLAUDE_CODE_HOOKS, name),
        codex=_spelled(CODEX_HOOKS, name),
        kimi=_spelled(KIMI_HOOKS, name),
        gemini=_spelled(GEMINI_HOOKS, name),
        cursor=tuple(n for n, e in (CURSOR_HOOKS.events or {}).items() if e == name),
        copilot=_spelled(COPILOT_HOOKS, name),
        vibe=_spelled(VIBE_HOOKS, name),
        **shape,
    )


_TOOL = ("tool_name", "tool_input", "tool_use_id")
_GATE = ("permissionDecision", "permissionDecisionReason")
_SWITCH = ("from_model", "to_model", "requested_model", "source", "context_tokens",
           "prompt_cache_warm", "cache_ttl", "estimated_cache_write_usd", "pricing")  # fmt: skip
_TASK = ("task_id", "task_subject", "task_description?", "teammate_name?", "team_name")

# One entry per event, Claude Code's order first, then the events only other hosts have.
CATALOGUE: tuple[Event, ...] = (
    _event("before_tool_use", "Before a tool call runs", inputs=(*_TOOL, "mcp_server?"),
           answers=(*_GATE, "updatedInput", "additionalContext", "permissionDisplay"),
           matcher="tool_name", blocks="the call is refused", fired="runner"),
    _event("after_tool_use", "After a tool call succeeds",
           inputs=(*_TOOL, "tool_response", "duration_ms", "mcp_server?"),
           answers=("decision", "additionalContext", "updatedToolOutput", "updatedMCPToolOutput",
                    "classifierContext"),
           matcher="tool_name", fired="runner"),
    _event("after_tool_failure", "After a tool call fails",
           inputs=(*_TOOL, "error", "is_interrupt?", "duration_ms", "mcp_server?"),
           answers=("additionalContext",), matcher="tool_name", fired="runner"),
    _event("after_tool_batch", "After every tool call of a batch resolved", inputs=("tool_calls",),
           answers=("additionalContext",), blocks="the agentic loop stops"),
    _event("notification", "When a notification is sent",
           inputs=("message", "title?", "notification_type"), answers=("additionalContext",),
           matcher="notification_type", fired="runner"),
    _event("user_prompt_submit", "When the user submits a prompt",
           inputs=("prompt", "source", "session_title?"),
           answers=("decision", "additionalContext", "sessionTitle", "suppressOriginalPrompt"),
           blocks="the prompt is dropped", fired="runner"),
    _event("user_prompt_expansion", "When a slash command expands into a prompt",
           inputs=("expansion_type", "command_name", "command_args", "command_source?", "prompt"),
           answers=("decision", "additionalContext", "suppressOriginalPrompt"),
           matcher="command_name", blocks="the prompt is not expanded", fired="satchel"),
    _event("session_start", "When a session starts",
           inputs=("source", "agent_type?", "model?", "session_title?"),
           answers=("additionalContext", "initialUserMessage", "sessionTitle", "watchPaths",
                    "reloadSkills"),
           matcher="source", fired="runner"),
    _event("pre_skill_shell_command", "Before a skill's !`cmd` line runs",
           inputs=(*_TOOL, "command_name", "command_source", "invoked_by"), answers=_GATE,
           matcher="tool_name", blocks="the command is skipped", fired="satchel"),
    _event("session_end", "When a session ends", inputs=("reason",), matcher="reason",
           fired="runner"),
    _event("stop", "Right before the agent concludes its response",
           inputs=("stop_hook_active", "last_assistant_message", "background_tasks",
                   "session_crons"),
           answers=("decision", "additionalContext"), blocks="the agent continues",
           fired="runner"),
    _event("stop_failure", "When a turn ends in an error",
           inputs=("error", "error_details?", "last_assistant_message?"), matcher="error"),
    _event("interrupt", "When an interrupt ends the main conversation's turn",
           inputs=("source", "reason", "via?"), matcher="source"),
    _event("subagent_start", "When a subagent starts", inputs=("agent_id", "agent_type"),
           answers=("additionalContext",), matcher="agent_type"),
    _event("subagent_stop", "Right before a subagent concludes",
           inputs=("stop_hook_active", "agent_id", "agent_transcript_path", "agent_type",
                   "last_assistant_message", "background_tasks", "session_crons"),
           answers=("decision", "additionalContext"), matcher="agent_type",
           blocks="the subagent continues", fired="runner"),
    _event("pre_compact", "Before the conversation is compacted",
           inputs=("trigger", "custom_instructions"), answers=("decision",), matcher="trigger",
           blocks="compaction does not happen", fired="runner"),
    _event("post_compact", "After the conversation was compacted",
           inputs=("trigger", "compact_summary"), matcher="trigger"),
    _event("pre_model_switch", "Before a requested model switch", inputs=_SWITCH, answers=_GATE,
           matcher="to_model", blocks="the model is not switched"),
    _event("post_model_switch", "After the session's model changed", inputs=_SWITCH,
           answers=("additionalContext",), matcher="to_model"),
    _event("permission_request", "When a permission dialog is shown",
           inputs=("tool_name", "tool_input", "permission_suggestions?", "mcp_server?",
                   "tool_kind", "mcp_skill"),
           answers=("decision",), matcher="tool_name", blocks="the call is denied"),
    _event("permission_denied", "After auto mode denied a tool call",
           inputs=(*_TOOL, "reason", "mcp_server?"), answers=("retry",), matcher="tool_name"),
    _event("setup", "Repository setup, on init and maintenance", inputs=("trigger",),
           answers=("additionalContext",), matcher="trigger"),
    _event("teammate_idle", "When a teammate is about to go idle",
           inputs=("teammate_name", "team_name"), blocks="the teammate keeps working"),
    _event("task_created", "When a task is being created", inputs=_TASK,
           blocks="the task is not created"),
    _event("task_completed", "When a task is being marked completed", inputs=_TASK,
           blocks="the task is not completed"),
    _event("elicitation", "When an MCP server asks the user for input",
           inputs=("mcp_server_name", "message", "mode?", "url?", "elicitation_id?",
                   "requested_schema?"),
           answers=("action", "content"), matcher="mcp_server_name",
           blocks="the elicitation is declined"),
    _event("elicitation_result", "After the user answered an MCP elicitation",
           inputs=("mcp_server_name", "elicitation_id?", "mode?", "action", "content?"),
           answers=("action", "content"), matcher="mcp_server_name",
           blocks="the answer becomes decline"),
    _event("config_change", "When configuration changes during a session",
           inputs=("source", "file_path?"), answers=("decision",), matcher="source",
           blocks="the change is not applied", fired="satchel"),
    _event("worktree_create", "Create an isolated worktree", inputs=("name",),
           answers=("worktreePath",)),
    _event("worktree_remove", "Remove a worktree", inputs=("worktree_path",)),
    _event("instructions_loaded", "When an instruction file is loaded",
           inputs=("file_path", "memory_type", "load_reason", "globs?", "trigger_file_path?",
                   "parent_file_path?"),
           matcher="load_reason", fired="satchel"),
    _event("cwd_changed", "After the working directory changed", inputs=("old_cwd", "new_cwd"),
           answers=("watchPaths",)),
    _event("file_changed", "When a watched file changes", inputs=("file_path", "event"),
           answers=("watchPaths",), matcher="file_path"),
    _event("directory_added", "After a working directory was added",
           inputs=("directory", "source"), matcher="source"),
    _event("message_display", "While assistant text is displayed",
           inputs=("turn_id", "message_id", "index", "final", "delta"),
           answers=("displayContent",)),
    _event("user_prompt_queued", "When a prompt is queued behind a running turn"),
    _event("turn_started", "When a turn starts"),
    _event("permission_result", "After a permission request was answered"),
    _event("session_heartbeat", "Periodically during a session"),
    _event("task_started", "When a task starts"),
)  # fmt: skip

EVENTS: tuple[str, ...] = tuple(e.name for e in CATALOGUE)

# Each host's table is its definition's (`satchel.hosts`: `HookDialect.events`), named
# here as satchel has always named it.
# Claude Code's names (Codex's are a subset, written in the same files) -> satchel's.
CLAUDE_EVENTS: Mapping[str, str] = CLAUDE_HOOK_EVENTS
# Vibe's hooks.toml types -> satchel's (Vibe; post_agent is Claude Code's Stop).
VIBE_EVENTS: Mapping[str, str] = VIBE_HOOK_EVENTS
# Gemini CLI's names -> satchel's (`GEMINI_ONLY`: its events with no satchel event).
GEMINI_EVENTS: Mapping[str, str] = GEMINI_HOOK_EVENTS
# Cursor's camelCase events -> satchel's; `CURSOR_TOOLS`: the tools its events of one
# kind of tool stand for; `CURSOR_ONLY`: its events with no satchel event.
CURSOR_EVENTS: Mapping[str, str] = CURSOR_HOOK_EVENTS
# satchel's event -> the Cursor event that carries it in general (the first of
# `CURSOR_EVENTS` for it: ``preToolUse`` for every tool, not ``beforeShellExecution``).
CURSOR_NAMES: Mapping[str, str] = CURSOR_HOOKS.spelling()

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
_OWN: Mapping[str, str] = MappingProxyType({e: e for e in EVENTS})


@cache
def _table(dialect: str | None) -> Mapping[str, str]:
    """Every name a file in `dialect` may use -> satchel's."""
    found = hook_dialect(dialect)
    return _OWN if found.events is None else found.names()


@cache
def _spelling(dialect: str | None) -> Mapping[str, str]:
    return hook_dialect(dialect).spelling()


@cache
def _named() -> tuple[Mapping[str, str], ...]:
    return tuple(d.names() for d in hook_dialects() if d.named and d.events)


def canonical(event: str, dialect: str) -> str | None:
    """satchel's name for a host's `event` in `dialect` (``claude``, ``kimi``,
    ``vibe``, ``satchel``: a `HookSpec.format`); None when that host's table does not
    know it."""
    return _table(dialect).get(event)


def event_named(name: str) -> str:
    """satchel's name for an event a host or a user names (``PreToolUse``,
    ``pre_tool``, ``before_tool_use``, Kimi's ``TurnStarted``, Gemini CLI's
    ``BeforeTool``); a name no table knows stays as it is."""
    return next((table[name] for table in _named() if name in table), name)


def host_name(event: str, dialect: str | None = None) -> str:
    """The name a hook written for `dialect` expects in ``hook_event_name``: its host's
    own (Vibe's ``pre_tool``, Gemini CLI's ``BeforeTool``) where it has one, else
    satchel's dialect's (Claude Code's ``PreToolUse``, Kimi's for its own events); an
    event no table knows keeps its own name."""
    own = _spelling(dialect).get(event)
    return own if own is not None else SATCHEL_HOOKS.spelling().get(event, event)
