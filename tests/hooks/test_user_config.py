"""A Claude Code plugin hook and its plugin's userConfig values, run for real: an
exec-form command gets ``${user_config.KEY}`` filled and every hook gets
``CLAUDE_PLUGIN_OPTION_<KEY>``; a shell-form command naming a value is refused as
Claude Code 2.1.332 refuses it; a hook naming a value that is missing does not run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import satchel
from satchel.plugins._options import write_values
from satchel.runtime.hooks import HookRunner
from tests.support import codes, put

from .support import PY

OPTIONS = {
    "mode": {"type": "string", "title": "Mode", "description": "d", "required": True},
    "depth": {"type": "number", "title": "Depth", "description": "d", "default": 2},
}
SHOW = """import json, os, sys
seen = {"argv": sys.argv[1:], "mode": os.environ.get("CLAUDE_PLUGIN_OPTION_MODE"),
        "depth": os.environ.get("CLAUDE_PLUGIN_OPTION_DEPTH")}
print(json.dumps({"hookSpecificOutput": {"additionalContext": json.dumps(seen)}}))
"""


def plugin(layout: satchel.Layout, *handlers: dict[str, Any]) -> Path:
    root = layout.project / ".satchel" / "plugins" / "guard"
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": "guard", "userConfig": OPTIONS}))
    put(root, "show.py", SHOW)
    hooks = {"PreToolUse": [{"hooks": list(handlers)}]}
    put(root, "hooks/hooks.json", json.dumps({"hooks": hooks}))
    return root


def exec_form(*args: str) -> dict[str, Any]:
    return {"type": "command", "command": PY, "args": ["${CLAUDE_PLUGIN_ROOT}/show.py", *args]}


def test_exec_form_gets_the_values_and_the_environment_has_them(layout):
    plugin(layout, exec_form("--mode=${user_config.mode}", "${user_config.depth}"))
    env = satchel.load(layout=layout)
    assert write_values(layout, env.plugins.plugins["guard"], {"mode": "strict"}) == []
    outcome = HookRunner(env).before_tool_use("Bash", {"command": "ls"})
    seen = json.loads(outcome.additional_context)
    assert seen == {"argv": ["--mode=strict", "2"], "mode": "strict", "depth": "2"}


def test_a_missing_value_stops_the_hook_that_needs_it_and_not_the_other(layout):
    plugin(layout, exec_form("${user_config.mode}"), exec_form("plain"))
    env = satchel.load(layout=layout)
    outcome = HookRunner(env).before_tool_use("Bash", {"command": "ls"})
    assert json.loads(outcome.additional_context) == {"argv": ["plain"], "mode": None, "depth": "2"}
    found = [d for r in outcome.results for d in r.diagnostics if d.code.startswith("plugin.")]
    assert codes(found) == ["plugin.config.missing"]
    assert found[0].message == (
        f"hook {PY!r} was not run: it needs the userConfig option 'mode' of plugin "
        "'guard', which has no value"
    )


def test_a_shell_form_command_naming_a_value_does_not_run(layout):
    """Claude Code's rule: the value would be parsed again by the shell."""
    shell = {"type": "command", "command": "echo ${user_config.mode} > /dev/null"}
    plugin(layout, shell)
    env = satchel.load(layout=layout)
    write_values(layout, env.plugins.plugins["guard"], {"mode": "x; touch pwned"})
    outcome = HookRunner(env).before_tool_use("Bash", {"command": "ls"})
    found = [d for r in outcome.results for d in r.diagnostics]
    assert codes(found)[:1] == ["plugin.config.refused"]
    assert found[0].message.startswith(
        "hook 'echo ${user_config.mode} > /dev/null' of plugin 'guard' was not run: it names "
        "${user_config.mode} in a shell-form command; the substituted value would be parsed "
        "again by the shell"
    )
