"""Claude Code's own MCP servers, against Claude Code itself: a scratch HOME whose
``~/.claude.json`` holds user servers and the project's local ones, a repository with a
``.mcp.json`` at its root and in the working folder below it, and (where the machine
gives Claude Code a private ``/etc``) a ``managed-mcp.json``. `claude mcp list` (2.1.332
and 2.1.337) and `claude mcp get` say which servers Claude Code has and which copy of a
name wins; satchel under the claude-code profile must have the same servers, each
running the same thing.

Observed: local (``projects["<project root>"].mcpServers``) beats the project's
``.mcp.json``, which beats the user's ``mcpServers``; the local entry is keyed by the
repository root, not the working folder; every ``.mcp.json`` from the working folder up
to the root is read, the nearer winning; a server named in the project's
``disabledMcpServers`` is "Disabled for this project"; a ``managed-mcp.json`` takes the
place of all of them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel import hosts
from tests.hostloop.hosts import Turn
from tests.hostloop.shared import once
from tests.support import put

# A stdio server that answers initialize and lists no tools: Claude Code's health check
# connects to it and satchel's reading never starts it.
SERVER = """import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    result = {}
    if msg["method"] == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {},
                  "serverInfo": {"name": "t", "version": "1"}}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""
REMOTE = "http://127.0.0.1:9/mcp"  # nothing listens: Claude Code's check fails at once
LISTED = re.compile(r"^(\S+): (.+) - (✔|✘|⏸|⊘)")


def _stdio(server: Path, *args: str) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(server), *args]}


def _tree(base: Path) -> tuple[Path, Path, Path]:
    """(home, repository, working folder below it) and the managed folder's file."""
    home, repo = base / "home", base / "repo"
    cwd = repo / "sub"
    server = base / "server.py"
    put(server, SERVER)
    (repo / ".git").mkdir(parents=True)
    state = {
        "mcpServers": {
            "both": _stdio(server, "user"),
            "useronly": _stdio(server),
            "remote": {"type": "http", "url": REMOTE},
        },
        "projects": {
            str(repo): {
                "hasTrustDialogAccepted": True,
                "mcpServers": {"both": _stdio(server, "local"), "localonly": _stdio(server)},
                "disabledMcpServers": ["useronly"],
            },
            str(cwd): {"mcpServers": {"atcwd": _stdio(server)}},  # not the project's key
        },
    }
    put(home / ".claude.json", json.dumps(state))
    put(repo / ".mcp.json", json.dumps({"mcpServers": {
        "both": _stdio(server, "project"), "rootjson": _stdio(server),
        "nested": _stdio(server, "root"),
    }}))  # fmt: skip
    put(cwd / ".mcp.json", json.dumps({"mcpServers": {
        "subjson": _stdio(server), "nested": _stdio(server, "sub"),
    }}))  # fmt: skip
    managed = {"both": _stdio(server, "managed"), "managedonly": _stdio(server)}
    put(base / "managed" / "managed-mcp.json", json.dumps({"mcpServers": managed}))
    return home, repo, cwd


def _env(home: Path) -> dict[str, str]:
    return {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }


def _run(argv: list[str], cwd: Path, home: Path) -> Turn:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180, env=_env(home),
                          cwd=cwd, stdin=subprocess.DEVNULL, check=False)  # fmt: skip
    return Turn(done.returncode, done.stdout, done.stderr, ())


def _private_etc() -> bool:
    """Whether Claude Code can be given its own /etc/claude-code (root and unshare)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], check=False)
    return done.returncode == 0 and not os.path.exists("/etc/claude-code")


def _under_managed(binary: Path, base: Path, cwd: Path, home: Path) -> Turn:
    """`claude mcp list` with base/managed as /etc/claude-code (an overlay on /etc that
    only this process sees)."""
    upper, work = base / "upper", base / "work"
    shutil.copytree(base / "managed", upper / "claude-code")
    work.mkdir()
    mount = f"mount -t overlay overlay -o lowerdir=/etc,upperdir={upper},workdir={work} /etc"
    argv = ["unshare", "-m", "--propagation", "private", "sh", "-c",
            f'{mount} && exec "$0" "$@"', str(binary), "mcp", "list"]  # fmt: skip
    return _run(argv, cwd, home)


@pytest.fixture(scope="module")
def seen(
    claude_code: Path, claude_code_next: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, Turn]]:
    def make(base: Path) -> dict[str, Turn]:
        home, _, cwd = _tree(base)
        runs = {
            "list": _run([str(claude_code), "mcp", "list"], cwd, home),
            "list-next": _run([str(claude_code_next), "mcp", "list"], cwd, home),
            "get-both": _run([str(claude_code), "mcp", "get", "both"], cwd, home),
            "get-atcwd": _run([str(claude_code), "mcp", "get", "atcwd"], cwd, home),
        }
        if _private_etc():
            runs["managed"] = _under_managed(claude_code, base, cwd, home)
        return runs

    return once(tmp_path_factory, "claude-mcp-state", make)


def listed(turn: Turn) -> dict[str, str]:
    """What `claude mcp list` printed: server name -> what it runs (or its URL)."""
    assert turn.returncode == 0, turn.stderr
    found = (LISTED.match(line) for line in turn.stdout.splitlines())
    return {m.group(1): m.group(2).removesuffix(" (HTTP)") for m in found if m}


def turned_off(turn: Turn) -> set[str]:
    """The servers `claude mcp list` shows "Disabled for this project"."""
    found = (LISTED.match(line) for line in turn.stdout.splitlines())
    return {m.group(1) for m in found if m and m.group(3) == "⊘"}


def satchel_env(base: Path) -> Any:
    """satchel's Environment under the claude-code profile for the same tree."""
    home, cwd = base / "home", base / "repo" / "sub"
    layout = hosts.get("claude-code").layout(cwd, home=home, env={})
    return satchel.load(layout=layout, host="claude-code", trusted=True)


def satchel_servers(base: Path) -> dict[str, str]:
    """satchel's servers under the claude-code profile: name -> what it runs (or its
    URL)."""
    return {
        s.name: s.url or " ".join((s.command or "", *s.args))
        for s in satchel_env(base).mcp_servers.servers
        if s.plugin is None
    }


def test_claude_code_lists_local_over_project_over_user_and_every_mcp_json_up_to_the_root(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    server = f"{sys.executable} {base / 'server.py'}"
    assert listed(runs["list"]) == {
        "both": f"{server} local",
        "useronly": server,
        "remote": REMOTE,
        "localonly": server,
        "rootjson": server,
        "subjson": server,
        "nested": f"{server} sub",  # the nearer .mcp.json wins
    }
    assert listed(runs["list-next"]) == listed(runs["list"])  # 2.1.337 reads them alike


def test_a_server_turned_off_for_the_project_is_listed_disabled_in_both(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    assert turned_off(runs["list"]) == turned_off(runs["list-next"]) == {"useronly"}
    env = satchel_env(base)
    assert {s.name for s in env.mcp_servers.servers if not s.enabled} == {"useronly"}


def test_claude_code_names_the_scope_of_the_winning_copy(seen: tuple[Path, dict[str, Turn]]):
    base, runs = seen
    lines = [line.strip() for line in runs["get-both"].stdout.splitlines()]
    assert "Scope: Local config (private to you in this project)" in lines
    assert f"Args: {base / 'server.py'} local" in lines
    # the working folder's own entry in ~/.claude.json is not the project's
    assert runs["get-atcwd"].returncode != 0
    assert 'No MCP server named "atcwd"' in runs["get-atcwd"].stdout + runs["get-atcwd"].stderr


def test_satchel_under_claude_code_has_the_servers_claude_code_lists(
    seen: tuple[Path, dict[str, Turn]],
):
    base, runs = seen
    assert satchel_servers(base) == listed(runs["list"])


def test_a_managed_mcp_json_takes_the_place_of_every_other_file(
    seen: tuple[Path, dict[str, Turn]], monkeypatch: pytest.MonkeyPatch
):
    base, runs = seen
    if "managed" not in runs:
        pytest.skip("needs root and unshare to give Claude Code its own /etc/claude-code")
    server = f"{sys.executable} {base / 'server.py'}"
    assert listed(runs["managed"]) == {"both": f"{server} managed", "managedonly": server}
    monkeypatch.setenv("SATCHEL_CLAUDE_MANAGED_DIR", str(base / "managed"))
    assert satchel_servers(base) == listed(runs["managed"])


def test_without_a_profile_satchel_lists_claude_codes_user_and_local_servers(
    seen: tuple[Path, dict[str, Turn]],
):
    base, _ = seen
    home, cwd = base / "home", base / "repo" / "sub"
    env = satchel.load(layout=satchel.Layout.default(cwd, home=home, env={}), trusted=True)
    found = {s.name: (s.origin.family, s.path) for s in env.mcp_servers.servers}
    state = home / ".claude.json"
    # the project's .mcp.json (its root's only) first, then Claude Code's local and user
    assert found == {
        "both": ("project", base / "repo" / ".mcp.json"),
        "rootjson": ("project", base / "repo" / ".mcp.json"),
        "nested": ("project", base / "repo" / ".mcp.json"),
        "localonly": ("local", state),
        "useronly": ("user", state),
        "remote": ("user", state),
    }
