"""Hooks benchmark: parallel runs, and satchel's overhead per hook over a bare
`subprocess.run` of the same program, measured in the same run.

Run from the repository root:

    .venv/bin/python bench/hooks.py [--repeat K] [--sleep SECONDS]

It writes a hook program to a temporary directory (removed at the end) that reads
its stdin, sleeps `--sleep` seconds (0.1 by default) and answers ``{}``, declares it
in a project's ``.satchel/hooks.toml`` and times, K rounds each after a warm-up and a
`gc.collect()`:

* parallel: five matching ``before_tool_use`` hooks through `HookRunner.run`, against
  one hook's bare run, the five run one after another (serial, bare) and the five
  bare runs started together from five threads (what the machine itself allows);
* overhead: one matching hook through `HookRunner.run` (load of the matchers, payload,
  scrubbed environment, ``/bin/sh -c``, process group, capped pipes, output reading,
  aggregation) against `subprocess.run` of the same ``/bin/sh -c COMMAND`` with the
  same stdin, and against the same program with no sleep (the fixed cost alone).

The median and minimum of each are printed, then the ratios. The issue's targets:
five 100 ms hooks together in under 150 ms, and at most 1.5x the bare run per hook.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import satchel
from satchel.runtime.hooks import HookRunner

PROGRAM = "import sys, time\nsys.stdin.read()\ntime.sleep({sleep})\nprint('{{}}')\n"
PAYLOAD = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def build(root: Path, hooks: int, sleep: float) -> tuple[satchel.Environment, str]:
    """A trusted project whose hooks.toml runs `hooks` copies of the program."""
    project = root / f"project-{hooks}-{sleep}"
    (project / ".git").mkdir(parents=True)
    home = root / "home"
    home.mkdir(exist_ok=True)
    lines = []
    commands = []
    for n in range(hooks):
        script = project / f"hook{n}.py"
        script.write_text(PROGRAM.format(sleep=sleep))
        commands.append(f'"{sys.executable}" "{script}"')
        lines += [
            "[[hooks.before_tool_use]]",
            'matcher = "Bash"',
            "[[hooks.before_tool_use.hooks]]",
            f"command = {json.dumps(commands[-1])}",
        ]
    (project / ".satchel").mkdir()
    (project / ".satchel" / "hooks.toml").write_text("\n".join(lines) + "\n")
    layout = satchel.Layout.default(project, home=home, env={})
    return satchel.load(layout=layout, trusted=True), commands[0]


def timed(run: Callable[[], object], repeat: int) -> list[float]:
    run()  # warm-up
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return times


def bare(command: str) -> Callable[[], object]:
    stdin = json.dumps({"hook_event_name": "PreToolUse", **PAYLOAD}).encode()

    def run() -> object:
        return subprocess.run(["/bin/sh", "-c", command], input=stdin, capture_output=True)

    return run


def through_satchel(env: satchel.Environment, expect: int) -> Callable[[], object]:
    runner = HookRunner(env)

    def run() -> object:
        outcome = runner.run("before_tool_use", PAYLOAD)
        assert len(outcome.results) == expect and not outcome.diagnostics, outcome.to_json()
        return outcome

    return run


def row(label: str, times: list[float]) -> tuple[float, float]:
    """Print and return (median, minimum) of `times`."""
    median, least = statistics.median(times), min(times)
    print(f"  {label:<44} median {median * 1000:8.1f} ms   min {least * 1000:8.1f} ms")
    return median, least


def ratio(label: str, a: tuple[float, float], b: tuple[float, float], note: str = "") -> None:
    """`a` over `b`, medians and minimums (the minimum is the steadier on a busy machine)."""
    print(f"  {label:<38} {a[0] / b[0]:5.2f}x median, {a[1] / b[1]:5.2f}x min  {note}".rstrip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed rounds per operation")
    parser.add_argument("--sleep", type=float, default=0.1, help="seconds each hook sleeps")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="satchel-bench-hooks-") as tmp:
        root = Path(tmp)
        five, command = build(root, 5, args.sleep)
        one, _ = build(root, 1, args.sleep)
        quick, quick_command = build(root, 1, 0.0)
        print(f"hooks: a Python program sleeping {args.sleep * 1000:.0f} ms; K={args.repeat}\n")
        serial = [command] * 5

        def five_bare() -> object:
            return [bare(c)() for c in serial]

        def five_bare_threads() -> object:
            with ThreadPoolExecutor(max_workers=5) as pool:
                return list(pool.map(lambda c: bare(c)(), serial))

        t_five = row(
            "five hooks, HookRunner.run (parallel)", timed(through_satchel(five, 5), args.repeat)
        )
        t_serial = row("five bare runs, one after another", timed(five_bare, args.repeat))
        t_threads = row("five bare runs, five threads", timed(five_bare_threads, args.repeat))
        t_one = row("one hook, HookRunner.run", timed(through_satchel(one, 1), args.repeat))
        t_bare = row("one bare subprocess.run", timed(bare(command), args.repeat))
        t_quick = row(
            "one hook, no sleep, HookRunner.run", timed(through_satchel(quick, 1), args.repeat)
        )
        t_quick_bare = row(
            "one bare subprocess.run, no sleep", timed(bare(quick_command), args.repeat)
        )
    print()
    ratio("five in parallel / one bare run", t_five, t_bare, f"({t_five[0] * 1000:.0f} ms median;"
          f" {t_five[1] * 1000:.0f} ms min; target under 150 ms)")  # fmt: skip
    ratio("five in parallel / five bare threads", t_five, t_threads, "(the machine's own floor)")
    ratio("five in parallel / five serial", t_five, t_serial)
    ratio("one hook / bare run (100 ms program)", t_one, t_bare, "(target at most 1.5x)")
    ratio("one hook / bare run (no sleep)", t_quick, t_quick_bare,
          f"(+{(t_quick[1] - t_quick_bare[1]) * 1000:.1f} ms per hook, min)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
