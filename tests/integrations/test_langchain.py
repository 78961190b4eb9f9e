"""`satchel.integrations.langchain`: the desk example's script run by a scripted chat
model through `create_agent`'s own graph, the gate in `SatchelMiddleware`'s
``wrap_tool_call`` for every tool, the developer's included."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any

import pytest
from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool, tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.types import Command
from pydantic import Field

from satchel.integrations import Bridge
from satchel.integrations.langchain import SatchelMiddleware, subagents, task_tool, tools
from satchel.runtime import McpSupervisor
from tests.hooks.support import hooks_toml, pre_tool, py_hook, reply, write_hooks

from .support import (
    ANSWER,
    EXPANDED,
    HOOK_REFUSAL,
    LIST_TICKETS,
    PROMPT,
    SKILL_REFUSAL,
    STEPS,
    desk,
    desk_session,
    own_tools,
)

BASE = "You write release notes."


class Scripted(BaseChatModel):
    """A chat model that makes `steps`' tool calls, one a request, then says `answer`;
    `seen` keeps every request's messages (what the model read), `bound` the names of
    the tools it was given each time."""

    steps: Sequence[tuple[str, dict[str, Any]]] = ()
    answer: str = ANSWER
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    bound: list[list[str]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Scripted:  # type: ignore[override]
        self.bound.append([t.name for t in tools])
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.seen.append(list(messages))
        done = sum(isinstance(m, ToolMessage) for m in messages)
        if done < len(self.steps):
            name, args = self.steps[done]
            call = {"name": name, "args": args, "id": f"call_{done}", "type": "tool_call"}
            message = AIMessage("", tool_calls=[call])
        else:
            message = AIMessage(self.answer)
        return ChatResult(generations=[ChatGeneration(message=message)])


def native(ran: list[tuple[str, dict[str, Any]]]) -> list[BaseTool]:
    """The developer's own tools (`own_tools`) as LangChain tools."""
    return [StructuredTool.from_function(f, description=n) for n, f in own_tools(ran).items()]


def reading(text: str) -> BaseTool:
    """A ``read_file`` tool that reads `text` from any path."""

    def read_file(path: str) -> str:
        return text

    return StructuredTool.from_function(read_file, description="Read a file.")


def results(state: dict[str, Any]) -> list[str]:
    """What the model read back for each of its tool calls, in order."""
    return [m.text for m in state["messages"] if isinstance(m, ToolMessage)]


class Run:
    """One run of the script: the model, the final state, the developer's calls."""

    def __init__(self, model: Scripted, state: dict[str, Any], ran: list[Any], names: list[str]):
        self.model, self.state, self.ran, self.names = model, state, ran, names


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """The desk's script, run once through `create_agent` with the MCP servers up."""
    session = desk_session(desk(tmp_path_factory.mktemp("desk")))
    ran: list[tuple[str, dict[str, Any]]] = []
    with McpSupervisor(session.environment, timeout=60).blocking() as mcp:
        bridge = Bridge(session, mcp=mcp)
        mine = native(ran)
        given = [*tools(bridge, existing=mine), *mine]
        model = Scripted(steps=STEPS)
        agent = create_agent(
            model, given, system_prompt=BASE, middleware=[SatchelMiddleware(bridge)]
        )
        state = agent.invoke({"messages": [HumanMessage(PROMPT)]})
        yield Run(model, state, ran, [t.name for t in given])


def test_the_model_reads_each_steps_result_and_both_refusals(script):
    read = [m.text for m in script.model.seen[-1] if isinstance(m, ToolMessage)]
    assert read == results(script.state)
    assert len(read) == len(STEPS)
    assert '<skill_content name="release-notes">' in read[0]
    assert (
        read[1] == "Lead each line with what the user can now do. No ticket numbers in the text.\n"
    )
    assert json.loads(read[2])["stdout"] == "2.4.0\n"
    assert [t["id"] for t in json.loads(read[3])] == ["T-101", "T-102"]
    assert read[4] == HOOK_REFUSAL
    assert read[5].startswith(SKILL_REFUSAL)
    assert script.ran == []  # neither refused call reached the developer's tool
    assert script.state["messages"][-1].text == ANSWER


def test_refusals_are_error_tool_messages_the_model_read_at_the_next_request(script):
    refused = [m for m in script.state["messages"] if isinstance(m, ToolMessage)][4:]
    assert [(m.name, m.status) for m in refused] == [("shell", "error"), ("deploy", "error")]
    assert script.model.seen[5][-1].text == HOOK_REFUSAL  # the request after the shell call


def test_the_tools_are_the_sessions_the_servers_and_the_developers(script):
    assert script.names == [
        "skills_use",
        "skills_read",
        "skills_run_script",
        LIST_TICKETS,
        "shell",
        "deploy",
    ]
    assert script.model.bound[0] == script.names  # create_agent bound them all


def test_the_user_turn_is_expanded_before_the_model_reads_it(script):
    first = script.model.seen[0]
    assert [m.text for m in first if isinstance(m, HumanMessage)] == [EXPANDED]
    assert script.state["messages"][0].text == EXPANDED
    assert script.state["prompt_refusal"] is None


def test_every_model_request_holds_the_base_and_the_index(script):
    systems = [request[0].text for request in script.model.seen]
    assert len(systems) == len(STEPS) + 1
    assert all(s.startswith(BASE + "\n\n") for s in systems)
    assert all("<name>release-notes</name>" in s for s in systems)


def test_the_instructions_are_read_again_at_each_request(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    model = Scripted()
    agent = create_agent(model, [], system_prompt=BASE, middleware=[SatchelMiddleware(bridge)])
    agent.invoke({"messages": [HumanMessage("one")]})
    bridge.session.activate("release-notes")  # as the host activates a skill
    agent.invoke({"messages": [HumanMessage("two")]})
    before, after = (request[0].text for request in model.seen)
    assert '<skill_content name="release-notes">' not in before
    assert after.startswith(before)
    assert '<skill_content name="release-notes">' in after[len(before) :]


def test_the_schemas_are_the_sessions_and_an_error_is_an_error_tool_message(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    given = tools(bridge)
    parameters = [convert_to_openai_tool(t)["function"]["parameters"] for t in given]
    assert parameters == [t.definition()["input_schema"] for t in bridge.tools()]
    json.dumps(parameters)  # plain JSON, as a provider takes it
    read = {"name": "release-notes", "path": "references/style.md"}
    done = run(bridge, [("skills_read", read)], extra=given)  # not active yet
    (message,) = [m for m in done.state["messages"] if isinstance(m, ToolMessage)]
    assert (message.status, message.text.startswith("Error (")) == ("error", True)


def test_the_framework_versions_are_those_the_tests_speak_for():
    assert (version("langchain"), version("langgraph")) == ("1.5.2", "1.2.24")


# -- the gate's other answers, with hooks of the test's own -----------------------------


def hooked(tmp_path: Path, *groups: Any, **options: Any) -> Bridge:
    """A bridge over the desk with `groups` as the project's own hooks.toml."""
    layout = desk(tmp_path)
    write_hooks(layout.project, hooks_toml(*groups))
    return Bridge(desk_session(layout), **options)


def run(bridge: Bridge, steps: Sequence[tuple[str, dict[str, Any]]], **options: Any) -> Run:
    """`steps` by a scripted model through `create_agent`, with the developer's tools
    and the `extra` ones."""
    ran: list[tuple[str, dict[str, Any]]] = []
    mine = [*native(ran), *options.pop("extra", ())]
    model = Scripted(steps=steps, answer=options.pop("answer", ANSWER))
    agent = create_agent(model, mine, middleware=[SatchelMiddleware(bridge)])
    prompt = options.pop("prompt", "go")
    if options.pop("asynchronous", False):
        state = asyncio.run(agent.ainvoke({"messages": [HumanMessage(prompt)]}))
    else:
        state = agent.invoke({"messages": [HumanMessage(prompt)]})
    return Run(model, state, ran, [t.name for t in mine])


def test_an_ask_goes_to_the_developers_callback(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "deploys need a human"))}]
    asked: list[tuple[str, dict[str, Any], str | None]] = []

    def approve(name: str, tool_input: Any, reason: str | None) -> bool:
        asked.append((name, dict(tool_input), reason))
        return True

    bridge = hooked(tmp_path, ("before_tool_use", "deploy", ask), ask=approve)
    done = run(bridge, [("deploy", {"version": "1"})])
    assert asked == [("deploy", {"version": "1"}, "deploys need a human")]
    assert (done.ran, results(done.state)) == ([("deploy", {"version": "1"})], ["deployed 1"])


def test_an_ask_with_nobody_to_ask_is_refused_on_the_async_path(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "sure?"))}]
    bridge = hooked(tmp_path, ("before_tool_use", "deploy", ask))
    done = run(bridge, [("deploy", {"version": "1"})], asynchronous=True)
    assert results(done.state) == ["the call to deploy needs the user's approval: sure?"]
    assert done.ran == []


def test_an_updated_input_is_what_runs_and_context_goes_with_the_result(tmp_path):
    rewrite = pre_tool(
        "allow", updatedInput={"command": "ls -la"}, additionalContext="listing, not deleting"
    )
    hooks = [{"command": reply(tmp_path, "rewrite", out=rewrite)}]
    done = run(
        hooked(tmp_path, ("before_tool_use", "shell", hooks)), [("shell", {"command": "ls"})]
    )
    assert done.ran == [("shell", {"command": "ls -la"})]
    assert results(done.state) == ["ran ls -la\n\nlisting, not deleting"]


def test_a_post_tool_block_is_said_next_to_the_result(tmp_path):
    out = {"decision": "block", "reason": "the output held a token"}
    hooks = [{"command": reply(tmp_path, "block", out=out)}]
    bridge = hooked(tmp_path, ("after_tool_use", "shell", hooks))
    done = run(bridge, [("shell", {"command": "env"})], asynchronous=True)
    assert done.ran == [("shell", {"command": "env"})]
    assert results(done.state) == ["ran env\n\nthe output held a token"]


def test_a_result_given_as_a_command_has_post_tool_use_applied(tmp_path):
    @tool
    def note(text: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command[Any]:
        """Keep a note."""
        return Command(
            update={"messages": [ToolMessage(f"noted {text}", tool_call_id=tool_call_id)]}
        )

    more = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "public"}}
    hooks = [{"command": reply(tmp_path, "more", out=more)}]
    bridge = hooked(tmp_path, ("after_tool_use", "note", hooks))
    done = run(bridge, [("note", {"text": "x"})], extra=[note])
    assert results(done.state) == ["noted x\n\npublic"]


def test_a_command_in_content_blocks_is_expanded_and_the_other_blocks_kept(tmp_path):
    model = Scripted()
    middleware = SatchelMiddleware(Bridge(desk_session(desk(tmp_path))))
    image = {"type": "image", "url": "https://example.com/chart.png"}
    message = HumanMessage([{"type": "text", "text": PROMPT}, image])
    create_agent(model, [], middleware=[middleware]).invoke({"messages": [message]})
    assert model.seen[0][-1].content == [{"type": "text", "text": EXPANDED}, image]


def test_session_start_fires_once_and_its_context_joins_every_request(tmp_path):
    fired = tmp_path / "fired"
    source = f"open({str(fired)!r}, 'a').write('x')\nprint('the release branch is release/2.4')\n"
    start = [{"command": py_hook(tmp_path, "start", source)}]
    model = Scripted()
    agent = create_agent(
        model, [], middleware=[SatchelMiddleware(hooked(tmp_path, ("session_start", None, start)))]
    )
    agent.invoke({"messages": [HumanMessage("one")]})
    agent.invoke({"messages": [HumanMessage("two")]})
    assert fired.read_text() == "x"
    ends = [r[0].text.endswith("\n\nthe release branch is release/2.4") for r in model.seen]
    assert ends == [True, True]


def test_a_blocked_prompt_never_reaches_the_model(tmp_path):
    out = {"decision": "block", "reason": "no release notes on Fridays"}
    group = ("user_prompt_submit", None, [{"command": reply(tmp_path, "no", out=out)}])
    done = run(hooked(tmp_path, group), [], prompt=PROMPT)
    assert done.model.seen == []
    assert (done.state["messages"], done.state["prompt_refusal"]) == (
        [],
        "no release notes on Fridays",
    )


def test_a_stop_hook_that_says_not_yet_sends_the_model_on_once(tmp_path):
    # the hook blocks only while stop_hook_active is false, as a Claude Code hook must
    script = (
        "import json, sys\n"
        "if not json.load(sys.stdin)['stop_hook_active']:\n"
        "    print(json.dumps({'decision': 'block', 'reason': 'list the open tickets too'}))\n"
    )
    path = tmp_path / "stop.py"
    path.write_text(script)
    group = ("stop", None, [{"command": f"python3 {path}"}])
    done = run(hooked(tmp_path, group), [])
    assert len(done.model.seen) == 2
    assert done.model.seen[1][-1].text == "list the open tickets too"
    assert [m.text for m in done.state["messages"] if isinstance(m, AIMessage)] == [ANSWER] * 2


# -- the agent types ----------------------------------------------------------------------


def test_the_agent_types_are_subagents_with_their_tools_and_preloaded_skills(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    (agent,) = subagents(bridge, [reading("- T-101"), *native([])])
    assert (agent["name"], [t.name for t in agent["tools"]]) == ("reviewer", ["read_file"])
    assert agent["description"].startswith("Reviews release notes for tone and accuracy.")
    prompt = agent["system_prompt"]
    assert prompt.startswith("You review release notes. Say what to change, line by line")
    assert '\n\n<skill_content name="release-notes">\n# Release notes\n' in prompt  # its body


def test_the_task_tool_runs_a_subagent_behind_the_gate(tmp_path):
    guard = [{"command": reply(tmp_path, "guard", err="not that file", code=2)}]
    bridge = hooked(tmp_path, ("before_tool_use", "read_file", guard))
    steps = [("read_file", {"path": "NOTES.md"}), ("read_file", {"path": "OTHER.md"})]
    reviewer = Scripted(steps=steps, answer="Drop T-101.")
    task = task_tool(bridge, reviewer, [reading("- T-101"), *native([])])
    call = {"description": "Review NOTES.md", "subagent_type": "reviewer"}
    main = Scripted(steps=[("task", call)], answer="done")
    state = create_agent(main, [task], middleware=[SatchelMiddleware(bridge)]).invoke(
        {"messages": [HumanMessage("review")]}
    )
    assert results(state) == ["Drop T-101."]
    assert reviewer.bound[0] == ["read_file"]
    assert reviewer.seen[0][0].text.startswith("You review release notes.")
    assert [m.text for m in reviewer.seen[2] if isinstance(m, ToolMessage)] == ["not that file"] * 2
