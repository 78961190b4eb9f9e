"""What a host tells its model of its hooks' answers: one `Words` per host, its
definition's (`satchel.hosts.HookDialect.words`).

Each text is a template (`str.format`) filled with ``event`` (the event's Claude Code
name: ``PreToolUse``), ``tool`` (the tool's name), ``reason`` (the hooks' reason),
``command`` (the refused shell command), ``hook`` (the refusing hook's command) and
``text`` (the hooks' ``additionalContext``). Claude Code's words (`CLAUDE_WORDS`) are
the default: a host with no words of its own is spoken for as Claude Code speaks.
`refusal_text` and `context_text` (`satchel.runtime.hooks`) fill them.
"""

from __future__ import annotations

from satchel.hosts._hooks import CLAUDE_WORDS, Words

__all__ = ["CLAUDE_WORDS", "Words"]
