"""Which skills a transcript leaves active: its `skills_use` and `load_skill` calls,
replayed in order, the last mode per skill winning (zidane)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from satchel.core.diagnostics import Diagnostic, diagnostic
from satchel.core.errors import Refused
from satchel.session._history import ToolCall, tool_calls
from satchel.session._model import ERROR_PREFIX
from satchel.skills._model import Skill

__all__ = ["changes", "fold", "not_resumed"]


def changes(
    history: Iterable[Any] | Mapping[str, Any], names: Mapping[str, str]
) -> tuple[tuple[tuple[str, bool], ...], tuple[Diagnostic, ...]]:
    """Each (skill name as the model wrote it, activated?) in transcript order.

    `names` maps satchel's tool kinds to the names the model called them by; calls
    to other tools, calls whose result was an error, and `load_skill` calls that read
    a resource change nothing. The session folds the names and keeps the last."""
    calls, problems = tool_calls(history, is_error_text=lambda t: t.startswith(ERROR_PREFIX))
    kinds = {host: kind for kind, host in names.items()}
    found = (_change(call, kinds.get(call.name)) for call in calls)
    return tuple(c for c in found if c is not None), problems


def _change(call: ToolCall, kind: str | None) -> tuple[str, bool] | None:
    if call.failed or kind not in ("skills_use", "load_skill"):
        return None
    name = call.arguments.get("name")
    if not isinstance(name, str) or not name:
        return None
    if kind == "load_skill":
        resource = call.arguments.get("resource")
        return None if resource else (name, True)
    mode = call.arguments.get("mode")
    mode = "activate" if mode is None else mode  # strict schemas send null for "default"
    if mode not in ("activate", "deactivate"):
        return None
    return name, mode == "activate"


def fold(
    changes: Iterable[tuple[str, bool]], find: Callable[[str], Skill]
) -> tuple[list[Skill], tuple[Diagnostic, ...]]:
    """The skills `changes` leave active, in the order of their last change, each
    name found by `find` (a refusal is a ``not resumed`` warning)."""
    state: dict[str, tuple[Skill, bool]] = {}
    problems: dict[Diagnostic, None] = {}
    for name, on in changes:
        try:
            skill = find(name)
        except Refused as e:
            why = e.diagnostic
            problems[diagnostic(why.code, f"not resumed: {why.message}", severity="warning")] = None
            continue
        state.pop(skill.name, None)  # a later change moves it to the end
        state[skill.name] = (skill, on)
    return [s for s, on in state.values() if on], tuple(problems)


def not_resumed(skill: Skill, limit: int | None) -> Diagnostic:
    """The warning for a skill `max_active` leaves out of a resumed set."""
    message = (
        f"not resumed: {skill.name!r} was activated earlier than the {limit} kept by max_active"
    )
    return diagnostic("session.max-active", message, severity="warning")
