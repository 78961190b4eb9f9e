"""Reading hook files: satchel's hooks.toml, Claude Code's settings.json, and the bad
files of the issue (invalid event, invalid matcher regex, duplicate names, over 128
hooks). A bad hook is reported and the rest load; nothing runs while reading."""

from __future__ import annotations

import json

import satchel
from satchel.hooks import read_hooks_toml, read_settings_hooks
from tests.support import codes

from .support import hooks_toml, write_hooks


def load(layout, text, **options):
    write_hooks(layout.project, text)
    return satchel.load(layout=layout, **options)


def test_hooks_toml_mirrors_claude_codes_shape(layout):
    path = write_hooks(
        layout.project,
        hooks_toml(
            (
                "before_tool_use",
                "Bash",
                [
                    {
                        "name": "guard",
                        "command": "guard.sh",
                        "timeout": 5,
                        "if": "Bash(rm *)",
                        "strict": True,
                        "description": "d",
                    },
                    {"command": "log", "args": ["--json"]},
                ],
            ),
            ("stop", None, [{"command": "summary"}]),
        ),
    )
    specs, diags = read_hooks_toml(path)
    assert diags == []
    assert [(s.event, s.matcher, s.command, s.args, s.format) for s in specs] == [
        ("before_tool_use", "Bash", "guard.sh", None, "satchel"),
        ("before_tool_use", "Bash", "log", ("--json",), "satchel"),
        ("stop", None, "summary", None, "satchel"),
    ]
    guard = specs[0]
    assert (guard.name, guard.timeout, guard.condition, guard.strict) == (
        "guard",
        5.0,
        "Bash(rm *)",
        True,
    )


def test_the_user_file_loads_after_the_project_file(layout):
    write_hooks(layout.project, hooks_toml(("stop", None, [{"command": "project"}])))
    user = layout.config_home / "satchel" / "hooks.toml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(hooks_toml(("stop", None, [{"command": "user"}])))
    env = satchel.load(layout=layout)
    assert [(h.source, h.spec.command) for h in env.hooks.hooks] == [
        ("project", "project"),
        ("user", "user"),
    ]


def test_an_unknown_event_is_kept_and_reported(layout):
    env = load(layout, hooks_toml(("PostToolBatch", None, [{"command": "x"}])))
    hook = env.hooks.hooks[0]
    assert (hook.event, hook.status) == ("PostToolBatch", "loaded")
    assert [(d.code, d.message) for d in env.hooks.diagnostics] == [
        ("hook.event.unknown", "hook 'x': event 'PostToolBatch' is not one satchel knows")
    ]


def test_a_claude_name_in_hooks_toml_is_unknown_there(layout):
    env = load(layout, hooks_toml(("PreToolUse", None, [{"command": "x"}])))
    assert codes(env.hooks.diagnostics) == ["hook.event.unknown"]


def test_an_invalid_matcher_regex_skips_that_hook_only(layout):
    env = load(
        layout,
        hooks_toml(
            ("before_tool_use", "Bash(", [{"command": "bad"}]),
            ("before_tool_use", "Bash", [{"command": "good"}]),
        ),
    )
    bad, good = env.hooks.hooks
    assert bad.status == "skipped"
    assert bad.why.startswith("invalid matcher: matcher 'Bash(' is not a valid regex")
    assert good.status == "loaded"
    assert codes(env.hooks.diagnostics) == ["hook.matcher.invalid"]


def test_a_catastrophic_matcher_is_refused(layout):
    env = load(layout, hooks_toml(("before_tool_use", "(a+)+$", [{"command": "x"}])))
    assert env.hooks.hooks[0].why == (
        "invalid matcher: matcher '(a+)+$' is refused: a repeated group holds a repeat or "
        "an alternative (catastrophic backtracking)"
    )


def test_an_invalid_if_rule_skips_the_hook(layout):
    env = load(layout, hooks_toml(("before_tool_use", None, [{"command": "x", "if": "Bash("}])))
    assert env.hooks.hooks[0].status == "skipped"
    assert codes(env.hooks.diagnostics) == ["permission.rule.invalid"]


def test_duplicate_names_drop_the_later_hook(layout):
    env = load(
        layout,
        hooks_toml(
            ("stop", None, [{"name": "same", "command": "a"}]),
            ("session_end", None, [{"name": "same", "command": "b"}]),
        ),
    )
    assert [h.spec.command for h in env.hooks.hooks] == ["a"]
    assert [(d.code, d.message) for d in env.hooks.diagnostics] == [
        (
            "hook.file.invalid",
            "session_end group #1 handler #1: stop group #1 handler #1 has the same name "
            "'same'; names are unique; it is skipped",
        )
    ]


def test_over_128_hooks_refuses_the_file(layout):
    handlers = [{"command": f"c{i}"} for i in range(129)]
    env = load(layout, hooks_toml(("stop", None, handlers)))
    assert env.hooks.hooks == ()
    assert [d.message for d in env.hooks.diagnostics] == [
        "the file declares 129 hooks; the limit is 128; no hook of this file loads"
    ]


def test_a_file_over_64_kib_is_refused(layout):
    env = load(layout, "# " + "x" * 70_000 + "\n")
    assert [d.message for d in env.hooks.diagnostics] == [
        "cannot be read (larger than 65,536 bytes); no hook of this file loads"
    ]


def test_bad_toml_and_bad_handlers_are_reported(layout):
    env = load(layout, "[hooks\n")
    assert codes(env.hooks.diagnostics) == ["hook.file.invalid"]
    env = load(
        layout,
        hooks_toml(
            ("stop", None, [{"command": " "}, {"command": "ok", "colour": "red"}]),
            ("stop", None, [{"command": "x", "type": "script"}, {"command": "y", "timeout": -1}]),
        ),
    )
    assert [h.spec.command for h in env.hooks.hooks] == ["ok"]
    assert [d.message for d in env.hooks.diagnostics] == [
        "stop group #1 handler #1: command must be a non-blank string; it is skipped",
        "stop group #1 handler #2: unknown key 'colour' is ignored",
        "stop group #2 handler #1: type must be 'command', 'http', 'mcp_tool', 'prompt' or "
        "'agent', not 'script'; it is skipped",
        "stop group #2 handler #2: timeout must be a positive number of seconds, not -1; "
        "it is skipped",
    ]


def test_settings_json_hooks_and_a_settings_file_without_hooks(tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"permissions": {}}))
    assert read_settings_hooks(settings) == ((), [])
    group = {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt", "timeout": 3}]}
    settings.write_text(json.dumps({"hooks": {"PostToolUse": [group]}}))
    specs, diags = read_settings_hooks(settings)
    assert diags == []
    assert [(s.event, s.matcher, s.command, s.timeout, s.plugin) for s in specs] == [
        ("PostToolUse", "Edit", "fmt", 3.0, None)
    ]
    settings.write_text("{not json")
    assert codes(read_settings_hooks(settings)[1]) == ["hook.file.invalid"]


def test_a_missing_file_is_no_error(tmp_path):
    assert read_hooks_toml(tmp_path / "none.toml") == ((), [])
    assert read_settings_hooks(tmp_path / "none.json") == ((), [])


def test_plugin_hooks_of_every_format_map_to_canonical_events(layout):
    lay = satchel.Layout.default("examples/workspace", home="examples/home",
                                 project="examples/workspace")  # fmt: skip
    env = satchel.load(layout=lay, trusted=True)
    assert [(h.source, h.spec.event, h.event) for h in env.hooks.hooks] == [
        ("plugin:deploy-kit", "pre_tool", "before_tool_use"),
        ("plugin:deploy-kit", "post_agent", "stop"),
        ("plugin:meeting-notes", "SessionStart", "session_start"),
        ("plugin:pr-tools", "PreToolUse", "before_tool_use"),
        ("plugin:pr-tools", "PostToolUse", "after_tool_use"),
    ]


def test_a_matcher_on_an_event_without_one_is_not_even_compiled(layout):
    env = load(layout, hooks_toml(("stop", "Bash(", [{"command": "x"}])))
    assert (env.hooks.hooks[0].status, env.hooks.diagnostics) == ("loaded", ())
