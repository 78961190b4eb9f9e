"""Start-up benchmark: the common CLI verbs against ``python -c "import yaml"``, and
``satchel serve`` answering ``initialize`` against a minimal server written with the same
MCP SDK, all measured in the same rounds.

Run from the repository root:

    .venv/bin/pip install -e '.[mcp]'
    .venv/bin/python bench/startup.py [--repeat K] [--check]

Every command runs in a fresh interpreter (`sys.executable`), K rounds after one warm-up
round that writes the bytecode caches; a round runs every command once, one after
another, so that a slow spell of a busy machine slows them alike. The verbs run on the
bundled example (``--project examples/workspace --home examples/home``, as README's
first command), their output discarded:

* ``satchel list``, ``satchel index``, ``satchel doctor``, and ``satchel validate`` on
  one of the example's skills (the command line has no ``check`` verb; ``validate`` is
  the verb that checks a skill);
* each against ``python -c "import yaml"`` (target: at most 2x, on the medians);
* for where the time goes, not against a target: ``python -c "import click,
  dataclasses"`` (the command line's toolkit and the models' machinery, which every verb
  imports before any of satchel's code runs), ``python -c "import satchel.assembly._environment"``
  (the modules ``load()`` imports, which every verb pays for) and ``satchel --help``
  (Python, click and the verb table, no verb imported).

For the servers, the time is from spawn to the ``initialize`` answer read on the
server's stdout (the request is written at once; the server reads it when it is
ready), then stdin is closed and the process waited for (not timed):

* ``satchel serve`` on the example;
* a minimal server written with the MCP SDK's low-level ``Server`` (the API satchel's
  server is written with), one tool, served over stdio as satchel serves;
* ``satchel serve`` against that server (target: at most 1.5x, on the medians).

``--check`` exits 1 when a target is missed. The discovery cache lives in a temporary
directory for the run (``SATCHEL_CACHE_DIR``), warm after the warm-up round. See
docs/performance.md, "Start-up".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from imports import Timing  # bench/imports.py: one timed command's rounds

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = ["--project", "examples/workspace", "--home", "examples/home"]
SKILL = "examples/workspace/.satchel/skills/release"
VERB_TARGET = 2.0  # a common verb at most this many times import yaml
SERVE_TARGET = 1.5  # satchel serve at most this many times a minimal SDK server

MINIMAL_SERVER = """
import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

TOOL = types.Tool(name="echo", description="Echo.", input_schema={"type": "object"})


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[TOOL])


async def main():
    server = Server("minimal", on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


anyio.run(main)
"""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}

FLOOR = ("floor: python -c 'pass'", ["-c", "pass"], False)
YAML = ("python -c 'import yaml'", ["-c", "import yaml"], False)
PARTS = (
    ("import click, dataclasses", ["-c", "import click, dataclasses"], False),
    ("import load's modules", ["-c", "import satchel.assembly._environment"], False),
    ("satchel --help", ["-m", "satchel", "--help"], False),
)
VERBS = (
    ("satchel list", ["-m", "satchel", "list", *EXAMPLE], False),
    ("satchel index", ["-m", "satchel", "index", *EXAMPLE], False),
    ("satchel doctor", ["-m", "satchel", "doctor", *EXAMPLE], False),
    ("satchel validate SKILL", ["-m", "satchel", "validate", SKILL], False),
)
SERVE = ("satchel serve: initialize", ["-m", "satchel", "serve", *EXAMPLE], True)


def run_once(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start


def initialize_once(args: list[str], env: dict[str, str]) -> float:
    """Spawn the server, send `initialize`, and time until its answer is read."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args],
        env=env,
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    took = time.perf_counter() - start
    proc.stdin.close()
    proc.wait(timeout=30)
    answer = json.loads(line) if line else {}
    if "result" not in answer:
        raise SystemExit(f"{args}: no initialize result: {line!r}")
    return took


def measure(commands: list[tuple[str, list[str], bool]], repeat: int) -> list[Timing]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times: dict[str, list[float]] = {label: [] for label, _, _ in commands}
    for round_ in range(repeat + 1):  # round 0 warms up: bytecode, page cache, the cache
        for label, args, server in commands:
            took = initialize_once(args, env) if server else run_once(args, env)
            if round_:
                times[label].append(took)
    return [Timing(label, tuple(times[label])) for label, _, _ in commands]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=11, help="timed rounds (11)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="satchel-bench-startup-") as tmp:
        server = Path(tmp, "minimal_server.py")
        server.write_text(MINIMAL_SERVER)
        os.environ["SATCHEL_CACHE_DIR"] = str(Path(tmp, "cache"))  # never the user's cache
        os.environ.pop("SATCHEL_CACHE", None)
        minimal = ("minimal SDK server: initialize", [str(server)], True)
        commands = [FLOOR, YAML, *PARTS, *VERBS, minimal, SERVE]
        timings = measure(commands, args.repeat)
    print(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; K={args.repeat} rounds; "
        "wall time of each process (servers: spawn to the initialize answer)\n"
    )
    print(f"{'command':<36}{'median ms':>10}{'min ms':>9}")
    for t in timings:
        print(f"{t.label:<36}{t.median * 1e3:>10.1f}{t.best * 1e3:>9.1f}")
    by = {t.label: t for t in timings}
    yaml_t = by[YAML[0]].median
    ok = True
    print()
    for label, _, _ in VERBS:
        ratio = by[label].median / yaml_t
        passed = ratio <= VERB_TARGET
        ok = ok and passed
        print(f"target     {label} / import yaml <= {VERB_TARGET:.1f}x: {ratio:.2f}x  {_v(passed)}")
    toolkit = by[PARTS[0][0]].median
    left = VERB_TARGET * yaml_t - toolkit
    print(
        f"context    import click, dataclasses / import yaml: {toolkit / yaml_t:.2f}x; a "
        f"{VERB_TARGET:.0f}x verb leaves {left * 1e3:.0f} ms for satchel's modules and the verb"
    )
    ratio = by[SERVE[0]].median / by[minimal[0]].median
    passed = ratio <= SERVE_TARGET
    ok = ok and passed
    label = "satchel serve / minimal server"
    print(f"target     {label} <= {SERVE_TARGET:.1f}x: {ratio:.2f}x  {_v(passed)}")
    return 1 if args.check and not ok else 0


def _v(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


if __name__ == "__main__":
    sys.exit(main())
