"""The allowed-tools gate (zidane): while a skill that declares `allowed-tools` is
active, only calls inside the union of the active skills' lists go through."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from satchel.diagnostics import Diagnostic, diagnostic
from satchel.session._model import ActiveSkill

__all__ = ["GateContext", "refusal"]


@dataclass(frozen=True, slots=True)
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
    limiting = [a for a in active if a.skill.allowed_tools]
    if not limiting:
        return None
    for held in limiting:
        if held.rules.first_match(tool, tool_input, cwd=where.cwd, home=where.home):
            return None
    return diagnostic("session.tool.not-allowed", _message(limiting, tool, where))


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
