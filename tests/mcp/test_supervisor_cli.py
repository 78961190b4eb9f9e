"""`satchel mcp list` and `satchel mcp check`, on the example workspace: its deploy-kit
plugin ships a standard-library MCP server that check starts and lists, and a remote
server that cannot be reached (reported, the rest goes on)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from satchel.cli import main
from satchel.cli.mcp_list import NOTE
from tests.cli.support import REPO, check_golden

from .supervisor_support import EXAMPLE_SERVER

SECRETS = (
    "example-deploy-token-not-a-secret",
    "example-status-token-not-a-secret",
    "example-registry-key-not-a-secret",
    "example-calendar-token-not-a-secret",
    "eu-west-1",
)
WHERE = ("--project", "examples/workspace", "--trust")
DEPLOY = "mcp__plugin_deploy-kit_deploy-api__"


@pytest.fixture
def run(capsys, monkeypatch, in_examples):
    for name in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)

    def call(*args: str | os.PathLike[str]) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return call


def test_mcp_list_shows_the_configured_servers_without_starting_any(run):
    code, out, err = run("mcp", "list", *WHERE, "--home", "examples/home")
    assert (code, err.splitlines()[1]) == (0, NOTE)  # into a pipe the notes go to stderr
    check_golden("mcp-list.txt", out)
    assert not any(secret in out for secret in SECRETS)
    data = REPO / "examples/home/.local"
    assert not data.exists()  # nothing started: no PLUGIN_DATA created


def test_mcp_list_json(run):
    code, out, _ = run("mcp", "list", *WHERE, "--home", "examples/home", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["started"] is False
    rows = {
        s["name"]: (s["origin"], s["status"], s["protocol"], s["tools"]) for s in doc["servers"]
    }
    assert rows["deploy-api"] == ("plugin deploy-kit", "configured", None, None)
    assert rows["status-page"] == ("plugin deploy-kit", "configured", None, None)
    assert not any(secret in out for secret in SECRETS)


def test_mcp_check_starts_the_example_server_lists_it_and_reports_the_remote_one(run, tmp_path):
    names = ("--server", "deploy-api", "--server", "status-page", "--timeout", "10")
    code, out, _ = run("mcp", "check", *WHERE, "--home", tmp_path, *names, "--json")
    doc = json.loads(out)
    assert code == 1  # status-page cannot be reached
    deploy, status = doc["servers"]
    assert (deploy["name"], deploy["status"]) == ("deploy-api", "stopped")
    assert deploy["serverInfo"] == {"name": "deploy-mcp", "version": "1.4.0"}
    assert (deploy["protocolVersion"], status["protocolVersion"]) == ("2025-11-25", None)
    tools = {t["name"]: (t["tool"], t["exposure"]) for t in deploy["tools"]}
    assert tools == {  # the plugin's toolOverrides: rollout_status renamed, list_incidents
        DEPLOY + "status": ("rollout_status", "direct_and_programmatic"),
        DEPLOY + "list_incidents": ("list_incidents", "programmatic"),
        DEPLOY + "next_wave": ("next_wave", "direct_and_programmatic"),
    }
    assert [p["command"] for p in deploy["prompts"]] == ["/" + DEPLOY + "rollout-plan"]
    assert [r["uri"] for r in deploy["resources"]] == ["deploy://config"]
    assert status["status"] == "failed"
    assert [d["code"] for d in status["diagnostics"]] == ["plugin.mcp.connection_failed"]
    assert [d["code"] for d in doc["diagnostics"]] == ["plugin.mcp.connection_failed"]
    assert not any(secret in out for secret in SECRETS)
    assert (tmp_path / ".local/share/satchel/plugin-data/deploy-kit/cache").is_dir()


def test_mcp_check_prints_what_each_server_offers(run, tmp_path):
    code, out, _ = run("mcp", "check", *WHERE, "--home", tmp_path, "--server", "deploy-api")
    assert code == 0
    lines = [line.rstrip() for line in out.splitlines()]
    row = ["deploy-api", "plugin", "deploy-kit", "stdio", "2025-11-25", "ok", "3", "1", "1"]
    assert lines[1].split() == row  # the example server knows only the 2025-11-25 handshake
    assert "deploy-api (deploy-mcp 1.4.0)" in lines
    offers = {tuple(re.split(r"\s{2,}", line)) for line in lines}
    assert ("offers", "name", "description") in offers
    assert any(
        row[:2] == ("tool", f"{DEPLOY}status (the server's rollout_status)") for row in offers
    )
    assert any(row[:2] == ("tool", f"{DEPLOY}list_incidents [programmatic]") for row in offers)
    assert ("prompt", f"/{DEPLOY}rollout-plan", "Draft a rollout plan for a service.") in offers
    assert ("resource", "deploy://config", "deploy.toml") in offers


def test_mcp_check_of_no_such_server(run, tmp_path):
    code, out, err = run("mcp", "check", *WHERE, "--home", tmp_path, "--server", "nope")
    assert (code, out) == (0, "")
    assert err.strip().splitlines()[1:] == ["No MCP servers of these names."]


def test_the_example_server_needs_only_the_standard_library():
    """It runs under a Python that cannot import the SDK (`-I -S`: no site-packages)."""
    python = sys.executable
    blocked = subprocess.run([python, "-I", "-S", "-c", "import mcp"], capture_output=True)
    assert blocked.returncode != 0
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "next_wave", "arguments": {"done": 50}},
        },
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
    ]
    feed = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(
        [python, "-I", "-S", str(EXAMPLE_SERVER)],
        input=feed,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3]
    assert replies[0]["result"]["serverInfo"]["name"] == "deploy-mcp"
    assert json.loads(replies[1]["result"]["content"][0]["text"]) == {"next": 100}
    assert replies[2]["result"] == {}


def test_mcp_check_says_how_to_install_the_sdk_when_it_is_missing(tmp_path):
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from satchel.cli import main\n"
        f"raise SystemExit(main(['mcp', 'check', {str(tmp_path)!r}, '--home', {str(tmp_path)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "satchel: cli.mcp.sdk-missing: starting MCP servers needs the mcp SDK, which is not "
        "installed; install it: pip install 'satchel[mcp]'"
    )


def test_the_example_server_file_is_executable():
    assert os.access(EXAMPLE_SERVER, os.X_OK)
    assert Path(EXAMPLE_SERVER).read_text().startswith("#!/usr/bin/env python3\n")


def test_mcp_check_masks_a_servers_own_secrets_in_what_it_quotes(run, tmp_path):
    project = tmp_path / "project"
    (project / ".satchel").mkdir(parents=True)
    leak = "import os, sys; print('token', os.environ['TOKEN'], file=sys.stderr); sys.exit(2)"
    config = {"command": sys.executable, "args": ["-c", leak], "env": {"TOKEN": "hunter22"}}
    (project / ".satchel" / "config.toml").write_text(
        "[mcp_servers.leaky]\n"
        f"command = {json.dumps(config['command'])}\n"
        f"args = {json.dumps(config['args'])}\n"
        'env = { TOKEN = "hunter22" }\n'
    )
    code, out, _ = run(
        "mcp", "check", "--project", project, "--home", tmp_path, "--trust", "--json"
    )
    doc = json.loads(out)
    assert code == 1
    [server] = doc["servers"]
    assert server["status"] == "failed"
    assert "token ***" in server["stderr"]
    assert [d["message"] for d in doc["diagnostics"]] == [
        "MCP server 'leaky' failed during the MCP handshake: Connection closed; it exited with "
        "status 2; its stderr ends: token ***"
    ]
    assert "hunter22" not in out
