"""Which skills a transcript leaves active: its `skills_use` and `load_skill` calls,
replayed in order, the last mode per skill winning (zidane)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from satchel.diagnostics import Diagnostic
from satchel.session._history import ToolCall, tool_calls
from satchel.session._model import ERROR_PREFIX

__all__ = ["changes"]


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
