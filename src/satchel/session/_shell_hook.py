"""``PreSkillShellCommand``: the hooks asked before a skill's `` !`cmd` `` runs.

Claude Code 2.1.332 added the event ("Before a skill's inline shell command runs");
its input schema, read from the 2.1.332 binary's zod schema, is the common fields
plus ``tool_name`` (the shell tool that runs it: ``Bash``, or ``PowerShell`` for a
skill with ``shell: powershell``), ``tool_input: {command}``, ``tool_use_id`` (names
this command, no tool call in the transcript), ``command_name`` (the skill),
``command_source`` (optional) and ``invoked_by`` (``user``: typed or sent by the
host; ``claude``: the model's tool call; ``other``: anything else). The matcher
filters on ``tool_name``. Exit 2, or a ``deny``, skips the command; so do an ``ask``
(a skill cannot wait for an answer) and a rewritten input (not supported), as
Claude Code refuses them. ``command_source`` is Claude Code's name for where the skill
came from (`satchel.session._fire.command_source`: ``projectSettings``,
``userSettings``, ``plugin``...), the values of its 2.1.332 binary.

Claude Code's ``disableSkillShellExecution`` setting ("Disable inline shell execution
in skills and custom slash commands from user, project, or plugin sources. Commands
are replaced with a placeholder instead of being run", 2.1.332 settings schema) is
`SessionOptions.disable_skill_shell_execution`; when the environment reads Claude
Code's settings (`Options.claude_settings_hooks`), `claude_disables_shell` reads the
key from them: ``true`` in any of them turns it on (it is a restrictive setting).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from satchel.core._files import FileProblem, read_bounded
from satchel.core._json import loads
from satchel.core.layout import Layout
from satchel.hooks._model import LOCAL_SETTINGS, Outcome
from satchel.hosts._claude_code import INVOKED_BY
from satchel.session._fire import command_source
from satchel.session._model import Via
from satchel.skills._model import Skill

__all__ = ["EVENT", "SETTING", "claude_disables_shell", "shell_payload", "shell_refusal"]

EVENT = "pre_skill_shell_command"
SETTING = "disableSkillShellExecution"
_MAX_SETTINGS = 1024 * 1024


def shell_payload(skill: Skill, command: str, via: Via) -> dict[str, Any]:
    """The event's own fields for `command` in `skill`, activated `via`."""
    shell = skill.extras.get("shell")
    return {
        "tool_name": "PowerShell" if shell == "powershell" else "Bash",
        "tool_input": {"command": command},
        "tool_use_id": f"skill_shell_{uuid.uuid4().hex}",
        "command_name": skill.name,
        "command_source": command_source(skill),
        "invoked_by": INVOKED_BY.get(via, "other"),
    }


def shell_refusal(outcome: Outcome) -> str | None:
    """Why the hooks' `outcome` skips the command, or None when it may run."""
    if outcome.behavior == "deny":
        reason = f" ({outcome.reason})" if outcome.reason else ""
        return f"a PreSkillShellCommand hook refused it{reason}"
    if outcome.behavior == "ask":
        return "a PreSkillShellCommand hook asked for approval, which a skill cannot wait for"
    if outcome.updated_input is not None:
        return "a PreSkillShellCommand hook changed the command, which is not supported"
    return None


def claude_disables_shell(layout: Layout) -> bool:
    """Whether a Claude Code ``settings.json`` (the user's, the project's or its
    ``settings.local.json``) sets ``disableSkillShellExecution: true``. A file that
    is missing or cannot be read sets nothing (the hooks loader reports it)."""
    claude = layout.project / ".claude"
    files = (layout.home / ".claude" / "settings.json", claude / "settings.json",
             claude / LOCAL_SETTINGS)  # fmt: skip
    return any(_setting(path) is True for path in files)


def _setting(path: Path) -> Any:
    try:
        doc = loads(read_bounded(path, _MAX_SETTINGS))
    except (FileProblem, ValueError):
        return None
    return doc.get(SETTING) if isinstance(doc, dict) else None
