"""`Bridge`: what every framework integration takes from a `Session`, in one place.

A framework module (`satchel.integrations.pydantic_ai` and the others) turns these
plain values into the framework's own objects; the rules live here, once:

* the tools: the session's own (`load_skill`, `skills_use`...) and the MCP servers'
  tools from satchel's supervisor, as `satchel.session.Tool` values whose call runs
  the tool and nothing else: the gate is the framework's interception point's job;
* the gate for **every** tool call, the framework's own and the developer's included:
  `before` runs the ``PreToolUse`` hooks and the active skills' ``allowed-tools`` /
  ``disallowed-tools`` (`Session.before_tool_use`), then asks the developer's `ask`
  callback on ``ask``; `after` runs the ``PostToolUse`` hooks, whose block replaces
  the result and whose context goes with it;
* the instructions, read again on every call, so a conditional skill that became
  active or a reloaded environment shows at the next model request;
* the user's turn: ``UserPromptSubmit`` (a block drops the prompt), then slash
  commands and ``/skill`` expansion (`Session.expand`);
* the session's start and stop events, and the agent types as `SpawnSpec` values.

Nothing here imports a framework.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from satchel.core._model import model
from satchel.session._model import Tool, ToolResult

if TYPE_CHECKING:
    from satchel.agents._spawn import SpawnSpec
    from satchel.hooks import Outcome
    from satchel.runtime.mcp._blocking import BlockingSupervisor
    from satchel.runtime.mcp._catalog import McpTool
    from satchel.session._before import Decision
    from satchel.session._core import Session

__all__ = ["After", "Ask", "Before", "Bridge", "Turn", "with_context"]

Ask = Callable[[str, Mapping[str, Any], str | None], bool | Awaitable[bool]]
"""The developer's answer when a hook says ``ask``: (tool name, input, reason) -> run it?"""


@model
class Before:
    """Whether one tool call runs. `run` False: `refusal` is the text the model gets in
    place of the tool's result. `tool_input` is what the tool runs with (a hook's
    ``updatedInput`` or the original); `context` is hooks' ``additionalContext``."""

    run: bool
    tool_input: Mapping[str, Any]
    refusal: str | None = None
    context: str | None = None
    decision: Decision | None = None


@model
class After:
    """What the ``PostToolUse`` hooks made of a result: `text` replaces the result where
    the host's rule is that a block replaces it (Codex's; None: the result stands);
    `context` goes with the result: hooks' ``additionalContext`` and, under Claude
    Code's rule, a block's reason or an exit 2's stderr."""

    text: str | None = None
    context: str | None = None
    outcome: Outcome | None = None

    def applied(self, result: str) -> str:
        """`result` as the model should read it."""
        return with_context(result if self.text is None else self.text, self.context)


@model
class Turn:
    """The user's turn after ``UserPromptSubmit`` and expansion: `prompt` is what the
    model gets (None: a hook blocked it, `refusal` says why)."""

    prompt: str | None
    refusal: str | None = None
    context: str | None = None


def with_context(text: str, context: str | None) -> str:
    """`text` followed by hooks' additional context, as Claude Code appends it."""
    return text if not context else f"{text}\n\n{context}"


class Bridge:
    """One `Session` (and, optionally, a running MCP supervisor) as a framework sees it.

    `ask` answers hooks' ``ask`` (without it, such a call is refused: there is no user
    to ask). `mcp` is a started `BlockingSupervisor` (``McpSupervisor(env).blocking()``)
    whose tools join the session's."""

    def __init__(
        self,
        session: Session,
        *,
        ask: Ask | None = None,
        mcp: BlockingSupervisor | None = None,
    ) -> None:
        self.session = session
        self.ask = ask
        self.mcp = mcp

    @classmethod
    def of(
        cls,
        source: Session | Bridge,
        *,
        ask: Ask | None = None,
        mcp: BlockingSupervisor | None = None,
    ) -> Bridge:
        """`source` as a bridge: a session gets one with `ask` and `mcp`; a bridge is
        taken as it is, or copied with the `ask` and `mcp` given in place of its own."""
        if not isinstance(source, Bridge):
            return cls(source, ask=ask, mcp=mcp)
        if ask is None and mcp is None:
            return source
        return cls(source.session, ask=ask or source.ask, mcp=mcp or source.mcp)

    # -- tools ------------------------------------------------------------------------

    def tools(self, existing: Iterable[str] = ()) -> tuple[Tool, ...]:
        """The session's tools, then every MCP tool the model may call directly. Each
        one's `Tool.call` never raises for what the model sent: a bad call is a result
        with `is_error` (the session's go through `Session.call`, which also counts
        them in its receipt)."""
        served = () if self.mcp is None else self.mcp.tools
        own = (self._session_tool(t) for t in self.session.tools(existing))
        return (*own, *(self._mcp_tool(t) for t in served if t.direct))

    def _session_tool(self, tool: Tool) -> Tool:
        session, name = self.session, tool.name

        def call(arguments: Mapping[str, Any]) -> ToolResult:
            return session.call(name, arguments)

        return Tool(tool.name, tool.description, tool.input_schema, call, tool.kind)

    def _mcp_tool(self, tool: McpTool) -> Tool:
        mcp = self.mcp
        assert mcp is not None

        def call(arguments: Mapping[str, Any]) -> ToolResult:
            result = mcp.call_tool(tool.name, arguments)
            return ToolResult(result.text, result.is_error)

        schema = tool.input_schema or {"type": "object", "properties": {}}
        return Tool(tool.name, tool.description, schema, call, kind="mcp")

    # -- the gate ---------------------------------------------------------------------

    def before(
        self, name: str, tool_input: Mapping[str, Any] | str | None, call_id: str | None = None
    ) -> Before:
        """May `name` run with `tool_input`? Hooks, the skills' tool rules, then `ask`."""
        decision = self.session.before_tool_use(name, tool_input, tool_use_id=call_id)
        if decision.behavior != "ask":
            return _before(name, decision, decision.behavior == "allow")
        answer = self._asked(name, decision)
        if inspect.isawaitable(answer):
            raise TypeError("an async ask callback needs abefore")
        return _before(name, decision, bool(answer))

    async def abefore(
        self, name: str, tool_input: Mapping[str, Any] | str | None, call_id: str | None = None
    ) -> Before:
        """`before` for an event loop: hooks run off the loop's thread, `ask` may be async."""
        decision = await self.session.gate.abefore_tool_use(name, tool_input, tool_use_id=call_id)
        if decision.behavior != "ask":
            return _before(name, decision, decision.behavior == "allow")
        answer = self._asked(name, decision)
        if inspect.isawaitable(answer):
            answer = await answer
        return _before(name, decision, bool(answer))

    def _asked(self, name: str, decision: Decision) -> bool | Awaitable[bool]:
        if self.ask is None:
            return False
        return self.ask(name, decision.tool_input, decision.reason)

    def after(
        self,
        name: str,
        tool_input: Mapping[str, Any] | str | None,
        result: Any,
        call_id: str | None = None,
    ) -> After:
        """Fire ``PostToolUse`` for a call that gave `result`."""
        outcome = self.session.hooks.after_tool_use(name, tool_input, result, tool_use_id=call_id)
        if outcome is None:
            return After()
        if outcome.behavior == "deny":  # a host whose PostToolUse block replaces the result
            return After(outcome.reason, outcome.additional_context, outcome)
        said = [*_feedback(outcome), outcome.additional_context]
        return After(None, "\n".join(s for s in said if s) or None, outcome)

    async def aafter(
        self,
        name: str,
        tool_input: Mapping[str, Any] | str | None,
        result: Any,
        call_id: str | None = None,
    ) -> After:
        """`after` for an event loop."""
        return await asyncio.to_thread(self.after, name, tool_input, result, call_id)

    def run(
        self, tool: Tool, arguments: Mapping[str, Any] | str | None, call_id: str | None = None
    ) -> str:
        """Run one of `tools()` through the whole gate, for a framework with no
        interception point of its own: the text the model reads."""
        verdict = self.before(tool.name, arguments, call_id)
        if not verdict.run:
            return verdict.refusal or ""
        text = tool.call(verdict.tool_input).text
        after = self.after(tool.name, verdict.tool_input, text, call_id)
        return with_context(after.applied(text), verdict.context)

    # -- instructions, turns and lifecycle --------------------------------------------

    def instructions(self, base: str = "") -> str:
        """`base` then every context segment the session gives now."""
        return "\n\n".join(p for p in (base, *(s.text for s in self.session.context())) if p)

    def turn(self, text: str) -> Turn:
        """The user's message: ``UserPromptSubmit``, then `Session.expand`."""
        outcome = self.session.hooks.fire("user_prompt_submit", {"prompt": text})
        if outcome is not None and outcome.behavior == "deny":
            return Turn(None, outcome.reason or "the prompt was blocked by a hook")
        context = None if outcome is None else outcome.additional_context
        return Turn(self.session.expand(text), None, context)

    def started(self, source: str = "startup") -> str | None:
        """Fire ``SessionStart``: the context its hooks add, if any."""
        outcome = self.session.hooks.fire("session_start", {"source": source})
        return None if outcome is None else outcome.additional_context

    def stopping(self, last_message: str = "", *, again: bool = False) -> str | None:
        """Fire ``Stop`` when the agent would end its turn: a reason to go on (a hook
        said not yet), or None when it may stop. `again`: the agent is ending a turn a
        Stop hook already sent back (``stop_hook_active``, so that a hook can let it
        stop rather than loop)."""
        payload = {"stop_hook_active": again, "last_assistant_message": last_message}
        outcome = self.session.hooks.fire("stop", payload)
        if outcome is None or outcome.behavior != "deny":
            return None
        return outcome.reason or "a Stop hook asked the agent to go on"

    def agents(self) -> tuple[SpawnSpec, ...]:
        """Every agent type the environment has, ready to start."""
        env = self.session.environment
        return tuple(a.spawn_spec(env) for a in env.agents.agents.values())


def _feedback(outcome: Outcome) -> list[str]:
    """What Claude Code shows the model next to a result its ``PostToolUse`` hooks
    objected to, the result itself kept (the tool already ran): a ``decision: block``
    reason, or the stderr of an exit 2, in declared order."""
    found = []
    for result in outcome.results:
        if result.decision == "deny" and result.reason:
            found.append(result.reason)
        elif result.exit_code == 2 and result.stderr.strip():
            found.append(result.stderr.strip())
    return found


def _before(name: str, decision: Decision, run: bool) -> Before:
    """A deny's reason is the model's text as it is (a hook's own words, or the
    ``allowed-tools`` refusal); an ``ask`` nobody approved says so, as the MCP gate does."""
    context = decision.additional_context
    if run:
        return Before(True, decision.tool_input, None, context, decision)
    if decision.behavior == "ask":
        why = f": {decision.reason}" if decision.reason else ""
        refusal = f"the call to {name} needs the user's approval{why}"
    else:
        refusal = decision.reason or f"the call to {name} was denied by a hook"
    return Before(False, decision.tool_input, refusal, context, decision)
