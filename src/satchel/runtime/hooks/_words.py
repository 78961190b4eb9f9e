"""What a host tells its model of its hooks' answers: one `Words` per host dialect.

Each text is a template (`str.format`) filled with ``event`` (the event's Claude Code
name: ``PreToolUse``), ``tool`` (the tool's name), ``reason`` (the hooks' reason),
``command`` (the refused shell command), ``hook`` (the refusing hook's command) and
``text`` (the hooks' ``additionalContext``). Claude Code's words (`CLAUDE_WORDS`) are
the default: a host with no words of its own is spoken for as Claude Code speaks.
`refusal_text` and `context_text` (`satchel.runtime.hooks`) fill them.
"""

from __future__ import annotations

from satchel._model import model

__all__ = ["CLAUDE_WORDS", "Words"]


@model
class Words:
    """A host's words for its hooks' answers.

    * `blocked`: the result of a call a hook refused.
    * `blocked_by_exit`: the same when the first refusing hook exited 2 (None: as
      `blocked`).
    * `blocked_after`: the result a hook refused after the call ran (None: as
      `blocked`).
    * `asked`: the result of a call a hook would ask about, with nobody to ask (None:
      as a refusal).
    * `context`: a hook's context on an event with no tool.
    * `tool_context`: a hook's context on a tool event."""

    blocked: str = "{event}:{tool} hook error: {reason}"
    blocked_by_exit: str | None = "{event}:{tool} hook error: [{hook}]: {reason}"
    blocked_after: str | None = None
    asked: str | None = "{reason}"
    context: str = "{event} hook additional context: {text}"
    tool_context: str = "{event}:{tool} hook additional context: {text}"


CLAUDE_WORDS = Words()
"""Claude Code 2.1.332 and 2.1.337 (tests/hooks/test_claude_hook_loop.py): the
refused call's result names the event and the tool (and the hook's command after an
exit 2); an ``ask`` print mode cannot put to anyone is the reason alone; a context
names the event (and the tool, on a tool event)."""
