"""Bad-input bounds: how long satchel takes on the threat model's hostile inputs.

Run from the repository root:

    .venv/bin/python bench/bounds.py [--repeat K] [--check]

The tests prove what satchel does with each of these inputs; how fast it does it is a
timing claim, so it lives here, measured in one process beside a floor of the same size
(reading the same bytes, or listing the same tree), never asserted by the suite:

* Y01 billion laughs: `frontmatter.parse` refuses the aliases before any expansion
  (the threat model's bound: 50 ms);
* S03 truncation of 4 MiB of ASCII and of one 1 MiB combining sequence (1 s);
* S04 5,000 skills in one root, and 5,000 skills with one name (4,999 collisions): the
  second must not grow faster than linearly, so it is also timed at 2,500 and the
  ratio printed (at most 3x for twice the skills);
* P04 a pair of symlinks pointing at each other in a skills root (1 s);
* the worst hook matcher satchel accepts on the longest subject it tries (0.5 s).

Each operation is warmed up once, then timed K times (default 5) after a
`gc.collect()`; the median is printed with its bound, then the ratios. `--check`
exits 1 when a median misses its bound.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import satchel
from satchel import truncate
from satchel.foundations import frontmatter
from satchel.hooks import compile_matcher
from satchel.hooks._matchers import MAX_SUBJECT

MIB = 1_048_576


def laughs() -> bytes:
    rows = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        rows.append(f"  {cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    text = "name: laughs\ndescription: Billion laughs.\nmetadata:\n" + "\n".join(rows) + "\n"
    return b"---\n" + text.encode() + b"---\n# Body\n"


def project(root: Path, name: str) -> tuple[Path, Path]:
    base = root / name
    (base / "project" / ".git").mkdir(parents=True)
    (base / "home").mkdir()
    return base / "project", base / "home"


def skills(root: Path, name: str, count: int, *, same_name: bool) -> satchel.Layout:
    proj, home = project(root, name)
    skills_root = proj / ".agents" / "skills"
    for i in range(count):
        directory = skills_root / f"dir-{i:05d}"
        directory.mkdir(parents=True)
        skill = "same" if same_name else f"skill-{i:05d}"
        text = f"---\nname: {skill}\ndescription: One skill.\n---\n"
        (directory / "SKILL.md").write_text(text)
    return satchel.Layout.default(proj, home=home, env={})


def loops(root: Path) -> satchel.Layout:
    proj, home = project(root, "loops")
    skills_root = proj / ".agents" / "skills"
    skills_root.mkdir(parents=True)
    (skills_root / "a").symlink_to("b")
    (skills_root / "b").symlink_to("a")
    return satchel.Layout.default(proj, home=home, env={})


def timed(call: Callable[[], object], repeat: int) -> float:
    call()
    runs = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        call()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="exit 1 when a bound is missed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        data = laughs()
        many = skills(root, "many", 5_000, same_name=False)
        half = skills(root, "half", 2_500, same_name=True)
        full = skills(root, "full", 5_000, same_name=True)
        loop = loops(root)
        matcher = compile_matcher(".*a.*a.*b")
        ascii_text, marks = "x" * (4 * MIB), "e" + "\u0301" * MIB
        rows = [
            ("Y01 billion laughs parse", 0.05, lambda: frontmatter.parse(data)),
            ("S03 truncate 4 MiB ASCII", 1.0, lambda: truncate(ascii_text, max_tokens=10_000)),
            ("S03 truncate 1 MiB of marks", 1.0, lambda: truncate(marks, max_tokens=10_000)),
            ("S04 load 5,000 skills", 3.0, lambda: satchel.load(layout=many)),
            ("S04 5,000 skills, one name", 3.0, lambda: satchel.load(layout=full)),
            ("P04 symlink pair in a root", 1.0, lambda: satchel.load(layout=loop)),
            ("worst matcher, longest subject", 0.5, lambda: matcher.matches("a" * MAX_SUBJECT)),
        ]
        missed = 0
        print(f"{'case':34} {'median':>10} {'bound':>8}")
        for label, bound, call in rows:
            median = timed(call, args.repeat)
            ok = median <= bound
            missed += not ok
            verdict = "ok" if ok else "MISSED"
            print(f"{label:34} {median * 1000:8.1f}ms {bound * 1000:6.0f}ms {verdict}")
        halved = timed(lambda: satchel.load(layout=half), args.repeat)
        doubled = timed(lambda: satchel.load(layout=full), args.repeat)
        ratio = doubled / halved
        ok = ratio <= 3.0
        missed += not ok
        print(f"collisions 5,000 / 2,500: {ratio:.2f}x (bound 3.00x) {'ok' if ok else 'MISSED'}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
