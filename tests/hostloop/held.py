"""Claude Code with its input held open: what print mode exits too soon to finish.

``claude -p PROMPT`` exits as soon as its turn ends, without waiting for the hooks it
fires on the way out (2.1.337's ``Interrupt`` hook often gets no payload). With
``--input-format stream-json`` the prompt comes as a message on stdin and Claude Code
stays until stdin closes: `run_claude_held` closes it once `until()` holds (or after
`wait` seconds), then collects the run as `run_claude` does.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.hostloop.hosts import CALL, Turn, _base_env
from tests.hostloop.model import Model, Reply

__all__ = ["run_claude_held"]


def run_claude_held(
    binary: Path,
    project: Path,
    home: Path,
    prompt: str,
    script: Sequence[Reply],
    *,
    until: Callable[[], bool],
    args: Sequence[str] = (),
    wait: float = 20.0,
) -> Turn:
    """``claude -p --input-format stream-json ARGS`` in `project`, `prompt` sent as one
    user message, stdin closed when `until()` holds or `wait` seconds passed."""
    home.mkdir(parents=True, exist_ok=True)
    with Model(list(script)) as model:
        env = _base_env(
            home,
            {
                "ANTHROPIC_BASE_URL": model.url,
                "ANTHROPIC_API_KEY": "sk-ant-offline",
                "DISABLE_AUTOUPDATER": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            },
        )
        argv = [str(binary), "-p", "--input-format", "stream-json"]
        argv += ["--output-format", "stream-json", "--verbose", *args]
        with (
            tempfile.TemporaryFile("w+") as out,  # files, not pipes: nothing can block
            tempfile.TemporaryFile("w+") as err,
            subprocess.Popen(
                argv, cwd=project, env=env, stdin=subprocess.PIPE, stdout=out, stderr=err,
                text=True,
            ) as proc,
        ):  # fmt: skip
            assert proc.stdin is not None
            message = {"type": "user", "message": {"role": "user", "content": prompt}}
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            end = time.monotonic() + wait
            while time.monotonic() < end and not until() and proc.poll() is None:
                time.sleep(0.05)
            proc.stdin.close()
            code = proc.wait(timeout=CALL)
            out.seek(0)
            err.seek(0)
            return Turn(code, out.read(), err.read(), tuple(model.requests))
