"""satchel inside Pydantic AI (``pydantic-ai-slim`` 2.78): the session's tools as
`pydantic_ai.Tool` values, and `Satchel`, a capability that gives an agent the rest.

`Satchel` is Pydantic AI's own interception point for everything a run does:

* the gate around **every** tool call of the run (`wrap_tool_validate` and
  `wrap_tool_execute`, which Pydantic AI calls for each toolset's tools, the
  developer's own and MCP servers' included): ``PreToolUse`` hooks and the active
  skills' ``allowed-tools`` decide before the arguments are validated, so a hook's
  ``updatedInput`` is validated by the tool's own schema; a refused call never runs
  and the model reads the refusal as its result; ``PostToolUse`` follows each result;
* the instructions, as a function Pydantic AI calls on every model request
  (`Bridge.instructions`), so an activated skill shows at the next request;
* the user's turn: the run's prompt (the text of a prompt of several items, its
  images and files kept) goes through ``UserPromptSubmit`` and slash command /
  ``/skill`` expansion before the first model request (`Bridge.turn`); a blocked
  prompt never reaches the model, the run answers with the reason;
* ``SessionStart`` on the first run (``resume`` when it continues a history; its
  context joins the instructions) and
  ``Stop`` when the model answers without a tool call (a hook's reason to go on is
  sent back to the model as a retry);
* the session's tools (and the MCP supervisor's) as a toolset read again at every
  step, so their schemas follow the skills the session has.

Native tools the model's provider runs (web search, code execution, image
generation...) never reach `wrap_tool_execute`: `agent` refuses a capability that
gives one, and an `Agent` assembled by hand with one runs those calls ungated.

`agent_tool` turns the environment's agent types into one delegation tool that
runs a sub-agent per type; `agent` assembles an `Agent` with all of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import pydantic_core
from pydantic import ValidationError
from pydantic_ai import Agent, RunContext, Tool
from pydantic_ai.capabilities import (
    AbstractCapability,
    RawToolArgs,
    ValidatedToolArgs,
    WrapToolExecuteHandler,
    WrapToolValidateHandler,
)
from pydantic_ai.exceptions import ModelRetry, SkipModelRequest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextContent,
    TextPart,
    ToolCallPart,
    UserContent,
    UserPromptPart,
)
from pydantic_ai.models import Model, ModelRequestContext
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, DynamicToolset, FunctionToolset

from satchel.agents import SpawnSpec
from satchel.integrations._bridge import Ask, Before, Bridge, with_context
from satchel.runtime import BlockingSupervisor
from satchel.session import Session
from satchel.session import Tool as SessionTool

__all__ = ["AGENT_TOOL", "Satchel", "agent", "agent_tool", "tools", "toolset"]

AGENT_TOOL = "task"
"""The name of the delegation tool `agent_tool` gives by default."""


def tools(
    source: Session | Bridge,
    *,
    existing: Iterable[str] = (),
    mcp: BlockingSupervisor | None = None,
) -> list[Tool[Any]]:
    """The session's tools, then the MCP supervisor's, as Pydantic AI tools with their
    JSON schemas as written. They run the tool and nothing else: `Satchel` gates them,
    as it gates every tool of the agent."""
    return [_native(t) for t in Bridge.of(source, mcp=mcp).tools(existing)]


def toolset(
    source: Session | Bridge, *, mcp: BlockingSupervisor | None = None
) -> DynamicToolset[Any]:
    """`tools` as a toolset built again at every step of a run, so the schemas name the
    skills the session has now (a conditional skill that joined, a reload)."""
    bridge = Bridge.of(source, mcp=mcp)

    def build(ctx: RunContext[Any]) -> FunctionToolset[Any]:
        return FunctionToolset(tools(bridge))

    return DynamicToolset(build, per_run_step=True, id="satchel")


def _native(tool: SessionTool) -> Tool[Any]:
    def run(**arguments: Any) -> str:
        return tool.call(arguments).text

    schema = tool.definition()["input_schema"]
    return Tool.from_schema(run, tool.name, tool.description, schema)


@dataclass
class Satchel(AbstractCapability[Any]):
    """The session in an agent: its tools, its instructions ahead of `base`, the gate on
    every tool call, the user's turn, ``SessionStart`` and ``Stop``.

    `agent_tool`, when given, adds the delegation tool (see `agent_tool`).
    `gate_only` leaves only the gate: no tools, instructions, turns or lifecycle
    events (a sub-agent's, or an agent given `tools` by hand)."""

    bridge: Bridge
    base: str = ""
    agent_tool: Tool[Any] | None = None
    gate_only: bool = False
    _verdicts: dict[str, Before] = field(default_factory=dict, init=False, repr=False)
    _going_on: set[str | None] = field(default_factory=set, init=False, repr=False)
    _started: bool = field(default=False, init=False, repr=False)
    _start_context: str | None = field(default=None, init=False, repr=False)

    # -- what the agent gets ------------------------------------------------------------

    def get_instructions(self) -> Any:
        if self.gate_only:
            return None

        def instructions(ctx: RunContext[Any]) -> str:
            return self.instructions()

        return instructions

    def instructions(self) -> str:
        """What the model reads now: `base`, ``SessionStart``'s context, the session's."""
        base = "\n\n".join(p for p in (self.base, self._start_context) if p)
        return self.bridge.instructions(base)

    def get_toolset(self) -> AbstractToolset[Any] | None:
        if self.gate_only:
            return None
        own = toolset(self.bridge)
        extra = None if self.agent_tool is None else FunctionToolset([self.agent_tool])
        found = [t for t in (own, extra) if t is not None]
        if len(found) < 2:
            return found[0] if found else None
        from pydantic_ai.toolsets import CombinedToolset

        return CombinedToolset(found)

    # -- lifecycle ----------------------------------------------------------------------

    async def before_run(self, ctx: RunContext[Any]) -> None:
        if not self.gate_only and not self._started:
            self._started = True
            self._start_context = self.bridge.started("resume" if ctx.messages else "startup")

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        if not self.gate_only and ctx.run_step <= 1 and ctx.prompt is not None:
            _take_turn(self.bridge, ctx.prompt, request_context.messages)
        return request_context

    async def after_model_request(
        self, ctx: RunContext[Any], *, request_context: ModelRequestContext, response: ModelResponse
    ) -> ModelResponse:
        if self.gate_only or any(isinstance(p, ToolCallPart) for p in response.parts):
            return response
        reason = self.bridge.stopping(response.text or "", again=ctx.run_id in self._going_on)
        if reason is None:
            self._going_on.discard(ctx.run_id)
            return response
        self._going_on.add(ctx.run_id)
        raise ModelRetry(reason)

    # -- the gate -----------------------------------------------------------------------

    async def wrap_tool_validate(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: RawToolArgs,
        handler: WrapToolValidateHandler,
    ) -> ValidatedToolArgs:
        """Judge the call once the model's arguments are valid (an invalid call goes
        back to the model as Pydantic AI's retry, no hook asked); a hook's rewrite is
        validated again, by the same schema, before it runs."""
        validated = await handler(args)
        verdict = await self.bridge.abefore(call.tool_name, args, call.tool_call_id)
        if verdict.run and verdict.tool_input != _arguments(args):
            try:
                validated = await handler(dict(verdict.tool_input))
            except ValidationError as e:
                why = f"a hook rewrote the input of {call.tool_name} to one it does not take: "
                verdict = Before(False, verdict.tool_input, why + _why(e), verdict.context)
        self._verdicts[call.tool_call_id] = verdict
        return validated

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: ValidatedToolArgs,
        handler: WrapToolExecuteHandler,
    ) -> Any:
        verdict = self._verdicts.pop(call.tool_call_id, None)
        if verdict is None:  # validation was skipped by another capability: judge now
            verdict = await self.bridge.abefore(call.tool_name, args, call.tool_call_id)
            args = dict(verdict.tool_input) if verdict.run else args
        if not verdict.run:
            return verdict.refusal or ""
        result = await handler(args)
        response = _plain(result)
        after = await self.bridge.aafter(call.tool_name, args, response, call.tool_call_id)
        if after.text is None and not after.context and not verdict.context:
            return result
        text = response if isinstance(response, str) else _json(response)
        return with_context(after.applied(text), verdict.context)


def _take_turn(
    bridge: Bridge, prompt: str | Sequence[UserContent], messages: Sequence[ModelMessage]
) -> None:
    """The run's own prompt, the last request's user part, through `Bridge.turn`:
    its text becomes the expansion (the hooks' context after it), in the part the
    run's history holds; a blocked prompt skips the request, its reason the answer.
    A prompt of several items sends its text items' words, joined, and keeps the
    rest (an image, a file, a structured value) after the expanded text."""
    request = next((m for m in reversed(messages) if isinstance(m, ModelRequest)), None)
    parts = () if request is None else request.parts
    part = next((p for p in parts if isinstance(p, UserPromptPart) and p.content == prompt), None)
    if part is None:
        return
    turn = bridge.turn(prompt if isinstance(prompt, str) else "".join(_texts(prompt)))
    if turn.prompt is None:
        raise SkipModelRequest(ModelResponse(parts=[TextPart(turn.refusal or "")]))
    text = with_context(turn.prompt, turn.context)
    part.content = text if isinstance(prompt, str) else _with_text(prompt, text)


def _texts(prompt: Sequence[UserContent]) -> list[str]:
    """The user's own words among a prompt's items: its strings and plain text items."""
    return [i if isinstance(i, str) else i.content for i in prompt if _is_text(i)]


def _is_text(item: UserContent) -> TypeGuard[str | TextContent]:
    return isinstance(item, str) or type(item) is TextContent


def _with_text(prompt: Sequence[UserContent], text: str) -> list[UserContent]:
    """`prompt` with `text` in place of its text items, its other items kept after it."""
    kept = [i for i in prompt if not _is_text(i)]
    return [text, *kept] if text else kept


def _arguments(args: RawToolArgs) -> Any:
    """The model's arguments as the gate reads them (a JSON text parsed)."""
    if not isinstance(args, str):
        return args
    try:
        return pydantic_core.from_json(args or "{}")
    except ValueError:
        return args


def _why(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())


def _plain(result: Any) -> Any:
    """A tool's result as the JSON a ``PostToolUse`` hook reads as ``tool_response``."""
    if isinstance(result, str):
        return result
    try:
        return pydantic_core.to_jsonable_python(result)
    except pydantic_core.PydanticSerializationError:
        return str(result)


def _json(value: Any) -> str:
    return pydantic_core.to_json(value).decode()


# -- sub-agents -----------------------------------------------------------------------------


def agent_tool(
    source: Session | Bridge,
    own_tools: Sequence[Tool[Any]] = (),
    *,
    model: Model | str | None = None,
    name: str = AGENT_TOOL,
) -> Tool[Any] | None:
    """One tool that delegates a task to a sub-agent of each agent type the
    environment has (`Bridge.agents`), or None when it has none.

    The sub-agent reads the type's prompt, then the bodies of the skills it preloads;
    it gets the tools the type names among `own_tools` and the session's (all of them
    when it names none, less its ``disallowedTools``), gated as the parent's are; it
    runs on `model`, else on the model of the run that delegates (a type's own
    ``model`` names a host's model, not Pydantic AI's)."""
    bridge = Bridge.of(source)
    specs = {s.name: s for s in bridge.agents()}
    if not specs:
        return None

    async def delegate(ctx: RunContext[Any], subagent_type: str, prompt: str) -> str:
        spec = specs.get(subagent_type)
        if spec is None:
            return f"there is no agent type {subagent_type!r}; there are: {', '.join(specs)}"
        runs_on = model if model is not None else ctx.model
        sub = subagent(bridge, spec, own_tools, model=runs_on if _is_model(runs_on) else None)
        result = await sub.run(prompt, usage=ctx.usage)
        return str(result.output)

    types = bridge.session.environment.agents.agents
    listing = "\n".join(f"- {name}: {types[name].description}" for name in specs)
    description = f"Hand a task to a sub-agent of one of these types:\n{listing}"
    return Tool(delegate, name=name, description=description)


def subagent(
    bridge: Bridge,
    spec: SpawnSpec,
    own_tools: Sequence[Tool[Any]] = (),
    *,
    model: Model | str | None = None,
) -> Agent[None, str]:
    """The `Agent` that runs one agent type: its prompt and preloaded skills as
    instructions, its tools, the parent's gate."""
    chosen = [t for t in (*own_tools, *tools(bridge)) if spec.allows(t.name)]
    gate = Satchel(bridge, gate_only=True)
    return Agent(
        model,
        instructions=spec.prompt(),
        tools=chosen,
        capabilities=[gate],
        name=spec.name,
    )


def _is_model(found: object) -> TypeGuard[Model | str]:
    return isinstance(found, Model | str)


# -- an agent with all of it ----------------------------------------------------------------


def agent(
    model: Model | str,
    source: Session | Bridge,
    *,
    instructions: str = "",
    own_tools: Sequence[Tool[Any]] = (),
    ask: Ask | None = None,
    mcp: BlockingSupervisor | None = None,
    **options: Any,
) -> Agent[None, str]:
    """An `Agent` on `model` with `own_tools`, the session's tools and the delegation
    tool, under `Satchel`'s instructions and gate. `ask` and `mcp` make the `Bridge`
    when `source` is a session; `options` go to `Agent`. A capability among them
    that gives a native tool the model's provider runs (web search, code execution...)
    is refused: no such call would meet the gate."""
    given = list(options.pop("capabilities", ()))
    _refuse_provider_run(given)
    bridge = Bridge.of(source, ask=ask, mcp=mcp)
    delegation = agent_tool(bridge, own_tools)
    capability = Satchel(bridge, instructions, agent_tool=delegation)
    return Agent(model, tools=list(own_tools), capabilities=[capability, *given], **options)


_CLIENT_RUN = frozenset({"computer", "memory", "tool_search"})
"""The kinds of native tool whose calls the agent runs as its own tools (the computer
and memory tools), or that only find the agent's tools (tool search): the gate sees
their calls. Every other native tool runs at the model's provider."""


def _refuse_provider_run(capabilities: Sequence[Any]) -> None:
    """Refuse the native tools of `capabilities` that the model's provider runs (web
    search, code execution, image generation...): their calls never reach
    `wrap_tool_execute`, so the gate would pass them by."""
    found = [
        t for c in capabilities if isinstance(c, AbstractCapability) for t in c.get_native_tools()
    ]
    kinds = [str(getattr(t, "kind", getattr(t, "__name__", t))) for t in found]
    named = list(dict.fromkeys(k for k in kinds if k not in _CLIENT_RUN))
    if named:
        raise TypeError(
            f"the model's provider runs {' and '.join(named)} itself, where satchel's gate "
            "cannot see their calls: add a capability that gives them to an Agent you "
            "assemble yourself to run them ungated"
        )
