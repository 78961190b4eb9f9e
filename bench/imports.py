"""Import-time benchmark: `import satchel` (with what `load()` needs) and `satchel --help`
against `import yaml`, `import click` and an empty interpreter, measured in the same run.

Run from the repository root:

    .venv/bin/python bench/imports.py [--repeat K] [--check]

Each command runs in a fresh interpreter (`sys.executable`), K rounds after one warm-up
round; a round runs every command once, one after another, so that a busy machine slows
them alike. The warm-up writes the bytecode caches (the children run without
``PYTHONDONTWRITEBYTECODE``), as an installed package has them. For each command the
minimum and the median wall time of the whole process are printed, then the ratios:

* ``python -c "pass"``: the floor, an interpreter that imports nothing;
* ``python -c "import yaml"`` and ``python -c "import click"``: the peers;
* ``python -c "import satchel; satchel.load"``: everything `load()` needs, imported;
* ``python -m satchel --help``: the command line's help.

The targets: satchel and `load` at most 2x ``import yaml``, ``satchel --help``
at most 1.5x ``import click``, both on the minimum; ``--check`` exits 1 when one is
missed. The modules each satchel command imports are counted too. See
docs/performance.md, "Import time".
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

LOAD_TARGET = 2.0  # import satchel; satchel.load at most this many times import yaml
HELP_TARGET = 1.5  # satchel --help at most this many times import click
COUNT = (
    "import sys\n{code}\n"
    "print(len(sys.modules), sum(m.split('.')[0] == 'satchel' for m in sys.modules))"
)

FLOOR = ("floor: python -c 'pass'", ["-c", "pass"])
YAML = ("python -c 'import yaml'", ["-c", "import yaml"])
CLICK = ("python -c 'import click'", ["-c", "import click"])
LOAD = ("python -c 'import satchel; satchel.load'", ["-c", "import satchel; satchel.load"])
HELP = ("python -m satchel --help", ["-m", "satchel", "--help"])
COMMANDS = (FLOOR, YAML, CLICK, LOAD, HELP)


@dataclass(frozen=True, slots=True)
class Timing:
    label: str
    times: tuple[float, ...]

    @property
    def best(self) -> float:
        return min(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def child_env() -> dict[str, str]:
    """This environment, but with bytecode caches written and read as usual."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def measure(repeat: int) -> list[Timing]:
    env = child_env()
    for _, args in COMMANDS:  # warm-up: bytecode caches, the OS's file cache
        run_once(args, env)
    times: dict[str, list[float]] = {label: [] for label, _ in COMMANDS}
    for _ in range(repeat):
        for label, args in COMMANDS:
            times[label].append(run_once(args, env))
    return [Timing(label, tuple(times[label])) for label, _ in COMMANDS]


def modules(code: str) -> tuple[int, int]:
    """(all modules, satchel's own) in sys.modules after `code` runs in a fresh interpreter."""
    probe = COUNT.format(code=code)
    out = subprocess.run(
        [sys.executable, "-c", probe], env=child_env(), capture_output=True, text=True, check=True
    )
    total, own = out.stdout.split()[-2:]
    return int(total), int(own)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed rounds (15)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("need --repeat >= 1")
    print(f"python     {sys.version.split()[0]}, {os.cpu_count()} CPUs; K={args.repeat}\n")
    timings = measure(args.repeat)
    floor, yaml, click, load, help_ = timings
    print(f"{'command':<46}{'min ms':>8}{'median ms':>11}{'x floor':>9}{'- floor ms':>12}")
    for t in timings:
        print(
            f"{t.label:<46}{t.best * 1e3:>8.1f}{t.median * 1e3:>11.1f}"
            f"{t.best / floor.best:>8.2f}x{(t.best - floor.best) * 1e3:>12.1f}"
        )
    total, own = modules("import satchel; satchel.load")
    help_total, help_own = modules("from satchel.cli import main\nmain(['--help'])")
    print(f"\nmodules    import satchel; satchel.load: {own} of satchel's, {total} in all")
    print(f"           satchel --help: {help_own} of satchel's, {help_total} in all")
    load_ratio, help_ratio = load.best / yaml.best, help_.best / click.best
    net_load = (load.best - floor.best) / (yaml.best - floor.best)
    net_help = (help_.best - floor.best) / (click.best - floor.best)
    load_ok, help_ok = load_ratio <= LOAD_TARGET, help_ratio <= HELP_TARGET
    print(
        f"\ntarget     satchel + load <= {LOAD_TARGET:g}x import yaml: {load_ratio:.2f}x  "
        f"{verdict(load_ok)}  (above the floor: {net_load:.2f}x)"
    )
    print(
        f"target     satchel --help <= {HELP_TARGET:g}x import click: {help_ratio:.2f}x  "
        f"{verdict(help_ok)}  (above the floor: {net_help:.2f}x)"
    )
    return 1 if args.check and not (load_ok and help_ok) else 0


if __name__ == "__main__":
    raise SystemExit(main())
