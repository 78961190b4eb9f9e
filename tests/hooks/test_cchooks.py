"""Hooks written for Claude Code with a third-party authoring library from PyPI
(`cchooks`) run under satchel unchanged: the payload has the fields it validates and
its answers mean what they mean in Claude Code."""

from __future__ import annotations

import pytest

from satchel.runtime.hooks import HookRunner

from .support import environment, py_hook

GUARD = """from cchooks import PreToolUseContext, create_context

c = create_context()
assert isinstance(c, PreToolUseContext)
command = c.tool_input.get("command", "")
if "rm -rf" in command:
    c.output.deny("cchooks: no rm -rf")
elif command.startswith("sudo "):
    c.output.exit_block("cchooks: no sudo")
elif command == "ls":
    c.output.allow("fine", updated_input={"command": "ls -1"})
else:
    c.output.ask("cchooks: check this")
"""
STOP = """from cchooks import StopContext, create_context

c = create_context()
assert isinstance(c, StopContext)
if c.stop_hook_active:
    c.output.allow()
else:
    c.output.prevent("cchooks: run the tests first")
"""
START = """from cchooks import SessionStartContext, create_context

c = create_context()
assert isinstance(c, SessionStartContext)
c.output.add_context(f"started by {c.source}")
"""


@pytest.mark.parametrize(
    ("command", "behavior", "reason", "rewrite"),
    [
        ("rm -rf /", "deny", "cchooks: no rm -rf", None),
        ("sudo make", "deny", "cchooks: no sudo", None),
        ("ls", "allow", "fine", {"command": "ls -1"}),
        ("make", "ask", "cchooks: check this", None),
    ],
)
def test_a_cchooks_pre_tool_use_hook(tmp_path, layout, command, behavior, reason, rewrite):
    hook = py_hook(tmp_path, "guard", GUARD)
    env = environment(layout, ("before_tool_use", "Bash", [{"command": hook}]))
    outcome = HookRunner(env).before_tool_use("Bash", {"command": command})
    assert (outcome.behavior, outcome.reason, outcome.updated_input) == (behavior, reason, rewrite)
    assert outcome.diagnostics == ()


@pytest.mark.parametrize(("active", "behavior"), [(False, "deny"), (True, "allow")])
def test_a_cchooks_stop_hook(tmp_path, layout, active, behavior):
    env = environment(layout, ("stop", None, [{"command": py_hook(tmp_path, "stop", STOP)}]))
    outcome = HookRunner(env).run("Stop", {"stop_hook_active": active})
    assert outcome.behavior == behavior
    assert outcome.diagnostics == ()


def test_a_cchooks_session_start_hook(tmp_path, layout):
    hook = py_hook(tmp_path, "start", START)
    env = environment(layout, ("session_start", "startup", [{"command": hook}]))
    outcome = HookRunner(env).run("session_start", {"source": "startup"})
    assert outcome.additional_context == "started by startup"
