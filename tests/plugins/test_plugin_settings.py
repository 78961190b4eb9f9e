"""A Claude Code plugin's default settings (its ``settings.json`` over its manifest's
``settings``), its ``defaultEnabled``, and the main thread's agent they choose below the
user's, project's and local settings. The Claude Code 2.1.332 test runs the pinned
``claude plugin validate --json`` on the same trees."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import satchel
from satchel.plugins import MainAgent, load_plugins, main_agent, read_plugin
from satchel.session import Session
from tests.support import codes, put
from tests.tools import claude_validate

AGENT = "---\nname: reviewer\ndescription: Reviews.\n---\nReview.\n"
STATUS = {"type": "command", "command": "echo sub"}


def plugin(root: Path, file: Any = None, **manifest: Any) -> Path:
    """A Claude Code plugin `root` with agent ``reviewer``; `file` as its settings.json
    (None: no file)."""
    put(root, ".claude-plugin/plugin.json", json.dumps({"name": root.name, **manifest}))
    put(root, "agents/reviewer.md", AGENT)
    if file is not None:
        put(root, "settings.json", json.dumps(file))
    return root


def found(diags: Any) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in diags]


def test_settings_json_wins_over_the_manifest_key_by_key(tmp_path: Path):
    root = plugin(
        tmp_path / "kit",
        {"subagentStatusLine": STATUS},
        settings={"agent": "reviewer", "subagentStatusLine": {"type": "command", "command": "x"}},
    )
    loaded, diags = read_plugin(root)
    assert loaded is not None and diags == []
    assert loaded.settings is not None
    real = root.resolve()
    assert loaded.settings.to_json() == {
        "agent": "reviewer",
        "subagentStatusLine": STATUS,
        "sources": [str(real / ".claude-plugin/plugin.json"), str(real / "settings.json")],
    }
    assert loaded.to_json()["settings"]["agent"] == "reviewer"


def test_keys_a_plugin_may_not_set_and_bad_values_are_reported(tmp_path: Path):
    root = plugin(tmp_path / "kit", {"agent": 5, "model": "opus", "subagentStatusLine": "x"})
    loaded, diags = read_plugin(root)
    assert loaded is not None and loaded.settings is None
    assert found(diags) == [
        ("plugin.settings.invalid", "settings.json: `agent` must be an agent's name, not a "
         "number; it is dropped"),
        ("plugin.settings.ignored", "settings.json: `model` is not a setting a plugin may set "
         "(only agent and subagentStatusLine); it is ignored"),
        ("plugin.settings.invalid", "settings.json: `subagentStatusLine` must be an object, not "
         "a string; it is dropped"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[1]", "settings.json must be a JSON object, not a list; it is not read"),
        ("{bad", "settings.json is not read: not valid JSON: Expecting property name "
                 "enclosed in double quotes (line 1, column 2)"),
    ],
)  # fmt: skip
def test_a_settings_json_that_is_not_an_object_is_not_read(tmp_path: Path, text: str, why: str):
    root = plugin(tmp_path / "kit")
    put(root, "settings.json", text)
    loaded, diags = read_plugin(root)
    assert loaded is not None and loaded.settings is None
    assert found(diags) == [("plugin.settings.invalid", why)]


def test_an_agent_the_plugin_does_not_have_is_dropped(tmp_path: Path):
    root = plugin(tmp_path / "kit", {"agent": "ghost", "subagentStatusLine": STATUS})
    loaded, diags = read_plugin(root)
    assert loaded is not None and loaded.settings is not None
    assert (loaded.settings.agent, dict(loaded.settings.subagent_status_line or {})) == (
        None,
        STATUS,
    )
    assert found(diags) == [
        ("plugin.settings.invalid", "agent 'ghost' is not an agent of this plugin; it is not "
         "applied"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("field", "why"),
    [
        ({"defaultEnabled": "no"}, "`defaultEnabled` must be true or false, not a string"),
        ({"settings": "x"}, "`settings` must be an object of settings, not a string"),
    ],
)
def test_a_bad_default_enabled_or_settings_field_is_fatal(
    tmp_path: Path, field: dict[str, Any], why: str
):
    loaded, diags = read_plugin(plugin(tmp_path / "kit", **field))
    assert loaded is None and codes(diags) == ["plugin.manifest.invalid"]
    assert why in diags[0].message


def test_claude_code_accepts_and_refuses_the_same_manifests(claude_code: Path, tmp_path: Path):
    """Claude Code 2.1.332 accepts any settings key (satchel reports the ones it ignores)
    and refuses a defaultEnabled that is not a boolean and a settings that is not an
    object, as satchel does."""
    trees = {
        "kept": ({"agent": "reviewer", "model": "opus"}, {"settings": {"agent": "reviewer"}}),
        "flag": (None, {"defaultEnabled": "no"}),
        "table": (None, {"settings": "x"}),
    }
    home = tmp_path / "home"
    home.mkdir()
    for name, (file, manifest) in trees.items():
        root = plugin(tmp_path / name, file, **manifest)
        report = claude_validate(claude_code, root, home)
        loaded, _ = read_plugin(root)
        assert report["success"] is (loaded is not None), name
        if loaded is not None:
            assert report["provides"]["agents"] == [f"{name}:reviewer"]
            assert loaded.settings is not None and loaded.settings.agent == "reviewer"


def test_default_enabled_false_keeps_a_plugin_off_until_config_enables_it(layout, home: Path):
    plugins_root = home / ".agents" / "plugins"
    plugin(plugins_root / "quiet", defaultEnabled=False)
    plugin(plugins_root / "loud", defaultEnabled=True)
    loaded = load_plugins(layout)
    assert {n: p.enabled for n, p in loaded.plugins.items()} == {"loud": True, "quiet": False}
    assert found(loaded.diagnostics) == [
        ("plugin.disabled", "plugin 'quiet' is disabled by default (its manifest's "
         "defaultEnabled is false) and config.toml does not enable it; nothing of it loads"),
    ]  # fmt: skip
    put(home / ".config" / "satchel" / "config.toml", "[plugins.quiet]\nenabled = true\n")
    enabled = load_plugins(layout)
    assert enabled.plugins["quiet"].enabled and enabled.diagnostics == ()


def test_the_main_agent_is_the_settings_and_then_a_plugin_default(layout, project, home):
    root = plugin(home / ".agents" / "plugins" / "kit", {"agent": "reviewer"})
    plugins = load_plugins(layout).enabled()
    real = root.resolve()
    assert main_agent(layout, plugins, trust_project=True) == MainAgent(
        "kit:reviewer", real / "settings.json", "kit"
    )
    user = put(home / ".claude" / "settings.json", json.dumps({"agent": "planner"}))
    assert main_agent(layout, plugins, trust_project=True) == MainAgent("planner", user)
    local = put(project / ".claude" / "settings.local.json", json.dumps({"agent": "local"}))
    assert main_agent(layout, plugins, trust_project=True) == MainAgent("local", local)
    assert main_agent(layout, plugins, trust_project=False) == MainAgent("planner", user)
    assert main_agent(layout, (), trust_project=False).to_json() == {  # type: ignore[union-attr]
        "name": "planner",
        "source": str(user),
        "plugin": None,
    }


def test_an_enabled_plugin_setting_agent_or_status_line_gets_claude_codes_notes(layout, home):
    """Claude Code 2.1.332's deprecation notes, in its words (its binary); the settings
    still apply, and a disabled plugin gets none."""
    plugin(
        home / ".agents" / "plugins" / "kit", {"agent": "reviewer", "subagentStatusLine": STATUS}
    )
    plugin(home / ".agents" / "plugins" / "off", {"agent": "reviewer"}, defaultEnabled=False)
    env = satchel.load(layout=layout)
    notes = [d for d in env.diagnostics if d.code == "plugin.settings.deprecated"]
    assert [(d.message, d.path) for d in notes] == [
        ("plugin 'kit': A plugin's `agent` setting is deprecated and will stop applying in a "
         "future release.", (home / ".agents/plugins/kit/settings.json").resolve()),
        ("plugin 'kit': subagentStatusLine is deprecated in favor of mods and will stop "
         "working in a future release.", (home / ".agents/plugins/kit/settings.json").resolve()),
    ]  # fmt: skip


def test_the_environment_and_session_run_the_main_thread_as_the_chosen_agent(layout, project, home):
    plugin(home / ".agents" / "plugins" / "kit", {"agent": "reviewer"})
    env = satchel.load(layout=layout)
    chosen = env.main_agent()
    assert chosen is not None and (chosen.name, chosen.plugin) == ("kit:reviewer", "kit")
    session = Session(env)
    assert session.activation.main_agent is env.agents.get("kit:reviewer") is not None
    assert [(d.code, d.message) for d in session.diagnostics] == [
        ("plugin.settings.deprecated", "Plugin \"kit\" set this session's agent. That will stop "
         "working in a future release: set `agent` in your own settings."),
    ]  # fmt: skip
    put(project / ".claude" / "agents" / "planner.md", AGENT.replace("reviewer", "planner"))
    put(project / ".claude" / "settings.json", json.dumps({"agent": "planner"}))
    session.reload()
    assert (
        session.activation.main_agent is not None
        and session.activation.main_agent.name == "planner"
    )
    put(project / ".claude" / "settings.json", json.dumps({"agent": "nobody"}))
    assert (
        Session(satchel.load(layout=layout)).activation.main_agent is None
    )  # no such agent type loads
