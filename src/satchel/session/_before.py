"""`Session.before_tool_use`: may this tool call run? Hooks first, then the gate.

Mermaid's order: the ``before_tool_use`` hooks answer first (any deny denies, the last
``updatedInput`` wins, contexts concatenate), and the input that would run, a hook's
rewrite or the original, then passes the allowed-tools gate exactly as the original
would (a rewrite gets no way around it). A deny from either is final; otherwise the
hooks' ``ask`` or ``allow`` stands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from satchel.core._model import model
from satchel.core.diagnostics import Diagnostic
from satchel.hooks._model import Behavior, Outcome

__all__ = ["Decision", "Refusal", "decide"]

_NONE: Mapping[str, Any] = MappingProxyType({})
Refusal = Callable[[str, Mapping[str, Any]], Diagnostic | None]
"""Why the allowed-tools gate refuses tool `name` with an input (None: it may run)."""


@model
class Decision:
    """The answer for one tool call.

    `behavior`: ``allow``, ``deny`` (`reason` says why, for the model) or ``ask`` (the
    host asks its user). `tool_input` is the input to run: `updated_input` when a hook
    rewrote it (None: the original stands). `additional_context` and `system_messages`
    come from hooks, for the model's next request and for the user. `hooks` is the
    hooks' own outcome (None when no hook ran), `diagnostics` every problem met."""

    behavior: Behavior
    original: Mapping[str, Any]
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None
    additional_context: str | None = None
    system_messages: tuple[str, ...] = ()
    stop: bool = False
    hooks: Outcome | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def allowed(self) -> bool:
        """True when the call may run without asking anyone."""
        return self.behavior == "allow"

    @property
    def tool_input(self) -> Mapping[str, Any]:
        """The input the call runs with."""
        return self.original if self.updated_input is None else self.updated_input

    def to_json(self) -> dict[str, Any]:
        return {
            "behavior": self.behavior,
            "reason": self.reason,
            "toolInput": dict(self.tool_input),
            "updatedInput": None if self.updated_input is None else dict(self.updated_input),
            "additionalContext": self.additional_context,
            "systemMessages": list(self.system_messages),
            "continue": not self.stop,
            "hooks": None if self.hooks is None else self.hooks.to_json(),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def decide(
    refusal: Refusal, name: str, given: Mapping[str, Any], outcome: Outcome | None
) -> Decision:
    """Combine the hooks' `outcome` (None: none ran) with the allowed-tools gate
    (`refusal`, asked about the input that would run)."""
    if outcome is None:
        outcome = Outcome("before_tool_use")
        ran = None
    else:
        ran = outcome
    common: dict[str, Any] = {
        "original": given,
        "additional_context": outcome.additional_context,
        "system_messages": outcome.system_messages,
        "stop": outcome.stop,
        "hooks": ran,
    }
    if outcome.behavior == "deny":
        return Decision("deny", reason=outcome.reason, diagnostics=outcome.diagnostics, **common)
    final = given if outcome.updated_input is None else outcome.updated_input
    refused = refusal(name, final)
    found = (*outcome.diagnostics, *(() if refused is None else (refused,)))
    if refused is not None:
        return Decision("deny", reason=refused.message, diagnostics=found, **common)
    return Decision(
        outcome.behavior,
        reason=outcome.reason,
        updated_input=outcome.updated_input,
        diagnostics=found,
        **common,
    )
