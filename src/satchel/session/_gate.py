"""The allowed-tools gate (zidane): while a skill that declares `allowed-tools` is
active, only calls inside the union of the active skills' lists go through.

Claude Code's `disallowed-tools` (2.1.332 schema: the tools a skill takes away while
it is active) is judged first: a call any active skill's `disallowed-tools` matches
is refused, whatever the `allowed-tools` of the same or another skill allow.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.session._model import ActiveSkill

__all__ = ["GateContext", "refusal"]


@model
class GateContext:
    """What rules are judged against, and the tool that releases a skill (if any)."""

    cwd: Path
    home: Path
    release_tool: str | None


def refusal(
    active: Sequence[ActiveSkill],
    tool: str,
    tool_input: Mapping[str, Any] | None,
    where: GateContext,
) -> Diagnostic | None:
    """None when the call is allowed, else why not (`session.tool.not-allowed`)."""
    denied = _denial(active, tool, tool_input, where)
    if denied is not None:
        return denied
    limiting = [a for a in active if a.skill.allowed_tools]
    if not limiting:
        return None
    for held in limiting:
        if held.rules.first_match(tool, tool_input, cwd=where.cwd, home=where.home):
            return None
    return diagnostic("session.tool.not-allowed", _message(limiting, tool, where))


def _denial(
    active: Sequence[ActiveSkill],
    tool: str,
    tool_input: Mapping[str, Any] | None,
    where: GateContext,
) -> Diagnostic | None:
    for held in active:
        rule = held.denied.first_match(tool, tool_input, cwd=where.cwd, home=where.home)
        if rule is not None:
            message = (
                f"tool {tool!r} is not allowed: skill {held.name!r} is active and disallows: "
                f"{', '.join(held.skill.disallowed_tools)}. {_release([held.name], where)}"
            )
            return diagnostic("session.tool.not-allowed", message)
    return None


def _message(limiting: Sequence[ActiveSkill], tool: str, where: GateContext) -> str:
    names = [a.name for a in limiting]
    allowed = ", ".join(dict.fromkeys(t for a in limiting for t in a.skill.allowed_tools))
    if len(names) == 1:
        who = f"skill {names[0]!r} is active and allows only: {allowed}"
    else:
        listed = ", ".join(map(repr, names))
        who = f"skills {listed} are active and together allow only: {allowed}"
    return f"tool {tool!r} is not allowed: {who}. {_release(names, where)}"


def _release(names: Sequence[str], where: GateContext) -> str:
    if where.release_tool is None:
        return "Ask the user to deactivate the skill to use this tool."
    calls = " and ".join(
        f"{where.release_tool}({json.dumps({'name': n, 'mode': 'deactivate'})})" for n in names
    )
    return f"To use this tool, first call {calls}."
