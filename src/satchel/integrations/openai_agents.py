"""satchel inside OpenAI's Agents SDK (``openai-agents``): the session's tools as
`FunctionTool`s, the gate on every function tool the agent has, the skills index as
dynamic instructions, the user's turn, and the agent types as the SDK's own agents.

The SDK's interception point for a function tool is its ``on_invoke_tool``: every call
of a `FunctionTool` goes through it with the model's JSON arguments. `gate` gives a
copy of a tool whose ``on_invoke_tool`` runs `Bridge.abefore` first (a refusal is the
text the model reads; a hook's ``updatedInput`` is what the tool runs with), then the
tool, then `Bridge.aafter` (``PostToolUse``), with hooks' context after the result.
`tools` and `agent` gate every tool they give, the developer's own included. Tools the
SDK runs elsewhere are outside any function tool: the hosted ones (web and file
search, code interpreter, hosted MCP, image generation) run on OpenAI's servers, and
the local shell, apply-patch and computer tools have executors of their own; `agent`
refuses them rather than hand the model a tool the gate cannot see.

Importing this module imports the SDK; ``import satchel`` never does.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from agents.items import TResponseInputItem
from agents.result import RunResult
from agents.tool_context import ToolContext

from agents import Agent, FunctionTool, Model, RunContextWrapper, Runner, function_tool
from agents import Tool as SdkTool
from satchel.core.errors import PromptBlocked
from satchel.integrations._bridge import Ask, Bridge, with_context
from satchel.session._core import Session
from satchel.session._model import Tool, ToolResult
from satchel.session._tools import parse_arguments

if TYPE_CHECKING:
    from satchel.agents._spawn import SpawnSpec
    from satchel.runtime.mcp._blocking import BlockingSupervisor

__all__ = [
    "agent",
    "gate",
    "Instructions",
    "PromptBlocked",
    "run",
    "subagents",
    "tools",
]

OwnTool = FunctionTool | Callable[..., Any]
"""A developer's tool: a `FunctionTool`, or a plain function `function_tool` wraps."""
_GATED = "__satchel_gated__"


# -- tools and the gate ---------------------------------------------------------------


def tools(
    session: Session | Bridge,
    *own: OwnTool,
    ask: Ask | None = None,
    mcp: BlockingSupervisor | None = None,
) -> list[FunctionTool]:
    """The session's tools and the MCP supervisor's (`Bridge.tools`), then the
    developer's `own`, each a `FunctionTool` behind the gate. `ask` answers hooks'
    ``ask`` (without it such a call is refused); `mcp` is a started supervisor."""
    bridge = Bridge.of(session, ask=ask, mcp=mcp)
    mine = [_function_tool(t) for t in own]
    satchels = [_native(bridge, t) for t in bridge.tools(existing=[t.name for t in mine])]
    return [gate(bridge, t) for t in (*satchels, *mine)]


def _function_tool(tool: OwnTool) -> FunctionTool:
    if isinstance(tool, FunctionTool):
        return tool
    if not callable(tool) or not hasattr(tool, "__name__"):
        raise TypeError(
            f"{type(tool).__name__} is not a function tool: satchel's gate sees only the "
            "calls that go through a FunctionTool's on_invoke_tool (hosted, shell, "
            "apply-patch and computer tools run elsewhere); add it to the Agent yourself "
            "to run it ungated"
        )
    return function_tool(tool)


def _native(bridge: Bridge, tool: Tool) -> FunctionTool:
    """One of satchel's tools as a `FunctionTool`: its schema as satchel wrote it (not
    in the SDK's strict mode: optional arguments stay optional), its text as the result,
    a bad call (bad JSON, an unknown or inactive skill) an ``Error (<code>): ...`` text
    the model reads, as `Session.call` gives it."""

    def call(arguments: str) -> ToolResult:
        if tool.kind != "mcp":
            return bridge.session.call(tool.name, arguments)
        parsed = parse_arguments(arguments)
        return parsed if isinstance(parsed, ToolResult) else tool.call(parsed)

    async def invoke(ctx: ToolContext[Any], arguments: str) -> str:
        return (await asyncio.to_thread(call, arguments)).text

    return FunctionTool(
        name=tool.name,
        description=tool.description,
        params_json_schema=json.loads(json.dumps(tool.input_schema)),
        on_invoke_tool=invoke,
        strict_json_schema=False,
    )


def gate(session: Session | Bridge, tool: FunctionTool) -> FunctionTool:
    """A copy of `tool` whose every call goes through the gate: ``PreToolUse`` hooks,
    the active skills' ``allowed-tools``, the `ask` callback, then ``PostToolUse``.
    A refused call never reaches `tool`; the model reads the refusal as the result."""
    if getattr(tool.on_invoke_tool, _GATED, False):
        return tool
    bridge = Bridge.of(session)
    gated = copy.copy(tool)
    inner = gated.on_invoke_tool

    async def invoke(ctx: ToolContext[Any], arguments: str) -> Any:
        call_id = ctx.tool_call_id
        parsed = _parsed(arguments)
        verdict = await bridge.abefore(tool.name, parsed, call_id)
        if not verdict.run:
            return verdict.refusal or ""
        rewritten = isinstance(parsed, Mapping) and dict(verdict.tool_input) != parsed
        given = json.dumps(dict(verdict.tool_input)) if rewritten else arguments
        result = await inner(ctx, given)
        after = await bridge.aafter(tool.name, verdict.tool_input, _text(result), call_id)
        if after.text is None and not after.context and not verdict.context:
            return result  # as the tool gave it: structured outputs stay structured
        return with_context(after.applied(_text(result)), verdict.context)

    setattr(invoke, _GATED, True)
    gated.on_invoke_tool = invoke
    return gated


def _parsed(arguments: str) -> Mapping[str, Any] | str:
    """The model's JSON arguments as the hooks get them (the text itself if not an object)."""
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return arguments
    return value if isinstance(value, dict) else arguments


def _text(result: Any) -> str:
    return result if isinstance(result, str) else str(result)


# -- instructions ---------------------------------------------------------------------


class Instructions:
    """The SDK's dynamic instructions (``Agent(instructions=...)``): `base`, then the
    session's context segments as they are at this model request (the skills index,
    the active skills, the output style), so a skill that activated or a reloaded
    environment shows at the next request. The first call fires ``SessionStart`` (the
    SDK has no session event of its own); the context its hooks add stays in every
    later call."""

    def __init__(self, session: Session | Bridge, base: str = "") -> None:
        self.bridge = Bridge.of(session)
        self.base = base
        self._started: tuple[str | None] | None = None

    async def __call__(self, context: RunContextWrapper[Any], agent: Agent[Any]) -> str:
        return await asyncio.to_thread(self.text)

    def text(self) -> str:
        """The instructions as they are now."""
        if self._started is None:
            self._started = (self.bridge.started(),)
        return with_context(self.bridge.instructions(self.base), self._started[0])


# -- sub-agents -----------------------------------------------------------------------


def subagents(
    session: Session | Bridge,
    available: Sequence[FunctionTool],
    *,
    model: str | Model | None = None,
    models: Mapping[str, str | Model] | None = None,
) -> list[Agent[Any]]:
    """Every agent type of the environment as an SDK `Agent`: the spec's system prompt
    then its preloaded skills' bodies as instructions; of `available`, the tools the
    spec allows (a name counts as the canonical tools it maps to: ``Read`` and
    ``read_file`` are both ``read_file``, every MCP tool is ``mcp``), gated; the spec's
    model looked up in `models` (None, or ``inherit``: `model`)."""
    bridge = Bridge.of(session)
    return [_subagent(bridge, spec, available, model, models or {}) for spec in bridge.agents()]


def _subagent(
    bridge: Bridge,
    spec: SpawnSpec,
    available: Sequence[FunctionTool],
    model: str | Model | None,
    models: Mapping[str, str | Model],
) -> Agent[Any]:
    described = bridge.session.environment.agents.agents.get(spec.name)
    return Agent(
        name=spec.name,
        handoff_description=None if described is None else described.description,
        instructions=spec.prompt(),
        tools=[gate(bridge, t) for t in available if spec.allows(t.name)],
        model=model if spec.model is None else models.get(spec.model, spec.model),
    )


# -- one agent, assembled -------------------------------------------------------------


def agent(
    session: Session | Bridge,
    *,
    name: str,
    model: str | Model | None = None,
    instructions: str = "",
    tools: Iterable[OwnTool] = (),
    ask: Ask | None = None,
    mcp: BlockingSupervisor | None = None,
    subagents_as: Literal["tools", "handoffs"] = "tools",
    models: Mapping[str, str | Model] | None = None,
    **options: Any,
) -> Agent[Any]:
    """An SDK `Agent` with satchel's tools and the developer's `tools`, all gated;
    `Instructions` over `instructions`; the environment's agent types as tools the
    agent calls (``subagents_as="tools"``: each reports back, as a subagent does) or
    as handoffs (the SDK's handoff is no tool call: the gate does not see it). `options`
    go to `Agent` as they are; ``mcp_servers`` is refused (their calls would pass the
    gate by), as is a tool that is not a function tool (`tools`)."""
    if options.get("mcp_servers"):
        raise TypeError(
            "the SDK's own MCP servers call their tools where satchel's gate cannot see "
            "them: give the servers to satchel (a plugin's or the project's .mcp.json) and "
            "pass its supervisor as mcp"
        )
    bridge = Bridge.of(session, ask=ask, mcp=mcp)
    given: list[SdkTool] = [*_tools(bridge, tools)]
    mine = [t for t in given if isinstance(t, FunctionTool) and not t._is_agent_tool]
    found = subagents(bridge, mine, model=model, models=models)
    if subagents_as == "tools":
        given += [gate(bridge, a.as_tool(a.name, a.handoff_description)) for a in found]
        found = []
    return Agent(
        name=name,
        instructions=Instructions(bridge, instructions),
        tools=given,
        handoffs=list(found),
        model=model,
        **options,
    )


def _tools(bridge: Bridge, own: Iterable[OwnTool]) -> list[FunctionTool]:
    return tools(bridge, *own)


# -- a turn ---------------------------------------------------------------------------


async def run(
    session: Session | Bridge,
    starting_agent: Agent[Any],
    text: str,
    *,
    stops: int = 8,
    **options: Any,
) -> RunResult:
    """One user turn with the SDK's `Runner`: ``UserPromptSubmit`` and slash-command /
    ``/skill`` expansion first (`Bridge.turn`; a block raises `PromptBlocked`), then
    the run; when the agent would end, ``Stop`` hooks may say why to go on, which is
    the user's next message; the ``Stop`` after it says ``stop_hook_active``, as Claude
    Code's does, and after `stops` of them the run ends as it is. `options` go to
    `Runner.run`."""
    bridge = Bridge.of(session)
    turn = await asyncio.to_thread(bridge.turn, text)
    if turn.prompt is None:
        raise PromptBlocked(turn.refusal or "the prompt was blocked by a hook")
    result = await Runner.run(starting_agent, with_context(turn.prompt, turn.context), **options)
    for again in range(stops):
        last = _text(result.final_output)
        reason = await asyncio.to_thread(partial(bridge.stopping, last, again=again > 0))
        if reason is None:
            break
        message: TResponseInputItem = {"role": "user", "content": reason}
        more = [*result.to_input_list(), message]
        result = await Runner.run(result.last_agent, more, **options)
    return result
