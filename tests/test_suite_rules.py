"""Rules the suite keeps about itself: no test asserts how long something took (speed
is measured in bench/; a hang trips the per-test timeout, or a polling deadline), and
files, SKILL.md texts, golden files and diagnostic codes go through tests/support/ (one
writer, one golden comparison), not through a module's own copy."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUPPORT = TESTS / "support"
# The names the copies tests/support/ replaced went by.
OWN_HELPERS = frozenset((
    "put", "_put", "write", "_write", "write_file", "write_tree", "write_skill",
    "make_skill", "skill_md", "skill_text", "check_golden", "codes",
))  # fmt: skip
UPDATE_GOLDEN = "SATCHEL_UPDATE_GOLDEN"
# A module that holds neither a `def` of one of those names nor the switch's name has
# none of them: only the others are parsed.
MAY_HOLD = re.compile(rf"\bdef\s+({'|'.join(sorted(OWN_HELPERS))})\b|{UPDATE_GOLDEN}")
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


def own_helpers(text: str) -> list[str]:
    """Where `text` defines a tree writer, a SKILL.md text, a golden comparison or a
    codes list of its own (line: name), or reads the golden update switch itself."""
    found: list[tuple[int, str]] = []
    if not MAY_HOLD.search(text):
        return []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name in OWN_HELPERS:
                found.append((node.lineno, node.name))
        elif isinstance(node, ast.Constant) and node.value == UPDATE_GOLDEN:
            found.append((node.lineno, UPDATE_GOLDEN))
    return [f"{line}: {name}" for line, name in sorted(found)]


def test_the_rule_finds_a_writer_or_golden_comparison_of_a_modules_own():
    text = (
        "import os\n"
        "def put(path, text):\n    path.write_text(text)\n"
        "@pytest.fixture\ndef write():\n    def _write(root, name): ...\n    return _write\n"
        "def compare(name, text):\n    if os.environ.get('SATCHEL_UPDATE_GOLDEN'): ...\n"
    )
    assert own_helpers(text) == ["2: put", "5: write", "6: _write", "9: SATCHEL_UPDATE_GOLDEN"]
    assert own_helpers("from tests.support import put\nput(root, 'a.md', 'A')\n") == []
    assert own_helpers('"""Regenerate with SATCHEL_UPDATE_GOLDEN=1."""\n') == []


def test_no_test_module_writes_trees_or_compares_goldens_its_own_way():
    found = {
        f"{path.relative_to(TESTS)}:{where}"
        for path in TESTS.rglob("*.py")
        if SUPPORT not in path.parents and path.name != "test_suite_rules.py"
        for where in own_helpers(path.read_text(encoding="utf-8"))
    }
    assert sorted(found) == []
