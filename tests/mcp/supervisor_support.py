"""What the supervisor's tests share: fixture plugins whose MCP servers are real
processes (the scripts in servers/), the SDK fixture served over HTTP, and waiting
for a process group to be gone."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import satchel
from satchel.runtime.mcp._supervisor import McpSupervisor

SERVERS = Path(__file__).parent / "servers"
EXAMPLE_SERVER = (
    Path(__file__).resolve().parents[2]
    / "examples/workspace/.satchel/plugins/deploy-kit/bin/deploy-mcp"
)
PLUGIN_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"
STARTUP = 60.0  # generous: only a "did not hang" bound


def script(root: Path, name: str, target: Path, *args: str) -> str:
    """``./bin/<name>``: a shell script in the plugin that runs `target` with this
    test's Python (the one with the SDK)."""
    path = root / "bin" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    argv = shlex.join((sys.executable, str(target), *args))
    path.write_text(f'#!/bin/sh\nexec {argv} "$@"\n')
    path.chmod(0o755)
    return f"./bin/{name}"


def write_plugin(
    project: Path,
    name: str,
    servers: dict[str, dict[str, Any]],
    *,
    overrides: dict[str, Any] | None = None,
) -> Path:
    """An Agent Plugins 1.0 plugin in the project, its `servers` in ``mcp.json``."""
    root = project / ".satchel" / "plugins" / name
    root.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, Any] = {"$schema": PLUGIN_SCHEMA, "name": name}
    if overrides is not None:
        vibe = {"schemaVersion": 1, "toolOverrides": overrides}
        manifest["extensions"] = {"ai.mistral.vibe": vibe}
    (root / "plugin.json").write_text(json.dumps(manifest))
    (root / "mcp.json").write_text(json.dumps({"$schema": MCP_SCHEMA, "mcpServers": servers}))
    return root


def stdio(command: str, *args: str, **more: Any) -> dict[str, Any]:
    return {"type": "stdio", "command": command, "args": list(args), **more}


def load(layout: satchel.Layout, **options: Any) -> satchel.Environment:
    env = satchel.load(layout=layout, **options)
    assert not [d for d in env.diagnostics if d.severity == "error"], env.diagnostics
    return env


def supervisor(env: satchel.Environment, **options: Any) -> McpSupervisor:
    options.setdefault("timeout", STARTUP)
    options.setdefault("environ", {"PATH": os.environ["PATH"], "HOME": str(Path.home())})
    return McpSupervisor(env, **options)


@contextmanager
def http_server(*args: str) -> Iterator[int]:
    """The SDK fixture served over HTTP by uvicorn on 127.0.0.1; yields its port."""
    with port_printed([sys.executable, str(SERVERS / "sdk_server.py"), *args]) as port:
        yield port


@contextmanager
def port_printed(argv: list[str]) -> Iterator[int]:
    """The server `argv` starts, which prints ``port=N`` on its first line once it
    listens; yields N, and stops the server after."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("port="), line
        yield int(line.split("=", 1)[1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()


def group_gone(pgid: int, within: float = 10.0) -> bool:
    """Whether no process of group `pgid` is left (waiting up to `within` seconds)."""
    return _gone(lambda: os.killpg(pgid, 0), within)


def process_gone(pid: int, within: float = 10.0) -> bool:
    """Whether process `pid` is gone (a zombie counts as gone)."""

    def alive() -> None:
        os.kill(pid, 0)
        stat = Path(f"/proc/{pid}/stat")
        if stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z":
            raise ProcessLookupError

    return _gone(alive, within)


def _gone(probe: Any, within: float) -> bool:
    deadline = time.monotonic() + within
    while True:
        try:
            probe()
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
