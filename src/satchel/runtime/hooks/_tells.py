"""What a host tells its model about hooks' answers, in the host's words.

A host loop that runs its hooks through satchel shows the model the same text the
host would; each host's words are its definition's `Words` (`HookDialect.words`,
`Host.hooks`). Claude Code 2.1.332 and 2.1.337, read
from what each sent its model next in tests/hooks/test_claude_hook_loop.py:

* a refused tool call's result: ``PreToolUse:<tool> hook error: <reason>`` for a JSON
  deny, ``PreToolUse:<tool> hook error: [<command>]: <stderr>`` for exit 2, and the
  reason alone for an ``ask`` that print mode cannot put to anyone;
* a hook's context: ``<event>:<tool> hook additional context: <text>`` on a tool
  event, ``<event> hook additional context: <text>`` on another.

With ``host="codex"`` (Codex 0.171.0, tests/hooks/test_codex_hook_loop.py): a refused
call's result is ``Command blocked by PreToolUse hook: <reason>. Command: <command>``,
a refused PostToolUse's the reason alone, and a context the text itself (a developer
message). With ``host="gemini"`` (Gemini CLI 0.61.0, test_gemini_hook_loop.py):
``Tool execution blocked: <reason>``, the reason alone after the call, and the context
as ``<hook_context>text</hook_context>`` (after the result, or beside the prompt).
A host with no dialect of its own is spoken for in Claude Code's words.
"""

from __future__ import annotations

from satchel.hooks._events import host_name
from satchel.hooks._model import Outcome
from satchel.runtime.hooks._payload import dialect_for

__all__ = ["context_text", "refusal_text"]


def refusal_text(
    outcome: Outcome, tool_name: str, *, host: str | None = None, command: str = ""
) -> str | None:
    """The tool result host profile `host` (``codex``, ``gemini``; None: Claude Code's
    words) gives the model for a call `outcome` refused (a deny, or an ask nobody can
    answer); None when the call may run. `command`: the refused shell command, which
    Codex repeats."""
    if outcome.behavior not in ("deny", "ask"):
        return None
    words = dialect_for(host).words
    first = next((r for r in outcome.results if r.decision == "deny"), None)
    template = words.blocked
    if outcome.behavior == "ask" and words.asked is not None:
        template = words.asked
    elif outcome.event != "before_tool_use" and words.blocked_after is not None:
        template = words.blocked_after
    elif first is not None and first.exit_code == 2 and words.blocked_by_exit is not None:
        template = words.blocked_by_exit
    return template.format(
        event=host_name(outcome.event) or outcome.event,
        tool=tool_name,
        reason=outcome.reason or "",
        command=command,
        hook=first.hook.spec.command if first is not None else "",
    )


def context_text(
    outcome: Outcome, tool_name: str | None = None, *, host: str | None = None
) -> str | None:
    """The message host profile `host` (``codex``, ``gemini``; None: Claude Code's
    words) adds for the hooks' ``additionalContext`` (None: none): Claude Code's names
    the event (and the tool, on a tool event)."""
    if not outcome.additional_context:
        return None
    words = dialect_for(host).words
    template = words.context if tool_name is None else words.tool_context
    return template.format(
        event=host_name(outcome.event) or outcome.event,
        tool=tool_name,
        text=outcome.additional_context,
    )
