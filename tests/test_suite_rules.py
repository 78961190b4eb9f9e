"""Rules the suite keeps about itself: no test asserts how long something took (speed
is measured in bench/; a hang trips the per-test timeout, or a polling deadline)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCK = re.compile(
    r"\bassert\b.*(\belapsed\b|\.duration\b|(monotonic|perf_counter|time)\(\) - ).*<"
)


def clock_assertions(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if CLOCK.search(line)]


def test_the_rule_finds_a_clock_assertion():
    text = "start = time.perf_counter()\nrun()\nassert time.perf_counter() - start < 3.0\n"
    assert clock_assertions(text) == [3]
    assert clock_assertions("assert elapsed < 1.0\nassert result.duration < HUNG\n") == [1, 2]
    assert clock_assertions("assert result.duration > 0\n") == []
    # a polling deadline ("the child never started") is a hang bound, not a timing claim
    assert clock_assertions("assert time.monotonic() < deadline, 'never started'\n") == []


def test_no_test_asserts_a_wall_clock_time():
    found = {
        f"{path.relative_to(TESTS)}:{line}"
        for path in TESTS.rglob("*.py")
        if path.name != "test_suite_rules.py"
        for line in clock_assertions(path.read_text(encoding="utf-8"))
    }
    assert sorted(found) == []
