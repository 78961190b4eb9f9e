"""A signal that ends satchel ends its children: a real `satchel` process running a slow
hook, or a stdio MCP server, gets SIGTERM; no process of their groups is left."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satchel.foundations.process._live import LiveGroups
from tests.hooks.support import hooks_toml, write_hooks
from tests.mcp.supervisor_support import group_gone
from tests.support import put

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")

WAIT = 60.0  # seconds to wait for a child to show up: "did not hang", not a benchmark


def satchel(*args: object, home: Path) -> subprocess.Popen[bytes]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    argv = [sys.executable, "-m", "satchel", *(str(a) for a in args)]
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def started(pid_file: Path, proc: subprocess.Popen[bytes]) -> int:
    """The group id the child wrote, once it has written it."""
    deadline = time.monotonic() + WAIT
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the child never started"
        time.sleep(0.02)
    return int(pid_file.read_text().split()[0])


def terminated(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode


def cleanup(group: int) -> None:
    """Whatever a failing run left behind goes (the test's own child group only)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def test_sigterm_to_satchel_kills_a_running_hook_and_its_group(project, home, tmp_path):
    pid_file = tmp_path / "hook.pid"
    slow = f"echo $$ > '{pid_file}'; sleep 600 & sleep 600"  # a grandchild as well
    write_hooks(project, hooks_toml(("before_tool_use", None, [{"command": slow}])))
    proc = satchel(
        "hooks", "run", "before_tool_use", "--tool", "Bash", "--input", "{}",
        "--project", project, "--home", home, "--trust", home=home,
    )  # fmt: skip
    group = started(pid_file, proc)
    try:
        assert terminated(proc) == 128 + signal.SIGTERM
        assert group_gone(group)
    finally:
        cleanup(group)


def test_sigterm_to_satchel_kills_a_stdio_mcp_server(project, home, tmp_path):
    pytest.importorskip("mcp")
    pid_file = tmp_path / "server.pid"
    server = put(
        tmp_path / "server.py",
        "import os, subprocess, sys, time\n"
        "subprocess.Popen(['sleep', '600'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(os.getpgrp()))\n"
        "time.sleep(600)\n",
    )
    config = f"[mcp_servers.slow]\ncommand = {json.dumps(sys.executable)}\n"
    put(project / ".satchel" / "config.toml", config + f"args = [{json.dumps(str(server))}]\n")
    proc = satchel(
        "mcp", "check", "--timeout", "600", "--project", project, "--home", home, "--trust",
        home=home,
    )  # fmt: skip
    group = started(pid_file, proc)
    try:
        assert terminated(proc) == 128 + signal.SIGTERM
        assert group_gone(group)
    finally:
        cleanup(group)


def test_a_child_started_while_satchel_is_ending_is_killed_at_once():
    live = LiveGroups()
    child = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        assert live.end_all(grace=0) == ()
        live.add(child.pid)
        assert child.wait(timeout=WAIT) == -signal.SIGKILL
    finally:
        child.kill()
        child.wait()
