"""A Claude Code plugin's userConfig: each option read into a `UserOption`, a bad one
dropped with ``plugin.config.invalid`` (Claude Code 2.1.332 refuses such a plugin;
satchel's rule: loaders collect, never stop), values checked against their option,
and ``${user_config.KEY}`` filled the one way every component uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from satchel.plugins import read_plugin
from satchel.plugins._model import UserOption
from satchel.plugins.components._user_config import (
    check_value,
    effective_values,
    fill_skill_content,
    fill_user_config,
    option_environment,
    parse_text,
)
from tests.support import codes, put
from tests.tools import claude_validate

GOOD = {
    "api_key": {
        "type": "string",
        "title": "API key",
        "description": "The service key.",
        "sensitive": True,
        "required": True,
    },
    "port": {
        "type": "number",
        "title": "Port",
        "description": "Where it listens.",
        "min": 1,
        "max": 65535,
        "default": 8080,
    },
    "mode": {
        "type": "string",
        "title": "Mode",
        "description": "How fast.",
        "options": ["fast", "slow"],
        "default": "fast",
    },
    "dirs": {"type": "directory", "title": "Dirs", "description": "Where.", "multiple": True},
}
BAD: dict[str, Any] = {
    "1key": {"type": "string", "title": "t", "description": "d"},
    "k2": {"type": "color", "title": "t", "description": "d"},
    "k3": {"type": "string", "description": "d"},
    "k4": {"type": "string", "title": "t", "description": "d", "extra": 1},
    "k5": {"type": "number", "title": "t", "description": "d", "options": ["a"]},
    "k6": {
        "type": "string",
        "title": "t",
        "description": "d",
        "options": ["a", "b"],
        "default": "c",
    },
    "fine": {"type": "boolean", "title": "Fine", "description": "d"},
}
DROPPED = [
    "userConfig.1key: option keys must be valid identifiers (letters, digits, underscore; "
    "no leading digit); the option is dropped",
    "userConfig.k2.type: expected one of string, number, boolean, directory, file; "
    "the option is dropped",
    "userConfig.k3.title: is required (a string); the option is dropped",
    "userConfig.k4: unrecognized key 'extra'; the option is dropped",
    'userConfig.k5.options: options is only for a field of type "string" that is neither '
    "multiple nor sensitive; the option is dropped",
    "userConfig.k6.default: default must be one of the options: a, b; the option is dropped",
]


def plugin_at(root: Path, user_config: Any) -> Path:
    manifest = {"name": "kit", "version": "1.0.0", "userConfig": user_config}
    put(root, ".claude-plugin/plugin.json", json.dumps(manifest))
    return root


def test_every_field_of_a_good_option_is_read(root):
    plugin, found = read_plugin(plugin_at(root, GOOD))
    assert plugin is not None and found == []
    by_key = {o.key: o for o in plugin.user_config}
    assert list(by_key) == ["api_key", "port", "mode", "dirs"]
    assert by_key["port"] == UserOption(
        "port", "number", "Port", "Where it listens.", default=8080, min=1, max=65535, plugin="kit"
    )
    assert by_key["mode"].choices == ("fast", "slow")
    assert by_key["dirs"].multiple and by_key["api_key"].sensitive
    assert by_key["api_key"].env_name == "CLAUDE_PLUGIN_OPTION_API_KEY"
    assert plugin.to_json()["user_config"][0]["env"] == "CLAUDE_PLUGIN_OPTION_API_KEY"


def test_a_sensitive_default_is_masked_in_to_json():
    option = UserOption("token", "string", "Token", "d", default="abc", sensitive=True)
    assert option.to_json()["default"] == "***"
    assert "abc" not in json.dumps(option.to_json())


def test_each_bad_option_is_dropped_with_its_reason_and_the_rest_loads(root):
    plugin, found = read_plugin(plugin_at(root, BAD))
    assert plugin is not None
    assert [o.key for o in plugin.user_config] == ["fine"]
    assert codes(found) == ["plugin.config.invalid"] * 6
    assert [d.message for d in found] == DROPPED


def test_claude_code_refuses_the_same_options_at_the_same_paths(root, claude_code, tmp_path):
    """Differs on purpose: Claude Code refuses the whole plugin, satchel drops each bad
    option (loaders collect, never stop); the options judged bad are the same."""
    report = claude_validate(claude_code, plugin_at(root, BAD), tmp_path)
    paths = [e["path"] for e in report["manifest"]["errors"]]
    assert paths == [
        "userConfig.1key",
        "userConfig.k2.type",
        "userConfig.k3.title",
        "userConfig.k4",
        "userConfig.k5.options",
        "userConfig.k6.default",
    ]
    assert [m.split(":")[0] for m in DROPPED] == paths


def test_userconfig_that_is_not_an_object_loads_no_option(root):
    plugin, found = read_plugin(plugin_at(root, ["api_key"]))
    assert plugin is not None and plugin.user_config == ()
    assert [d.message for d in found] == [
        "userConfig must be an object, not a list; no option loads"
    ]


PORT = UserOption("port", "number", "Port", "d", min=1, max=10)
MODE = UserOption("mode", "string", "Mode", "d", choices=("fast", "slow"), default="fast")
KEY = UserOption("api_key", "string", "API key", "d", required=True, sensitive=True)


@pytest.mark.parametrize(
    ("option", "value", "why"),
    [
        (PORT, 0, "Port must be at least 1"),
        (PORT, 11, "Port must be at most 10"),
        (PORT, "x", "Port must be a number"),
        (MODE, "medium", "Mode must be one of: fast, slow"),
        (MODE, ("fast",), "Mode must be a string, not an array"),
        (KEY, "", "API key is required but not provided"),
        (UserOption("on", "boolean", "On", "d"), "maybe", "On must be a boolean"),
        (UserOption("f", "file", "F", "d"), 3, "F must be a path string"),
    ],
)
def test_a_value_its_option_does_not_take_is_named_without_the_value(option, value, why):
    assert check_value(option, value) == why


def test_typed_text_becomes_the_value_of_its_option():
    assert parse_text(PORT, "8") == 8
    assert parse_text(PORT, "2.5") == 2.5
    assert parse_text(UserOption("on", "boolean", "On", "d"), "yes") is True
    multi = UserOption("dirs", "directory", "D", "d", multiple=True)
    assert parse_text(multi, "a, b") == ("a", "b")


def test_values_read_as_stored_then_default_then_blank_and_required_ones_can_be_missing():
    dirs = UserOption("dirs", "directory", "D", "d", multiple=True)
    values, missing = effective_values((PORT, MODE, KEY, dirs), {"port": 3, "mode": "medium"})
    # a stored value outside the allowed ones reads as unset (Claude Code's rule)
    assert values == {"port": "3", "mode": "fast", "dirs": ""}
    assert missing == ("api_key",)
    # a list as plugin-options.json keeps it reads as Claude Code's String(list)
    assert effective_values((dirs,), {"dirs": ["a", "b"]}) == ({"dirs": "a,b"}, ())


def test_placeholders_are_filled_once_and_missing_keys_are_named():
    assert fill_user_config("--port=${user_config.port}", {"port": "${user_config.port}"}) == (
        "--port=${user_config.port}",
        (),
    )
    assert fill_user_config("${user_config.a} ${user_config.b}", {"a": "1"}) == (
        "${user_config.a} ${user_config.b}",
        ("b",),
    )
    assert option_environment((PORT, KEY), {"port": "3"}) == {"CLAUDE_PLUGIN_OPTION_PORT": "3"}


def test_skill_content_never_gets_a_sensitive_value():
    """Claude Code's rule (its userConfig describe string: "non-sensitive only" in
    skill/agent content): a sensitive option is named, never filled."""
    text = "mode ${user_config.mode}, key ${user_config.api_key}, ${user_config.other}"
    filled = fill_skill_content(text, (MODE, KEY), {"mode": "fast", "api_key": "s3cret"})
    assert filled == (
        "mode fast, key [sensitive option 'api_key' not available in skill content], "
        "${user_config.other}"
    )
