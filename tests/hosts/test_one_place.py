"""Each host's rules live in its definition under src/satchel/hosts/: no module outside
that package decides anything by comparing a value with a host's name (or the name of
a host's plugin format), so following a host's new release, or adding a host, is one
module and its tests."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from satchel.hosts import PROFILES
from satchel.hosts._vocabulary import FORMATS

SRC = Path(__file__).resolve().parents[2] / "src" / "satchel"
HOSTS = SRC / "hosts"
# Every host's name, and every plugin format named after its host ("claude" is Claude
# Code's): "agent-plugins", "bundle" and "workspace" name no host.
NAMES = frozenset(PROFILES) | (frozenset(FORMATS) - {"agent-plugins", "bundle", "workspace"})


def _named(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_named(e) for e in node.elts)
    if isinstance(node, ast.Call) and node.args:  # frozenset(("codex", ...))
        return _named(node.args[0])
    return False


def _patterns(pattern: ast.pattern) -> list[ast.pattern]:
    return list(pattern.patterns) if isinstance(pattern, ast.MatchOr) else [pattern]


def branches(tree: ast.AST) -> list[int]:
    """The lines of `tree` that compare a value with a host's name: ``==``, ``!=``,
    ``in``/``not in`` a literal holding one, or a ``case`` on one."""
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
            _named(side) for side in (node.left, *node.comparators)
        ):
            found.append(node.lineno)
        elif isinstance(node, ast.match_case) and any(
            isinstance(p, ast.MatchValue) and _named(p.value) for p in _patterns(node.pattern)
        ):
            found.append(node.pattern.lineno)
    return found


def outside_the_definitions() -> list[str]:
    return [
        f"{path.relative_to(SRC).as_posix()}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        if HOSTS not in path.parents
        for line in branches(ast.parse(path.read_text(encoding="utf-8")))
    ]


@pytest.mark.parametrize(
    ("code", "count"),
    [
        ('if host == "codex": pass', 1),
        ('if fmt != "claude": pass', 1),
        ('ok = name in ("gemini", "kimi")', 1),
        ('ok = name not in frozenset(("vibe",))', 1),
        ('match host:\n    case "cursor" | "copilot": pass', 1),
        ('if host == "agent-plugins": pass', 0),
        ("if rules.strict: pass", 0),
        ('label = "codex"', 0),
    ],
)
def test_the_count_finds_every_kind_of_branch_on_a_host_name(code, count):
    assert len(branches(ast.parse(code))) == count


def test_no_module_outside_the_host_definitions_branches_on_a_host_name():
    assert outside_the_definitions() == []
