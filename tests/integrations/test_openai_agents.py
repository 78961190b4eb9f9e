"""satchel inside OpenAI's Agents SDK: the desk script run by the SDK's own `Runner`
against its own scripted model (`agents.testing.ScriptedModel`), the gate holding for
the developer's function tools, and the agent types as the SDK's agents."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from agents.testing import ScriptedModel, assistant_message, function_call

from agents import Agent, FunctionTool, WebSearchTool, set_tracing_disabled
from satchel.integrations import Bridge
from satchel.integrations.openai_agents import (
    Instructions,
    PromptBlocked,
    agent,
    run,
    subagents,
    tools,
)
from satchel.runtime import McpSupervisor
from satchel.runtime.mcp._blocking import BlockingSupervisor
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

Ran = list[tuple[str, dict[str, Any]]]


@pytest.fixture(scope="module", autouse=True)
def no_tracing() -> Iterator[None]:
    """The SDK's tracing off: nothing leaves the machine."""
    set_tracing_disabled(True)
    yield
    set_tracing_disabled(False)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BlockingSupervisor]:
    """The desk's MCP servers, started once for the module by satchel's supervisor."""
    session = desk_session(desk(tmp_path_factory.mktemp("served")))
    with McpSupervisor(session.environment, timeout=60).blocking() as mcp:
        yield mcp


def scripted(*calls: tuple[str, dict[str, Any]], answer: str = ANSWER) -> ScriptedModel:
    """The SDK's scripted model: one function call per response, then `answer`."""
    steps: list[Any] = [
        [function_call(n, a, call_id=f"call-{i}")] for i, (n, a) in enumerate(calls)
    ]
    return ScriptedModel([*steps, [assistant_message(answer)]])


def outputs(model: ScriptedModel) -> list[str]:
    """Every tool result the model read back, in order, from its last request."""
    last = model.last_call
    assert last is not None
    return [i["output"] for i in last.input if i.get("type") == "function_call_output"]


def hooked(tmp_path: Path, *groups: Any, **options: Any) -> Bridge:
    """A bridge over the desk with `groups` as the project's own hooks.toml."""
    layout = desk(tmp_path)
    write_hooks(layout.project, hooks_toml(*groups))
    return Bridge(desk_session(layout), **options)


def test_the_version_these_tests_speak_for():
    assert version("openai-agents") == "0.25.0"


def test_the_script_runs_through_the_sdk_runner_with_both_refusals(tmp_path, served):
    session = desk_session(desk(tmp_path))
    ran: Ran = []
    model = scripted(*STEPS)
    bridge = Bridge(session, mcp=served)
    desk_agent = agent(
        bridge,
        name="desk",
        model=model,
        instructions="You write release notes.",
        tools=own_tools(ran).values(),
    )
    result = asyncio.run(run(bridge, desk_agent, PROMPT))
    assert result.final_output == ANSWER
    read = outputs(model)
    assert '<skill_content name="release-notes">' in read[0]
    assert (
        read[1] == "Lead each line with what the user can now do. No ticket numbers in the text.\n"
    )
    assert json.loads(read[2])["stdout"] == "2.4.0\n"
    assert [t["id"] for t in json.loads(read[3])] == ["T-101", "T-102"]
    assert read[4] == HOOK_REFUSAL
    assert read[5].startswith(SKILL_REFUSAL)
    assert ran == []  # neither refused call reached the developer's tool
    first = model.first_call
    assert first is not None
    assert first.input[0]["content"] == EXPANDED  # the user turn, expanded
    assert LIST_TICKETS in {t.name for t in first.tools}


def test_calls_the_sdk_runs_side_by_side_each_go_through_the_gate(tmp_path):
    session = desk_session(desk(tmp_path))
    session.activate("release-notes")  # its allowed-tools hold from the first call
    ran: Ran = []
    both = [function_call(n, a, call_id=n) for n, a in STEPS[4:]]  # shell and deploy
    model = ScriptedModel([both, [assistant_message(ANSWER)]])
    asyncio.run(
        run(session, agent(session, name="desk", model=model, tools=own_tools(ran).values()), "go")
    )
    shell, deploy = outputs(model)
    assert shell == HOOK_REFUSAL
    assert deploy.startswith(SKILL_REFUSAL)
    assert ran == []


def test_the_instructions_hold_the_index_and_change_once_the_skill_is_active(tmp_path):
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]])
    bridge = Bridge(desk_session(desk(tmp_path)))
    desk_agent = agent(bridge, name="desk", model=model, instructions="You write release notes.")
    asyncio.run(run(bridge, desk_agent, "hello"))
    bridge.session.activate("release-notes")
    asyncio.run(run(bridge, desk_agent, "again"))
    before, after = (c.system_instructions or "" for c in model.calls)
    assert before.startswith("You write release notes.\n\n")
    assert "<name>release-notes</name>" in before
    assert "- /notes: Draft the release notes for a version (arguments: [version])" in before
    assert after != before


def test_a_bad_call_of_satchels_tools_is_an_error_the_model_reads(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    model = scripted(("skills_use", {"name": "nope"}), ("skills_use", {}))
    asyncio.run(run(bridge, agent(bridge, name="desk", model=model), "go"))
    assert outputs(model) == [
        "Error (session.skill.unknown): no skill named 'nope'",
        "Error (session.tool.arguments): 'name' must be a non-empty string",
    ]
    assert {r.name: (r.calls, r.errors) for r in bridge.session.toolbox.receipt()}[
        "skills_use"
    ] == (2, 2)


def test_an_ask_goes_to_the_developer_and_an_approved_call_runs(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "deploys need a human"))}]
    asked: list[tuple[str, dict[str, Any], str | None]] = []

    async def approve(name: str, tool_input: Any, reason: str | None) -> bool:
        asked.append((name, dict(tool_input), reason))
        return True

    bridge = hooked(tmp_path, ("before_tool_use", "deploy", ask), ask=approve)
    ran: Ran = []
    model = scripted(("deploy", {"version": "2.4.0"}))
    desk_agent = agent(bridge, name="desk", model=model, tools=own_tools(ran).values())
    asyncio.run(run(bridge, desk_agent, "ship it"))
    assert asked == [("deploy", {"version": "2.4.0"}, "deploys need a human")]
    assert ran == [("deploy", {"version": "2.4.0"})]
    assert outputs(model) == ["deployed 2.4.0"]


def test_an_ask_with_nobody_to_ask_is_refused(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "deploys need a human"))}]
    bridge = hooked(tmp_path, ("before_tool_use", "deploy", ask))
    ran: Ran = []
    model = scripted(("deploy", {"version": "2.4.0"}))
    desk_agent = agent(bridge, name="desk", model=model, tools=own_tools(ran).values())
    asyncio.run(run(bridge, desk_agent, "ship it"))
    assert ran == []
    assert outputs(model) == ["the call to deploy needs the user's approval: deploys need a human"]


def test_a_rewrite_is_what_runs_and_context_goes_with_the_result(tmp_path):
    rewrite = pre_tool(
        "allow", updatedInput={"command": "ls -la"}, additionalContext="listing, not deleting"
    )
    bridge = hooked(
        tmp_path, ("before_tool_use", "shell", [{"command": reply(tmp_path, "rw", out=rewrite)}])
    )
    ran: Ran = []
    model = scripted(("shell", {"command": "ls"}))
    desk_agent = agent(bridge, name="desk", model=model, tools=own_tools(ran).values())
    asyncio.run(run(bridge, desk_agent, "list"))
    assert ran == [("shell", {"command": "ls -la"})]
    assert outputs(model) == ["ran ls -la\n\nlisting, not deleting"]


def test_a_post_tool_block_is_said_next_to_the_result(tmp_path):
    out = {"decision": "block", "reason": "the output held a token"}
    bridge = hooked(
        tmp_path, ("after_tool_use", "shell", [{"command": reply(tmp_path, "b", out=out)}])
    )
    ran: Ran = []
    model = scripted(("shell", {"command": "env"}))
    asyncio.run(
        run(bridge, agent(bridge, name="d", model=model, tools=own_tools(ran).values()), "x")
    )
    assert ran == [("shell", {"command": "env"})]
    assert outputs(model) == ["ran env\n\nthe output held a token"]


def test_a_blocked_prompt_never_reaches_the_model(tmp_path):
    out = {"decision": "block", "reason": "no release notes on Fridays"}
    bridge = hooked(
        tmp_path, ("user_prompt_submit", None, [{"command": reply(tmp_path, "no", out=out)}])
    )
    model = scripted()
    with pytest.raises(PromptBlocked) as blocked:
        asyncio.run(run(bridge, agent(bridge, name="desk", model=model), PROMPT))
    assert blocked.value.reason == "no release notes on Fridays"
    assert model.calls == ()


STOP_ONCE = """import json, sys
payload = json.load(sys.stdin)
with open(sys.argv[1], "a") as seen:
    seen.write(json.dumps(payload["stop_hook_active"]) + "\\n")
if not payload["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "list the open tickets too"}))
"""


def test_a_stop_hook_that_says_not_yet_is_the_next_user_message(tmp_path):
    seen = tmp_path / "seen.txt"
    hook = f'{py_hook(tmp_path, "stop", STOP_ONCE)} "{seen}"'
    bridge = hooked(tmp_path, ("stop", None, [{"command": hook}]))
    model = ScriptedModel([[assistant_message("draft")], [assistant_message(ANSWER)]])
    result = asyncio.run(run(bridge, agent(bridge, name="desk", model=model), "go"))
    assert result.final_output == ANSWER
    last = model.last_call
    assert last is not None
    assert last.input[-1] == {"role": "user", "content": "list the open tickets too"}
    assert seen.read_text().split() == ["false", "true"]  # the second Stop knows


def test_a_stop_hook_that_never_agrees_ends_after_the_rounds_allowed(tmp_path):
    out = {"decision": "block", "reason": "not yet"}
    bridge = hooked(tmp_path, ("stop", None, [{"command": reply(tmp_path, "stop", out=out)}]))
    model = ScriptedModel([[assistant_message(n)] for n in ("one", "two", "three")])
    result = asyncio.run(run(bridge, agent(bridge, name="desk", model=model), "go", stops=2))
    assert (result.final_output, len(model.calls)) == ("three", 3)


def test_session_start_context_joins_the_instructions(tmp_path):
    more = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "on call: Ana"}
    }
    bridge = hooked(
        tmp_path, ("session_start", None, [{"command": reply(tmp_path, "s", out=more)}])
    )
    model = ScriptedModel([[assistant_message("a")], [assistant_message("b")]])
    desk_agent = agent(bridge, name="desk", model=model, instructions="Base.")
    asyncio.run(run(bridge, desk_agent, "one"))
    asyncio.run(run(bridge, desk_agent, "two"))
    first, second = (c.system_instructions or "" for c in model.calls)
    assert first.startswith("Base.\n\n") and first.endswith("\n\non call: Ana")
    assert second == first


def test_the_agent_types_are_sdk_agents_with_their_tools_and_preloaded_skills(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    ran: Ran = []

    def read_file(path: str) -> str:
        ran.append(("read_file", {"path": path}))
        return "- Sign in with a passkey"

    available = tools(bridge, read_file, *own_tools(ran).values())
    (reviewer,) = subagents(bridge, available)
    assert isinstance(reviewer, Agent)
    assert reviewer.name == "reviewer"
    assert [t.name for t in reviewer.tools] == ["read_file"]  # Read, and nothing else
    assert isinstance(reviewer.instructions, str)
    assert reviewer.instructions.startswith(
        "You review release notes. Say what to change, line by line, and nothing else.\n\n"
        '<skill_content name="release-notes">\n# Release notes'
    )


def test_the_main_agent_calls_a_subagent_as_a_tool_and_reads_its_answer(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    ran: Ran = []

    def read_file(path: str) -> str:
        ran.append(("read_file", {"path": path}))
        return "- Sign in with a passkey"

    model = ScriptedModel(
        [
            [function_call("reviewer", {"input": "review NOTES.md"}, call_id="main-1")],
            [function_call("read_file", {"path": "NOTES.md"}, call_id="sub-1")],
            [assistant_message("Fine as it is.")],
            [assistant_message(ANSWER)],
        ]
    )
    desk_agent = agent(bridge, name="desk", model=model, tools=[read_file])
    reviewer = next(t for t in desk_agent.tools if t.name == "reviewer")
    assert isinstance(reviewer, FunctionTool)
    assert reviewer.description == (
        "Reviews release notes for tone and accuracy. Use after drafting notes."
    )
    result = asyncio.run(run(bridge, desk_agent, "review the notes"))
    assert result.final_output == ANSWER
    assert ran == [("read_file", {"path": "NOTES.md"})]
    sub = model.calls[1].system_instructions or ""
    assert sub.startswith("You review release notes.")
    assert outputs(model) == ["Fine as it is."]


def test_the_agent_types_can_be_handoffs_that_take_the_conversation_over(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    model = ScriptedModel(
        [
            [function_call("transfer_to_reviewer", {}, call_id="main-1")],
            [assistant_message("Fine as it is.")],
        ]
    )
    desk_agent = agent(bridge, name="desk", model=model, subagents_as="handoffs")
    assert "reviewer" not in {t.name for t in desk_agent.tools}
    result = asyncio.run(run(bridge, desk_agent, "review the notes"))
    assert (result.last_agent.name, result.final_output) == ("reviewer", "Fine as it is.")
    assert (model.last_call.system_instructions or "").startswith("You review release notes.")


def test_a_tool_the_gate_cannot_see_is_refused(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    with pytest.raises(TypeError) as hosted:
        agent(bridge, name="desk", tools=[WebSearchTool()])  # type: ignore[list-item]
    assert str(hosted.value) == (
        "WebSearchTool is not a function tool: satchel's gate sees only the calls that go "
        "through a FunctionTool's on_invoke_tool (hosted, shell, apply-patch and computer "
        "tools run elsewhere); add it to the Agent yourself to run it ungated"
    )
    with pytest.raises(TypeError) as servers:
        agent(bridge, name="desk", mcp_servers=[object()])
    assert str(servers.value) == (
        "the SDK's own MCP servers call their tools where satchel's gate cannot see them: "
        "give the servers to satchel (a plugin's or the project's .mcp.json) and pass its "
        "supervisor as mcp"
    )


def test_the_instructions_are_a_callable_the_agent_calls_per_request(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    desk_agent = agent(bridge, name="desk", instructions="Base.")
    assert isinstance(desk_agent.instructions, Instructions)
    before = desk_agent.instructions.text()
    bridge.session.activate("release-notes")
    assert desk_agent.instructions.text() != before
