"""A hook whose answer nests 100,000 levels deep: never a crash of the gate or the
CLI; the answer is unreadable (``hook.output.invalid``), which allows, or denies for a
strict hook, as every other unreadable answer does."""

from __future__ import annotations

import json
import os

import satchel
from satchel.cli import main
from satchel.session import Session

from .support import hooks_toml, py_hook, write_hooks

DEEP = (
    "import sys\nsys.stdin.read()\n"
    "sys.stdout.write('{\"x\": ' + '[' * 100_000 + ']' * 100_000 + '}')\n"
)
MESSAGE = "hook 'deep': its output nests deeper than 64 levels"


def _deep(layout, tmp_path, **handler):
    command = py_hook(tmp_path, "deep", DEEP)
    group = ("before_tool_use", "Bash", [{"command": command, "name": "deep", **handler}])
    write_hooks(layout.project, hooks_toml(group))


def _gate(layout):
    env = satchel.load(layout=layout)
    return Session(env, environ={"PATH": os.environ["PATH"]}).before_tool_use(
        "Bash", {"command": "ls"}
    )


def test_a_too_deep_answer_is_unreadable_and_allows(layout, tmp_path):
    _deep(layout, tmp_path)
    decision = _gate(layout)
    assert decision.behavior == "allow"
    assert decision.hooks is not None
    assert [(d.code, d.message) for d in decision.hooks.diagnostics] == [
        ("hook.output.invalid", MESSAGE)
    ]


def test_a_strict_hook_with_a_too_deep_answer_denies(layout, tmp_path):
    _deep(layout, tmp_path, strict=True)
    decision = _gate(layout)
    assert decision.behavior == "deny"
    assert decision.reason == (
        "hook 'deep' failed (its output nests deeper than 64 levels) and is set to deny on failure"
    )


def test_hooks_run_reports_a_too_deep_answer_without_a_traceback(layout, tmp_path, capsys):
    _deep(layout, tmp_path)
    where = ["--project", str(layout.project), "--home", str(layout.home)]
    code = main(["hooks", "run", "before_tool_use", "--tool", "Bash", "--json", *where])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["behavior"] == "allow"
    assert [(d["code"], d["message"]) for d in data["diagnostics"]] == [
        ("hook.output.invalid", MESSAGE)
    ]
