"""MCP start-up benchmark: 10 stdio servers started together vs the slowest one alone.

Run from the repository root:

    .venv/bin/pip install -e '.[mcp]'
    .venv/bin/python bench/mcp_start.py [--servers 10] [--rounds 5] [--sdk]

It writes a temporary project with one plugin declaring N stdio MCP servers (each the
example's standard-library server, ``deploy-mcp``, run by this Python; ``--sdk``: the
tests' server written with the MCP SDK, much heavier to import; ``--wait S``: each
sleeps S seconds first, like a server whose start waits on the network or a disk
rather than the CPU), then, in each round:

* starts each server alone (`McpSupervisor(env, only=(name,))`) and keeps the
  slowest start;
* starts all N at once with one supervisor.

A start is ``await supervisor.start()``: spawn, MCP handshake, tools/prompts/resources
listed; stopping is not timed. The medians over the rounds are printed, and their
ratio (target: at most 1.5). Starting servers is mostly the servers' own work
(interpreter start-up, imports): with fewer cores than servers, N processes compete
for the CPU, so the ratio also depends on the machine. The CPU time the N servers
used is measured too (`RUSAGE_CHILDREN`): divided by the core count it is a floor no
concurrent start can beat, and the concurrent start is also compared to that floor.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio

import satchel
from satchel.runtime import McpSupervisor
from satchel.trust._trust import trust

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples/workspace/.satchel/plugins/deploy-kit/bin/deploy-mcp"
SDK_SERVER = REPO / "tests/mcp/servers/sdk_server.py"
PLUGIN = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
MCP = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"


def build(base: Path, count: int, server: Path, wait: float) -> satchel.Environment:
    project, home = base / "project", base / "home"
    (project / ".git").mkdir(parents=True)
    home.mkdir()
    root = project / ".satchel" / "plugins" / "bench"
    (root / "bin").mkdir(parents=True)
    wrapper = root / "bin" / "server"
    pause = f"sleep {wait:g}\n" if wait else ""
    argv = shlex.join((sys.executable, str(server)))
    wrapper.write_text(f'#!/bin/sh\n{pause}exec {argv} "$@"\n')
    wrapper.chmod(0o755)
    servers = {f"s{i}": {"type": "stdio", "command": "./bin/server"} for i in range(count)}
    (root / "plugin.json").write_text(json.dumps({"$schema": PLUGIN, "name": "bench"}))
    (root / "mcp.json").write_text(json.dumps({"$schema": MCP, "mcpServers": servers}))
    layout = satchel.Layout.default(project, home=home, env={})
    trust(layout, project)
    return satchel.load(layout=layout)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def timed_start(sup: McpSupervisor) -> float:
    start = time.perf_counter()
    await sup.start()
    took = time.perf_counter() - start
    try:
        failed = [r.name for r in sup.servers if r.status != "running"]
        if failed:
            raise SystemExit(f"servers failed to start: {failed}: {sup.diagnostics}")
    finally:
        await sup.stop()
    return took


async def one_round(env: satchel.Environment) -> tuple[float, float, float]:
    """The slowest single start, the start of all together, and the CPU time the
    servers of the latter used (their whole lives: start-up is nearly all of it)."""
    names = [s.name for s in env.mcp_servers.servers]
    singles = [await timed_start(McpSupervisor(env, only=(name,))) for name in names]
    before = children_cpu()
    together = await timed_start(McpSupervisor(env))
    return max(singles), together, children_cpu() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--servers", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sdk", action="store_true", help="use the SDK fixture server")
    parser.add_argument(
        "--wait",
        type=float,
        default=0.0,
        help="seconds each server sleeps before starting (a start that waits, not computes)",
    )
    args = parser.parse_args()
    server = SDK_SERVER if args.sdk else EXAMPLE
    with tempfile.TemporaryDirectory() as tmp:
        env = build(Path(tmp), args.servers, server, args.wait)
        anyio.run(one_round, env)  # warm-up: caches, bytecode
        results = [anyio.run(one_round, env) for _ in range(args.rounds)]
    slowest = statistics.median(r[0] for r in results)
    together = statistics.median(r[1] for r in results)
    cpu = statistics.median(r[2] for r in results)
    cores = os.cpu_count() or 1
    floor = max(slowest, cpu / cores)
    print(
        f"server: {server.name}; {args.servers} servers; {args.rounds} rounds; "
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    for i, (one, all_, _) in enumerate(results, 1):
        print(
            f"  round {i}: slowest single {one * 1000:7.1f} ms, all together "
            f"{all_ * 1000:7.1f} ms, ratio {all_ / one:.2f}"
        )
    print(f"median slowest single start: {slowest * 1000:.1f} ms")
    print(f"median concurrent start of {args.servers}: {together * 1000:.1f} ms")
    print(f"ratio: {together / slowest:.2f} (target <= 1.5)")
    print(
        f"the servers used {cpu * 1000:.0f} ms of CPU together: on {cores} CPUs no start of all "
        f"can take less than {floor * 1000:.1f} ms; the concurrent start took "
        f"{together / floor:.2f}x that floor"
    )


if __name__ == "__main__":
    main()
