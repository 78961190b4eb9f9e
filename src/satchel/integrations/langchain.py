"""satchel inside LangChain 1.5 agents (`langchain.agents.create_agent`, LangGraph 1.2).

* `tools(session_or_bridge)`: the session's tools and the MCP supervisor's as
  `StructuredTool`s, the JSON schema as ``args_schema``, the result text as the
  tool's string result (an error result is a ``ToolMessage`` with status ``error``);
* `SatchelMiddleware(bridge)`: one ``AgentMiddleware`` for the rest. Its
  ``wrap_tool_call`` (`SatchelGate`'s, which a sub-agent gets alone) is the gate for
  **every** tool call the agent makes, the developer's own tools included (a refusal
  is the ``ToolMessage`` the model reads; ``updatedInput`` is what runs; hooks'
  context goes with the result; PostToolUse after it); ``wrap_model_call`` sets the
  system message from `Bridge.instructions` on every model request; ``before_agent``
  fires SessionStart once and turns the user's message into `Bridge.turn`'s
  (UserPromptSubmit, slash commands, ``/skill``); ``after_agent`` fires Stop, and a
  hook's "not yet" sends its reason back to the model;
* the agent types: `subagents` as deepagents' ``SubAgent`` dicts, and `task_tool`, a
  ``task`` tool of the same shape that runs each type as a `create_agent` agent of
  its own, behind the same gate.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any, NotRequired

from langchain.agents import create_agent
from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
    ToolCallRequest,
    hook_config,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.runtime import Runtime
from langgraph.types import Command

from satchel.integrations._bridge import After, Before, Bridge, with_context
from satchel.session import Session, Tool, ToolResult

__all__ = ["SatchelGate", "SatchelMiddleware", "SatchelState", "subagents", "task_tool", "tools"]

Handler = Callable[[ToolCallRequest], ToolMessage | Command[Any]]
AsyncHandler = Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]]


# -- tools ------------------------------------------------------------------------------


def tools(source: Session | Bridge, *, existing: Iterable[str | BaseTool] = ()) -> list[BaseTool]:
    """The session's tools, then the MCP supervisor's (a `Bridge` made with ``mcp=``),
    as LangChain tools. `existing` names the agent's other tools: a clash raises
    `satchel.session.Collision`. The gate is `SatchelMiddleware`'s, not the tools'."""
    bridge = Bridge.of(source)
    names = [t if isinstance(t, str) else t.name for t in existing]
    return [_native(bridge, t) for t in bridge.tools(names)]


def _native(bridge: Bridge, tool: Tool) -> BaseTool:
    def run(**arguments: Any) -> str:
        result = _result(bridge, tool, arguments)
        if result.is_error:
            raise ToolException(result.text)
        return result.text

    async def arun(**arguments: Any) -> str:
        return await asyncio.to_thread(run, **arguments)

    return StructuredTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.definition()["input_schema"],  # plain JSON, as providers take it
        func=run,
        coroutine=arun,
        handle_tool_error=_error_text,
    )


def _result(bridge: Bridge, tool: Tool, arguments: Mapping[str, Any]) -> ToolResult:
    """One call: a session tool's through `Session.call`, which turns the model's bad
    call into an error result and counts it (`Tool.call` raises for one); an MCP
    tool's as the bridge runs it."""
    if tool.kind == "mcp":
        return tool.call(arguments)
    return bridge.session.call(tool.name, arguments)


def _error_text(error: ToolException) -> str:
    return str(error)


# -- the middleware ---------------------------------------------------------------------


class SatchelState(AgentState[Any]):
    """The agent's state with what the middleware keeps: `prompt_refusal`, why a
    UserPromptSubmit hook dropped the user's message (None: it went through), and
    whether the model goes on because a Stop hook said so (Claude Code's
    ``stop_hook_active``)."""

    prompt_refusal: NotRequired[str | None]
    stop_hook_active: NotRequired[Annotated[bool, PrivateStateAttr]]


class SatchelGate(AgentMiddleware[SatchelState, Any, Any]):
    """The gate alone, as agent middleware: every tool call the agent makes, the
    developer's own tools included, goes through `Bridge.before` (PreToolUse hooks,
    the active skills' ``allowed-tools``, the `ask` callback) and, when it ran,
    `Bridge.after` (PostToolUse). A refused call is an ``error`` ``ToolMessage``
    holding the refusal; the tool never runs."""

    def __init__(self, bridge: Bridge) -> None:
        super().__init__()
        self.bridge = bridge
        self.tools = []

    def wrap_tool_call(
        self, request: ToolCallRequest, handler: Handler
    ) -> ToolMessage | Command[Any]:
        name, arguments, call_id = _call(request)
        verdict = self.bridge.before(name, arguments, call_id)
        if not verdict.run:
            return _refused(request, verdict)
        result = handler(_rewritten(request, verdict))
        texts = [str(m.text) for m in _messages(result, call_id)]
        after = [self.bridge.after(name, verdict.tool_input, t, call_id) for t in texts]
        return _answered(result, call_id, _read(verdict, texts, after))

    async def awrap_tool_call(
        self, request: ToolCallRequest, handler: AsyncHandler
    ) -> ToolMessage | Command[Any]:
        name, arguments, call_id = _call(request)
        verdict = await self.bridge.abefore(name, arguments, call_id)
        if not verdict.run:
            return _refused(request, verdict)
        result = await handler(_rewritten(request, verdict))
        texts = [str(m.text) for m in _messages(result, call_id)]
        after = [await self.bridge.aafter(name, verdict.tool_input, t, call_id) for t in texts]
        return _answered(result, call_id, _read(verdict, texts, after))


class SatchelMiddleware(SatchelGate):
    """The gate, and the rest of the session: the instructions on every model
    request (`Bridge.instructions` around the agent's own system prompt, with
    SessionStart's context), SessionStart once, the user's message through
    `Bridge.turn` before the agent starts, and Stop when it would end."""

    state_schema = SatchelState

    def __init__(self, bridge: Bridge) -> None:
        super().__init__(bridge)
        self._started: str | None = None
        self._fired = False

    # -- the user's turn and SessionStart --------------------------------------------

    @hook_config(can_jump_to=["end"])
    def before_agent(self, state: SatchelState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        if not self._fired:
            self._fired = True
            self._started = self.bridge.started()
        return _turn(self.bridge, state["messages"])

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(
        self, state: SatchelState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.before_agent, state, runtime)

    # -- instructions ----------------------------------------------------------------

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        return handler(self._instructed(request))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        return await handler(await asyncio.to_thread(self._instructed, request))

    def _instructed(self, request: ModelRequest[Any]) -> ModelRequest[Any]:
        text = with_context(self.bridge.instructions(request.system_prompt or ""), self._started)
        return request.override(system_message=SystemMessage(content=text) if text else None)

    # -- Stop ------------------------------------------------------------------------

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: SatchelState, runtime: Runtime[Any]) -> dict[str, Any] | None:
        if state.get("prompt_refusal"):
            return None
        active = bool(state.get("stop_hook_active"))
        reason = self.bridge.stopping(_last_answer(state["messages"]), again=active)
        if reason is None:
            return {"stop_hook_active": False} if active else None
        return {"messages": [HumanMessage(reason)], "stop_hook_active": True, "jump_to": "model"}

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(
        self, state: SatchelState, runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        return await asyncio.to_thread(self.after_agent, state, runtime)


def _turn(bridge: Bridge, messages: Sequence[AnyMessage]) -> dict[str, Any] | None:
    """The user's newest message as `Bridge.turn` makes it: expanded in place, or
    taken out with the reason kept when a hook blocked it."""
    if not messages or not isinstance(messages[-1], HumanMessage):
        return None
    message = messages[-1]
    turn = bridge.turn(str(message.text))
    if turn.prompt is None:
        assert message.id is not None  # add_messages gives every message an id
        return {
            "messages": [RemoveMessage(message.id)],
            "prompt_refusal": turn.refusal,
            "jump_to": "end",
        }
    text = with_context(turn.prompt, turn.context)
    if text == message.text:
        return {"prompt_refusal": None}
    content = _with_text(message.content, text)
    return {"messages": [HumanMessage(content, id=message.id)], "prompt_refusal": None}


def _with_text(content: str | list[str | dict[str, Any]], text: str) -> Any:
    """`content` with its text in place of the text it had, its other blocks (an
    image, a file) kept after it."""
    if isinstance(content, str):
        return text
    kept = [b for b in content if isinstance(b, dict) and b.get("type") != "text"]
    return [{"type": "text", "text": text}, *kept]


def _read(verdict: Before, texts: list[str], after: list[After]) -> list[str]:
    """What the model reads of each result: PostToolUse's say, PreToolUse's context."""
    return [with_context(a.applied(t), verdict.context) for a, t in zip(after, texts, strict=True)]


def _last_answer(messages: Sequence[AnyMessage]) -> str:
    return next((str(m.text) for m in reversed(messages) if isinstance(m, AIMessage)), "")


def _call(request: ToolCallRequest) -> tuple[str, dict[str, Any], str | None]:
    call = request.tool_call
    return call["name"], dict(call["args"]), call.get("id")


def _refused(request: ToolCallRequest, verdict: Before) -> ToolMessage:
    """The refusal as the tool's result, as `Bridge.run` gives it."""
    call = request.tool_call
    text = verdict.refusal or ""
    return ToolMessage(text, tool_call_id=call.get("id") or "", name=call["name"], status="error")


def _rewritten(request: ToolCallRequest, verdict: Before) -> ToolCallRequest:
    """The request with the input the hooks settled on (``updatedInput``)."""
    args = dict(verdict.tool_input)
    if args == request.tool_call["args"]:
        return request
    return request.override(tool_call={**request.tool_call, "args": args})


def _messages(result: ToolMessage | Command[Any], call_id: str | None) -> list[ToolMessage]:
    """The tool's result message(s) for `call_id`: the message itself, or those a
    ``Command`` update carries."""
    if isinstance(result, ToolMessage):
        return [result]
    update = result.update if isinstance(result.update, Mapping) else {}
    found = update.get("messages", [])
    return [m for m in found if isinstance(m, ToolMessage) and m.tool_call_id == call_id]


def _answered(
    result: ToolMessage | Command[Any], call_id: str | None, texts: list[str]
) -> ToolMessage | Command[Any]:
    """`result` with its messages' text replaced by `texts` (what PostToolUse made of
    them), in order."""
    if isinstance(result, ToolMessage):
        return result.model_copy(update={"content": texts[0]})
    mine = _messages(result, call_id)
    if not mine or not isinstance(result.update, Mapping):
        return result
    swapped = {id(m): m.model_copy(update={"content": t}) for m, t in zip(mine, texts, strict=True)}
    messages = [swapped.get(id(m), m) for m in result.update["messages"]]
    return Command(
        graph=result.graph,
        update={**result.update, "messages": messages},
        resume=result.resume,
        goto=result.goto,
    )


# -- the agent types --------------------------------------------------------------------


def subagents(
    bridge: Bridge,
    available: Sequence[BaseTool],
    *,
    models: Mapping[str, BaseChatModel | str] | None = None,
) -> list[dict[str, Any]]:
    """The environment's agent types in deepagents' ``SubAgent`` shape (name,
    description, system_prompt with the preloaded skills' bodies, the tools of
    `available` the type names, ``model`` when `models` maps the type's model, and
    the gate as ``middleware``), for ``create_deep_agent(subagents=...)``."""
    found = []
    for spec in bridge.agents():
        agent: dict[str, Any] = {
            "name": spec.name,
            "description": _description(bridge, spec.name),
            "system_prompt": spec.prompt(),
            "tools": [t for t in available if spec.allows(t.name)],
            "middleware": [SatchelGate(bridge)],
        }
        if spec.model is not None and models and spec.model in models:
            agent["model"] = models[spec.model]
        found.append(agent)
    return found


def task_tool(
    bridge: Bridge,
    model: BaseChatModel | str,
    available: Sequence[BaseTool],
    *,
    models: Mapping[str, BaseChatModel | str] | None = None,
) -> BaseTool:
    """A ``task`` tool (``description``, ``subagent_type``, as deepagents' and Claude
    Code's) that runs one of `subagents` as a `create_agent` agent of its own, with
    `model` unless `models` maps the type's model, and gives back its last answer."""
    agents = {a["name"]: a for a in subagents(bridge, available, models=models)}

    def graph(kind: str) -> Any:
        spec = agents[kind]
        return create_agent(
            spec.get("model", model),
            spec["tools"],
            system_prompt=spec["system_prompt"],
            middleware=spec["middleware"],
            name=kind,
        )

    def run(description: str, subagent_type: str) -> str:
        if subagent_type not in agents:
            raise ToolException(f"no agent type {subagent_type!r}; there are: {', '.join(agents)}")
        state = graph(subagent_type).invoke({"messages": [HumanMessage(description)]})
        return _last_answer(state["messages"])

    async def arun(description: str, subagent_type: str) -> str:
        if subagent_type not in agents:
            return await asyncio.to_thread(run, description, subagent_type)
        state = await graph(subagent_type).ainvoke({"messages": [HumanMessage(description)]})
        return _last_answer(state["messages"])

    listing = "\n".join(f"- {a['name']}: {a['description']}" for a in agents.values())
    return StructuredTool(
        name="task",
        description=f"Start an agent of one of these types on a task: it answers once.\n{listing}",
        args_schema=_task_schema(list(agents)),
        func=run,
        coroutine=arun,
        handle_tool_error=_error_text,
    )


def _task_schema(kinds: list[str]) -> dict[str, Any]:
    """The ``task`` tool's input: the task, and which agent type runs it."""
    return {
        "type": "object",
        "properties": {
            "description": {"type": "string", "description": "The task, with all it needs."},
            "subagent_type": {"type": "string", "enum": kinds},
        },
        "required": ["description", "subagent_type"],
    }


def _description(bridge: Bridge, name: str) -> str:
    agent = bridge.session.environment.agents.agents.get(name)
    return "" if agent is None else agent.description
