"""`Bridge`: the gate, the turn and the instructions every framework integration uses,
driven by a plain loop over the desk example's script."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from satchel.integrations import Bridge
from satchel.runtime import McpSupervisor
from tests.hooks.support import hooks_toml, pre_tool, py_hook, reply, write_hooks

from .support import (
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


def test_the_script_runs_through_the_bridge_with_both_refusals(tmp_path):
    session = desk_session(desk(tmp_path))
    ran: list[tuple[str, dict[str, Any]]] = []
    mine = own_tools(ran)
    with McpSupervisor(session.environment, timeout=60).blocking() as mcp:
        bridge = Bridge(session, mcp=mcp)
        tools = {t.name: t for t in bridge.tools(existing=mine)}
        assert bridge.turn(PROMPT).prompt == EXPANDED
        read: list[str] = []
        for name, arguments in STEPS:
            if name in tools:
                read.append(bridge.run(tools[name], arguments))
                continue
            verdict = bridge.before(name, arguments)
            read.append(verdict.refusal if not verdict.run else mine[name](**verdict.tool_input))
    assert '<skill_content name="release-notes">' in read[0]
    assert (
        read[1] == "Lead each line with what the user can now do. No ticket numbers in the text.\n"
    )
    assert json.loads(read[2])["stdout"] == "2.4.0\n"
    assert [t["id"] for t in json.loads(read[3])] == ["T-101", "T-102"]
    assert read[4] == HOOK_REFUSAL
    assert read[5].startswith(SKILL_REFUSAL)
    assert ran == []  # neither refused call reached the developer's tool
    assert LIST_TICKETS in tools


def hooked(tmp_path: Path, *groups: Any, **options: Any) -> Bridge:
    """A bridge over the desk with `groups` as the project's own hooks.toml."""
    layout = desk(tmp_path)
    write_hooks(layout.project, hooks_toml(*groups))
    return Bridge(desk_session(layout), **options)


def test_an_ask_goes_to_the_callback_and_with_nobody_to_ask_is_refused(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "deploys need a human"))}]
    asked: list[tuple[str, dict[str, Any], str | None]] = []

    def approve(name: str, tool_input: Any, reason: str | None) -> bool:
        asked.append((name, dict(tool_input), reason))
        return True

    group = ("before_tool_use", "deploy", ask)
    assert hooked(tmp_path / "a", group, ask=approve).before("deploy", {"version": "1"}).run
    assert asked == [("deploy", {"version": "1"}, "deploys need a human")]
    alone = hooked(tmp_path / "b", group).before("deploy", {"version": "1"})
    assert (alone.run, alone.refusal) == (
        False,
        "the call to deploy needs the user's approval: deploys need a human",
    )


def test_an_async_ask_is_awaited(tmp_path):
    ask = [{"command": reply(tmp_path, "ask", out=pre_tool("ask", "sure?"))}]

    async def no(name: str, tool_input: Any, reason: str | None) -> bool:
        return False

    bridge = hooked(tmp_path, ("before_tool_use", "deploy", ask), ask=no)
    verdict = asyncio.run(bridge.abefore("deploy", {"version": "1"}))
    assert (verdict.run, verdict.refusal) == (
        False,
        "the call to deploy needs the user's approval: sure?",
    )


def test_a_rewrite_is_the_input_the_tool_runs_with_and_context_goes_with_the_result(tmp_path):
    rewrite = pre_tool(
        "allow", updatedInput={"command": "ls -la"}, additionalContext="listing, not deleting"
    )
    hooks = [{"command": reply(tmp_path, "rewrite", out=rewrite)}]
    bridge = hooked(tmp_path, ("before_tool_use", "shell", hooks))
    verdict = bridge.before("shell", {"command": "ls"})
    assert (verdict.run, dict(verdict.tool_input)) == (True, {"command": "ls -la"})
    assert verdict.context == "listing, not deleting"


def test_a_post_tool_block_is_said_next_to_the_result_as_claude_code_says_it(tmp_path):
    out = {"decision": "block", "reason": "the output held a token"}
    more = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "redacted"}}
    groups = (
        ("after_tool_use", "shell", [{"command": reply(tmp_path, "block", out=out)}]),
        ("after_tool_use", "shell", [{"command": reply(tmp_path, "more", out=more)}]),
    )
    after = hooked(tmp_path, *groups).after("shell", {"command": "env"}, "TOKEN=abc")
    assert (after.text, after.context) == (None, "the output held a token\nredacted")
    assert after.applied("TOKEN=abc") == "TOKEN=abc\n\nthe output held a token\nredacted"


def test_a_post_tool_exit_2_says_its_stderr_next_to_the_result(tmp_path):
    hook = [{"command": reply(tmp_path, "two", err="that file is generated", code=2)}]
    after = hooked(tmp_path, ("after_tool_use", "shell", hook)).after("shell", {}, "ok")
    assert after.applied("ok") == "ok\n\nthat file is generated"


def test_no_post_tool_hook_leaves_the_result_as_it_is(tmp_path):
    after = Bridge(desk_session(desk(tmp_path))).after("shell", {"command": "ls"}, "a b")
    assert (after.text, after.context, after.applied("a b")) == (None, None, "a b")
    assert after.outcome is not None and after.outcome.results == ()  # the guard is Bash's


def test_a_blocked_prompt_never_reaches_the_model(tmp_path):
    out = {"decision": "block", "reason": "no release notes on Fridays"}
    group = ("user_prompt_submit", None, [{"command": reply(tmp_path, "no", out=out)}])
    turn = hooked(tmp_path, group).turn(PROMPT)
    assert (turn.prompt, turn.refusal) == (None, "no release notes on Fridays")


def test_the_instructions_follow_what_the_session_has_now(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    before = bridge.instructions("You write release notes.")
    assert before.startswith("You write release notes.\n\n")
    assert "<name>release-notes</name>" in before
    assert "- /notes: Draft the release notes for a version (arguments: [version])" in before
    bridge.session.activate("release-notes")
    assert bridge.instructions("You write release notes.") != before


def test_a_bad_call_of_a_session_tool_is_an_error_result_not_an_exception(tmp_path):
    bridge = Bridge(desk_session(desk(tmp_path)))
    tools = {t.name: t for t in bridge.tools()}
    read = {"name": "release-notes", "path": "references/style.md"}
    inactive = bridge.run(tools["skills_read"], read)
    assert inactive.startswith("Error (session.skill.inactive): ")
    assert tools["skills_use"].call({"name": "nope"}).code == "session.skill.unknown"
    assert [(r.name, r.calls, r.errors) for r in bridge.session.toolbox.receipt()] == [
        ("skills_use", 1, 1),
        ("skills_read", 1, 1),
        ("skills_run_script", 0, 0),
    ]


def test_a_second_stop_says_a_stop_hook_is_active(tmp_path):
    seen = tmp_path / "seen.jsonl"
    log = f"import json,sys; open({str(seen)!r},'a').write(sys.stdin.read().strip()+chr(10))"
    group = ("stop", None, [{"command": py_hook(tmp_path, "log", log)}])
    bridge = hooked(tmp_path / "w", group)
    assert bridge.stopping("first") is None
    assert bridge.stopping("second", again=True) is None
    said = [json.loads(line) for line in seen.read_text().splitlines()]
    assert [(s["stop_hook_active"], s["last_assistant_message"]) for s in said] == [
        (False, "first"),
        (True, "second"),
    ]


def test_a_stop_hook_that_says_not_yet_gives_the_reason_to_go_on(tmp_path):
    out = {"decision": "block", "reason": "list the open tickets too"}
    group = ("stop", None, [{"command": reply(tmp_path, "stop", out=out)}])
    assert hooked(tmp_path / "a", group).stopping("done") == "list the open tickets too"
    assert Bridge(desk_session(desk(tmp_path / "b"))).stopping("done") is None


def test_the_agent_types_come_with_their_preloaded_skills(tmp_path):
    (spec,) = Bridge(desk_session(desk(tmp_path))).agents()
    assert (spec.name, spec.tools, spec.model) == ("reviewer", ("read_file",), None)
    assert spec.system_prompt == (
        "You review release notes. Say what to change, line by line, and nothing else."
    )
    assert [s.name for s in spec.skills] == ["release-notes"]
    assert spec.skills[0].body.startswith("# Release notes")


def test_of_takes_a_bridge_as_it_is_and_makes_one_of_a_session(tmp_path):
    session = desk_session(desk(tmp_path))
    made = Bridge.of(session)
    assert (made.session, made.ask, made.mcp) == (session, None, None)
    assert Bridge.of(made) is made

    def no(name: str, tool_input: Any, reason: str | None) -> bool:
        return False

    asked = Bridge.of(made, ask=no)
    assert (asked.session, asked.ask, made.ask) == (session, no, None)  # a copy


def test_a_spawn_spec_names_its_tools_canonically_and_wraps_its_preloaded_skills(tmp_path):
    """`SpawnSpec.allows` and `prompt`, which every framework's sub-agents use: the
    desk's reviewer (``tools: Read``) may use ``Read`` or ``read_file``, not ``Bash``
    nor the developer's ``shell``."""
    (spec,) = Bridge(desk_session(desk(tmp_path))).agents()
    assert [t for t in ("Read", "read_file", "Bash", "shell", "mcp__x__y") if spec.allows(t)] == [
        "Read",
        "read_file",
    ]
    assert spec.prompt() == (
        f"{spec.system_prompt}\n\n"
        f'<skill_content name="release-notes">\n{spec.skills[0].body}\n</skill_content>'
    )
