"""Servers that speak one MCP revision only, 2026-07-28 or 2025-11-25, over stdio and
streamable HTTP, all in one supervisor beside a `Session`: each is spoken to at its
own revision, their questions reach the host's elicit callback (declined with a
diagnostic when there is none), their logs, progress and cancellations reach
on_event, and a changed tool list is listed again.

One supervisor for the module: two stdio servers (a plugin's) and one HTTP process
serving both revisions (the host's)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator

import anyio
import pytest

import satchel
from satchel.cli import main
from satchel.runtime.mcp._blocking import BlockingSupervisor
from satchel.runtime.mcp._events import ElicitAnswer, Elicitation, McpEvent
from satchel.session import Session
from satchel.trust._trust import trust
from tests.support import put

from .supervisor_support import SERVERS, load, port_printed, script, stdio, supervisor, write_plugin

ERA = SERVERS / "era_server.py"
MODERN, LEGACY = "2026-07-28", "2025-11-25"
NAMES = {  # the tool prefix of each server, and the revision it speaks
    "mcp__plugin_kit_modern__": MODERN,
    "mcp__plugin_kit_legacy__": LEGACY,
    "mcp__web-modern__": MODERN,
    "mcp__web-legacy__": LEGACY,
}
ECHO_ONLY = "---\nname: echo-only\ndescription: Echo.\nallowed-tools: "
ECHO_ONLY += " ".join(prefix + "echo" for prefix in NAMES) + "\n---\nEcho.\n"


class Host:
    """What the host's callbacks saw: the questions, and the events."""

    def __init__(self) -> None:
        self.questions: list[Elicitation] = []
        self.events: list[McpEvent] = []

    def elicit(self, question: Elicitation) -> ElicitAnswer:
        self.questions.append(question)
        if question.mode == "url":
            return ElicitAnswer("accept")
        return ElicitAnswer("accept", {"colour": "teal"})

    def seen(self, kind: str, server: str) -> list[McpEvent]:
        return [e for e in self.events if e.kind == kind and e.server == server]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[satchel.Environment, int]]:
    """A trusted project whose plugin runs the two stdio servers, and the host's two
    HTTP servers (and one with a 1 s tool timeout), at one process."""
    base = tmp_path_factory.mktemp("revisions")
    project, home = base / "project", base / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    layout = satchel.Layout.default(project, home=home, env={})
    trust(layout, project)
    root = write_plugin(project, "kit", {})
    modern = script(root, "modern", ERA, "--only", MODERN)
    legacy = script(root, "legacy", ERA, "--only", LEGACY)
    write_plugin(project, "kit", {"modern": stdio(modern), "legacy": stdio(legacy)})
    put(project / ".agents" / "skills" / "echo-only" / "SKILL.md", ECHO_ONLY)
    with port_printed([sys.executable, str(ERA), "--http"]) as port:
        url = f"http://127.0.0.1:{port}"
        given = {
            "web-modern": {"type": "http", "url": f"{url}/modern/mcp"},
            "web-legacy": {"type": "http", "url": f"{url}/legacy/mcp"},
            "slow": {"type": "http", "url": f"{url}/modern/mcp", "tool_timeout_sec": 1},
        }
        (project / ".mcp.json").write_text(json.dumps({"mcpServers": given}))
        yield load(layout), port


@pytest.fixture(scope="module")
def host() -> Host:
    return Host()


@pytest.fixture(scope="module")
def mcp(world, host) -> Iterator[BlockingSupervisor]:
    env, _ = world
    sup = supervisor(env, elicit=host.elicit, on_event=host.events.append)
    with sup.blocking() as running:
        yield running


def test_each_server_is_spoken_to_at_its_own_revision(mcp):
    protocols = {r.id: (r.status, r.protocol, r.server_name) for r in mcp.servers}
    assert protocols == {
        "plugin:kit:modern": ("running", MODERN, f"era-{MODERN}"),
        "plugin:kit:legacy": ("running", LEGACY, f"era-{LEGACY}"),
        "web-modern": ("running", MODERN, f"era-{MODERN}"),
        "web-legacy": ("running", LEGACY, f"era-{LEGACY}"),
        "slow": ("running", MODERN, f"era-{MODERN}"),
    }
    assert [r.to_json()["protocolVersion"] for r in mcp.servers][:2] == [MODERN, LEGACY]
    assert mcp.diagnostics == (), mcp.diagnostics


def test_each_http_fixture_refuses_the_other_revision(world):
    """What makes the test above mean something: a client held to the other revision
    fails, as satchel's did before it spoke both."""
    from mcp.client.client import Client

    _, port = world

    async def refused(path: str, mode: str) -> str:
        try:
            async with Client(f"http://127.0.0.1:{port}/{path}/mcp", mode=mode) as held:
                await held.call_tool("echo", {"text": "x"})  # at MODERN: the first request
                return "answered"
        except Exception as e:  # noqa: BLE001  # the SDK raises it in a group
            while isinstance(e, BaseExceptionGroup):
                e = e.exceptions[0]
            return f"{type(e).__name__}: {e}"

    assert anyio.run(refused, "modern", "legacy") == "MCPError: Method not found"
    assert anyio.run(refused, "legacy", MODERN) == "MCPError: Method not found"


def test_a_sessions_gate_decides_the_calls_to_every_server(world, mcp):
    env, _ = world
    session = Session(env, environ={"PATH": os.environ["PATH"]}, enforce_allowed_tools="on")
    session.activate("echo-only")  # its allowed-tools: the four servers' echo
    for prefix in NAMES:
        echoed = mcp.call_tool(prefix + "echo", {"text": f"via {prefix}"}, session)
        assert (echoed.is_error, echoed.text) == (False, f"via {prefix}")
        refused = mcp.call_tool(prefix + "work", {}, session)
        assert refused.denied
        assert refused.text.startswith(f"the call to {prefix}work was denied: tool ")


def test_a_form_question_is_answered_by_the_hosts_callback(mcp, host):
    for prefix in NAMES:
        before = len(host.questions)
        result = mcp.call_tool(prefix + "colour", {})
        assert (result.is_error, result.text) == (False, "colour teal")
        (question,) = host.questions[before:]
        assert (question.mode, question.message) == ("form", "Which colour?")
        assert question.schema["properties"]["colour"]["type"] == "string"
        assert question.server == _server(mcp, prefix)


def test_a_url_question_is_answered_by_the_hosts_callback(mcp, host):
    for prefix in ("mcp__plugin_kit_legacy__", "mcp__web-legacy__"):
        before = len(host.questions)
        result = mcp.call_tool(prefix + "visit", {})
        assert (result.is_error, result.text) == (False, "visit accept")
        (question,) = host.questions[before:]
        assert (question.mode, question.url, question.elicitation_id) == (
            "url",
            "https://example.test/sign-in",
            "e-1",
        )


def test_logs_and_progress_reach_on_event(mcp, host):
    for prefix in NAMES:
        server = _server(mcp, prefix)
        result = mcp.call_tool(prefix + "work", {})
        assert result.text == "worked"
        logs = [(e.level, e.data) for e in host.seen("log", server)]
        assert ("info", "working") in logs
        progress = [(e.tool, e.progress, e.total, e.message) for e in host.seen("progress", server)]
        assert progress == [(prefix + "work", 1, 2, "half way")]


def test_a_call_past_its_timeout_is_cancelled_and_the_server_told(mcp, host):
    result = mcp.call_tool("mcp__slow__wait", {"label": "late"})
    assert result.is_error and "timed out" in result.text
    (event,) = host.seen("cancelled", "slow")
    assert (event.tool, event.message) == (
        "mcp__slow__wait",
        "the call to mcp__slow__wait took longer than 1 s",
    )
    told = ""
    for _ in range(100):  # the server learns of it as its request's stream closes
        told = mcp.call_tool("mcp__slow__cancelled", {}).text
        if "late" in json.loads(told):
            break
        time.sleep(0.05)
    assert "late" in json.loads(told)


def test_a_call_the_host_cancels_is_reported_and_the_server_told(world):
    env, _ = world
    events: list[McpEvent] = []
    sup = supervisor(env, only=("web-legacy",), on_event=events.append)

    async def run() -> str:
        async with sup:
            with anyio.move_on_after(0.5):  # the host gives up on the call
                await sup.call_tool("mcp__web-legacy__wait", {"label": "dropped"})
            for _ in range(100):
                told = (await sup.call_tool("mcp__web-legacy__cancelled", {})).text
                if "dropped" in json.loads(told):
                    return told
                await anyio.sleep(0.05)
            return told

    assert "dropped" in json.loads(anyio.run(run))  # the process's list: "late" may be there
    cancelled = [(e.tool, e.message) for e in events if e.kind == "cancelled"]
    assert cancelled == [
        ("mcp__web-legacy__wait", "the call to mcp__web-legacy__wait was cancelled")
    ]


def test_a_changed_tool_list_is_listed_again(mcp, host):
    for number, prefix in enumerate(NAMES):
        server, name = _server(mcp, prefix), f"grown_{number}"
        before = len(host.seen("tools_changed", server))
        assert mcp.call_tool(prefix + "grow", {"name": name}).text == f"grew {name}"
        for _ in range(200):  # listed again once the server's word arrives
            if len(host.seen("tools_changed", server)) > before:
                break
            time.sleep(0.02)
        assert prefix + name in [t.name for t in mcp.tools]
        assert len(host.seen("tools_changed", server)) > before
        assert mcp.call_tool(prefix + name, {}).text == name


def test_mcp_check_says_the_revision_each_server_speaks(world, capsys, monkeypatch):
    env, _ = world
    monkeypatch.setenv("COLUMNS", "200")
    where = ("--project", str(env.layout.project), "--home", str(env.layout.home))
    names = ("--server", "web-modern", "--server", "web-legacy")  # no process started
    assert main(["mcp", "check", *where, *names, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(s["name"], s["protocolVersion"]) for s in doc["servers"]] == [
        ("web-modern", MODERN),
        ("web-legacy", LEGACY),
    ]
    assert main(["mcp", "check", *where, *names]) == 0
    rows = [line.split()[:5] for line in capsys.readouterr().out.splitlines()[1:3]]
    assert rows == [
        ["web-modern", "project", "config", "streamable-http", MODERN],
        ["web-legacy", "project", "config", "streamable-http", LEGACY],
    ]


def test_with_no_elicit_callback_a_question_is_declined_with_a_diagnostic(world):
    env, _ = world
    sup = supervisor(env, only=("web-modern", "web-legacy"))
    with sup.blocking() as mcp:
        modern = mcp.call_tool("mcp__web-modern__colour", {})
        legacy = mcp.call_tool("mcp__web-legacy__colour", {})
    assert (modern.text, legacy.text) == ("no colour: decline", "no colour: decline")
    said = "asked the user a question (form: 'Which colour?'); it was declined, since the "
    said += "host gave the supervisor no elicit callback"
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        ("mcp.elicitation.declined", f"MCP server 'web-modern' {said}"),
        ("mcp.elicitation.declined", f"MCP server 'web-legacy' {said}"),
    ]


def _server(mcp: BlockingSupervisor, prefix: str) -> str:
    return next(r.id for r in mcp.servers if r.tools and r.tools[0].name.startswith(prefix))
