"""Interrupt a Claude Code turn the way an SDK program does: ``claude -p`` reading
``stream-json`` on stdin, a scripted model that asks for a long Bash call, and an
``interrupt`` control request sent while that call runs. Claude Code then ends the
turn and fires its ``Interrupt`` hooks (2.1.337; source ``user``, reason ``stop``, via
``client``)."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

from tests.hostloop.model import Call, Model, Text

__all__ = ["interrupt_claude"]

WAIT = 60  # seconds for each step: a "did not hang" bound


def interrupt_claude(binary: Path, project: Path, home: Path) -> list[dict[str, object]]:
    """Run one turn in `project` (HOME=`home`) and interrupt it while its Bash call
    (``sleep 8``) runs; return what Claude Code printed, one JSON object a line."""
    home.mkdir(parents=True, exist_ok=True)
    script = [Call("Bash", {"command": "sleep 8", "description": "wait"}), Text("ok")]
    with Model(script) as model:
        env = {
            "HOME": str(home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "sk-ant-offline",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        argv = [str(binary), "-p", "--input-format", "stream-json", "--output-format",
                "stream-json", "--verbose", "--allowedTools", "Bash(sleep:*)"]  # fmt: skip
        with subprocess.Popen(argv, cwd=project, env=env, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True) as host:  # fmt: skip
            lines: list[str] = []
            reader = threading.Thread(target=lambda: lines.extend(host.stdout or ()))
            reader.start()
            _send(host, {"type": "user", "message": {"role": "user", "content": "go"}})
            _until(lambda: any('"tool_use"' in line for line in lines))
            time.sleep(1)  # the call is running
            _send(host, {"type": "control_request", "request_id": "stop",
                         "request": {"subtype": "interrupt"}})  # fmt: skip
            _until(lambda: any('"type":"result"' in line for line in lines))
            if host.stdin is not None:
                host.stdin.close()
            host.wait(WAIT)
            reader.join(WAIT)
    return [json.loads(line) for line in lines if line.strip()]


def _send(host: subprocess.Popen[str], message: dict[str, object]) -> None:
    assert host.stdin is not None
    host.stdin.write(json.dumps(message) + "\n")
    host.stdin.flush()


def _until(done: object) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if callable(done) and done():
            return
        time.sleep(0.05)
    raise AssertionError("Claude Code did not get there in time")
