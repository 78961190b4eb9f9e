"""Hooks as hosts write them: Claude Code hooks/hooks.json, Vibe hooks.toml (Vibe's
plugin hook rules and Vibe 3.0.3's HookConfig), Kimi's flat list."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from satchel.hooks._parse import parse_claude_hooks, parse_kimi_hooks, parse_vibe_hooks
from tests.plugins.helpers import VIBE_HOOKS, write_json_file
from tests.support import codes, put

# --- Claude Code hooks/hooks.json ----------------------------------------------------


def claude(root: Path, doc: Any):
    path = put(root / "hooks" / "hooks.json", doc) if isinstance(doc, str) else None
    path = path or write_json_file(root / "hooks" / "hooks.json", doc)
    return parse_claude_hooks(path, root, "demo")


MIXED = {
    "description": "guards",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash|Edit",
                "hooks": [
                    {
                        "type": "command",
                        "command": '"${CLAUDE_PLUGIN_ROOT}"/hooks/guard.sh',
                        "timeout": 10,
                    },
                    {"type": "http", "url": "https://x.example/hook"},
                    {"type": "prompt", "prompt": "Is $ARGUMENTS safe?"},
                    {
                        "type": "command",
                        "command": "node",
                        "args": ["${CLAUDE_PLUGIN_ROOT}/check.js"],
                        "if": "Bash(git *)",
                        "description": "git guard",
                        "async": True,
                        "shell": "bash",
                        "statusMessage": "checking",
                    },
                ],
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {"type": "agent", "prompt": "verify"},
                    {"type": "command", "command": "lint"},
                ]
            }
        ],
        "FutureEvent": [
            {
                "matcher": "*",
                "hooks": [{"type": "mcp_tool", "tool": "x"}, {"type": "command", "command": "x"}],
            }
        ],
    },
}


def test_claude_keeps_every_handler_type_and_checks_their_fields(root):
    hooks, diags = claude(root, MIXED)
    assert [(h.event, h.type, h.command) for h in hooks] == [
        ("PreToolUse", "command", '"${CLAUDE_PLUGIN_ROOT}"/hooks/guard.sh'),
        ("PreToolUse", "http", "https://x.example/hook"),
        ("PreToolUse", "prompt", "Is $ARGUMENTS safe?"),
        ("PreToolUse", "command", "node"),
        ("Stop", "agent", "verify"),
        ("Stop", "command", "lint"),
        ("FutureEvent", "command", "x"),
    ]
    http, prompt = hooks[1], hooks[2]
    assert dict(http.params) == {"url": "https://x.example/hook", "headers": {},
                                 "allowedEnvVars": []}  # fmt: skip
    assert dict(prompt.params) == {"prompt": "Is $ARGUMENTS safe?", "model": None}
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert [d.message for d in diags] == [
        "FutureEvent group #1 handler #1: it has no server; it is skipped",
    ]


def test_claude_handler_fields(root):
    hooks, _ = claude(root, MIXED)
    guard, node, stop, future = (h for h in hooks if h.type == "command")
    assert (guard.format, guard.matcher, guard.timeout, guard.args) == (
        "claude",
        "Bash|Edit",
        10.0,
        None,
    )
    assert node.args == ("${CLAUDE_PLUGIN_ROOT}/check.js",)
    assert (node.condition, node.description) == ("Bash(git *)", "git guard")
    assert dict(node.extras) == {"async": True, "shell": "bash", "statusMessage": "checking"}
    assert node.timeout is None  # the runtime picks Claude Code's default
    assert stop.matcher is None and future.matcher == "*"
    assert {h.plugin for h in hooks} == {"demo"}
    assert {h.path for h in hooks} == {root / "hooks" / "hooks.json"}
    assert guard.type == "command" and dict(guard.params) == {}
    assert guard.name is None and guard.strict is False


@pytest.mark.parametrize(
    ("handler", "words"),
    [
        ({"command": "x"}, "it has no type"),
        ({"type": "script", "command": "x"}, "unknown handler type 'script'"),
        ({"type": "command"}, "it has no command"),
        ({"type": "command", "command": "  "}, "command must be a non-blank string"),
        ({"type": "command", "command": "x", "timeout": 0}, "timeout must be a positive number"),
        (
            {"type": "command", "command": "x", "timeout": True},
            "timeout must be a number of seconds",
        ),
        (
            {"type": "command", "command": "x", "timeout": "5"},
            "timeout must be a number of seconds",
        ),
        ({"type": "command", "command": "x", "args": "a"}, "args must be a list of strings"),
        ({"type": "command", "command": "x", "if": 1}, "if must be a string"),
        ({"type": "command", "command": "x", "async": "yes"}, "async must be a boolean"),
        ({"type": "command", "command": "x", "shell": 1}, "shell must be a string"),
        ("echo", "a handler must be an object, not a string"),
    ],
)
def test_claude_bad_handlers_are_dropped_alone(root, handler, words):
    doc = {"hooks": {"PreToolUse": [{"hooks": [handler, {"type": "command", "command": "ok"}]}]}}
    hooks, diags = claude(root, doc)
    assert [h.command for h in hooks] == ["ok"]
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert words in diags[0].message


@pytest.mark.parametrize(
    ("events", "words"),
    [
        ({"PreToolUse": {"hooks": []}}, "event 'PreToolUse' must map to a list of matcher groups"),
        (
            {"PreToolUse": [{"matcher": "x"}]},
            "PreToolUse group #1 must be an object with a hooks list",
        ),
        ({"PreToolUse": [{"matcher": 5, "hooks": []}]}, "optional string matcher"),
        ({"PreToolUse": ["x"]}, "PreToolUse group #1 must be an object"),
    ],
)
def test_claude_bad_groups_are_dropped_alone(root, events, words):
    doc = {"hooks": {**events, "Stop": [{"hooks": [{"type": "command", "command": "ok"}]}]}}
    hooks, diags = claude(root, doc)
    assert [h.event for h in hooks] == ["Stop"]
    assert words in diags[0].message


@pytest.mark.parametrize("doc", [{"PreToolUse": []}, {"hooks": []}, [], {"hooks": None}])
def test_claude_file_without_a_hooks_object_loads_nothing(root, doc):
    hooks, diags = claude(root, doc)
    assert hooks == ()
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert diags[0].message.endswith("; no hook of this file loads")


def test_claude_invalid_json(root):
    hooks, diags = claude(root, '{"hooks": {\n "Stop": [,]}}')
    assert hooks == () and diags[0].line == 2 and "not valid JSON" in diags[0].message


def test_claude_missing_file_is_no_error(root):
    assert parse_claude_hooks(root / "hooks" / "hooks.json", root, "demo") == ((), [])


def test_claude_file_outside_the_root_is_not_read(root, tmp_path):
    outside = write_json_file(tmp_path / "x.json", MIXED)
    (root / "hooks").mkdir()
    (root / "hooks" / "hooks.json").symlink_to(outside)
    hooks, diags = parse_claude_hooks(root / "hooks" / "hooks.json", root, "demo")
    assert hooks == () and codes(diags) == ["plugin.path.outside_root"]


# --- Vibe ai.mistral.vibe/hooks.toml -------------------------------------------------


def vibe(root: Path, text: str | bytes):
    return parse_vibe_hooks(put(root / "ai.mistral.vibe" / "hooks.toml", text), root, "demo")


def hook(**fields: Any) -> str:
    """One [[hooks]] table with `fields` (TOML basic strings accept JSON's escapes)."""
    return "[[hooks]]\n" + "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, str) else repr(value)


def test_the_vibe_guide_example(root):
    hooks, diags = vibe(root, VIBE_HOOKS)
    assert diags == []
    guard, lint = hooks
    assert (guard.name, guard.event, guard.matcher, guard.command) == (
        "demo:guard-lookup",
        "pre_tool",
        "myPlugin.lookup",
        "python guard.py",
    )
    assert (guard.strict, guard.timeout, guard.format) == (True, 60.0, "vibe")
    assert (lint.name, lint.event, lint.matcher, lint.strict) == (
        "demo:post-agent-lint",
        "post_agent",
        None,
        False,
    )
    assert {h.path for h in hooks} == {root / "ai.mistral.vibe" / "hooks.toml"}


def test_vibe_strict_is_not_allowed_on_post_agent(root):
    text = hook(name="a", type="post_agent", command="x", strict=True) + hook(
        name="b", type="post_tool", command="y"
    )
    hooks, diags = vibe(root, text)
    assert [h.name for h in hooks] == ["demo:b"]
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert (
        diags[0].message
        == "hook #1 ('a'): strict is not allowed on post_agent hooks; it is skipped"
    )


def test_vibe_strict_false_and_match_on_post_agent_are_fine(root):
    hooks, diags = vibe(
        root, hook(name="a", type="post_agent", command="x", strict=False, match="main")
    )
    assert diags == [] and hooks[0].matcher == "main"


def test_vibe_duplicate_names_keep_the_first(root):
    text = hook(name="a", type="pre_tool", command="one") + hook(
        name="a", type="post_tool", command="two"
    )
    hooks, diags = vibe(root, text)
    assert [h.command for h in hooks] == ["one"]
    assert (
        diags[0].message
        == "hook #2 ('a'): hook #1 has the same name; names are unique in a plugin; it is skipped"
    )


def test_vibe_an_invalid_first_hook_does_not_reserve_its_name(root):
    text = hook(name="a", type="bogus", command="one") + hook(
        name="a", type="pre_tool", command="two"
    )
    hooks, diags = vibe(root, text)
    assert [h.command for h in hooks] == ["two"] and len(diags) == 1


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (
            {"name": "a", "type": "pre_tool", "command": "x", "matcher": "y"},
            "unknown key 'matcher' (plugin hooks are strict)",
        ),
        ({"name": "a", "type": "pre_tool", "command": "x", "event": "y"}, "unknown key 'event'"),
        ({"type": "pre_tool", "command": "x"}, "it has no name"),
        ({"name": " ", "type": "pre_tool", "command": "x"}, "name must be a non-blank string"),
        ({"name": "a", "command": "x"}, "type must be pre_tool, post_tool or post_agent, not None"),
        ({"name": "a", "type": "PreToolUse", "command": "x"}, "not 'PreToolUse'"),
        ({"name": "a", "type": "pre_tool"}, "it has no command"),
        ({"name": "a", "type": "pre_tool", "command": "   "}, "command must be a non-blank string"),
        (
            {"name": "a", "type": "pre_tool", "command": "x", "timeout": 0},
            "timeout must be a positive number",
        ),
        (
            {"name": "a", "type": "pre_tool", "command": "x", "timeout": "5"},
            "timeout must be a number",
        ),
        (
            {"name": "a", "type": "pre_tool", "command": "x", "strict": "yes"},
            "strict must be a boolean",
        ),
        ({"name": "a", "type": "pre_tool", "command": "x", "match": 1}, "match must be a string"),
        (
            {"name": "a", "type": "pre_tool", "command": "x", "description": 1},
            "description must be a string",
        ),
    ],
)
def test_vibe_hook_rules(root, fields, words):
    hooks, diags = vibe(root, hook(**fields) + hook(name="ok", type="pre_tool", command="x"))
    assert [h.name for h in hooks] == ["demo:ok"]
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert words in diags[0].message


def test_vibe_legacy_type_names_get_a_hint(root):
    _, diags = vibe(root, hook(name="a", type="before_tool", command="x"))
    assert diags[0].hint == "Vibe 3 calls it 'pre_tool'"


def test_vibe_timeout_and_description(root):
    hooks, diags = vibe(
        root, hook(name="a", type="post_tool", command="x", timeout=2.5, description="d")
    )
    assert diags == [] and (hooks[0].timeout, hooks[0].description) == (2.5, "d")


def test_vibe_128_hooks_load(root):
    text = "".join(hook(name=f"h{i}", type="pre_tool", command="x") for i in range(128))
    hooks, diags = vibe(root, text)
    assert diags == [] and len(hooks) == 128


def test_vibe_129_hooks_load_none(root):
    text = "".join(hook(name=f"h{i}", type="pre_tool", command="x") for i in range(129))
    hooks, diags = vibe(root, text)
    assert hooks == ()
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert (
        diags[0].message
        == "the file declares 129 hooks; the limit is 128 per plugin; no hook of this file loads"
    )


def _padded(size: int) -> bytes:
    body = hook(name="a", type="pre_tool", command="x").encode()
    return body + b"#" * (size - len(body) - 1) + b"\n"


def test_vibe_a_64_kib_file_loads(root):
    hooks, diags = vibe(root, _padded(64 * 1024))
    assert diags == [] and len(hooks) == 1


def test_vibe_a_file_one_byte_over_64_kib_loads_nothing(root):
    hooks, diags = vibe(root, _padded(64 * 1024 + 1))
    assert hooks == ()
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert (
        diags[0].message
        == "the file is 65537 bytes; the limit is 65536 (64 KiB); no hook of this file loads"
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '[[hook]]\nname = "a"\n',
            "unknown top-level key 'hook': hooks.toml holds [[hooks]] tables only",
        ),
        ('hooks = "x"\n', "hooks must be an array of tables ([[hooks]]), not a string"),
        ("hooks = [1]\n", "hook #1: a hook must be a table, not a number"),
    ],
)
def test_vibe_file_shape(root, text, words):
    hooks, diags = vibe(root, text)
    assert hooks == () and words in diags[0].message


def test_vibe_toml_syntax_error_has_its_line(root):
    hooks, diags = vibe(root, '[[hooks]]\nname = "a"\ntype = pre_tool\n')
    assert hooks == () and diags[0].line == 3 and "not valid TOML" in diags[0].message


def test_vibe_empty_file_and_missing_file(root):
    assert vibe(root, "") == ((), [])
    assert parse_vibe_hooks(root / "nope.toml", root, "demo") == ((), [])


def test_vibe_fifo_does_not_block(root):
    path = root / "hooks.toml"
    os.mkfifo(path)
    hooks, diags = parse_vibe_hooks(path, root, "demo")
    assert hooks == () and "not a regular file" in diags[0].message


# --- Kimi's flat list ----------------------------------------------------------------


def kimi(data: Any):
    return parse_kimi_hooks(data, Path("/p/kimi.plugin.json"), "demo")


def test_kimi_flat_list():
    hooks, diags = kimi(
        [
            {
                "event": "PreToolUse",
                "matcher": "Shell|WriteFile",
                "command": "./guard.sh",
                "timeout": 10,
                "fail_mode": "closed",
            },
            {"event": "Stop", "command": "lint"},
        ]
    )
    assert diags == []
    guard, stop = hooks
    assert (guard.event, guard.matcher, guard.command, guard.timeout, guard.fail_mode) == (
        "PreToolUse",
        "Shell|WriteFile",
        "./guard.sh",
        10.0,
        "closed",
    )
    assert (stop.matcher, stop.timeout, stop.fail_mode, stop.format) == (None, 30.0, "open", "kimi")
    assert {h.path for h in hooks} == {Path("/p/kimi.plugin.json")} and {
        h.plugin for h in hooks
    } == {"demo"}


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"event": "Stop", "command": "x", "strict": True}, "unknown key 'strict'"),
        ({"command": "x"}, "it has no event"),
        ({"event": "Stop"}, "it has no command"),
        ({"event": "Stop", "command": ""}, "command must be a non-blank string"),
        (
            {"event": "Stop", "command": "x", "timeout": 601},
            "timeout must be 1-600 seconds, not 601",
        ),
        ({"event": "Stop", "command": "x", "timeout": 0.5}, "timeout must be 1-600 seconds"),
        ({"event": "Stop", "command": "x", "timeout": 0}, "timeout must be a positive number"),
        (
            {"event": "Stop", "command": "x", "fail_mode": "strict"},
            "fail_mode must be 'open' or 'closed'",
        ),
        ({"event": "Stop", "command": "x", "matcher": ["a"]}, "matcher must be a string"),
        ("echo", "a hook must be an object, not a string"),
    ],
)
def test_kimi_bad_hooks_are_dropped_alone(entry, words):
    hooks, diags = kimi([entry, {"event": "Stop", "command": "ok"}])
    assert [h.command for h in hooks] == ["ok"]
    assert codes(diags) == ["plugin.hooks.invalid"]
    assert diags[0].message.startswith("hook #1: ") and words in diags[0].message


def test_kimi_timeout_bounds_are_inclusive():
    hooks, diags = kimi([{"event": "Stop", "command": "x", "timeout": t} for t in (1, 600)])
    assert diags == [] and [h.timeout for h in hooks] == [1.0, 600.0]


def test_kimi_no_hooks_and_not_a_list():
    assert kimi(None) == ((), [])
    hooks, diags = kimi({"event": "Stop"})
    assert hooks == () and codes(diags) == ["plugin.hooks.invalid"]
    assert "hooks must be a list of hook objects, not a mapping" in diags[0].message
