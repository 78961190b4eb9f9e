"""The runner: the payload and environment a hook gets, where it runs, which hooks
match, deduplication, the `if` rule, the sync and async entry points, and trust
(threat model T01-T03): an untrusted project and declarative-only mode run nothing."""

from __future__ import annotations

import asyncio
import json

import pytest

import satchel
from satchel.runtime.hooks import HookRunner
from satchel.runtime.hooks._payload import dialect_for
from satchel.trust._trust import trust
from tests.support import codes

from .support import (
    PY,
    claude_plugin,
    environment,
    fire,
    hooks_toml,
    pre_tool,
    py_hook,
    reply,
    write_hooks,
)

ECHO = """import json, os, sys
payload = json.load(sys.stdin)
names = ("SATCHEL_HOOK_EVENT", "MERMAID_HOOK_EVENT", "PLUGIN_ROOT", "PLUGIN_DATA",
         "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_PROJECT_DIR", "PYTHONPATH")
seen = {"payload": payload, "env": {n: os.environ.get(n) for n in names}, "cwd": os.getcwd()}
print(json.dumps({"hookSpecificOutput": {"additionalContext": json.dumps(seen)}}))
"""


def seen(outcome):
    return json.loads(outcome.additional_context)


def test_the_payload_has_claude_codes_field_names(tmp_path, layout):
    command = py_hook(tmp_path, "echo", ECHO)
    env = environment(layout, ("before_tool_use", "Bash", [{"command": command}]))
    runner = HookRunner(env, session_id="s-1", transcript_path="/t.jsonl")
    outcome = runner.before_tool_use("Bash", {"command": "ls"}, tool_use_id="toolu_1")
    assert seen(outcome)["payload"] == {
        "session_id": "s-1",
        "transcript_path": "/t.jsonl",
        "cwd": str(layout.cwd),
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": "toolu_1",
        "hook_event_name": "PreToolUse",
    }


def test_the_environment_is_scrubbed_and_names_the_event(tmp_path, layout):
    command = py_hook(tmp_path, "echo", ECHO)
    env = environment(layout, ("stop", None, [{"command": command}]))
    outcome = HookRunner(env, environ={"PATH": "/usr/bin:/bin", "PYTHONPATH": "/evil"}).run(
        "stop", {}
    )
    data = seen(outcome)
    assert data["env"]["SATCHEL_HOOK_EVENT"] == "stop"
    assert data["env"]["PYTHONPATH"] is None
    assert data["env"]["PLUGIN_ROOT"] is None
    assert data["cwd"] == str(layout.cwd)


def test_the_event_variable_follows_the_client(tmp_path, project, home):
    lay = satchel.Layout.default(project, home=home, env={}, client="mermaid")
    trust(lay, project)
    path = project / ".mermaid" / "hooks.toml"
    path.parent.mkdir()
    command = py_hook(tmp_path, "echo", ECHO)
    path.write_text(hooks_toml(("session_start", None, [{"command": command}])))
    outcome = HookRunner(satchel.load(layout=lay)).run("SessionStart", {"source": "startup"})
    assert seen(outcome)["env"]["MERMAID_HOOK_EVENT"] == "session_start"


def test_a_claude_plugin_hook_runs_in_its_root_with_the_plugin_variables(tmp_path, layout):
    command = py_hook(tmp_path, "echo", ECHO)
    plugins = layout.project / ".satchel" / "plugins"
    root = claude_plugin(
        plugins, "guard", {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}
    )
    env = satchel.load(layout=layout)
    data = seen(HookRunner(env).before_tool_use("Bash", {"command": "ls"}))
    plugin = env.plugins.plugins["guard"]
    assert data["cwd"] == str(plugin.root)
    assert data["env"]["PLUGIN_ROOT"] == data["env"]["CLAUDE_PLUGIN_ROOT"] == str(plugin.root)
    assert data["env"]["PLUGIN_DATA"] == data["env"]["CLAUDE_PLUGIN_DATA"]
    assert data["env"]["PLUGIN_DATA"] == str(plugin.data_dir)
    assert plugin.data_dir is not None and plugin.data_dir.is_dir()
    assert data["env"]["CLAUDE_PROJECT_DIR"] == str(layout.project)
    assert root.resolve() == plugin.root.resolve()


def test_exec_form_substitutes_the_plugin_root_in_each_argument(tmp_path, layout):
    plugins = layout.project / ".satchel" / "plugins"
    handler = {"type": "command", "command": PY, "args": ["${CLAUDE_PLUGIN_ROOT}/hook.py"]}
    root = claude_plugin(plugins, "exec", {"PreToolUse": [{"hooks": [handler]}]})
    (root / "hook.py").write_text(
        "import json\nprint(json.dumps({'decision': 'block', 'reason': 'exec form'}))\n"
    )
    outcome = HookRunner(satchel.load(layout=layout)).before_tool_use("Bash", {})
    assert (outcome.behavior, outcome.reason) == ("deny", "exec form")


def test_plugin_hooks_can_run_in_the_project_instead(tmp_path, layout):
    command = py_hook(tmp_path, "echo", ECHO)
    plugins = layout.project / ".satchel" / "plugins"
    claude_plugin(plugins, "p", {"Stop": [{"hooks": [{"type": "command", "command": command}]}]})
    runner = HookRunner(satchel.load(layout=layout), plugin_cwd="project")
    assert seen(runner.run("stop", {}))["cwd"] == str(layout.cwd)


@pytest.mark.parametrize(
    ("matcher", "tool", "runs"),
    [
        ("Bash", "Bash", True),
        ("Bash", "bash", False),
        ("Edit|Write", "Write", True),
        ("Edit, Write", "Write", True),
        ("Edit.*", "NotebookEdit", True),
        ("^Edit$", "NotebookEdit", False),
        ("mcp__memory__.*", "mcp__memory__read", True),
        ("mcp__memory", "mcp__memory__read", False),
        ("mcp__plugin_kit_db__.*", "mcp__plugin_kit_db__query", True),
        ("*", "Anything", True),
        ("", "Anything", True),
    ],
)
def test_matchers_select_by_tool_name(tmp_path, layout, matcher, tool, runs):
    command = reply(tmp_path, "h", out=pre_tool("deny", "matched"))
    env = environment(layout, ("before_tool_use", matcher, [{"command": command}]))
    assert (HookRunner(env).before_tool_use(tool, {}).behavior == "deny") is runs


def test_a_matcher_on_an_event_without_one_is_ignored(tmp_path, layout):
    command = reply(tmp_path, "h", out={"decision": "block", "reason": "r"})
    env = environment(layout, ("stop", "Nothing", [{"command": command}]))
    assert HookRunner(env).run("stop", {}).behavior == "deny"


@pytest.mark.parametrize(("command", "runs"), [("git push --force", True), ("git status", False)])
def test_the_if_rule_uses_the_permission_engine(tmp_path, layout, command, runs):
    hook = reply(tmp_path, "h", out=pre_tool("deny", "no force"))
    handler = {"command": hook, "if": "Bash(git push *)"}
    env = environment(layout, ("before_tool_use", "Bash", [handler]))
    outcome = HookRunner(env).before_tool_use("Bash", {"command": command})
    assert (outcome.behavior == "deny") is runs


def test_identical_handlers_of_one_source_run_once(tmp_path, layout):
    command = reply(tmp_path, "h", out=pre_tool("allow", additionalContext="ran"))
    env = environment(
        layout,
        ("before_tool_use", "Bash", [{"command": command}]),
        ("before_tool_use", "*", [{"command": command}]),
    )
    outcome = HookRunner(env).before_tool_use("Bash", {})
    assert (len(outcome.results), outcome.additional_context) == (1, "ran")


def test_the_same_handler_in_two_plugins_runs_twice(tmp_path, layout):
    command = reply(tmp_path, "h", out=pre_tool("allow", additionalContext="ran"))
    plugins = layout.project / ".satchel" / "plugins"
    group = {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}
    claude_plugin(plugins, "one", group)
    claude_plugin(plugins, "two", group)
    outcome = HookRunner(satchel.load(layout=layout)).before_tool_use("Bash", {})
    assert outcome.additional_context == "ran\nran"


def test_contexts_concatenate_in_declared_order(tmp_path, layout):
    handlers = [
        {"command": reply(tmp_path, f"h{i}", out=pre_tool("allow", additionalContext=f"c{i}"),
                          sleep=0.1 * (2 - i))}
        for i in range(3)
    ]  # fmt: skip
    outcome = fire(layout, ("before_tool_use", None, handlers))
    assert outcome.additional_context == "c0\nc1\nc2"


def test_dispatch_is_awaitable(tmp_path, layout):
    command = reply(tmp_path, "h", out=pre_tool("ask", "sure?"))
    env = environment(layout, ("before_tool_use", None, [{"command": command}]))
    outcome = asyncio.run(HookRunner(env).dispatch("PreToolUse", {"tool_name": "Bash"}))
    assert (outcome.event, outcome.behavior) == ("before_tool_use", "ask")


def test_a_vibe_hook_answers_in_vibes_protocol(tmp_path, layout):
    plugin = layout.project / ".satchel" / "plugins" / "vibe-guard"
    (plugin / "ai.mistral.vibe").mkdir(parents=True)
    manifest = {
        "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        "name": "vibe-guard",
        "extensions": {"ai.mistral.vibe": {"schemaVersion": 1}},
    }
    (plugin / "plugin.json").write_text(json.dumps(manifest))
    (plugin / "guard.py").write_text(
        "import json, sys\nassert json.load(sys.stdin)['hook_event_name'] == 'pre_tool'\n"
        "print(json.dumps({'hook_specific_output': {'tool_input': {'command': 'ls -1'}}}))\n"
    )
    (plugin / "ai.mistral.vibe" / "hooks.toml").write_text(
        f'[[hooks]]\nname = "g"\ntype = "pre_tool"\nmatch = "ba*"\ncommand = "{PY} guard.py"\n'
    )
    env = satchel.load(layout=layout)
    assert codes(env.hooks.diagnostics) == []
    outcome = HookRunner(env).before_tool_use("bash", {"command": "ls"})
    assert (outcome.behavior, outcome.updated_input) == ("allow", {"command": "ls -1"})


@pytest.mark.parametrize(("fail_mode", "behavior"), [("open", "allow"), ("closed", "deny")])
def test_a_kimi_hook_fail_mode_closed_denies_on_failure(tmp_path, layout, fail_mode, behavior):
    plugin = layout.project / ".satchel" / "plugins" / "kimi-guard"
    plugin.mkdir(parents=True)
    hook = {"event": "PreToolUse", "command": "exit 1", "fail_mode": fail_mode}
    (plugin / "kimi.plugin.json").write_text(json.dumps({"name": "kimi-guard", "hooks": [hook]}))
    outcome = HookRunner(satchel.load(layout=layout)).before_tool_use("Bash", {})
    assert outcome.behavior == behavior


@pytest.mark.parametrize("host", ["codex", "gemini"])
def test_a_hook_set_to_deny_on_failure_denies_under_each_hosts_reading(tmp_path, layout, host):
    """Codex and Gemini CLI read a hook's answer by their own rules, but a hook that
    satchel is told to fail closed still denies when it fails."""
    plugin = layout.project / ".satchel" / "plugins" / "kimi-guard"
    plugin.mkdir(parents=True)
    hook = {"event": "PreToolUse", "command": "exit 1", "fail_mode": "closed"}
    (plugin / "kimi.plugin.json").write_text(json.dumps({"name": "kimi-guard", "hooks": [hook]}))
    runner = HookRunner(satchel.load(layout=layout), dialect=dialect_for(host))
    outcome = runner.before_tool_use("Bash", {})
    assert outcome.behavior == "deny"
    assert "is set to deny on failure" in (outcome.reason or "")


def test_claude_settings_hooks_load_only_when_asked(tmp_path, layout):
    command = reply(tmp_path, "h", out=pre_tool("deny", "from settings"))
    settings = layout.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    settings.write_text(json.dumps({"model": "x", "hooks": {"PreToolUse": [group]}}))
    assert satchel.load(layout=layout).hooks.hooks == ()
    env = satchel.load(layout=layout, claude_settings_hooks=True)
    assert [h.source for h in env.hooks.hooks] == ["claude-project"]
    assert HookRunner(env).before_tool_use("Bash", {}).reason == "from settings"


CANARY_HOOK = "import pathlib, sys\npathlib.Path(sys.argv[1]).touch()\n"


def canary_project(tmp_path, layout):
    """Every kind of project hook, each touching the canary if it ever runs."""
    canary = tmp_path / "canary"
    script = py_hook(tmp_path, "touch", CANARY_HOOK)
    command = f'{script} "{canary}"'
    write_hooks(
        layout.project,
        hooks_toml(
            ("session_start", None, [{"command": command}]),
            ("before_tool_use", None, [{"command": command}]),
        ),
    )
    settings = layout.project / ".claude" / "settings.json"
    settings.parent.mkdir()
    group = {"hooks": [{"type": "command", "command": command}]}
    settings.write_text(json.dumps({"hooks": {"SessionStart": [group], "PreToolUse": [group]}}))
    plugins = layout.project / ".satchel" / "plugins"
    claude_plugin(plugins, "evil", {"SessionStart": [group], "PreToolUse": [group]})
    return canary


def test_t01_an_untrusted_project_executes_nothing(tmp_path, layout):
    canary = canary_project(tmp_path, layout)
    env = satchel.load(layout=layout, trusted=False, claude_settings_hooks=True, read_held=True)
    runner = HookRunner(env)
    runner.run("session_start", {"source": "startup"})
    outcome = runner.before_tool_use("Bash", {"command": "ls"})
    assert not canary.exists()
    assert outcome.results == ()
    assert {(h.source, h.status, h.why) for h in env.hooks.hooks} == {
        ("project", "skipped", "the project is not trusted"),
        ("claude-project", "skipped", "the project is not trusted"),
        ("plugin:evil", "skipped", "the project is not trusted"),  # held, listed
    }
    assert "evil" not in env.plugins.plugins and "evil" in env.plugins.held
    assert "hook.untrusted" in codes(env.diagnostics)


def test_t01_the_same_project_trusted_runs_its_hooks(tmp_path, layout):
    canary = canary_project(tmp_path, layout)
    env = satchel.load(layout=layout, claude_settings_hooks=True)
    HookRunner(env).run("session_start", {"source": "startup"})
    assert canary.exists()


def test_declarative_only_runs_no_hook(tmp_path, layout):
    canary = canary_project(tmp_path, layout)
    env = satchel.load(layout=layout, executable=False, claude_settings_hooks=True)
    HookRunner(env).run("session_start", {"source": "startup"})
    assert not canary.exists()
    assert {h.why for h in env.hooks.hooks} == {"declarative-only loading runs no hook"}


def test_t02_a_project_file_cannot_trust_itself(tmp_path, project, home):
    lay = satchel.Layout.default(project, home=home, env={})  # never trusted
    canary = tmp_path / "canary"
    command = f'{py_hook(tmp_path, "touch", CANARY_HOOK)} "{canary}"'
    write_hooks(
        project,
        "trusted = true\n" + hooks_toml(("session_start", None, [{"command": command}])),
    )
    (project / ".satchel" / "trusted-folders.json").write_text(
        json.dumps({"version": 1, "folders": [str(project)]})
    )
    env = satchel.load(layout=lay)
    HookRunner(env).run("session_start", {})
    assert not env.trusted
    assert not canary.exists()


def test_t03_hooks_are_a_snapshot_until_reload(tmp_path, layout):
    first = reply(tmp_path, "first", out=pre_tool("deny", "first"))
    env = environment(layout, ("before_tool_use", None, [{"command": first}]))
    second = reply(tmp_path, "second", out=pre_tool("deny", "second"))
    write_hooks(layout.project, hooks_toml(("before_tool_use", None, [{"command": second}])))
    assert HookRunner(env).before_tool_use("Bash", {}).reason == "first"
    fresh, _ = env.reload()
    assert HookRunner(fresh).before_tool_use("Bash", {}).reason == "second"
