"""`Toolbox`: the session's model-facing tools, how they are called and counted.

The tools (`satchel.session._tools`) are built from the skills `Activation` offers and
built again when a touched file brings new ones in (`rebuild`). `call` runs one for
the model and never raises for what the model sent; `receipt` counts calls and errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from satchel.core.diagnostics import diagnostic
from satchel.core.errors import Collision, Refused
from satchel.kinds.resources import quote
from satchel.session._activation import Activation
from satchel.session._arguments import parse_arguments
from satchel.session._model import Tool, ToolReceipt, ToolResult
from satchel.session._tools import build_tools

__all__ = ["Toolbox"]


class Toolbox:
    """The tools of one session, bound to its `Activation`."""

    def __init__(self, activation: Activation) -> None:
        self._activation = activation
        self._tools = build_tools(activation)
        self._receipts = {t.name: [0, 0] for t in self._tools}

    @property
    def own(self) -> frozenset[str]:
        """The names of the session's tools (the gate always lets them through)."""
        return frozenset(t.name for t in self._tools)

    def rebuild(self) -> None:
        """Build the tools again, so their schemas name the skills offered now."""
        self._tools = build_tools(self._activation)
        for t in self._tools:
            self._receipts.setdefault(t.name, [0, 0])

    def tools(self, existing: Iterable[str | Mapping[str, Any] | Tool] = ()) -> tuple[Tool, ...]:
        """The tools for the model; () without skills or with `tools=False`. Names in
        `existing` (the host's own tools) that clash raise `Collision`."""
        taken = {_tool_name(t) for t in existing}
        clash = [t.name for t in self._tools if t.name in taken]
        if clash:
            message = (
                f"the host already has a tool named {', '.join(map(repr, clash))}; rename "
                "satchel's with tool_names instead of merging the two"
            )
            raise Collision(diagnostic("session.tool.collision", message))
        return self._tools

    def call(self, name: str, arguments: str | Mapping[str, Any] | None = None) -> ToolResult:
        """Run one of the session's tools for the model. Never raises for what the model
        sent: a bad call is a result with `is_error` and a diagnostic code."""
        tool = next((t for t in self._tools if t.name == name), None)
        if tool is None:
            message = f"this session has no tool {quote(name)}"
            return ToolResult.error(diagnostic("session.tool.unknown", message))
        parsed = parse_arguments(arguments)
        result = parsed if isinstance(parsed, ToolResult) else _run(tool, parsed)
        counts = self._receipts[tool.name]
        counts[0] += 1
        counts[1] += int(result.is_error)
        return result

    def receipt(self) -> tuple[ToolReceipt, ...]:
        """Calls and errors per tool (caveman's `receipt.tools`)."""
        return tuple(ToolReceipt(n, c, e) for n, (c, e) in self._receipts.items())


def _run(tool: Tool, arguments: Mapping[str, Any]) -> ToolResult:
    try:
        return tool.call(arguments)
    except Refused as e:
        return ToolResult.error(e.diagnostic)
    except Exception as e:  # noqa: BLE001 - a bug in satchel must not end the host's loop
        message = f"the tool failed inside satchel ({type(e).__name__}); this is a bug"
        return ToolResult.error(diagnostic("session.tool.failed", message))


def _tool_name(tool: str | Mapping[str, Any] | Tool) -> str:
    if isinstance(tool, str):
        return tool
    if isinstance(tool, Tool):
        return tool.name
    inner = tool.get("function")
    if isinstance(inner, Mapping):
        return str(inner.get("name", ""))
    return str(tool.get("name", ""))
