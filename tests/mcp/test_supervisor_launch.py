"""How the supervisor launches a plugin's stdio server (Agent Plugins §7.2 and §9),
checked from inside real server processes: the ``launch`` tool of a standard-library
fixture server (quick to start) reports its argv, cwd and environment."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import Any

import anyio

import satchel
from satchel.mcp import McpServerSet
from satchel.runtime.mcp._supervisor import McpSupervisor
from satchel.trust._trust import trust

from .supervisor_support import SERVERS, load, script, stdio, supervisor, write_plugin

LAUNCH = SERVERS / "launch_server.py"


async def _launched(sup: McpSupervisor, tool: str) -> dict[str, Any]:
    async with sup:
        result = await sup.call_tool(tool, {})
        assert not result.is_error, (result, sup.diagnostics)
        return json.loads(result.text)  # type: ignore[no-any-return]


def launched(sup: McpSupervisor, tool: str) -> dict[str, Any]:
    return anyio.run(_launched, sup, tool)


def test_env_overlays_the_scrubbed_base_then_plugin_root_and_data_are_set_last(layout, project):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    write_plugin(
        project,
        "kit",
        {"api": stdio(command, env={"PATH": "/nowhere", "MODE": "fast", "TERM": "dumb"})},
    )
    env = load(layout)
    environ = {"PATH": os.environ["PATH"], "TERM": "xterm", "SECRET_TOKEN": "s3", "LC_ALL": "C"}
    seen = launched(supervisor(env, environ=environ), "mcp__plugin_kit_api__launch")["env"]
    real_root = os.path.realpath(root)
    data = os.path.realpath(env.plugins.plugins["kit"].data_dir)
    assert seen["MODE"] == "fast"
    assert seen["TERM"] == "dumb"  # the entry's env wins over the base
    assert seen["PATH"] == "/nowhere"
    assert "SECRET_TOKEN" not in seen  # not in the scrubbed base
    assert seen["LC_ALL"] == "C"
    assert (seen["PLUGIN_ROOT"], seen["PLUGIN_DATA"]) == (real_root, data)


def test_plugin_root_and_data_win_over_an_env_that_sets_them(layout, project):
    """Parsing refuses an env naming PLUGIN_ROOT; a server built in code that does is
    still overridden at launch, as the spec says the client sets them last."""
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    write_plugin(project, "kit", {"api": stdio(command)})
    env = load(layout)
    declared = env.mcp_servers.servers[0]
    forced = dataclasses.replace(
        declared, env={"PLUGIN_ROOT": "/var/evil", "PLUGIN_DATA": "/var/evil-data"}
    )
    env = dataclasses.replace(env, mcp_servers=McpServerSet((forced,)))
    seen = launched(supervisor(env), "mcp__plugin_kit_api__launch")["env"]
    assert seen["PLUGIN_ROOT"] == os.path.realpath(root)
    assert seen["PLUGIN_DATA"] == os.path.realpath(env.plugins.plugins["kit"].data_dir)


def test_placeholders_expand_once_in_args_env_values_and_cwd_only(tmp_path, home):
    # The project path itself holds "${PLUGIN_DATA}": one pass leaves it literal.
    project = tmp_path / "odd ${PLUGIN_DATA} name" / "project"
    (project / ".git").mkdir(parents=True)
    layout = satchel.Layout.default(project, home=home, env={})
    trust(layout, project)
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    entry = stdio(
        command,
        "--root=${PLUGIN_ROOT}",
        "${PLUGIN_DATA}/x",
        "${HOME}",
        "$PLUGIN_ROOT",
        env={"ROOT_VALUE": "${PLUGIN_ROOT}", "OTHER": "${FOO} ${PLUGIN_ROOT_X}"},
        cwd="${PLUGIN_DATA}",
    )
    write_plugin(project, "kit", {"api": entry})
    env = load(layout)
    seen = launched(supervisor(env), "mcp__plugin_kit_api__launch")
    real_root = os.path.realpath(root)
    data = os.path.realpath(env.plugins.plugins["kit"].data_dir)
    assert "${PLUGIN_DATA}" in real_root
    assert seen["argv"][1:] == [f"--root={real_root}", f"{data}/x", "${HOME}", "$PLUGIN_ROOT"]
    assert seen["env"]["ROOT_VALUE"] == real_root
    assert seen["env"]["OTHER"] == "${FOO} ${PLUGIN_ROOT_X}"
    assert seen["cwd"] == data


def test_a_dot_slash_command_runs_from_the_plugin_root_which_is_the_default_cwd(layout, project):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    write_plugin(project, "kit", {"api": stdio(command)})
    seen = launched(supervisor(load(layout)), "mcp__plugin_kit_api__launch")
    assert seen["cwd"] == os.path.realpath(root)


def test_a_cwd_inside_the_root(layout, project):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    (root / "work").mkdir()
    write_plugin(project, "kit", {"api": stdio(command, cwd="./work")})
    seen = launched(supervisor(load(layout)), "mcp__plugin_kit_api__launch")
    assert seen["cwd"] == os.path.realpath(root / "work")


def test_a_bare_command_is_looked_up_on_the_path_of_the_servers_environment(
    layout, project, tmp_path
):
    script(tmp_path / "tools", "fixture-mcp", LAUNCH)
    write_plugin(project, "kit", {"api": stdio("fixture-mcp")})
    environ = {"PATH": f"{tmp_path / 'tools' / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    seen = launched(supervisor(load(layout), environ=environ), "mcp__plugin_kit_api__launch")
    assert seen["argv"][0] == str(LAUNCH)


def test_plugin_data_is_created_before_the_server_starts(layout, project):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    write_plugin(project, "kit", {"api": stdio(command, cwd="${PLUGIN_DATA}")})
    env = load(layout)
    data = env.plugins.plugins["kit"].data_dir
    assert data is not None and not data.exists()  # loading creates nothing
    seen = launched(supervisor(env), "mcp__plugin_kit_api__launch")
    assert seen["cwd"] == os.path.realpath(data)
    assert data.stat().st_mode & 0o777 == 0o700


def test_a_command_swapped_for_a_symlink_out_of_the_root_after_loading_is_refused(
    layout, project, tmp_path
):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    write_plugin(project, "kit", {"api": stdio(command)})
    env = load(layout)
    outside = tmp_path / "outside"
    outside.write_text("#!/bin/sh\nexit 0\n")
    outside.chmod(0o755)
    (root / "bin" / "server").unlink()
    (root / "bin" / "server").symlink_to(outside)
    sup = supervisor(env)
    anyio.run(_start_stop, sup)
    [report] = sup.servers
    assert report.status == "failed"
    [found] = report.diagnostics
    assert found.code == "plugin.mcp.connection_failed"
    assert found.message == (
        f"MCP server 'api' of plugin 'kit': command './bin/server' resolves to {outside}, "
        "outside the plugin root"
    )


def test_a_dangerous_variable_refuses_the_server_at_launch(layout, project):
    root = write_plugin(project, "kit", {})
    command = script(root, "server", LAUNCH)
    write_plugin(project, "kit", {"api": stdio(command)})
    env = load(layout)
    bad = dataclasses.replace(env.mcp_servers.servers[0], env={"LD_PRELOAD": "/x.so"})
    env = dataclasses.replace(env, mcp_servers=McpServerSet((bad,)))
    sup = supervisor(env)
    anyio.run(_start_stop, sup)
    [report] = sup.servers
    assert report.status == "failed"
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "exec.env.refused",
            "MCP server 'api' of plugin 'kit' was not started: its env sets LD_PRELOAD, which "
            "is refused: it can make the server run code its command does not name",
        )
    ]


def test_host_servers_run_from_the_project_root_with_their_env_as_given(layout, project):
    given = {
        "local": {
            "command": sys.executable,
            "args": [str(LAUNCH)],
            "env": {"PYTHONDONTWRITEBYTECODE": "1", "TOKEN": "t"},
        }
    }
    env = load(layout, mcp_servers=given)
    seen = launched(supervisor(env), "mcp__local__launch")
    assert seen["cwd"] == str(project)
    assert seen["env"]["TOKEN"] == "t"
    assert "PLUGIN_ROOT" not in seen["env"]


async def _start_stop(sup: McpSupervisor) -> None:
    async with sup:
        pass


def test_a_host_server_turned_off_is_not_started(layout):
    given = {"off": {"command": "false", "enabled": False}}
    sup = supervisor(load(layout, mcp_servers=given))
    anyio.run(_start_stop, sup)
    assert [(r.name, r.status, r.diagnostics) for r in sup.servers] == [("off", "disabled", ())]


def test_declarative_loading_starts_nothing(layout, project):
    root = write_plugin(project, "kit", {})
    write_plugin(project, "kit", {"api": stdio(script(root, "server", SERVERS / "crash.py"))})
    given = {"local": {"command": "false"}}
    sup = supervisor(load(layout, mcp_servers=given, executable=False))
    anyio.run(_start_stop, sup)
    assert {r.status for r in sup.servers} == {"declarative"}
    assert sup.diagnostics == ()


def test_a_claude_code_plugin_server_gets_its_own_variable_names_too(layout, project):
    root = project / ".satchel" / "plugins" / "cc"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "cc"}))
    command = script(root, "server", LAUNCH)
    entry = {"command": command, "args": ["${CLAUDE_PLUGIN_ROOT}/x"]}
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {"api": entry}}))
    env = load(layout)
    seen = launched(supervisor(env), "mcp__plugin_cc_api__launch")
    real_root = os.path.realpath(root)
    data = os.path.realpath(env.plugins.plugins["cc"].data_dir)
    assert seen["argv"][1:] == [f"{real_root}/x"]
    assert (seen["env"]["CLAUDE_PLUGIN_ROOT"], seen["env"]["CLAUDE_PLUGIN_DATA"]) == (
        real_root,
        data,
    )
    assert (seen["env"]["PLUGIN_ROOT"], seen["env"]["PLUGIN_DATA"]) == (real_root, data)
