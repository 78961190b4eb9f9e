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
Claude Code refuses them. satchel sends the skill's scope as ``command_source``
(``project``, ``user``, ``plugin``...): Claude Code's values for it are not
documented (unverified).
"""

from __future__ import annotations

import uuid
from typing import Any

from satchel.hooks._model import Outcome
from satchel.session._model import Via
from satchel.skills._model import Skill

__all__ = ["EVENT", "shell_payload", "shell_refusal"]

EVENT = "pre_skill_shell_command"
_INVOKED_BY: dict[str, str] = {"explicit": "user", "tool": "claude", "resume": "other"}


def shell_payload(skill: Skill, command: str, via: Via) -> dict[str, Any]:
    """The event's own fields for `command` in `skill`, activated `via`."""
    shell = skill.extras.get("shell")
    return {
        "tool_name": "PowerShell" if shell == "powershell" else "Bash",
        "tool_input": {"command": command},
        "tool_use_id": f"skill_shell_{uuid.uuid4().hex}",
        "command_name": skill.name,
        "command_source": skill.scope,
        "invoked_by": _INVOKED_BY.get(via, "other"),
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
