"""satchel in Pydantic AI: a `FunctionModel` follows the desk's script through an agent
whose own tools live in a toolset of their own, and `Satchel` gates every call."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pydantic_ai
import pytest
from pydantic_ai import Agent, AgentRunResult, CodeExecutionTool, MemoryTool, Tool
from pydantic_ai.capabilities import NativeTool, ToolSearch, WebSearch
from pydantic_ai.messages import (
    ImageUrl,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryFeedbackPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserContent,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.toolsets import FunctionToolset

from satchel.integrations import Bridge
from satchel.integrations.pydantic_ai import Satchel, agent, agent_tool, tools
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
Calls = Sequence[tuple[str, dict[str, Any]]]


class Script:
    """A `FunctionModel` that makes `calls`, one a request, then answers `answers` in
    turn; it keeps what each request showed it."""

    def __init__(self, calls: Calls, *answers: str) -> None:
        self.calls, self.answers = list(calls), list(answers) or [ANSWER]
        self.seen: list[tuple[list[ModelMessage], AgentInfo]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append((messages, info))
        if self.calls:
            name, arguments = self.calls.pop(0)
            return ModelResponse(parts=[ToolCallPart(name, arguments)])
        return ModelResponse(parts=[TextPart(self.answers.pop(0))])

    @property
    def model(self) -> FunctionModel:
        return FunctionModel(self)


def run(
    runner: Agent[None, str], prompt: str | Sequence[UserContent], **options: Any
) -> AgentRunResult[str]:
    """`runner` on `prompt` in an event loop of its own, closed after (`run_sync`
    would leave one open for the rest of the suite)."""
    return asyncio.run(runner.run(prompt, **options))


def results(messages: Sequence[ModelMessage]) -> list[str]:
    """Each tool result the model read, in order."""
    found = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts]
    return [str(p.content) for p in found if isinstance(p, ToolReturnPart)]


def prompts(messages: Sequence[ModelMessage]) -> list[str]:
    found = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts]
    return [str(p.content) for p in found if isinstance(p, UserPromptPart)]


@pytest.fixture(scope="module")
def desk_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The script run once: the developer's tools in a toolset `Satchel` did not
    build, the tickets server started by satchel's supervisor."""
    session = desk_session(desk(tmp_path_factory.mktemp("desk")))
    ran: list[tuple[str, dict[str, Any]]] = []
    script = Script(STEPS)
    with McpSupervisor(session.environment, timeout=60).blocking() as mcp:
        bridge = Bridge(session, mcp=mcp)
        mine = FunctionToolset([Tool(f) for f in own_tools(ran).values()])
        runner = Agent(script.model, toolsets=[mine], capabilities=[Satchel(bridge, BASE)])
        result = run(runner, PROMPT)
    return {"result": result, "ran": ran, "script": script}


def test_the_script_runs_through_an_agent_with_both_refusals(desk_run):
    read = results(desk_run["result"].all_messages())
    assert '<skill_content name="release-notes">' in read[0]
    assert (
        read[1] == "Lead each line with what the user can now do. No ticket numbers in the text.\n"
    )
    assert json.loads(read[2])["stdout"] == "2.4.0\n"
    assert [t["id"] for t in json.loads(read[3])] == ["T-101", "T-102"]
    assert read[4] == HOOK_REFUSAL
    assert read[5].startswith(SKILL_REFUSAL)
    assert desk_run["ran"] == []  # neither refused call reached the developer's tool
    assert desk_run["result"].output == ANSWER


def test_the_model_gets_the_session_and_mcp_tools_with_their_schemas(desk_run):
    (_, info), *_ = desk_run["script"].seen
    found = {t.name: t for t in info.function_tools}
    assert list(found) == [
        "shell",
        "deploy",
        "skills_use",
        "skills_read",
        "skills_run_script",
        LIST_TICKETS,
    ]
    assert found["skills_use"].parameters_json_schema["properties"]["name"]["enum"] == [
        "release-notes"
    ]


def test_the_user_turn_is_expanded_before_the_model_reads_it(desk_run):
    first, _ = desk_run["script"].seen[0]
    assert prompts(first) == [EXPANDED]
    assert prompts(desk_run["result"].all_messages()) == [EXPANDED]


def test_every_request_reads_the_instructions_with_the_skills_index(desk_run):
    infos = [info for _, info in desk_run["script"].seen]
    assert len(infos) == len(STEPS) + 1
    for info in infos:
        assert info.instructions is not None
        assert info.instructions.startswith(BASE + "\n\n")
        assert "<name>release-notes</name>" in info.instructions


def test_the_instructions_change_when_a_skill_becomes_active(tmp_path):
    session = desk_session(desk(tmp_path))
    script = Script((), "one", "two")
    runner = Agent(script.model, capabilities=[Satchel(Bridge(session), BASE)])
    first = run(runner, "hello")
    session.activate("release-notes")
    run(runner, "again", message_history=first.all_messages())
    before, after = (info.instructions or "" for _, info in script.seen)
    assert '<skill_content name="release-notes">' not in before
    assert '<skill_content name="release-notes">' in after


def test_the_session_tools_follow_a_skill_that_joins_during_the_run(tmp_path):
    layout = desk(tmp_path)
    skill = layout.project / ".agents" / "skills" / "web-style" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: web-style\ndescription: Web style.\npaths: web/**\n---\nBody\n")
    session = desk_session(layout)

    def open_file(path: str) -> str:
        session.touch(path)
        return "opened"

    script = Script([("open_file", {"path": "web/app.ts"})])
    run(Agent(script.model, tools=[open_file], capabilities=[Satchel(Bridge(session))]), "go")
    enums = [
        next(t for t in info.function_tools if t.name == "skills_use").parameters_json_schema
        for _, info in script.seen
    ]
    assert [e["properties"]["name"]["enum"] for e in enums] == [
        ["release-notes"],
        ["release-notes", "web-style"],
    ]


def project(tmp_path: Path, *groups: Any) -> Bridge:
    """The desk's session with `groups` as the project's own hooks.toml."""
    layout = desk(tmp_path)
    write_hooks(layout.project, hooks_toml(*groups))
    return Bridge(desk_session(layout))


def gated(bridge: Bridge, calls: Calls, ran: list[Any], *answers: str) -> tuple[Any, Script]:
    script = Script(calls, *answers)
    mine = [Tool(f) for f in own_tools(ran).values()]
    return run(agent(script.model, bridge, instructions=BASE, own_tools=mine), "go"), script


def test_a_rewrite_is_what_the_tool_runs_and_its_context_goes_with_the_result(tmp_path):
    rewrite = pre_tool(
        "allow", updatedInput={"command": "ls -la"}, additionalContext="listing, not deleting"
    )
    hooks = [{"command": reply(tmp_path, "rewrite", out=rewrite)}]
    bridge = project(tmp_path, ("before_tool_use", "shell", hooks))
    ran: list[Any] = []
    result, _ = gated(bridge, [("shell", {"command": "ls"})], ran)
    assert ran == [("shell", {"command": "ls -la"})]
    assert results(result.all_messages()) == ["ran ls -la\n\nlisting, not deleting"]


def test_a_rewrite_the_tools_schema_refuses_does_not_run(tmp_path):
    rewrite = pre_tool("allow", updatedInput={"cmd": "ls"})
    hooks = [{"command": reply(tmp_path, "rewrite", out=rewrite)}]
    bridge = project(tmp_path, ("before_tool_use", "shell", hooks))
    ran: list[Any] = []
    result, _ = gated(bridge, [("shell", {"command": "ls"})], ran)
    assert results(result.all_messages()) == [
        "a hook rewrote the input of shell to one it does not take: "
        "command: Field required; cmd: Extra inputs are not permitted"
    ]
    assert ran == []


def test_an_ask_goes_to_the_developers_callback(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "deploys need a human"))}]
    asked: list[tuple[str, dict[str, Any], str | None]] = []

    async def approve(name: str, tool_input: Any, reason: str | None) -> bool:
        asked.append((name, dict(tool_input), reason))
        return True

    bridge = project(tmp_path, ("before_tool_use", "deploy", ask))
    bridge.ask = approve
    ran: list[Any] = []
    result, _ = gated(bridge, [("deploy", {"version": "1"})], ran)
    assert asked == [("deploy", {"version": "1"}, "deploys need a human")]
    assert ran == [("deploy", {"version": "1"})]
    assert results(result.all_messages()) == ["deployed 1"]


def test_an_ask_with_nobody_to_ask_is_refused(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "deploys need a human"))}]
    bridge = project(tmp_path, ("before_tool_use", "deploy", ask))
    ran: list[Any] = []
    result, _ = gated(bridge, [("deploy", {"version": "1"})], ran)
    assert ran == []
    assert results(result.all_messages()) == [
        "the call to deploy needs the user's approval: deploys need a human"
    ]


def test_a_post_tool_block_is_said_next_to_the_result(tmp_path):
    out = {"decision": "block", "reason": "the output held a token"}
    hooks = [{"command": reply(tmp_path, "block", out=out)}]
    bridge = project(tmp_path, ("after_tool_use", "shell", hooks))
    ran: list[Any] = []
    result, _ = gated(bridge, [("shell", {"command": "env"})], ran)
    assert ran == [("shell", {"command": "env"})]
    assert results(result.all_messages()) == ["ran env\n\nthe output held a token"]


def test_a_blocked_prompt_never_reaches_the_model(tmp_path):
    out = {"decision": "block", "reason": "no release notes on Fridays"}
    bridge = project(
        tmp_path, ("user_prompt_submit", None, [{"command": reply(tmp_path, "no", out=out)}])
    )
    script = Script(())
    result = run(Agent(script.model, capabilities=[Satchel(bridge)]), PROMPT)
    assert script.seen == []
    assert result.output == "no release notes on Fridays"


SHOT = ImageUrl("https://example.com/shot.png")


def test_a_multi_part_prompt_has_its_text_expanded_and_its_image_kept(tmp_path):
    script = Script(())
    session = desk_session(desk(tmp_path))
    run(Agent(script.model, capabilities=[Satchel(Bridge(session))]), [PROMPT, SHOT])
    first, _ = script.seen[0]
    parts = [p for m in first if isinstance(m, ModelRequest) for p in m.parts]
    assert [p.content for p in parts if isinstance(p, UserPromptPart)] == [[EXPANDED, SHOT]]


def test_a_blocked_multi_part_prompt_never_reaches_the_model(tmp_path):
    said = tmp_path / "said"
    source = (
        "import json, pathlib, sys\n"
        f"pathlib.Path({str(said)!r}).write_text(json.load(sys.stdin)['prompt'])\n"
        "print(json.dumps({'decision': 'block', 'reason': 'no release notes on Fridays'}))\n"
    )
    hook = [{"command": py_hook(tmp_path, "no", source)}]
    bridge = project(tmp_path, ("user_prompt_submit", None, hook))
    script = Script(())
    result = run(Agent(script.model, capabilities=[Satchel(bridge)]), [PROMPT, SHOT])
    assert said.read_text() == PROMPT
    assert script.seen == []
    assert result.output == "no release notes on Fridays"


def test_session_start_context_joins_the_instructions_once(tmp_path):
    sources = tmp_path / "sources"
    source = (
        "import json, pathlib, sys\n"
        f"p = pathlib.Path({str(sources)!r})\n"
        "said = json.load(sys.stdin)['source']\n"
        "p.write_text((p.read_text() if p.exists() else '') + said + ' ')\n"
        "print('the release is on Friday')\n"
    )
    hook = [{"command": py_hook(tmp_path, "start", source)}]
    bridge = project(tmp_path, ("session_start", None, hook))
    script = Script((), "one", "two")
    runner = Agent(script.model, capabilities=[Satchel(bridge, BASE)])
    run(runner, "again", message_history=run(runner, "hello").all_messages())
    assert sources.read_text() == "startup "
    for _, info in script.seen:
        assert (info.instructions or "").startswith(f"{BASE}\n\nthe release is on Friday\n\n")


def test_a_first_run_that_continues_a_history_starts_the_session_as_a_resume(tmp_path):
    sources = tmp_path / "sources"
    source = (
        "import json, pathlib, sys\n"
        f"pathlib.Path({str(sources)!r}).write_text(json.load(sys.stdin)['source'])\n"
    )
    bridge = project(
        tmp_path, ("session_start", None, [{"command": py_hook(tmp_path, "s", source)}])
    )
    earlier = run(Agent(Script((), "one").model), "hello").all_messages()
    run(
        Agent(Script((), "two").model, capabilities=[Satchel(bridge)]),
        "on",
        message_history=earlier,
    )
    assert sources.read_text() == "resume"


def test_a_stop_hook_sends_the_model_back_with_its_reason_once(tmp_path):
    source = (
        "import json, sys\n"
        "if not json.load(sys.stdin)['stop_hook_active']:\n"
        "    print(json.dumps({'decision': 'block', 'reason': 'list the open tickets too'}))\n"
    )
    bridge = project(tmp_path, ("stop", None, [{"command": py_hook(tmp_path, "stop", source)}]))
    script = Script((), "done", "done, open tickets listed")
    result = run(Agent(script.model, capabilities=[Satchel(bridge)]), "go")
    assert result.output == "done, open tickets listed"
    kept = [p for m in result.all_messages() if isinstance(m, ModelRequest) for p in m.parts]
    retry = [p for p in kept if isinstance(p, RetryFeedbackPart)]
    assert [p.content for p in retry] == ["list the open tickets too"]
    last, _ = script.seen[-1]  # as Pydantic AI frames feedback for the model
    assert "<pyai:retry_feedback>\nlist the open tickets too\n" in prompts(last)[-1]


def test_a_subagent_type_runs_with_its_prompt_skills_and_tools_under_the_gate(tmp_path):
    deny = [{"command": reply(tmp_path, "deny", out=pre_tool("deny", "notes are read-only"))}]
    bridge = project(tmp_path, ("before_tool_use", "read_file", deny))
    ran: list[Any] = []

    def read_file(path: str) -> str:
        ran.append(("read_file", {"path": path}))
        return "notes"

    mine = [Tool(read_file), *(Tool(f) for f in own_tools(ran).values())]
    calls = [
        ("task", {"subagent_type": "reviewer", "prompt": "Review the notes."}),
        ("read_file", {"path": "NOTES.md"}),
    ]
    script = Script(calls, "Line 2: say what the user can do.", ANSWER)
    result = run(agent(script.model, bridge, instructions=BASE, own_tools=mine), "go")
    (spec,) = bridge.agents()
    _, sub = script.seen[1]
    assert [t.name for t in sub.function_tools] == ["read_file"]
    body = spec.skills[0].body
    assert sub.instructions == (
        f'{spec.system_prompt}\n\n<skill_content name="release-notes">\n{body}\n</skill_content>'
    )
    assert spec.skills[0].body.startswith("# Release notes")
    assert ran == []  # the sub-agent's call met the parent's hooks
    assert results(script.seen[2][0]) == ["notes are read-only"]
    assert results(result.all_messages()) == ["Line 2: say what the user can do."]


def test_the_delegation_tool_lists_the_agent_types(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    found = agent_tool(bridge)
    assert found is not None and found.name == "task"
    assert found.description == (
        "Hand a task to a sub-agent of one of these types:\n"
        "- reviewer: Reviews release notes for tone and accuracy. Use after drafting notes."
    )


def test_agent_refuses_a_capability_whose_tools_the_provider_runs(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    given = [ToolSearch(), WebSearch(), NativeTool(CodeExecutionTool())]
    with pytest.raises(TypeError) as refused:
        agent(Script(()).model, bridge, capabilities=given)
    assert str(refused.value) == (
        "the model's provider runs web_search and code_execution itself, where satchel's "
        "gate cannot see their calls: add a capability that gives them to an Agent you "
        "assemble yourself to run them ungated"
    )


def test_agent_takes_a_native_tool_whose_calls_run_as_the_agents_own_tools(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    given = [ToolSearch(), NativeTool(MemoryTool())]
    made = agent(Script(()).model, bridge, capabilities=given)
    assert isinstance(made, Agent)


def test_tools_are_pydantic_ai_tools_that_run_the_session_tool(tmp_path):
    session = desk_session(desk(tmp_path))
    found = {t.name: t for t in tools(session)}
    assert list(found) == ["skills_use", "skills_read", "skills_run_script"]
    assert all(isinstance(t, Tool) for t in found.values())
    text = found["skills_use"].function(name="release-notes")
    assert text.startswith('<skill_content name="release-notes">')


def test_the_version_these_tests_speak_for():
    assert pydantic_ai.__version__ == "2.78.0"
