"""What a host tells its model about hooks' answers, in the host's words.

A host loop that runs its hooks through satchel shows the model the same text the
host would (Claude Code 2.1.332 and 2.1.337, read from what each sent its model next
in tests/hooks/test_claude_hook_loop.py):

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
"""

from __future__ import annotations

from satchel.hooks._events import host_name
from satchel.hooks._model import Outcome

__all__ = ["context_text", "refusal_text"]


def refusal_text(
    outcome: Outcome, tool_name: str, *, host: str = "claude-code", command: str = ""
) -> str | None:
    """The tool result `host` (Claude Code, ``codex``, ``gemini``) gives the model for
    a call `outcome` refused (a deny, or an ask nobody can answer); None when the call
    may run. `command`: the refused shell command, which Codex repeats."""
    if outcome.behavior not in ("deny", "ask"):
        return None
    if host in ("codex", "gemini"):
        return _other_refusal(outcome, host, command)
    if outcome.behavior == "ask":
        return outcome.reason or ""
    event = host_name(outcome.event, "claude") or outcome.event
    first = next((r for r in outcome.results if r.decision == "deny"), None)
    reason = outcome.reason or ""
    if first is not None and first.exit_code == 2:
        return f"{event}:{tool_name} hook error: [{first.hook.spec.command}]: {reason}"
    return f"{event}:{tool_name} hook error: {reason}"


def context_text(
    outcome: Outcome, tool_name: str | None = None, *, host: str = "claude-code"
) -> str | None:
    """The message `host` (Claude Code, ``codex``, ``gemini``) adds for the hooks'
    ``additionalContext`` (None: none): Claude Code's names the event (and the tool,
    on a tool event)."""
    if not outcome.additional_context:
        return None
    if host == "codex":
        return outcome.additional_context
    if host == "gemini":
        return f"<hook_context>{outcome.additional_context}</hook_context>"
    event = host_name(outcome.event, "claude") or outcome.event
    where = event if tool_name is None else f"{event}:{tool_name}"
    return f"{where} hook additional context: {outcome.additional_context}"


def _other_refusal(outcome: Outcome, host: str, command: str) -> str:
    """Codex's and Gemini CLI's words for a refused call (before it runs) or result."""
    reason = outcome.reason or ""
    if outcome.event != "before_tool_use":
        return reason  # a refused result: the reason stands for it
    if host == "codex":
        return f"Command blocked by PreToolUse hook: {reason}. Command: {command}"
    return f"Tool execution blocked: {reason}"
