"""The official MCP conformance suite (@modelcontextprotocol/conformance, pinned and
installed into .tools/ with the Node.js 22 it needs by scripts/tools) against satchel.

Server: every scenario of ``--suite all`` against one `satchel serve --http` of the
bundled desk example, over streamable HTTP on 127.0.0.1 (the suite's server mode
takes only a URL, so stdio is not among its transports). The suite itself compares
the run with tests/mcp/conformance-server.yaml: a failure or warning that file does
not list fails the run, and so does a listed one that passes.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integrations.support import desk
from tests.tools import conformance

EXPECTED = Path(__file__).parent / "conformance-server.yaml"
STARTUP = 60  # seconds: a "did not hang" bound
SUITE = 600  # seconds the whole suite may take: the same


@pytest.fixture(scope="module")
def suite() -> list[str]:
    argv = conformance()
    if argv is None:
        pytest.skip("the MCP conformance suite is not in .tools/ (scripts/tools needs npm)")
    return argv


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`satchel serve --http` of the desk example (trusted); its URL."""
    layout = desk(tmp_path_factory.mktemp("conformance"))
    argv = [sys.executable, "-m", "satchel", "serve", str(layout.project), "--home"]
    argv += [str(layout.home), "--trust", "--http", "127.0.0.1:0", "--json"]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(layout.home)}
    with subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        try:
            lines: queue.Queue[bytes] = queue.Queue()
            err = proc.stderr
            assert err is not None
            threading.Thread(target=lambda: lines.put(err.readline()), daemon=True).start()
            yield str(json.loads(lines.get(timeout=STARTUP))["url"])
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STARTUP)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_every_server_scenario_passes_but_those_listed_with_their_reason(suite, served, tmp_path):
    argv = [*suite, "server", "--url", served, "--suite", "all"]
    argv += ["--expected-failures", str(EXPECTED), "-o", str(tmp_path / "results")]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "NO_COLOR": "1"}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=SUITE)
    assert "Baseline check passed: all failures are expected." in done.stdout, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr
    checks = [json.loads(p.read_text()) for p in (tmp_path / "results").glob("*/checks.json")]
    assert len(checks) >= 60  # every scenario of the suite ran, not a subset
