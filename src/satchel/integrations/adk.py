"""satchel inside Google's Agent Development Kit (``google-adk``): a session's tools as
ADK `BaseTool`s, the skills index as an ``InstructionProvider``, the gate and the
lifecycle events as a `BasePlugin` the `Runner` applies to every agent and every tool,
and the agent types as `LlmAgent`s.

* `tools(session)`: ``load_skill`` / ``skills_use`` and the rest, and the tools of the
  MCP supervisor's servers when the `Bridge` has one, each declared from its JSON schema
  (``parameters_json_schema``) and answering ``{"result": text}``, or ``{"error": text}``
  when the call failed, as ADK's own tools answer; `SatchelToolset(session)` lists them
  again before every model request;
* `instruction(session, base)`: the agent's ``instruction``, read again on every model
  request (`Bridge.instructions`);
* `SatchelPlugin(session)`: the runner's plugin. ``before_tool_callback`` runs the gate
  for every call of every agent (the developer's own tools included): a refusal is the
  call's result, a hook's ``updatedInput`` replaces the arguments the tool runs with;
  ``after_tool_callback`` fires ``PostToolUse`` and puts the hooks' context with the
  result. ``on_user_message_callback`` fires ``SessionStart`` (once per ADK session)
  and ``UserPromptSubmit`` and expands slash commands and ``/skill``; a blocked prompt
  never reaches the model (``before_run_callback`` ends the run with the hook's reason).
  ``after_run_callback`` fires ``Stop``. The run of an ``AgentTool`` nested in the
  user's fires none of these three (its message is the calling agent's);
* `sub_agents(session, model=...)`: one `LlmAgent` per agent type, for an agent's
  ``sub_agents`` or an ``AgentTool``.

ADK's built-in tools that Gemini runs itself (``google_search``, ``url_context``...,
`PROVIDER_RUN`) and an agent's code executor never reach ``before_tool_callback``:
`sub_agents` refuses such a tool, and an agent built with one runs it ungated.

Every function takes a `Session` or a `Bridge` (for the developer's ``ask`` callback
and the MCP supervisor); give the same `Bridge` to each.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from google.adk.agents.llm_agent import LlmAgent
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.base_toolset import BaseToolset
from google.adk.tools.enterprise_search_tool import EnterpriseWebSearchTool
from google.adk.tools.google_maps_grounding_tool import GoogleMapsGroundingTool
from google.adk.tools.google_search_tool import GoogleSearchTool
from google.adk.tools.retrieval.vertex_ai_rag_retrieval import VertexAiRagRetrieval
from google.adk.tools.url_context_tool import UrlContextTool
from google.adk.tools.vertex_ai_search_tool import VertexAiSearchTool
from google.genai import types

from satchel.integrations._bridge import Bridge, with_context
from satchel.session import Session

if TYPE_CHECKING:
    from google.adk.agents.invocation_context import InvocationContext
    from google.adk.agents.readonly_context import ReadonlyContext
    from google.adk.events.event import Event
    from google.adk.models.base_llm import BaseLlm
    from google.adk.tools.tool_context import ToolContext

    from satchel.agents._spawn import SpawnSpec
    from satchel.session._model import Tool, ToolResult

__all__ = [
    "PROVIDER_RUN",
    "SatchelPlugin",
    "SatchelTool",
    "SatchelToolset",
    "instruction",
    "sub_agents",
    "tools",
]

Source = Session | Bridge
"""What every entry point takes: a `Session`, or a `Bridge` over one."""


# -- tools ----------------------------------------------------------------------------


class SatchelTool(BaseTool):
    """One of the session's tools (or an MCP server's) as an ADK tool. It runs the tool
    and nothing else: the gate is `SatchelPlugin`'s, as it is for every other tool."""

    def __init__(self, tool: Tool) -> None:
        super().__init__(name=tool.name, description=tool.description)
        self.tool = tool

    def _get_declaration(self) -> types.FunctionDeclaration:
        schema = self.tool.definition()["input_schema"]
        return types.FunctionDeclaration(
            name=self.name, description=self.description, parameters_json_schema=schema
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        result = await asyncio.to_thread(self.tool.call, args)
        return _response(result)


def tools(source: Source, existing: Iterable[str] = ()) -> list[BaseTool]:
    """The session's tools, then the MCP supervisor's, as ADK tools. `existing` names the
    developer's own tools, so that satchel's give way to them (`Session.tools`)."""
    return [SatchelTool(t) for t in Bridge.of(source).tools(existing)]


class SatchelToolset(BaseToolset):
    """`tools(source, existing)` listed again before every model request, so that a
    skill that joins the session (a conditional skill whose files were touched, a
    reloaded environment) is in the tools' schemas at the next request."""

    def __init__(self, source: Source, existing: Iterable[str] = ()) -> None:
        super().__init__(disable_invocation_cache=True)
        self.bridge = Bridge.of(source)
        self.existing = tuple(existing)

    async def get_tools(self, readonly_context: ReadonlyContext | None = None) -> list[BaseTool]:
        return tools(self.bridge, self.existing)


def _response(result: ToolResult) -> dict[str, Any]:
    return {"error" if result.is_error else "result": result.text}


# -- instructions ---------------------------------------------------------------------


def instruction(source: Source, base: str = "") -> Callable[[ReadonlyContext], str]:
    """An ``InstructionProvider``: `base`, then the skills index and every other
    context segment the session gives at the moment of the request. ADK does not
    fill ``{state}`` placeholders into a provider's text, so a skill's braces stay."""
    bridge = Bridge.of(source)

    def provide(context: ReadonlyContext) -> str:
        return bridge.instructions(base)

    return provide


# -- the plugin -----------------------------------------------------------------------


class SatchelPlugin(BasePlugin):
    """The gate and the lifecycle events for every agent a `Runner` runs.

    ``Stop``: ADK has no point at which a finished run goes on, so when a ``Stop``
    hook says not yet, its reason waits in `go_on` (per ADK session) for the
    developer to send as the next message."""

    def __init__(self, source: Source, *, name: str = "satchel") -> None:
        super().__init__(name)
        self.bridge = Bridge.of(source)
        self._started: set[str] = set()
        self._blocked: dict[str, str] = {}
        self._context: dict[str, str | None] = {}
        self._refused: set[str] = set()
        self._last: dict[str, str] = {}
        self._go_on: dict[str, str] = {}

    # -- the user's turn --------------------------------------------------------------

    async def on_user_message_callback(
        self, *, invocation_context: InvocationContext, user_message: types.Content
    ) -> types.Content | None:
        text = _prompt(user_message)
        if text is None or _nested(invocation_context):
            return None
        said = await asyncio.to_thread(self._turn, invocation_context, text)
        kept = [p for p in user_message.parts or () if p.text is None]  # images, files
        if self._blocked.get(invocation_context.invocation_id) is not None:
            kept = []  # a blocked prompt's attachments go no further than its text
        return types.Content(role="user", parts=[*(types.Part(text=t) for t in said), *kept])

    def _turn(self, invocation: InvocationContext, text: str) -> list[str]:
        """The parts of the user's message: the ``SessionStart`` context of a new
        session, the prompt as expanded, its ``UserPromptSubmit`` context."""
        started = None
        if invocation.session.id not in self._started:
            self._started.add(invocation.session.id)
            started = self.bridge.started("startup")
        turn = self.bridge.turn(text)
        if turn.prompt is None:
            self._blocked[invocation.invocation_id] = turn.refusal or ""
            return [""]  # the prompt is dropped; ADK keeps a user event, empty
        return [t for t in (started, turn.prompt, turn.context) if t]

    async def before_run_callback(
        self, *, invocation_context: InvocationContext
    ) -> types.Content | None:
        refusal = self._blocked.get(invocation_context.invocation_id)
        if refusal is None:
            return None
        return types.Content(role="model", parts=[types.Part(text=refusal)])

    # -- the gate ---------------------------------------------------------------------

    async def before_tool_callback(
        self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext
    ) -> dict[str, Any] | None:
        call = _call_id(tool_context)
        verdict = await self.bridge.abefore(tool.name, tool_args, tool_context.function_call_id)
        if not verdict.run:
            self._refused.add(call)
            return {"error": verdict.refusal or ""}
        if dict(verdict.tool_input) != tool_args:  # a hook's updatedInput: what runs
            tool_args.clear()
            tool_args.update(verdict.tool_input)
        self._context[call] = verdict.context
        return None

    async def after_tool_callback(
        self,
        *,
        tool: BaseTool,
        tool_args: dict[str, Any],
        tool_context: ToolContext,
        result: Any,
    ) -> dict[str, Any] | None:
        call = _call_id(tool_context)
        if call in self._refused:  # ADK runs this for a refused call too: nothing ran
            self._refused.discard(call)
            return None
        context = self._context.pop(call, None)
        key, text = _result_text(result)
        after = await self.bridge.aafter(tool.name, tool_args, text, tool_context.function_call_id)
        said = with_context(after.applied(text), context)
        return None if said == text else {key: said}

    async def on_tool_error_callback(
        self,
        *,
        tool: BaseTool,
        tool_args: dict[str, Any],
        tool_context: ToolContext,
        error: Exception,
    ) -> dict[str, Any] | None:
        self._context.pop(_call_id(tool_context), None)  # the error goes on as ADK's
        return None

    # -- the end of a run -------------------------------------------------------------

    async def on_event_callback(
        self, *, invocation_context: InvocationContext, event: Event
    ) -> Event | None:
        text = _answer(event)
        if text is not None:
            self._last[invocation_context.invocation_id] = text
        return None

    async def after_run_callback(self, *, invocation_context: InvocationContext) -> None:
        last = self._last.pop(invocation_context.invocation_id, "")
        blocked = self._blocked.pop(invocation_context.invocation_id, None)
        if blocked is not None or _nested(invocation_context):
            return  # no agent ran, or not the user's agent
        reason = await asyncio.to_thread(self.bridge.stopping, last)
        if reason is not None:
            self._go_on[invocation_context.session.id] = reason

    def go_on(self, session_id: str) -> str | None:
        """Why a ``Stop`` hook said the agent of ADK session `session_id` should go on
        after its last run (None: it may stop), once."""
        return self._go_on.pop(session_id, None)


def _prompt(message: types.Content) -> str | None:
    """The user's text, or None for a message that is not a prompt (function
    responses resuming a run, or no text at all)."""
    parts = message.parts or []
    if any(p.function_response for p in parts):
        return None
    texts = [p.text for p in parts if p.text is not None]
    return "".join(texts) if texts else None


def _nested(invocation: InvocationContext) -> bool:
    """Whether the run is an ``AgentTool``'s, inside the user's run: its message is the
    calling agent's request, not the user's, and its end is not the agent's. ADK marks
    such a run only in a private field, which its own analytics plugin reads too."""
    return getattr(invocation, "_parent_invocation_id", None) is not None


def _call_id(context: ToolContext) -> str:
    return context.function_call_id or str(id(context))


def _result_text(result: Any) -> tuple[str, str]:
    """A tool's result as text, and the key its replacement goes under: a string, the
    text of ADK's ``{"result": ...}`` / ``{"error": ...}``, else the result as JSON."""
    if isinstance(result, str):
        return "result", result
    if isinstance(result, Mapping) and len(result) == 1:
        ((key, value),) = result.items()
        if key in ("result", "error") and isinstance(value, str):
            return key, value
    return "result", json.dumps(result, ensure_ascii=False, default=str)


def _answer(event: Event) -> str | None:
    """The text of an agent's final answer, or None for any other event."""
    if event.author == "user" or not event.is_final_response() or event.content is None:
        return None
    texts = [p.text for p in event.content.parts or [] if p.text]
    return "".join(texts) if texts else None


# -- agent types ----------------------------------------------------------------------

GivenTool = BaseTool | Callable[..., Any]
"""A tool a sub-agent may be given: an ADK tool or a plain function."""


def sub_agents(
    source: Source,
    *,
    model: str | BaseLlm,
    tools: Sequence[GivenTool] = (),
    models: Mapping[str, str | BaseLlm] | None = None,
) -> list[LlmAgent]:
    """One `LlmAgent` per agent type: its system prompt then its preloaded skills'
    bodies as the instruction, and of `tools` those whose names are the canonical tool
    names its ``tools`` field gives (``Read`` is ``read_file``; all of them, less its
    ``disallowedTools``, when it names none). Its model is `models` [the model it
    names] when there is one, else `model`. A tool the model's provider runs
    (`PROVIDER_RUN`) is refused: its calls never meet the plugin."""
    _refuse_provider_run(tools)
    bridge = Bridge.of(source)
    described = {a.name: a.description for a in bridge.session.environment.agents.agents.values()}
    return [
        _agent(s, described.get(s.name, ""), model, tools, models or {}) for s in bridge.agents()
    ]


PROVIDER_RUN: tuple[type[BaseTool], ...] = (
    GoogleSearchTool,
    UrlContextTool,
    GoogleMapsGroundingTool,
    EnterpriseWebSearchTool,
    VertexAiSearchTool,
    VertexAiRagRetrieval,
)
"""ADK's built-in tools that a Gemini model's provider runs itself (they add a
grounding or retrieval tool to the request, not a function): no call of theirs
reaches ``before_tool_callback``, so the plugin's gate never sees one."""


def _refuse_provider_run(tools: Sequence[GivenTool]) -> None:
    named = [t.name for t in tools if isinstance(t, PROVIDER_RUN)]
    if named:
        raise TypeError(
            f"the model's provider runs {' and '.join(named)} itself, where satchel's "
            "plugin cannot see their calls: give them to an agent you assemble yourself "
            "to run them ungated"
        )


def _agent(
    spec: SpawnSpec,
    description: str,
    model: str | BaseLlm,
    tools: Sequence[GivenTool],
    models: Mapping[str, str | BaseLlm],
) -> LlmAgent:
    chosen = models.get(spec.model, model) if spec.model else model
    text = spec.prompt()
    return LlmAgent(
        name=agent_name(spec.name),
        description=description,
        model=chosen,
        instruction=lambda context: text,  # a provider: ADK leaves its braces alone
        tools=[t for t in tools if spec.allows(_tool_name(t))],
    )


def agent_name(name: str) -> str:
    """An agent type's name as ADK accepts one (an identifier): ``tickets:reviewer``
    is ``tickets_reviewer``."""
    cleaned = re.sub(r"\W", "_", name)
    return cleaned if cleaned.isidentifier() else f"agent_{cleaned}"


def _tool_name(tool: GivenTool) -> str:
    return tool.name if isinstance(tool, BaseTool) else str(getattr(tool, "__name__", ""))
