"""The commands segment a model reads, and the wrapper for an explicit invocation.

``render_commands`` gives the text of the ``agent.plugin-commands`` context segment
(caveman): "" when no command may be shown, else caveman's line, then one line per
command the model may see (``disable-model-invocation`` ones are left out)::

    Plugin slash commands available to this agent. Commands activate only when explicitly invoked.
    - /deploy: Deploy the app (arguments: [env])
    - /fix-issue: Fix a GitHub issue
    - /notes

that is ``- /<name>``, then ``: <description>`` when there is one, then
`` (arguments: <argument-hint>)`` when there is a hint; description and hint on one
line, without characters a reader cannot see, the description cut to 256 characters
and the hint to 128 (each cut ends with ``…``), so no single entry can crowd out the
rest. Capped like the skills index: 64 entries and 8 KiB, with a last line ``(N more
commands not listed: index limit reached)`` when entries are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from satchel.core._text import strip_hidden
from satchel.core._xml import quoteattr
from satchel.index._render import fit_lines
from satchel.kinds.commands._model import Command

__all__ = [
    "CONTEXT_ID",
    "HEAD",
    "MAX_BYTES",
    "MAX_COMMANDS",
    "MAX_LINE_DESCRIPTION",
    "MAX_LINE_HINT",
    "command_line",
    "render_commands",
    "wrap_command",
]

CONTEXT_ID = "agent.plugin-commands"
HEAD = (
    "Plugin slash commands available to this agent. Commands activate only when explicitly invoked."
)
MAX_COMMANDS = 64
MAX_BYTES = 8 * 1024
MAX_LINE_DESCRIPTION = 256
MAX_LINE_HINT = 128
_ELLIPSIS = "…"


def render_commands(
    commands: Mapping[str, Command] | Iterable[Command],
    *,
    max_commands: int = MAX_COMMANDS,
    max_bytes: int = MAX_BYTES,
) -> str:
    """The segment text for `commands` (in the order given), or "" when none shows."""
    items = list(commands.values() if isinstance(commands, Mapping) else commands)
    entries = [command_line(c) for c in items if not c.disable_model_invocation]
    if not entries:
        return ""
    return fit_lines(HEAD, entries, max_entries=max_commands, max_bytes=max_bytes, omitted=_omitted)


def command_line(command: Command) -> str:
    """One entry of the segment: ``- /<name>: <description> (arguments: <hint>)``."""
    line = f"- /{_one_line(command.name)}"
    description = _one_line(command.description, MAX_LINE_DESCRIPTION)
    if description:
        line += f": {description}"
    hint = _one_line(command.argument_hint or "", MAX_LINE_HINT)
    if hint:
        line += f" (arguments: {hint})"
    return line


def wrap_command(command: Command, expanded: str) -> str:
    """An explicit invocation for the prompt (caveman)::

    <agent-plugin-command name="deploy">
    ...expanded body...
    </agent-plugin-command>
    """
    return (
        f"<agent-plugin-command name={quoteattr(command.name)}>\n"
        f"{expanded}\n"
        "</agent-plugin-command>"
    )


def _omitted(count: int) -> str:
    noun = "command" if count == 1 else "commands"
    return f"({count} more {noun} not listed: index limit reached)"


def _one_line(text: str, width: int | None = None) -> str:
    """`text` on one line, cut to `width` characters (the cut marked with ``…``)."""
    line = " ".join(strip_hidden(text).split())
    if width is None or len(line) <= width:
        return line
    return line[: width - len(_ELLIPSIS)].rstrip() + _ELLIPSIS
