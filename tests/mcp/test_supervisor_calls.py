"""What a host sees and calls: Claude Code's names, a Vibe plugin's toolOverrides,
prompts as slash commands, resources, the gate before every call, and the blocking
wrapper for plain Python."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import pytest

from satchel.foundations.origin import Origin
from satchel.mcp._names import exposed_name
from satchel.mcp._spec import McpServer
from satchel.runtime.mcp._supervisor import McpSupervisor

from .supervisor_support import SERVERS, load, script, stdio, supervisor, write_plugin

SDK = SERVERS / "sdk_server.py"  # the SDK's own answers: the listing test
LAUNCH = SERVERS / "launch_server.py"  # the same tools, standard library: quick to start


def _kit(
    layout, project, overrides=None, target=LAUNCH, **servers: dict[str, Any]
) -> McpSupervisor:
    root = write_plugin(project, "kit", {})
    command = script(root, "server", target)
    entries = servers or {"api": stdio(command)}
    write_plugin(project, "kit", entries, overrides=overrides)
    return supervisor(load(layout))


def test_names_follow_claude_code():
    host = McpServer("git hub", "stdio", command="x", origin=Origin("user"))
    plugin = McpServer("api.v2", "stdio", command="x", origin=Origin("plugin", plugin="my.kit"))
    assert exposed_name(host, "search") == "mcp__git_hub__search"
    assert exposed_name(plugin, "look.up") == "mcp__plugin_my_kit_api_v2__look_up"


def test_tools_prompts_and_resources_of_a_plugin_server(layout, project):
    sup = _kit(layout, project, target=SDK)

    async def run() -> tuple[Any, ...]:
        async with sup:
            echo = await sup.call_tool("mcp__plugin_kit_api__echo", {"text": "hi"})
            prompt = await sup.get_prompt("/mcp__plugin_kit_api__greet", {"who": "Ada"})
            readme = await sup.read_resource("api", "fixture://readme")
            return echo, prompt, readme

    echo, prompt, readme = anyio.run(run)
    assert [t.name for t in sup.tools] == [
        "mcp__plugin_kit_api__echo",
        "mcp__plugin_kit_api__calls",
        "mcp__plugin_kit_api__launch",
        "mcp__plugin_kit_api__lookup",
    ]
    assert sup.tool("mcp__plugin_kit_api__echo").description == "Echo the text back."
    assert (echo.text, echo.is_error, echo.structured) == ("hi", False, {"result": "hi"})
    [greet] = sup.prompts
    assert (greet.command, greet.prompt, greet.description) == (
        "/mcp__plugin_kit_api__greet",
        "greet",
        "Greet someone.",
    )
    assert [(a.name, a.required) for a in greet.arguments] == [("who", True)]
    assert prompt == [{"role": "user", "content": {"type": "text", "text": "Hello Ada"}}]
    assert [(r.uri, r.name) for r in sup.resources] == [("fixture://readme", "readme")]
    assert readme[0]["text"] == "the fixture readme"


def test_tool_overrides_rename_set_exposure_and_report_an_unused_key(layout, project):
    overrides = {
        "lookup": {"name": "search", "exposure": "programmatic"},
        "echo": {"exposure": "direct"},
        "nothing_like_it": {"name": "x"},
    }
    sup = _kit(layout, project, overrides)

    async def run() -> str:
        async with sup:
            return (await sup.call_tool("mcp__plugin_kit_api__search", {"query": "q"})).text

    assert anyio.run(run) == "found q"
    tools = {t.name: (t.tool, t.exposure, t.direct) for t in sup.tools}
    assert tools == {
        "mcp__plugin_kit_api__echo": ("echo", "direct", True),
        "mcp__plugin_kit_api__calls": ("calls", "direct_and_programmatic", True),
        "mcp__plugin_kit_api__launch": ("launch", "direct_and_programmatic", True),
        "mcp__plugin_kit_api__search": ("lookup", "programmatic", False),
    }
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        (
            "plugin.tool_override.unused",
            "toolOverrides key 'nothing_like_it' of plugin 'kit' matches no tool of its MCP "
            "servers (they offer: 'calls', 'echo', 'launch', 'lookup')",
        )
    ]


def test_an_unused_key_is_not_reported_while_a_server_of_the_plugin_failed(layout, project):
    root = write_plugin(project, "kit", {})
    servers = {
        "api": stdio(script(root, "server", LAUNCH)),
        "down": stdio(script(root, "crash", SERVERS / "crash.py")),
    }
    write_plugin(project, "kit", servers, overrides={"only_on_down": {"name": "x"}})
    sup = supervisor(load(layout))
    anyio.run(_start_stop, sup)
    assert [d.code for d in sup.diagnostics] == ["plugin.mcp.connection_failed"]


def test_a_name_taken_twice_keeps_the_first(layout, project):
    overrides = {"lookup": {"name": "echo"}}
    sup = _kit(layout, project, overrides)
    anyio.run(_start_stop, sup)
    assert [t.tool for t in sup.tools if t.name == "mcp__plugin_kit_api__echo"] == ["echo"]
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        (
            "mcp.tool.collision",
            "the MCP tool name 'mcp__plugin_kit_api__echo' of server 'api' is already taken by "
            "server 'api'; the later one is hidden",
        )
    ]


@dataclass(frozen=True)
class Decision:
    behavior: str
    reason: str | None = None
    updated_input: Mapping[str, Any] | None = None


class Gate:
    """A stand-in for `Session.before_tool_use`: it answers by tool input."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, dict[str, Any]]] = []

    def before_tool_use(self, name: str, tool_input: Mapping[str, Any]) -> Decision:
        self.asked.append((name, dict(tool_input)))
        text = tool_input.get("text")
        if text == "deny me":
            return Decision("deny", "not today")
        if text == "ask me":
            return Decision("ask", "is this fine?")
        if text == "change me":
            return Decision("allow", updated_input={"text": "changed"})
        return Decision("allow")


class AsyncGate(Gate):
    async def before_tool_use(self, name: str, tool_input: Mapping[str, Any]) -> Decision:  # type: ignore[override]
        await anyio.sleep(0)
        return Gate.before_tool_use(self, name, tool_input)


@pytest.mark.parametrize("make_gate", [Gate, AsyncGate])
def test_the_gate_decides_before_the_server_is_called(layout, project, make_gate):
    sup = _kit(layout, project)
    gate = make_gate()
    echo = "mcp__plugin_kit_api__echo"

    async def run() -> tuple[Any, ...]:
        async with sup:
            denied = await sup.call_tool(echo, {"text": "deny me"}, gate)
            asked = await sup.call_tool(echo, {"text": "ask me"}, gate)
            approved = await sup.call_tool(
                echo, {"text": "ask me"}, gate, approve=lambda tool, data, why: True
            )
            changed = await sup.call_tool(echo, {"text": "change me"}, gate)
            plain = await sup.call_tool(echo, {"text": "plain"}, gate)
            calls = await sup.call_tool("mcp__plugin_kit_api__calls", {})
            return denied, asked, approved, changed, plain, calls

    denied, asked, approved, changed, plain, calls = anyio.run(run)
    assert (denied.denied, denied.is_error, denied.text) == (
        True,
        True,
        f"the call to {echo} was denied: not today",
    )
    assert (asked.denied, asked.text) == (
        True,
        f"the call to {echo} needs the user's approval: is this fine?",
    )
    assert (approved.denied, approved.text) == (False, "ask me")
    assert changed.text == "changed"
    assert plain.text == "plain"
    assert json.loads(calls.text) == ["ask me", "changed", "plain"]  # denied: never called
    assert gate.asked[0] == (echo, {"text": "deny me"})


def test_an_unknown_tool_is_an_error_result(layout, project):
    sup = _kit(layout, project)

    async def run() -> Any:
        async with sup:
            return await sup.call_tool("mcp__plugin_kit_api__nope", {})

    result = anyio.run(run)
    assert (result.is_error, result.text) == (
        True,
        "no running MCP server offers a tool named 'mcp__plugin_kit_api__nope'",
    )


def test_the_blocking_supervisor_serves_plain_python(layout, project):
    sup = _kit(layout, project)
    with sup.blocking() as mcp:
        assert "mcp__plugin_kit_api__echo" in [t.name for t in mcp.tools]
        assert mcp.call_tool("mcp__plugin_kit_api__echo", {"text": "sync"}).text == "sync"
        assert mcp.get_prompt("mcp__plugin_kit_api__greet", {"who": "B"})[0]["content"] == {
            "type": "text",
            "text": "Hello B",
        }
        assert mcp.read_resource("api", "fixture://readme")[0]["text"] == "the fixture readme"
    assert [r.status for r in mcp.servers] == ["stopped"]


def test_a_supervisor_starts_once(layout, project):
    sup = _kit(layout, project)
    anyio.run(_start_stop, sup)
    with pytest.raises(RuntimeError, match="a supervisor starts once"):
        anyio.run(_start_stop, sup)


def test_import_satchel_does_not_import_the_sdk():
    code = (
        "import sys, satchel, satchel.runtime.mcp._supervisor, satchel.cli.mcp_list\n"
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'anyio'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


async def _start_stop(sup: McpSupervisor) -> None:
    async with sup:
        pass
