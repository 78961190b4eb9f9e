"""The gate a tool call passes before it reaches its server.

A gate is anything with ``before_tool_use(name, tool_input)`` (a `Session`, a hook
runner, a host's own policy) returning a decision -- or an awaitable of one -- with
``behavior`` (``allow``, ``deny`` or ``ask``), ``reason`` and ``updated_input``. A gate
that also has ``abefore_tool_use`` (a `Session`: its hooks run off the loop's thread)
is awaited through that; any other is called on the event loop's thread, where a slow
one holds up the other servers' traffic for as long as it takes.

``deny`` refuses the call. ``ask`` refuses it too unless the caller passed an
`Approve` callback that says yes: the supervisor has no user to ask. An
``updated_input`` replaces the tool input.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from satchel.runtime.mcp._catalog import McpTool

__all__ = ["Approve", "ToolDecision", "ToolGate", "decide", "refusal"]


class ToolDecision(Protocol):
    """What a gate decided: ``allow``, ``deny`` or ``ask``, why, and an optional
    replacement for the tool input."""

    @property
    def behavior(self) -> str: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def updated_input(self) -> Mapping[str, Any] | None: ...


class ToolGate(Protocol):
    """Anything with `before_tool_use`; it may return the decision or an awaitable of it."""

    def before_tool_use(self, name: str, tool_input: Mapping[str, Any]) -> Any: ...


Approve = Callable[[McpTool, Mapping[str, Any], str | None], bool]


async def decide(gate: ToolGate, name: str, tool_input: Mapping[str, Any]) -> ToolDecision:
    """The gate's decision for calling `name` with `tool_input`."""
    asynchronous = getattr(gate, "abefore_tool_use", None)
    decision = (asynchronous or gate.before_tool_use)(name, tool_input)
    if inspect.isawaitable(decision):
        decision = await decision
    return decision  # type: ignore[no-any-return]  # the gate's own decision type


def refusal(
    decision: ToolDecision, tool: McpTool, tool_input: Mapping[str, Any], approve: Approve | None
) -> str | None:
    """Why the call must not go on, or None when it may."""
    reason = f": {decision.reason}" if decision.reason else ""
    if decision.behavior == "deny":
        return f"the call to {tool.name} was denied{reason}"
    if decision.behavior == "ask":
        if approve is not None and approve(tool, tool_input, decision.reason):
            return None
        return f"the call to {tool.name} needs the user's approval{reason}"
    return None
