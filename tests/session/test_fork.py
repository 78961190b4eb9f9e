"""``context: fork``: the skill runs as the host's subagent through its fork callback."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

import satchel
from satchel.session import ForkRequest, Session
from tests.support import put

FORKED = """\
---
name: research
description: Research a topic in a subagent.
context: fork
agent: Explore
allowed-tools: Read Grep
---
Research $ARGUMENTS in ${{CLAUDE_SESSION_ID}}: !`printf found`
Canary: !`touch {canary}`
"""


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    return tmp_path / "canary"


@pytest.fixture
def env(layout: satchel.Layout, canary: Path) -> satchel.Environment:
    root = layout.project / ".agents" / "skills"
    put(root / "research" / "SKILL.md", FORKED.format(canary=canary))
    put(root / "plain" / "SKILL.md", "---\nname: plain\ndescription: P.\ncontext: fork\n---\nGo.\n")
    return satchel.load(layout=layout)


def make(env: satchel.Environment, **kw: object) -> Session:
    return Session(env, environ={"PATH": os.environ["PATH"]}, session_id="S-9", **kw)  # type: ignore[arg-type]


UNAVAILABLE = (
    "skill 'research' runs in a subagent (context: fork) and this session has no fork "
    "callback; register one with Session(fork=...) or session.on_fork(...)"
)


def test_with_no_callback_the_tool_call_is_a_coded_refusal_and_nothing_runs(env, canary):
    result = make(env).call("load_skill", {"name": "research"})
    assert (result.is_error, result.code) == (True, "session.fork.unavailable")
    assert result.text == f"Error (session.fork.unavailable): {UNAVAILABLE}"
    assert not canary.exists()


def test_with_no_callback_activate_raises_the_typed_refusal(env):
    with pytest.raises(satchel.ForkUnavailable) as raised:
        make(env).activate("research")
    assert (raised.value.code, str(raised.value)) == ("session.fork.unavailable", UNAVAILABLE)


def test_with_no_callback_expand_leaves_the_prompt_and_says_why(env):
    session = make(env)
    assert session.expand("/research tides") == "/research tides"
    assert [(d.code, d.message) for d in session.diagnostics] == [
        ("session.fork.unavailable", UNAVAILABLE)
    ]


def test_the_callback_gets_the_typed_request_and_its_result_is_the_activation(env, canary):
    seen: list[ForkRequest] = []

    def fork(request: ForkRequest) -> str:
        seen.append(request)
        return "Tides follow the moon."

    session = make(env, fork=fork)
    text = session.expand("/research tides")
    assert (
        text
        == '<skill_result name="research" agent="Explore">\nTides follow the moon.\n</skill_result>'
    )
    (request,) = seen
    assert (request.name, request.agent, request.agent_type) == ("research", "Explore", None)
    assert request.tools == ("Read", "Grep")
    # No background field: Claude Code runs a fork in the background (2.1.218 on).
    assert (request.arguments, request.via, request.background) == ("tides", "explicit", True)
    assert request.prompt == "Research tides in S-9: found\nCanary: "
    assert canary.exists()  # its commands ran once, for the prompt
    assert not session.activation.is_active(
        "research"
    )  # its allowed-tools never gate the conversation
    assert [(f.request.name, f.result) for f in session.activation.forks] == [
        ("research", "Tides follow the moon.")
    ]


def test_a_fork_with_no_agent_uses_general_purpose_and_gets_the_request_appended(env):
    seen: list[ForkRequest] = []
    session = make(env, fork=lambda r: seen.append(r) or "ok")
    session.expand("/plain the docs")
    assert (seen[0].agent, seen[0].prompt) == ("general-purpose", "Go.\n\nthe docs")


def test_an_async_callback_is_awaited_from_a_model_tool_call(env):
    async def fork(request: ForkRequest) -> str:
        await asyncio.sleep(0)
        return f"async {request.via}"

    session = make(env)
    session.on_fork(fork)
    result = session.call("load_skill", {"name": "research"})
    assert (result.is_error, result.text) == (
        False,
        '<skill_result name="research" agent="Explore">\nasync tool\n</skill_result>',
    )


def test_an_async_callback_is_awaited_inside_a_running_loop(env):
    async def fork(request: ForkRequest) -> str:
        return "inside"

    async def host() -> str:
        return make(env, fork=fork).activation.fork("plain").result

    assert asyncio.run(host()) == "inside"


def test_a_callback_that_raises_is_a_coded_error_result(env):
    def fork(request: ForkRequest) -> str:
        raise RuntimeError("subagent crashed")

    result = make(env, fork=fork).call("load_skill", {"name": "plain"})
    assert (result.code, result.text) == (
        "session.fork.failed",
        "Error (session.fork.failed): the fork callback for skill 'plain' failed: "
        "RuntimeError: subagent crashed",
    )


def test_resume_replays_nothing_for_a_fork(env):
    calls: list[ForkRequest] = []
    session = make(env, fork=lambda r: calls.append(r) or "done")
    history = [{"name": "load_skill", "arguments": {"name": "research"}}]
    assert session.activation.resume(history) == ()
    assert (session.activation.active, calls) == ((), [])
