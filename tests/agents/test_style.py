"""The agents package keeps its functions short (the project's 40-line rule)."""

from __future__ import annotations

import ast
from pathlib import Path

import satchel.agents

MAX_LINES = 40
PACKAGE = Path(satchel.agents.__file__).parent


def test_no_function_in_the_package_is_over_40_lines():
    long = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_the_description_rule_lives_in_one_place():
    defining = [
        path.name
        for path in sorted(PACKAGE.glob("*.py"))
        if "def _description(" in path.read_text(encoding="utf-8")
        or "def judge_description(" in path.read_text(encoding="utf-8")
    ]
    assert defining == ["fields.py"]
