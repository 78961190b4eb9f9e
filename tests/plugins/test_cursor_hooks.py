"""Cursor's hooks (`{"version": 1, "hooks": {event: [{"command": ...}]}}`, camelCase
events, cursor.com/docs/agent/hooks) load from a Cursor plugin under satchel's events,
run as real processes told their own event name, and answer in Cursor's words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel import load
from satchel.core.layout import Layout
from satchel.foundations.origin import Origin
from satchel.foundations.process import ProcessResult
from satchel.hooks._events import CURSOR_EVENTS, CURSOR_NAMES, canonical
from satchel.hooks._matchers import ALL
from satchel.hooks._model import Hook
from satchel.hooks._parse import cursor_hooks
from satchel.hooks._spec import HookSpec
from satchel.plugins import read_plugin
from satchel.runtime.hooks import HookRunner
from satchel.runtime.hooks._output import read_result
from tests.hooks.support import py_hook
from tests.support import codes, put


def cursor_plugin(root: Path, hooks: dict[str, Any]) -> Path:
    put(root, ".cursor-plugin/plugin.json", json.dumps({"name": "guarded"}))
    put(root, "hooks/hooks.json", json.dumps({"version": 1, "hooks": hooks}))
    return root


@pytest.mark.parametrize(
    ("event", "satchel_event", "matcher"),
    [
        ("beforeShellExecution", "before_tool_use", "Bash"),
        ("afterShellExecution", "after_tool_use", "Bash"),
        ("beforeMCPExecution", "before_tool_use", "mcp__.*"),
        ("beforeReadFile", "before_tool_use", "Read"),
        ("afterFileEdit", "after_tool_use", "Edit|MultiEdit|Write"),
        ("beforeSubmitPrompt", "user_prompt_submit", None),
        ("stop", "stop", None),
        ("sessionStart", "session_start", None),
    ],
)
def test_each_cursor_event_is_a_satchel_event_and_its_tool(
    tmp_path: Path, event: str, satchel_event: str, matcher: str | None
):
    plugin, diags = read_plugin(cursor_plugin(tmp_path / "p", {event: [{"command": "x"}]}))
    assert plugin is not None and diags == []
    (hook,) = plugin.hooks
    assert (hook.event, hook.format, hook.matcher) == (event, "cursor", matcher)
    assert canonical(hook.event, "cursor") == satchel_event


def test_a_tool_event_keeps_the_matcher_it_was_written_with(tmp_path: Path):
    hooks = {"preToolUse": [{"command": "x", "matcher": "Shell", "timeout": 5}]}
    plugin, _ = read_plugin(cursor_plugin(tmp_path / "p", hooks))
    assert plugin is not None
    assert [(h.event, h.matcher, h.timeout) for h in plugin.hooks] == [("preToolUse", "Shell", 5)]


def test_every_satchel_event_cursor_fires_has_its_general_cursor_name():
    assert all(canonical(name, "cursor") == event for event, name in CURSOR_NAMES.items())
    assert set(CURSOR_NAMES) == set(CURSOR_EVENTS.values())


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"version": 1, "hooks": {"beforeShellExec": [{"command": "x"}]}},
         "event 'beforeShellExec' is not a Cursor hook event; its hooks are skipped"),
        ({"version": 1, "hooks": {"stop": {"command": "x"}}},
         "event 'stop' must map to a list of hooks, not a mapping; its hooks are skipped"),
        ({"version": 1, "hooks": {"stop": [{"type": "prompt", "prompt": "?"}]}},
         "stop hook #1: type 'prompt' is not supported (satchel runs command hooks); it is "
         "skipped"),
        ([1], "a Cursor hooks file must be an object holding a hooks object (event -> hooks); "
              "no hook of this file loads"),
    ],
)  # fmt: skip
def test_a_bad_entry_is_skipped_with_its_reason(document: Any, message: str):
    hooks, diags = cursor_hooks(document, Path("hooks.json"), "guarded")
    assert hooks == ()
    assert [(d.code, d.message) for d in diags] == [("plugin.hooks.invalid", message)]


@pytest.mark.parametrize(
    ("answer", "decision", "reason"),
    [
        ({"permission": "deny", "agent_message": "not here", "user_message": "blocked"},
         "deny", "not here"),
        ({"permission": "ask", "user_message": "check it"}, "ask", "check it"),
        ({"permission": "allow"}, "allow", None),
        ({"followup_message": "run the tests too"}, "deny", "run the tests too"),
    ],
)  # fmt: skip
def test_a_cursor_hook_answers_in_cursors_words(
    answer: dict[str, Any], decision: str, reason: str | None
):
    hook = Hook(HookSpec("beforeShellExecution", "x", "cursor"), "before_tool_use",
                Origin("plugin"), ALL)  # fmt: skip
    result = read_result(hook, "before_tool_use", ProcessResult(("x",), 0, json.dumps(answer), ""))
    assert (result.decision, result.reason) == (decision, reason)


def test_a_permission_cursor_does_not_know_is_ignored_and_said():
    hook = Hook(HookSpec("preToolUse", "x", "cursor"), "before_tool_use", Origin("plugin"), ALL)
    result = read_result(
        hook, "before_tool_use", ProcessResult(("x",), 0, '{"permission": "DENY"}', "")
    )
    assert result.decision is None
    assert "hook.output.invalid" in codes(result.diagnostics)


def test_a_shell_guard_runs_for_bash_and_is_told_its_own_event(tmp_path: Path):
    seen = tmp_path / "seen.json"
    guard = py_hook(
        tmp_path / "bin",
        "guard",
        "import json, sys\n"
        f"open({str(seen)!r}, 'w').write(sys.stdin.read())\n"
        'print(json.dumps({"permission": "deny", "agent_message": "no shell here"}))\n',
    )
    plugin = cursor_plugin(tmp_path / "p", {"beforeShellExecution": [{"command": guard}]})
    layout = Layout.default(tmp_path, home=tmp_path / "home", project=tmp_path)
    env = load(layout=layout, host="cursor", plugin_dirs=[plugin], trusted=True)
    runner = HookRunner(env)
    outcome = runner.run("before_tool_use", {"tool_name": "Bash", "tool_input": {"command": "ls"}})
    assert (outcome.behavior, outcome.reason) == ("deny", "no shell here")
    assert json.loads(seen.read_text())["hook_event_name"] == "beforeShellExecution"
    assert runner.run("before_tool_use", {"tool_name": "Read", "tool_input": {}}).results == ()
