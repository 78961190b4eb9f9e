"""What a host tells its model about hooks' answers, in the host's words.

A host loop that runs its hooks through satchel shows the model the same text the
host would (Claude Code 2.1.332 and 2.1.337, read from what each sent its model next
in tests/hooks/test_claude_hook_loop.py):

* a refused tool call's result: ``PreToolUse:<tool> hook error: <reason>`` for a JSON
  deny, ``PreToolUse:<tool> hook error: [<command>]: <stderr>`` for exit 2, and the
  reason alone for an ``ask`` that print mode cannot put to anyone;
* a hook's context: ``<event>:<tool> hook additional context: <text>`` on a tool
  event, ``<event> hook additional context: <text>`` on another.
"""

from __future__ import annotations

from satchel.hooks._events import host_name
from satchel.hooks._model import Outcome

__all__ = ["context_text", "refusal_text"]


def refusal_text(outcome: Outcome, tool_name: str) -> str | None:
    """The tool result Claude Code gives the model for a call `outcome` refused (a
    deny, or an ask nobody can answer); None when the call may run."""
    if outcome.behavior == "ask":
        return outcome.reason or ""
    if outcome.behavior != "deny":
        return None
    event = host_name(outcome.event, "claude") or outcome.event
    first = next((r for r in outcome.results if r.decision == "deny"), None)
    reason = outcome.reason or ""
    if first is not None and first.exit_code == 2:
        return f"{event}:{tool_name} hook error: [{first.hook.spec.command}]: {reason}"
    return f"{event}:{tool_name} hook error: {reason}"


def context_text(outcome: Outcome, tool_name: str | None = None) -> str | None:
    """The message Claude Code adds for the hooks' ``additionalContext`` (None: none):
    on a tool event it names the tool."""
    if not outcome.additional_context:
        return None
    event = host_name(outcome.event, "claude") or outcome.event
    where = event if tool_name is None else f"{event}:{tool_name}"
    return f"{where} hook additional context: {outcome.additional_context}"
