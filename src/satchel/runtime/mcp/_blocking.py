"""`BlockingSupervisor`: an `McpSupervisor` for plain Python code.

Its event loop runs in a thread of its own (an anyio blocking portal) for as long as
the ``with`` block lasts; the sessions live there, and each call waits for its result::

    with McpSupervisor(env).blocking() as mcp:
        print([t.name for t in mcp.tools])
        result = mcp.call_tool("mcp__github__search", {"q": "x"})
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol

from satchel.core.diagnostics import Diagnostic
from satchel.foundations.tokens import Counter, approx_tokens
from satchel.mcp._sdk import require_sdk
from satchel.runtime.mcp._catalog import McpPrompt, McpResource, McpTool, ServerReport, ToolResult
from satchel.runtime.mcp._deferral import DEFAULT_BUDGET, ToolSearch
from satchel.runtime.mcp._gate import Approve, ToolGate

if TYPE_CHECKING:
    from anyio.from_thread import BlockingPortal

__all__ = ["BlockingSupervisor", "Supervised"]


class Supervised(AbstractAsyncContextManager[Any], Protocol):
    """The async supervisor a `BlockingSupervisor` runs (an `McpSupervisor` is one):
    started and stopped as an async context, with what it found and its calls."""

    @property
    def servers(self) -> tuple[ServerReport, ...]: ...

    @property
    def tools(self) -> tuple[McpTool, ...]: ...

    @property
    def prompts(self) -> tuple[McpPrompt, ...]: ...

    @property
    def resources(self) -> tuple[McpResource, ...]: ...

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]: ...

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        gate: ToolGate | None = None,
        *,
        approve: Approve | None = None,
    ) -> ToolResult: ...

    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None
    ) -> list[dict[str, Any]]: ...

    async def read_resource(self, server: str, uri: str) -> list[dict[str, Any]]: ...


class BlockingSupervisor:
    """An `McpSupervisor` for plain Python: its event loop runs in a thread of its own
    (an anyio blocking portal), and each call waits for its result."""

    def __init__(self, supervisor: Supervised) -> None:
        self.supervisor = supervisor
        self._stack = contextlib.ExitStack()
        self._portal: BlockingPortal | None = None

    def __enter__(self) -> BlockingSupervisor:
        from anyio.from_thread import start_blocking_portal

        require_sdk()
        portal = self._stack.enter_context(start_blocking_portal())
        try:
            self._stack.enter_context(portal.wrap_async_context_manager(self.supervisor))
        except BaseException:
            self._stack.close()
            raise
        self._portal = portal
        return self

    def __exit__(self, *exc: object) -> None:
        self._portal = None
        self._stack.close()

    def _call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        if self._portal is None:
            raise RuntimeError("use the blocking supervisor inside its with block")
        return self._portal.call(fn, *args)

    @property
    def servers(self) -> tuple[ServerReport, ...]:
        return self.supervisor.servers

    @property
    def tools(self) -> tuple[McpTool, ...]:
        return self.supervisor.tools

    @property
    def prompts(self) -> tuple[McpPrompt, ...]:
        return self.supervisor.prompts

    @property
    def resources(self) -> tuple[McpResource, ...]:
        return self.supervisor.resources

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.supervisor.diagnostics

    def tool_search(
        self, *, budget: int | None = DEFAULT_BUDGET, counter: Counter = approx_tokens
    ) -> ToolSearch:
        """`McpSupervisor.tool_search`: the tools, deferred past `budget` tokens."""
        return ToolSearch(self.supervisor.tools, budget=budget, counter=counter)

    def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        gate: ToolGate | None = None,
        *,
        approve: Approve | None = None,
    ) -> ToolResult:
        async def call() -> ToolResult:
            return await self.supervisor.call_tool(name, arguments, gate, approve=approve)

        result: ToolResult = self._call(call)
        return result

    def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None
    ) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._call(self.supervisor.get_prompt, name, arguments)
        return result

    def read_resource(self, server: str, uri: str) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._call(self.supervisor.read_resource, server, uri)
        return result
