"""Run every fuzz target (or the ones named) for a fixed time in total.

    python -m fuzz --seconds 600 [--work DIR] [TARGET ...]
    python -m fuzz --seconds 5 --together
    python -m fuzz --replay [TARGET ...]

Each target runs in its own process for its share of the time, with the committed
corpus in ``fuzz/corpus/<target>/`` read and new inputs written to ``<work>/<target>/``
(never into the committed corpus). A crash leaves its input as
``<work>/crash-<target>-*``. ``--together`` runs every target in one process for the
whole time (the first byte of an input picks the target): start-up is paid once, which
is what a run of a few seconds needs. The exit code is 0 when no target failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from fuzz.targets import TARGETS

CORPUS = Path(__file__).parent / "corpus"


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=", ".join(TARGETS))
    parser.add_argument("--seconds", type=float, default=60.0, help="total time (default 60)")
    parser.add_argument("--work", type=Path, help="where new inputs and crashes go")
    parser.add_argument("--replay", action="store_true", help="run the committed corpus once")
    parser.add_argument("--together", action="store_true", help="all targets in one process")
    args = parser.parse_args(argv)
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s): {', '.join(unknown)}")
    return args


def replay(names: list[str]) -> int:
    """Run every input of the committed corpus through its target, in this process."""
    for name in names:
        for path in sorted((CORPUS / name).glob("*")):
            TARGETS[name](path.read_bytes())
    return 0


def _corpus_together(names: list[str], into: Path) -> Path:
    """The starting inputs for ``all``: each committed input with its target's index
    byte in front."""
    into.mkdir(parents=True, exist_ok=True)
    everyone = list(TARGETS)
    for name in names:
        for path in sorted((CORPUS / name).glob("*")):
            prefix = bytes([everyone.index(name)])
            (into / f"{name}-{path.name}").write_bytes(prefix + path.read_bytes())
    return into


def fuzz(name: str, seconds: int, work: Path) -> int:
    """One target (or ``all``) under atheris for `seconds`; its exit code (0: nothing
    found)."""
    out = work / name
    out.mkdir(parents=True, exist_ok=True)
    starting = (
        _corpus_together(list(TARGETS), work / "all-corpus") if name == "all" else CORPUS / name
    )
    argv = [sys.executable, "-m", "fuzz.one", name, f"-max_total_time={seconds}",
            f"-artifact_prefix={work}/crash-{name}-", "-rss_limit_mb=2048",
            "-timeout=20", str(out), str(starting)]  # fmt: skip
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        argv, env=env, check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    status = "ok" if done.returncode == 0 else f"FAILED (exit {done.returncode})"
    print(f"{name}: {status}", flush=True)
    if done.returncode != 0:
        print(done.stdout.decode("utf-8", "replace")[-6000:], flush=True)
    return done.returncode


def main(argv: list[str]) -> int:
    args = _arguments(argv)
    names = args.targets or list(TARGETS)
    if args.replay:
        return replay(names)
    if args.together:
        names, share = ["all"], max(1, int(args.seconds))
    else:
        share = max(1, int(args.seconds / len(names)))
    with tempfile.TemporaryDirectory(prefix="satchel-fuzz-") as scratch:
        work = args.work or Path(scratch)
        failed = [n for n in names if fuzz(n, share, work) != 0]
    if failed:
        print(f"failed: {', '.join(failed)}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
