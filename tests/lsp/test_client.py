"""Language servers started for real: python-lsp-server (``pylsp``, from the test extra)
over stdio, and a small fake server (`fake_server.py`) for the ways a server fails."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from satchel import load
from satchel.plugins import Plugin, read_plugin
from satchel.plugins._lsp import LspServer
from satchel.plugins._options import OptionValues
from satchel.runtime.lsp import LspSupervisor, check_lsp, start_lsp
from satchel.runtime.lsp._frames import FrameError, encode, read_frame
from tests.support import put

PYLSP = str(Path(sys.executable).with_name("pylsp"))
FAKE = str(Path(__file__).with_name("fake_server.py"))
PY = {".py": "python", ".pyi": "python"}


def plugin(tmp_path: Path, servers: dict[str, Any]) -> Plugin:
    """A Claude Code plugin `kit` whose .lsp.json holds `servers`, with a data dir."""
    root = tmp_path / "kit"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit"}))
    put(root, ".lsp.json", json.dumps(servers))
    found, diags = read_plugin(root)
    assert found is not None and not diags, diags
    return replace(found, data_dir=tmp_path / "data" / "kit")


def fake(mode: str, **more: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [FAKE, mode], "extensionToLanguage": PY, **more}


def check(tmp_path: Path, entry: dict[str, Any], **kw: Any):
    kit = plugin(tmp_path, {"py": entry})
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return asyncio.run(check_lsp(kit.lsp_servers[0], kit, project=project, **kw))


def test_pylsp_starts_initialises_reports_its_capabilities_and_stops(tmp_path):
    settings = {"pylsp": {"plugins": {"pycodestyle": {"enabled": False}}}}
    report = check(tmp_path, {"command": PYLSP, "extensionToLanguage": PY, "settings": settings})
    assert (report.status, report.server_name, report.diagnostics) == ("ok", "pylsp", ())
    assert report.server_version and report.server_version.startswith("1.13")
    assert report.capabilities["hoverProvider"] is True
    assert report.capabilities["definitionProvider"] is True


def test_the_supervisor_picks_pylsp_by_extension_reuses_it_and_stops_it(tmp_path, layout):
    kit = plugin(tmp_path, {"py": {"command": PYLSP, "extensionToLanguage": PY}})
    env = load(layout=layout, plugin_dirs=(kit.root,), trusted=True)
    assert [s.name for s in env.lsp_servers] == ["py"]

    async def use() -> tuple[Any, ...]:
        async with LspSupervisor(env) as lsp:
            first = await lsp.client_for("src/app.py")
            again = await lsp.client_for("stubs/app.pyi")
            other = await lsp.client_for("README.md")
            assert first is not None
            uri = (tmp_path / "project" / "app.py").as_uri()
            doc = {"uri": uri, "languageId": "python", "version": 1, "text": "x = 1\n"}
            await first.notify("textDocument/didOpen", {"textDocument": doc})
            symbols = await first.request(
                "textDocument/documentSymbol", {"textDocument": {"uri": uri}}, timeout=30
            )
            process = first.process
        return first is again, other, [s["name"] for s in symbols], process.returncode

    same, other, names, status = asyncio.run(use())
    assert (same, other, names, status) == (True, None, ["x"], 0)


def test_a_declarative_only_load_lists_no_language_servers(tmp_path, layout):
    kit = plugin(tmp_path, {"py": {"command": PYLSP, "extensionToLanguage": PY}})
    declarative = load(layout=layout, plugin_dirs=(kit.root,), trusted=True, executable=False)
    assert declarative.lsp_servers == ()


def test_a_command_that_does_not_exist_is_start_failed(tmp_path):
    report = check(tmp_path, {"command": "no-such-lsp-for-satchel", "extensionToLanguage": PY})
    assert report.status == "failed"
    [found] = report.diagnostics
    assert (found.code, found.message) == (
        "plugin.lsp.start_failed",
        "language server 'py' of plugin 'kit' did not start: cannot start "
        "'no-such-lsp-for-satchel': command not found on PATH",
    )


def test_a_server_that_exits_at_once_is_start_failed_with_its_status_and_stderr(tmp_path):
    code = "import sys; sys.stderr.write('no workspace here\\n'); sys.exit(3)"
    entry = {"command": sys.executable, "args": ["-c", code], "extensionToLanguage": PY}
    [found] = check(tmp_path, entry).diagnostics
    assert (found.code, found.message) == (
        "plugin.lsp.start_failed",
        "language server 'py' of plugin 'kit' exited with status 3 before it answered "
        "initialize; its stderr ends: no workspace here",
    )


def test_a_server_that_never_answers_is_killed_at_its_startup_timeout(tmp_path):
    [found] = check(tmp_path, fake("silent", startupTimeout=200)).diagnostics
    assert (found.code, found.message) == (
        "plugin.lsp.start_failed",
        "language server 'py' of plugin 'kit' did not answer initialize within 0.2 s",
    )


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("garbage", "answered with a header line that is not 'Name: value': "
                    "'hello from a server that does not frame'"),
        ("error", "answered initialize with an error (-32603: no)"),
        ("nocaps", "answered initialize with a result that has no capabilities object"),
    ],
)  # fmt: skip
def test_a_server_that_answers_badly_is_a_protocol_error(tmp_path, mode, why):
    report = check(tmp_path, fake(mode, startupTimeout=20000))
    assert report.status == "failed"
    assert [(d.code, d.message) for d in report.diagnostics] == [
        ("plugin.lsp.protocol_error", f"language server 'py' of plugin 'kit' {why}")
    ]


def test_a_server_that_ignores_shutdown_is_killed_at_its_shutdown_timeout(tmp_path):
    report = check(tmp_path, fake("deaf", shutdownTimeout=200))
    assert report.status == "ok"
    assert [(d.code, d.message) for d in report.diagnostics] == [
        (
            "plugin.lsp.stop_timeout",
            "language server 'py' of plugin 'kit' did not shut down within 0.2 s; it was killed",
        )
    ]


def test_workspace_configuration_is_answered_from_settings(tmp_path):
    report = check(tmp_path, fake("config", settings={"fake": {"level": 7}}))
    assert (report.status, report.server_name, report.server_version) == ("ok", "fake", "[7]")


def test_a_socket_server_is_started_over_stdio_as_claude_code_starts_it(tmp_path):
    """Claude Code 2.1.332 reads no port or socket path: its client spawns the command
    and speaks over stdio whatever `transport` says; satchel does the same and warns."""
    report = check(tmp_path, fake("ok", transport="socket"))
    assert (report.status, report.capabilities) == ("ok", {"hoverProvider": True})
    assert [(d.code, d.severity, d.message) for d in report.diagnostics] == [
        ("plugin.lsp.transport_unsupported", "warning", "language server 'py' of plugin 'kit' "
         "declares transport 'socket'; it is started over stdio, as Claude Code 2.1.332 starts "
         "every language server"),
    ]  # fmt: skip


def test_the_server_gets_the_plugin_variables_and_runs_in_the_workspace(tmp_path):
    # The server writes what it saw to a file (a message quotes only the tail of its
    # stderr, which long temp paths would cut) and fails on its own.
    seen = tmp_path / "seen.json"
    code = (
        "import json, os, sys; open(sys.argv[1], 'w').write(json.dumps([os.getcwd(),"
        " os.environ['KIT_LIB'], os.environ['CLAUDE_PLUGIN_DATA']])); sys.exit(1)"
    )
    entry = {
        "command": sys.executable,
        "args": ["-c", code, str(seen)],
        "extensionToLanguage": PY,
        "env": {"KIT_LIB": "${CLAUDE_PLUGIN_ROOT}/lib"},
        "workspaceFolder": "src",
    }
    (tmp_path / "project" / "src").mkdir(parents=True)
    [found] = check(tmp_path, entry).diagnostics
    assert (found.code, found.message) == (
        "plugin.lsp.start_failed",
        "language server 'py' of plugin 'kit' exited with status 1 before it answered initialize",
    )
    root, data = os.path.realpath(tmp_path / "kit"), os.path.realpath(tmp_path / "data" / "kit")
    where = os.path.realpath(tmp_path / "project" / "src")
    assert json.loads(seen.read_text()) == [where, f"{root}/lib", data]


def test_frames_round_trip_and_a_body_that_is_not_an_object_is_refused():
    async def read(data: bytes) -> Any:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        return await read_frame(reader)

    message = {"jsonrpc": "2.0", "id": 1, "result": {"é": [1]}}
    assert asyncio.run(read(encode(message))) == message
    assert asyncio.run(read(b"")) is None
    with pytest.raises(FrameError, match="a message that is not a JSON object"):
        asyncio.run(read(b"Content-Length: 2\r\n\r\n[]"))
    with pytest.raises(FrameError, match="without a Content-Length"):
        asyncio.run(read(b"Content-Type: x\r\n\r\n{}"))


def test_start_lsp_gives_a_running_client_until_stop(tmp_path):
    kit = plugin(tmp_path, {"py": fake("ok")})
    server: LspServer = kit.lsp_servers[0]

    async def run() -> tuple[bool, bool, tuple[Any, ...]]:
        client, problems = await start_lsp(server, kit, project=tmp_path)
        assert client is not None and problems == ()
        up = client.alive()
        stopped = await client.stop()
        return up, client.alive(), stopped

    assert asyncio.run(run()) == (True, False, ())


@pytest.mark.parametrize(
    ("more", "starts", "why"),
    [
        ({}, 1, "its entry has no restartOnCrash"),
        ({"restartOnCrash": True, "maxRestarts": 1}, 2, "its 1 restarts (maxRestarts) are used up"),
    ],
)
def test_a_crashed_server_is_restarted_only_as_its_entry_allows(
    tmp_path, layout, more, starts, why
):
    kit = plugin(tmp_path, {"py": fake("ok", **more)})
    env = load(layout=layout, plugin_dirs=(kit.root,), trusted=True)

    async def crash_until_down() -> tuple[int, list[Any]]:
        async with LspSupervisor(env) as lsp:
            pids: list[int] = []
            while (client := await lsp.client_for("a.py")) is not None:
                pids.append(client.process.pid)
                await client.process.stop(0)  # it dies under the supervisor
            return len(set(pids)), list(lsp.diagnostics)

    started, found = asyncio.run(crash_until_down())
    assert started == starts
    assert [(d.code, d.message) for d in found] == [
        (
            "plugin.lsp.start_failed",
            f"language server 'py' of plugin 'kit' exited and is not started again: {why}",
        )
    ]


def test_user_config_values_fill_the_server_and_are_exported(tmp_path):
    """As for an MCP server: ``${user_config.KEY}`` in args, exported as
    ``CLAUDE_PLUGIN_OPTION_<KEY>``; a server naming an option with no value does not start."""
    root = tmp_path / "kit"
    options = {"region": {"type": "string", "title": "Region", "description": "d"}}
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "kit", "userConfig": options}))
    code = (
        "import os, sys; sys.stderr.write(sys.argv[1] + ' ' + "
        "os.environ['CLAUDE_PLUGIN_OPTION_REGION']); sys.exit(1)"
    )
    entry = {"command": sys.executable, "args": ["-c", code, "--region=${user_config.region}"]}
    put(root, ".lsp.json", json.dumps({"py": {**entry, "extensionToLanguage": PY}}))
    found, _ = read_plugin(root)
    assert found is not None
    kit = replace(found, data_dir=tmp_path / "data" / "kit")
    (tmp_path / "project").mkdir()
    server, project = kit.lsp_servers[0], tmp_path / "project"
    values = OptionValues(MappingProxyType({"region": "eu"}))
    given = asyncio.run(check_lsp(server, kit, project=project, options=values))
    assert given.diagnostics[0].message.endswith("its stderr ends: --region=eu eu")
    none = asyncio.run(check_lsp(server, kit, project=project))
    assert [(d.code, d.message) for d in none.diagnostics] == [
        (
            "plugin.config.missing",
            "language server 'py' of plugin 'kit' was not started: it needs the userConfig "
            "option 'region' of plugin 'kit', which has no value",
        )
    ]
