"""Servers that fail (crash at start, never answer, print garbage, cannot start) are
reported and stop nothing else; stopping leaves no process behind; stderr is kept,
never inherited."""

from __future__ import annotations

import json

import anyio

from satchel.runtime.mcp._supervisor import McpSupervisor

from .supervisor_support import (
    EXAMPLE_SERVER,
    SERVERS,
    group_gone,
    load,
    process_gone,
    script,
    stdio,
    supervisor,
    write_plugin,
)

FAILED = "plugin.mcp.connection_failed"


async def _start_stop(sup: McpSupervisor) -> None:
    async with sup:
        pass


def test_each_failure_is_reported_and_the_other_servers_run(layout, project):
    root = write_plugin(project, "kit", {})
    good = script(root, "good", EXAMPLE_SERVER)  # the standard-library server: quick to start
    servers = {
        "good": stdio(good),
        "crash": stdio(script(root, "crash", SERVERS / "crash.py")),
        "silent": stdio(script(root, "silent", SERVERS / "silent.py")),
        "garbage": stdio(script(root, "garbage", SERVERS / "garbage.py")),
        "missing": stdio("satchel-no-such-mcp-server"),
    }
    write_plugin(project, "kit", servers)
    sup = supervisor(load(layout), timeout=2)

    async def run() -> str:
        async with sup:
            result = await sup.call_tool("mcp__plugin_kit_good__next_wave", {"done": 10})
            return result.text

    assert json.loads(anyio.run(run)) == {"next": 50}
    status = {r.name: r.status for r in sup.servers}
    assert status == {
        "good": "stopped",
        "crash": "failed",
        "silent": "failed",
        "garbage": "failed",
        "missing": "failed",
    }
    who = "MCP server '{}' of plugin 'kit'"
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        (
            FAILED,
            f"{who.format('crash')} failed during the MCP handshake: Connection closed; "
            "it exited with status 3; its stderr ends: fixture crash: cannot open the database",
        ),
        (FAILED, f"{who.format('silent')} did not finish the MCP handshake within 2 s"),
        (
            FAILED,
            f"{who.format('garbage')} did not finish the MCP handshake within 2 s; it wrote "
            "this on stdout, which is not JSON-RPC: Welcome to the garbage server! | "
            "{not json | garbage again",
        ),
        (
            FAILED,
            f"{who.format('missing')} cannot start 'satchel-no-such-mcp-server': "
            "command not found on PATH",
        ),
    ]
    assert {d.path for d in sup.diagnostics} == {root / "mcp.json"}


def test_start_up_is_concurrent_each_server_with_its_own_timeout(layout, project):
    """Three servers that never answer, a 1 s timeout each: started one after the
    other they would take 3 s."""
    root = write_plugin(project, "kit", {})
    silent = script(root, "silent", SERVERS / "silent.py")
    write_plugin(project, "kit", {f"s{i}": stdio(silent) for i in range(3)})
    sup = supervisor(load(layout), timeout=1)
    anyio.run(_start_stop, sup)
    assert {r.status for r in sup.servers} == {"failed"}
    assert len(sup.diagnostics) == 3


def test_stopping_kills_the_whole_group_even_a_server_that_ignores_sigterm(
    layout, project, tmp_path
):
    root = write_plugin(project, "kit", {})
    marker = tmp_path / "grandchild.pid"
    command = script(root, "forker", SERVERS / "forker.py", str(marker))
    write_plugin(project, "kit", {"api": stdio(command)})
    sup = supervisor(load(layout), grace=0.2)

    async def run() -> int:
        async with sup:
            result = await sup.call_tool("mcp__plugin_kit_api__launch", {})
            pid: int = json.loads(result.text)["pid"]
            assert not group_gone(pid, within=0)  # it runs in a group of its own
            return pid

    pid = anyio.run(run)
    grandchild = int(marker.read_text())
    assert group_gone(pid)
    assert process_gone(grandchild)


def test_a_server_that_crashes_leaves_nothing_behind(layout, project, tmp_path):
    root = write_plugin(project, "kit", {})
    write_plugin(project, "kit", {"api": stdio(script(root, "crash", SERVERS / "crash.py"))})
    sup = supervisor(load(layout))
    anyio.run(_start_stop, sup)
    assert [r.status for r in sup.servers] == ["failed"]


def test_stderr_is_captured_and_never_reaches_the_terminal(layout, project, capfd):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", SERVERS / "launch_server.py")
    write_plugin(project, "kit", {"api": stdio(command)})
    sup = supervisor(load(layout))
    anyio.run(_start_stop, sup)
    [report] = sup.servers
    assert report.status == "stopped"
    assert "launch fixture starting" in report.stderr
    captured = capfd.readouterr()
    assert "launch fixture starting" not in captured.err + captured.out


def test_a_timeout_from_the_host_config_wins_for_its_server(layout):
    import sys

    given = {
        "slow": {
            "command": sys.executable,
            "args": [str(SERVERS / "silent.py")],
            "startup_timeout_sec": 1,
        }
    }
    sup = supervisor(load(layout, mcp_servers=given), timeout=60)
    anyio.run(_start_stop, sup)
    assert [(d.code, d.message) for d in sup.diagnostics] == [
        (
            "mcp.server.connection_failed",
            "MCP server 'slow' did not finish the MCP handshake within 1 s",
        )
    ]
