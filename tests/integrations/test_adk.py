"""`satchel.integrations.adk`: the desk script run by ADK's own `Runner`, with an
in-memory session service and a `BaseLlm` whose answers are the script's function
calls; the gate is the runner's plugin, for satchel's tools and the developer's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from google.adk.agents.llm_agent import LlmAgent
from google.adk.apps.app import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools import google_search, url_context
from google.adk.tools.agent_tool import AgentTool
from google.genai import types
from pydantic import Field

from satchel.integrations import Bridge
from satchel.integrations.adk import (
    SatchelPlugin,
    SatchelToolset,
    instruction,
    sub_agents,
    tools,
)
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

Steps = tuple[tuple[str, dict[str, Any]], ...]


class Scripted(BaseLlm):
    """A model that makes `steps`' calls one per request, then answers; it keeps a copy
    of each request (the instruction, the tools, the contents) in `seen`."""

    model: str = "scripted"
    steps: Steps = STEPS
    answer: str = ANSWER
    seen: list[LlmRequest] = Field(default_factory=list)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.seen.append(llm_request.model_copy(deep=True))
        done = len(responses(llm_request))
        if done < len(self.steps):
            name, args = self.steps[done]
            call = types.FunctionCall(name=name, args=args, id=f"call-{done}")
            yield LlmResponse(
                content=types.Content(role="model", parts=[types.Part(function_call=call)])
            )
            return
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=self.answer)]))


def responses(request: LlmRequest) -> list[dict[str, Any]]:
    """What the model read back, one function response per call, in order."""
    return [
        dict(p.function_response.response or {})
        for c in request.contents
        for p in c.parts or []
        if p.function_response is not None
    ]


def user_texts(request: LlmRequest) -> list[str]:
    return [p.text for c in request.contents if c.role == "user" for p in c.parts or [] if p.text]


def system(request: LlmRequest) -> str:
    return str(request.config.system_instruction or "")


async def converse(
    agent: LlmAgent, plugin: SatchelPlugin, *prompts: str
) -> tuple[str, list[list[str]]]:
    """Each prompt as one run on one ADK session: the session id and each run's texts."""
    runner = InMemoryRunner(app=App(name="desk", root_agent=agent, plugins=[plugin]))
    session = await runner.session_service.create_session(app_name="desk", user_id="dev")
    said: list[list[str]] = []
    for prompt in prompts:
        message = types.Content(role="user", parts=[types.Part(text=prompt)])
        texts = []
        async for event in runner.run_async(
            user_id="dev", session_id=session.id, new_message=message
        ):
            texts += [
                p.text for p in (event.content.parts if event.content else None) or [] if p.text
            ]
        said.append(texts)
    await runner.close()
    return session.id, said


def agent(bridge: Bridge, model: Scripted, mine: dict[str, Callable[..., str]]) -> LlmAgent:
    return LlmAgent(
        name="desk",
        model=model,
        instruction=instruction(bridge, "You write release notes."),
        tools=[*tools(bridge, existing=mine), *mine.values()],
    )


@pytest.fixture(scope="module")
def desk_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The desk script, once for the module, with the tickets server running."""
    session = desk_session(desk(tmp_path_factory.mktemp("desk")))
    ran: list[tuple[str, dict[str, Any]]] = []
    mine = own_tools(ran)
    model = Scripted()
    with McpSupervisor(session.environment, timeout=60).blocking() as mcp:
        bridge = Bridge(session, mcp=mcp)
        root = agent(bridge, model, mine)
        _, said = asyncio.run(converse(root, SatchelPlugin(bridge), PROMPT))
    return {"model": model, "ran": ran, "said": said, "bridge": bridge}


def test_the_model_reads_each_steps_result_and_both_refusals(desk_run):
    read = responses(desk_run["model"].seen[-1])
    assert len(read) == len(STEPS)
    assert '<skill_content name="release-notes">' in read[0]["result"]
    assert read[1] == {
        "result": "Lead each line with what the user can now do. No ticket numbers in the text.\n"
    }
    assert json.loads(read[2]["result"])["stdout"] == "2.4.0\n"
    assert [t["id"] for t in json.loads(read[3]["result"])] == ["T-101", "T-102"]
    assert read[4] == {"error": HOOK_REFUSAL}
    assert read[5]["error"].startswith(SKILL_REFUSAL)
    assert desk_run["ran"] == []  # neither refused call reached the developer's tool
    assert desk_run["said"] == [[ANSWER]]


def test_the_user_turn_reaches_the_model_expanded(desk_run):
    first = desk_run["model"].seen[0]
    assert user_texts(first) == [EXPANDED]


def test_the_tools_are_declared_from_their_json_schemas(desk_run):
    sent = desk_run["model"].seen[0].config.tools[0].function_declarations
    declared = {d.name: d for d in sent}
    assert set(declared) >= {"skills_use", "skills_read", LIST_TICKETS, "shell", "deploy"}
    assert declared[LIST_TICKETS].parameters_json_schema == {
        "type": "object",
        "properties": {"status": {"type": "string"}},
    }
    use = declared["skills_use"].parameters_json_schema
    assert use["properties"]["name"]["enum"] == ["release-notes"]


def test_the_instructions_hold_the_index(desk_run):
    first = system(desk_run["model"].seen[0])
    assert first.startswith("You write release notes.\n\n")
    assert "<name>release-notes</name>" in first
    assert "- /notes: Draft the release notes for a version (arguments: [version])" in first


def test_the_instructions_are_read_again_for_each_model_request(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))

    def pick() -> str:  # the host activates the skill itself, between two requests
        bridge.session.activate("release-notes")
        return "picked"

    model = Scripted(steps=(("pick", {}),))
    root = LlmAgent(
        name="desk", model=model, instruction=instruction(bridge, "Base."), tools=[pick]
    )
    asyncio.run(converse(root, SatchelPlugin(bridge), "go"))
    first, later = system(model.seen[0]), system(model.seen[1])
    assert '<skill_content name="release-notes">' not in first
    assert '<skill_content name="release-notes">' in later


def test_the_toolset_offers_a_skill_that_joins_at_the_next_request(tmp_path):
    layout = desk(tmp_path)
    skill = layout.project / ".agents" / "skills" / "csv-export"
    skill.mkdir()
    (skill / "SKILL.md").write_text(
        "---\nname: csv-export\ndescription: Export reports as CSV.\n"
        "paths: '*.csv'\n---\nUse commas.\n"
    )
    bridge = Bridge(desk_session(layout))

    def open_file(path: str) -> str:  # the developer's file tool tells the session
        bridge.session.touch(path)
        return "a,b"

    model = Scripted(steps=(("open_file", {"path": "report.csv"}),))
    root = LlmAgent(name="desk", model=model, tools=[SatchelToolset(bridge), open_file])
    asyncio.run(converse(root, SatchelPlugin(bridge), "export"))
    names = [skill_names(request) for request in model.seen]
    assert names == [["release-notes"], ["csv-export", "release-notes"]]


def skill_names(request: LlmRequest) -> list[str]:
    """The skills `skills_use` offered the model in `request`."""
    (use,) = [
        d
        for t in request.config.tools or []
        for d in t.function_declarations or []
        if d.name == "skills_use"
    ]
    return sorted(use.parameters_json_schema["properties"]["name"]["enum"])


def test_a_subagent_comes_with_its_tools_and_preloaded_skill(desk_run):
    def read_file(path: str) -> str:
        return path

    mine = [read_file, *own_tools([]).values()]
    (reviewer,) = sub_agents(desk_run["bridge"], model=Scripted(), tools=mine)
    assert reviewer.name == "reviewer"
    assert reviewer.description.startswith("Reviews release notes for tone and accuracy.")
    assert reviewer.tools == [read_file]  # `tools: Read`, and nothing else
    assert not isinstance(reviewer.instruction, str)
    text = reviewer.instruction(None)
    assert text.startswith(
        "You review release notes. Say what to change, line by line, and nothing else.\n\n"
        '<skill_content name="release-notes">\n# Release notes\n'
    )
    root = LlmAgent(name="desk", model=Scripted(), sub_agents=[reviewer])
    assert root.find_agent("reviewer") is reviewer


# ADK 2.15.0's own AgentTool builds its nested runner with the `plugins` argument that
# its Runner deprecates
@pytest.mark.filterwarnings("ignore:The `plugins` argument is deprecated:DeprecationWarning")
def test_the_gate_holds_inside_a_subagent_run_as_an_agent_tool(tmp_path):
    deny = pre_tool("deny", "notes are read in the editor")
    context = {
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Monday"}
    }
    groups = (
        ("before_tool_use", "read_file", [{"command": reply(tmp_path, "deny", out=deny)}]),
        ("user_prompt_submit", None, [{"command": reply(tmp_path, "ctx", out=context)}]),
    )
    bridge = hooked(tmp_path, *groups)
    ran: list[str] = []

    def read_file(path: str) -> str:
        ran.append(path)
        return path

    inner = Scripted(steps=(("read_file", {"path": "notes.md"}),), answer="Cut line 2.")
    (reviewer,) = sub_agents(bridge, model=inner, tools=[read_file])
    outer = Scripted(steps=(("reviewer", {"request": "Review the notes."}),))
    root = LlmAgent(name="desk", model=outer, tools=[AgentTool(reviewer)])
    asyncio.run(converse(root, SatchelPlugin(bridge), "review"))
    assert responses(inner.seen[-1]) == [{"error": "notes are read in the editor"}]
    assert ran == []
    assert user_texts(inner.seen[0]) == ["Review the notes."]  # the agent's, not the user's
    assert user_texts(outer.seen[0]) == ["review", "Monday"]
    assert responses(outer.seen[-1]) == [{"result": "Cut line 2."}]


def test_the_gate_holds_for_adks_own_transfer_tool(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    inner = Scripted()
    (reviewer,) = sub_agents(bridge, model=inner)
    steps = (
        ("skills_use", {"name": "release-notes"}),
        ("transfer_to_agent", {"agent_name": "reviewer"}),
    )
    outer = Scripted(steps=steps)
    root = LlmAgent(name="desk", model=outer, tools=tools(bridge), sub_agents=[reviewer])
    asyncio.run(converse(root, SatchelPlugin(bridge), "notes"))
    refused = responses(outer.seen[-1])[1]
    assert refused["error"].startswith(
        "tool 'transfer_to_agent' is not allowed: skill 'release-notes' is active"
    )
    assert inner.seen == []  # the transfer never happened


def test_an_agent_type_without_a_tool_list_gets_every_tool_but_its_disallowed_ones(tmp_path):
    layout = desk(tmp_path)
    checker = layout.project / ".claude" / "agents" / "checker.md"
    checker.write_text(
        "---\nname: checker\ndescription: Checks facts.\nmodel: haiku\n"
        "disallowedTools: Bash\n---\nCheck every number.\n"
    )

    def read_file(path: str) -> str:
        return path

    def execute_command(command: str) -> str:
        return command

    small, big = Scripted(model="small"), Scripted(model="big")
    made = sub_agents(
        desk_session(layout), model=big, tools=[read_file, execute_command], models={"haiku": small}
    )
    agents = {a.name: a for a in made}
    assert agents["checker"].tools == [read_file]  # `disallowedTools: Bash`
    assert agents["checker"].model is small  # `model: haiku`, as the developer maps it
    assert agents["reviewer"].model is big
    assert agents["checker"].instruction(None) == "Check every number."


def test_sub_agents_refuse_a_tool_the_models_provider_runs(tmp_path):
    def read_file(path: str) -> str:
        return path

    session = desk_session(desk(tmp_path))
    with pytest.raises(TypeError) as refused:
        sub_agents(session, model=Scripted(), tools=[read_file, google_search, url_context])
    assert str(refused.value) == (
        "the model's provider runs google_search and url_context itself, where satchel's "
        "plugin cannot see their calls: give them to an agent you assemble yourself to run "
        "them ungated"
    )


def test_the_tests_speak_for_google_adk_2_15_0():
    assert version("google-adk") == "2.15.0"


# -- the hooks' answers, each through a runner of its own ------------------------------


def hooked(tmp_path: Path, *groups: Any, **options: Any) -> Bridge:
    layout = desk(tmp_path)
    write_hooks(layout.project, hooks_toml(*groups))
    return Bridge(desk_session(layout), **options)


def run_steps(
    bridge: Bridge, steps: Steps, *prompts: str, answer: str = ANSWER
) -> tuple[Scripted, list[tuple[str, dict[str, Any]]], SatchelPlugin, str, list[list[str]]]:
    ran: list[tuple[str, dict[str, Any]]] = []
    model = Scripted(steps=steps, answer=answer)
    plugin = SatchelPlugin(bridge)
    session_id, said = asyncio.run(converse(agent(bridge, model, own_tools(ran)), plugin, *prompts))
    return model, ran, plugin, session_id, said


def test_an_ask_goes_to_the_developers_callback(tmp_path):
    out = pre_tool("ask", "deploys need a human")
    group = ("before_tool_use", "deploy", [{"command": reply(tmp_path, "ask", out=out)}])
    asked: list[tuple[str, dict[str, Any], str | None]] = []

    async def approve(name: str, tool_input: Any, reason: str | None) -> bool:
        asked.append((name, dict(tool_input), reason))
        return True

    bridge = hooked(tmp_path / "a", group, ask=approve)
    model, ran, *_ = run_steps(bridge, (("deploy", {"version": "2.4.0"}),), "ship it")
    assert asked == [("deploy", {"version": "2.4.0"}, "deploys need a human")]
    assert ran == [("deploy", {"version": "2.4.0"})]
    assert responses(model.seen[-1]) == [{"result": "deployed 2.4.0"}]
    alone = hooked(tmp_path / "b", group)
    model, ran, *_ = run_steps(alone, (("deploy", {"version": "2.4.0"}),), "ship it")
    assert ran == []
    assert responses(model.seen[-1]) == [
        {"error": "the call to deploy needs the user's approval: deploys need a human"}
    ]


def test_a_rewrite_is_what_runs_and_context_goes_with_the_result(tmp_path):
    rewrite = pre_tool(
        "allow", updatedInput={"command": "ls -la"}, additionalContext="listing, not deleting"
    )
    group = ("before_tool_use", "shell", [{"command": reply(tmp_path, "rewrite", out=rewrite)}])
    model, ran, *_ = run_steps(hooked(tmp_path, group), (("shell", {"command": "ls"}),), "look")
    assert ran == [("shell", {"command": "ls -la"})]
    assert responses(model.seen[-1]) == [{"result": "ran ls -la\n\nlisting, not deleting"}]


def test_a_post_tool_block_is_said_next_to_the_result(tmp_path):
    out = {"decision": "block", "reason": "the output held a token"}
    group = ("after_tool_use", "shell", [{"command": reply(tmp_path, "block", out=out)}])
    model, ran, *_ = run_steps(hooked(tmp_path, group), (("shell", {"command": "env"}),), "env")
    assert ran == [("shell", {"command": "env"})]
    assert responses(model.seen[-1]) == [{"result": "ran env\n\nthe output held a token"}]


def test_a_blocked_prompt_never_reaches_the_model_and_the_next_one_does(tmp_path):
    source = (
        "import json, sys\n"
        "if json.load(sys.stdin)['prompt'].startswith('/notes'):\n"
        "    print(json.dumps({'decision': 'block', 'reason': 'no release notes on Fridays'}))\n"
    )
    group = ("user_prompt_submit", None, [{"command": py_hook(tmp_path, "friday", source)}])
    model, _, _, _, said = run_steps(hooked(tmp_path, group), (), PROMPT, "thanks")
    assert said == [["no release notes on Fridays"], [ANSWER]]
    (request,) = model.seen  # the blocked run never asked the model
    texts = user_texts(request)
    assert texts[-1] == "thanks"
    assert not any(PROMPT in t or EXPANDED in t for t in texts)  # nor does the next run


def test_a_blocked_prompt_fires_no_stop_hook(tmp_path):
    out = {"decision": "block", "reason": "no release notes on Fridays"}
    more = {"decision": "block", "reason": "list the open tickets too"}
    groups = (
        ("user_prompt_submit", None, [{"command": reply(tmp_path, "no", out=out)}]),
        ("stop", None, [{"command": reply(tmp_path, "stop", out=more)}]),
    )
    model, _, plugin, session_id, said = run_steps(hooked(tmp_path, *groups), (), PROMPT)
    assert (model.seen, said) == ([], [["no release notes on Fridays"]])
    assert plugin.go_on(session_id) is None  # no agent ran, so none stopped


def test_session_start_and_prompt_context_go_with_the_users_message(tmp_path):
    start = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "on call: ana"}
    }
    prompt = {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "it is Monday",
        }
    }
    groups = (
        ("session_start", None, [{"command": reply(tmp_path, "start", out=start)}]),
        ("user_prompt_submit", None, [{"command": reply(tmp_path, "prompt", out=prompt)}]),
    )
    model, *_ = run_steps(hooked(tmp_path, *groups), (), PROMPT, "thanks")
    assert user_texts(model.seen[0]) == ["on call: ana", EXPANDED, "it is Monday"]
    assert user_texts(model.seen[1])[-2:] == ["thanks", "it is Monday"]  # started once


def test_a_stop_hook_reads_the_answer_and_its_reason_to_go_on_waits(tmp_path):
    source = (
        "import json, sys\n"
        "last = json.load(sys.stdin)['last_assistant_message']\n"
        "print(json.dumps({'decision': 'block', 'reason': 'add the open tickets to: ' + last}))\n"
    )
    group = ("stop", None, [{"command": py_hook(tmp_path, "stop", source)}])
    _, _, plugin, session_id, _ = run_steps(hooked(tmp_path / "a", group), (), "notes")
    assert plugin.go_on(session_id) == f"add the open tickets to: {ANSWER}"
    assert plugin.go_on(session_id) is None  # once
    _, _, quiet, session_id, _ = run_steps(Bridge(desk_session(desk(tmp_path / "b"))), (), "notes")
    assert quiet.go_on(session_id) is None


def test_an_image_sent_with_the_prompt_reaches_the_model_beside_the_expanded_text(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    model = Scripted(steps=())
    picture = types.Part(inline_data=types.Blob(mime_type="image/png", data=b"\x89PNG"))

    async def run() -> None:
        app = App(name="desk", root_agent=agent(bridge, model, {}), plugins=[SatchelPlugin(bridge)])
        runner = InMemoryRunner(app=app)
        session = await runner.session_service.create_session(app_name="desk", user_id="dev")
        message = types.Content(role="user", parts=[types.Part(text=PROMPT), picture])
        async for _ in runner.run_async(user_id="dev", session_id=session.id, new_message=message):
            pass
        await runner.close()

    asyncio.run(run())
    (request,) = model.seen
    (sent,) = [c for c in request.contents if c.role == "user"]
    assert [p.text for p in sent.parts or [] if p.text] == [EXPANDED]
    assert [p.inline_data.data for p in sent.parts or [] if p.inline_data] == [b"\x89PNG"]
