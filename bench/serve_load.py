"""Load benchmark: ``satchel serve --http`` with 1 worker and with N workers, under many
concurrent MCP client sessions, against a minimal server written with the same MCP SDK,
all measured in the same rounds.

Run from the repository root:

    .venv/bin/pip install -e '.[mcp]'
    .venv/bin/python bench/serve_load.py [--sessions 50] [--calls 20] [--workers 2]
        [--rounds 3] [--check]

It writes a temporary project of 20 skills (each a SKILL.md and one reference file),
then starts, on loopback, each of:

* a minimal server written with the MCP SDK's low-level ``Server`` (the API satchel's
  server is written with): a ``load_skill`` tool and ``resources/read`` answering one
  fixed text, streamable HTTP under uvicorn, one worker;
* ``satchel serve --http 127.0.0.1:0`` on the project (one worker: a state per MCP
  session);
* ``satchel serve --http 127.0.0.1:0 --workers N`` (stateless per request).

In each round every server gets the same load, one server after another (so a slow
spell of a busy machine slows them alike): ``--sessions`` MCP client sessions at once
(the SDK's ``Client``, one connection each), each making ``--calls`` calls in turn,
alternating ``tools/call load_skill`` (a skill by name) and ``resources/read`` (its
reference file). A call's latency is from the request to its answer; an error is a
call that raised or answered ``isError``. Opening the sessions is not timed. Per server
it reports the calls per second over the round's wall time, the p50 and p99 latency
over every call of every round, and the errors.

The clients run in this process, on the same machine: with few CPUs they compete with
the servers, so the figures are of the pair, not of the server alone.

``--check`` exits 1 unless no call failed and the p99 latency of each ``satchel serve``
is at most `P99_TARGET` times that of the minimal server in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parent.parent
SKILLS = 20
P99_TARGET = 3.0  # satchel serve's p99 at most this many times the minimal server's
STARTUP = 60  # seconds a server may take to print where it listens

MINIMAL_SERVER = """
import socket, sys
import anyio, uvicorn
import mcp_types as types
from mcp.server.lowlevel import Server

TOOL = types.Tool(
    name="load_skill",
    description="Load a skill.",
    input_schema={"type": "object", "properties": {"name": {"type": "string"}}},
)
TEXT = "# A skill\\n\\nIts instructions.\\n"


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=[TOOL])


async def call_tool(ctx, params):
    return types.CallToolResult(content=[types.TextContent(text=TEXT)])


async def read_resource(ctx, params):
    contents = types.TextResourceContents(uri=params.uri, mime_type="text/markdown", text=TEXT)
    return types.ReadResourceResult(contents=[contents])


server = Server(
    "minimal", on_list_tools=list_tools, on_call_tool=call_tool, on_read_resource=read_resource
)
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(128)
port = sock.getsockname()[1]
print('{"url": "http://127.0.0.1:%d/mcp"}' % port, file=sys.stderr, flush=True)
app = server.streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1")
config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
anyio.run(lambda: uvicorn.Server(config).serve(sockets=[sock]))
"""


def build(base: Path) -> tuple[Path, Path]:
    project, home = base / "project", base / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    for i in range(SKILLS):
        skill = project / ".agents" / "skills" / f"skill-{i:02d}"
        (skill / "references").mkdir(parents=True)
        (skill / "SKILL.md").write_text(
            f"---\nname: skill-{i:02d}\ndescription: Bench skill {i}.\n---\n\n"
            f"# Skill {i}\n\nSee references/notes.md.\n" + "A line of instructions.\n" * 40
        )
        (skill / "references" / "notes.md").write_text("Notes.\n" * 40)
    return project, home


def start(stack: ExitStack, argvs: dict[str, list[str]], env: dict[str, str]) -> dict[str, str]:
    """Start servers that each print a JSON line with their URL on stderr, all at once;
    their URLs by label."""
    lines: dict[str, queue.Queue[bytes]] = {}
    for label, argv in argvs.items():
        proc = stack.enter_context(
            subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        )
        stack.callback(stop, proc)
        lines[label] = queue.Queue()
        err = proc.stderr
        assert err is not None
        threading.Thread(
            target=lambda q=lines[label], e=err: q.put(e.readline()), daemon=True
        ).start()
    urls: dict[str, str] = {}
    deadline = time.monotonic() + STARTUP
    for label, argv in argvs.items():
        try:
            line = lines[label].get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise SystemExit(f"{argv}: did not say where it listens in {STARTUP} s") from None
        if not line:
            raise SystemExit(f"{argv}: exited before it said where it listens")
        urls[label] = str(json.loads(line)["url"])
    return urls


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STARTUP)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


async def load(url: str, sessions: int, calls: int) -> tuple[float, list[float], int]:
    """`sessions` concurrent client sessions of `calls` calls each: the wall time of
    the calls, every call's latency and the errors."""
    from mcp import Client

    latencies: list[float] = []
    errors = 0
    ready = anyio.Event()
    opened = 0

    async def session(i: int) -> None:
        nonlocal errors, opened
        try:
            async with Client(url) as client:
                opened += 1
                if opened == sessions:
                    ready.set()
                await ready.wait()
                for j in range(calls):
                    name = f"skill-{(i + j) % SKILLS:02d}"
                    begin = time.perf_counter()
                    try:
                        if j % 2 == 0:
                            result = await client.call_tool("load_skill", {"name": name})
                            failed = bool(result.is_error)
                        else:
                            await client.read_resource(f"skill://{name}/references/notes.md")
                            failed = False
                    except Exception:  # noqa: BLE001  # any failure is an error counted
                        failed = True
                    latencies.append(time.perf_counter() - begin)
                    errors += failed
        except Exception:  # noqa: BLE001  # a session that failed fails its calls
            errors += calls
            opened += 1
            if opened == sessions:
                ready.set()

    async with anyio.create_task_group() as group:
        for i in range(sessions):
            group.start_soon(session, i)
        await ready.wait()
        begin = time.perf_counter()
    return time.perf_counter() - begin, latencies, errors


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50, help="concurrent sessions (50)")
    parser.add_argument("--calls", type=int, default=20, help="calls per session (20)")
    parser.add_argument("--workers", type=int, default=2, help="workers of the last server (2)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (3)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    results: dict[str, tuple[list[float], list[float], int]] = {}
    with tempfile.TemporaryDirectory(prefix="satchel-bench-serve-") as tmp, ExitStack() as stack:
        base = Path(tmp)
        project, home = build(base)
        env["SATCHEL_CACHE_DIR"] = str(base / "cache")  # never the user's cache
        env["HOME"] = str(home)
        minimal = base / "minimal_server.py"
        minimal.write_text(MINIMAL_SERVER)
        serve = [sys.executable, "-m", "satchel", "serve", str(project), "--home", str(home)]
        serve += ["--trust", "--http", "127.0.0.1:0", "--json"]
        servers = start(
            stack,
            {
                "minimal SDK server, 1 worker": [sys.executable, str(minimal)],
                "satchel serve, 1 worker": serve,
                f"satchel serve, {args.workers} workers": [*serve, "--workers", str(args.workers)],
            },
            env,
        )
        for label in servers:
            results[label] = ([], [], 0)
        for round_ in range(args.rounds + 1):  # round 0 warms up: imports, caches
            for label, url in servers.items():
                took, latencies, errors = anyio.run(load, url, args.sessions, args.calls)
                if round_:
                    walls, every, failed = results[label]
                    walls.append(took)
                    every.extend(latencies)
                    results[label] = (walls, every, failed + errors)
    calls = args.sessions * args.calls
    print(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; {args.sessions} sessions x "
        f"{args.calls} calls = {calls} calls per round; {args.rounds} rounds; loopback, "
        "clients in the bench process\n"
    )
    print(f"{'server':<32}{'calls/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
    p99: dict[str, float] = {}
    rate: dict[str, float] = {}
    ok = True
    for label, (walls, every, failed) in results.items():
        rate[label] = calls / statistics.median(walls)
        p99[label] = percentile(every, 99)
        p50 = percentile(every, 50)
        print(f"{label:<32}{rate[label]:>9.0f}{p50 * 1e3:>9.1f}{p99[label] * 1e3:>9.1f}{failed:>8}")
        ok = ok and failed == 0
    errors = sum(r[2] for r in results.values())
    print(f"\nerrors {errors} (target 0)  {_v(errors == 0)}")
    base_label, one, many = list(results)
    for label in (one, many):
        ratio = p99[label] / p99[base_label] if p99[base_label] else 0.0
        passed = ratio <= P99_TARGET
        ok = ok and passed
        print(f"target     {label} p99 / minimal <= {P99_TARGET:.1f}x: {ratio:.2f}x  {_v(passed)}")
    print(f"context    {many} / 1 worker, calls/s: {rate[many] / rate[one]:.2f}x")
    return 1 if args.check and not ok else 0


def _v(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


if __name__ == "__main__":
    sys.exit(main())
