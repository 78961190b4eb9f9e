"""The hook events satchel fires itself, with Claude Code's input shapes.

* ``instructions_loaded`` (Claude Code's ``InstructionsLoaded``): once for each
  always-on instruction file the session puts in the prompt (`Session.context`), with
  ``file_path``, ``memory_type`` (``User``, ``Project``, ``Local``) and
  ``load_reason`` ``session_start``; and once for each conditional file (a rule's
  ``paths:``) when `Session.touch` reports a file it matches, with ``load_reason``
  ``path_glob_match``, its ``globs`` and the ``trigger_file_path``. Observe-only, as in
  Claude Code.
* ``user_prompt_expansion`` (``UserPromptExpansion``): before `Session.expand` expands a
  slash prompt, with ``expansion_type`` ``slash_command``, ``command_name``,
  ``command_args``, ``command_source`` and the original ``prompt``. A block leaves the
  prompt as it was typed (``session.expansion.blocked``); a hook's context follows the
  expanded prompt.
* ``config_change`` (``ConfigChange``): from `Session.reload` when what loads changed,
  once per kind that changed. ``source`` is ``skills`` (Claude Code's value) or, where
  Claude Code has no value for satchel's kind, the kind itself (``commands``,
  ``agents``, ``plugins``, ``hooks``, ``mcp_servers``), and ``changed`` names what was
  added, removed or changed. The hooks that answer are the ones in force before the
  reload, so a new hook cannot approve its own arrival; a block keeps the session's
  environment (``session.reload.blocked``).

Claude Code's shapes are the 2.1.332 binary's input schemas (`satchel.hooks._events`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.hooks import Outcome
from satchel.kinds._instructions import InstructionFile
from satchel.kinds.commands import Command
from satchel.skills._model import Skill
from satchel.trust._changes import Changes

__all__ = [
    "CHANGE_KINDS",
    "blocked_expansion",
    "blocked_reload",
    "command_source",
    "config_changes",
    "expansion",
    "instructions_loaded",
]

CHANGE_KINDS = ("skills", "commands", "agents", "plugins", "hooks", "mcp_servers")


def instructions_loaded(file: InstructionFile, trigger: str | None = None) -> dict[str, Any]:
    """The ``InstructionsLoaded`` fields for one always-on file put in the prompt, or
    for a conditional one that touching `trigger` attached."""
    memory = "Local" if file.kind == "local" else file.scope.capitalize()
    fields: dict[str, Any] = {"file_path": str(file.path), "memory_type": memory}
    if trigger is None:
        return {**fields, "load_reason": "session_start"}
    globs = list(file.condition.globs)
    return {
        **fields,
        "load_reason": "path_glob_match",
        "globs": globs,
        "trigger_file_path": trigger,
    }


def expansion(target: Command | Skill, name: str, arguments: str, prompt: str) -> dict[str, Any]:
    """The ``UserPromptExpansion`` fields for expanding `prompt` into `target`."""
    return {
        "expansion_type": "slash_command",
        "command_name": name,
        "command_args": arguments,
        "command_source": command_source(target),
        "prompt": prompt,
    }


# Claude Code 2.1.332's command sources (a command's or skill's ``source``, sent as
# ``command_source``), by satchel's scope: a root named on the command line is
# ``flagSettings``, as ``--settings`` and ``--plugin-dir`` are.
_SOURCES = {
    "project": "projectSettings",
    "user": "userSettings",
    "plugin": "plugin",
    "extra": "flagSettings",
    "mcp": "mcp",
    "builtin": "builtin",
    "host": "builtin",
}


def command_source(target: Command | Skill) -> str:
    """Claude Code's ``command_source`` for `target`: ``projectSettings``,
    ``userSettings``, ``plugin``, ``flagSettings``, ``mcp`` or ``builtin`` (a command
    or skill the host defines in code)."""
    plugin = target.plugin if isinstance(target, Command) else target.origin.plugin
    if plugin is not None:
        return "plugin"
    return _SOURCES.get(target.scope, "builtin")


def blocked_expansion(name: str, outcome: Outcome) -> Diagnostic:
    why = outcome.reason or "a hook blocked it"
    message = f"/{name} was not expanded: a UserPromptExpansion hook blocked it ({why})"
    return diagnostic("session.expansion.blocked", message)


def config_changes(changes: Changes) -> list[dict[str, Any]]:
    """One ``ConfigChange`` payload per kind that changed, in `CHANGE_KINDS` order."""
    found: list[dict[str, Any]] = []
    for kind in CHANGE_KINDS:
        change = getattr(changes, kind)
        if change:
            found.append({"source": kind, "changed": change.to_json()})
    return found


def blocked_reload(outcomes: Iterable[Outcome]) -> Diagnostic | None:
    """`session.reload.blocked` for the first denying outcome; None when none denied."""
    for outcome in outcomes:
        if outcome.behavior == "deny":
            why = outcome.reason or "a hook blocked it"
            message = f"the reload was not applied: a ConfigChange hook blocked it ({why})"
            return diagnostic("session.reload.blocked", message)
    return None
