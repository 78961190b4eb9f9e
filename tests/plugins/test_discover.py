"""Plugins found in the project and user roots and given directories, settled by name
and namespace, switched by config.toml, and their parts in the Environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.plugins import load_plugins
from tests.support import put, skill_md, write_skill

SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"


def native(root: Path, name: str, **fields: object) -> Path:
    put(root / "plugin.json", json.dumps({"$schema": SCHEMA, "name": name, **fields}))
    return root


def skill(root: Path, name: str, description: str = "Does it.") -> None:
    write_skill(root / "skills", name, skill_md(name, description, gap=False))


def claude(root: Path, name: str) -> Path:
    put(root / ".claude-plugin" / "plugin.json", json.dumps({"name": name}))
    put(root / "commands" / "ship.md", "---\ndescription: Ship it\n---\nShip $ARGUMENTS\n")
    put(
        root / "agents" / "scout.md",
        "---\nname: scout\ndescription: Looks.\ntools: Read\n---\nLook.\n",
    )
    return root


def found(env_or_set: object) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in env_or_set.diagnostics]  # type: ignore[attr-defined]


def test_project_and_user_plugins_load_and_the_project_wins_a_name(layout, project, home):
    skill(native(project / ".satchel" / "plugins" / "tools", "tools"), "lint")
    skill(native(home / ".config" / "satchel" / "plugins" / "tools", "tools"), "old")
    skill(native(home / ".agents" / "plugins" / "notes", "notes"), "jot")
    plugins = load_plugins(layout)
    assert [(p.name, p.scope) for p in plugins.plugins.values()] == [
        ("tools", "project"),
        ("notes", "user"),
    ]
    user_tools = (home / ".config" / "satchel" / "plugins" / "tools").resolve()
    project_tools = (project / ".satchel" / "plugins" / "tools").resolve()
    assert found(plugins) == [
        (
            "plugin.shadowed",
            f"plugin 'tools' at {user_tools} (user) is shadowed by {project_tools} (project)",
        )
    ]


def test_two_plugins_of_one_scope_with_one_name(layout, project):
    native(project / ".satchel" / "plugins" / "a", "same")
    native(project / ".agents" / "plugins" / "b", "same")
    plugins = load_plugins(layout)
    assert list(plugins.plugins) == ["same"]
    assert [code for code, _ in found(plugins)] == ["plugin.name.collision"]


def test_two_plugins_claiming_one_namespace(layout, project):
    vibe = {"ai.mistral.vibe": {"schemaVersion": 1, "toolNamespace": "shared"}}
    native(project / ".satchel" / "plugins" / "a", "alpha", extensions=vibe)
    native(project / ".satchel" / "plugins" / "b", "beta", extensions=vibe)
    plugins = load_plugins(layout)
    assert list(plugins.plugins) == ["alpha"]
    ((code, message),) = found(plugins)
    assert code == "plugin.namespace.collision"
    assert message.startswith("plugin 'beta' at ")
    assert "claims the namespace 'shared' of 'alpha'" in message


def test_config_disables_a_plugin_and_the_users_file_wins(layout, project, home):
    native(project / ".satchel" / "plugins" / "tools", "tools")
    put(project / ".satchel" / "config.toml", "[plugins.tools]\nenabled = true\n")
    put(home / ".config" / "satchel" / "config.toml", "[plugins.tools]\nenabled = false\n")
    plugins = load_plugins(layout)
    assert plugins.plugins["tools"].enabled is False
    assert plugins.enabled() == ()
    assert [code for code, _ in found(plugins)] == ["plugin.disabled"]


def test_a_broken_config_is_reported_and_plugins_stay_enabled(layout, project, home):
    native(project / ".satchel" / "plugins" / "tools", "tools")
    put(home / ".config" / "satchel" / "config.toml", "[plugins.tools\n")
    plugins = load_plugins(layout)
    assert plugins.plugins["tools"].enabled is True
    ((code, message),) = found(plugins)
    assert code == "config.invalid"
    assert message.startswith("config.toml: not valid TOML: ")


def test_an_untrusted_project_loads_no_project_plugin_and_no_workspace(layout, project, home):
    native(project / ".satchel" / "plugins" / "tools", "tools")
    skill(project, "local")
    native(home / ".agents" / "plugins" / "notes", "notes")
    plugins = load_plugins(layout, trust_project=False)
    assert list(plugins.plugins) == ["notes"]
    assert found(plugins) == [
        (
            "discovery.untrusted",
            "the workspace plugin's skills are not loaded: the project is not trusted",
        ),
        ("discovery.untrusted", "project plugins here are not loaded: the project is not trusted"),
    ]


def test_the_workspace_is_a_plugin_of_its_skills_and_commands(layout, project):
    skill(project, "refund-policy")
    put(project / "commands" / "triage.md", "Triage $ARGUMENTS\n")
    env = satchel.load(layout=layout)
    name = project.name.lower()
    assert list(env.skills) == [f"{name}:refund-policy"]
    assert env.commands.find(f"{name}:triage") is not None
    assert env.commands.find("triage") is not None  # the bare name, below every file
    off = satchel.load(layout=layout, include_workspace_plugin=False)
    assert list(off.skills) == [] and off.plugins.plugins == {}


def test_plugin_parts_join_the_environment_below_the_user(layout, project, home):
    root = claude(home / ".agents" / "plugins" / "kit", "kit")
    skill(root, "deploy")
    skill(home / ".agents", "deploy")  # a user skill of the same bare name
    env = satchel.load(layout=layout)
    assert list(env.skills) == ["deploy", "kit:deploy"]
    assert env.skills["kit:deploy"].scope == "plugin"
    assert env.commands.find("kit:ship").tag == "(plugin:kit)"
    assert "kit:scout" in env.agents.agents
    bare = satchel.load(layout=layout, plugin_skill_names="bare")
    assert list(bare.skills) == ["deploy"]  # mermaid: project > user > plugin
    assert bare.skills["deploy"].scope == "user"
    assert [s.loser.scope for s in bare.shadowed] == ["plugin"]


def test_given_plugin_directories_load_as_extra(layout, tmp_path):
    skill(native(tmp_path / "elsewhere" / "mine", "mine"), "x")
    env = satchel.load(layout=layout, plugin_dirs=[tmp_path / "elsewhere" / "mine"])
    assert env.plugins.plugins["mine"].scope == "extra"
    assert list(env.skills) == ["mine:x"]


def test_plugins_off_reads_none(layout, project):
    skill(native(project / ".satchel" / "plugins" / "tools", "tools"), "lint")
    env = satchel.load(layout=layout, plugins=False)
    assert env.plugins.plugins == {} and list(env.skills) == []


def test_declarative_only_leaves_hooks_mcp_and_agents_alone(layout, project):
    root = claude(project / ".satchel" / "plugins" / "kit", "kit")
    put(
        root / "hooks" / "hooks.json",
        json.dumps(
            {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}
        ),
    )
    put(root / ".mcp.json", json.dumps({"mcpServers": {"db": {"command": "db-server"}}}))
    env = satchel.load(layout=layout, executable=False)
    plugin = env.plugins.plugins["kit"]
    assert (plugin.hooks, plugin.mcp_servers, plugin.agents) == ((), (), ())
    codes = [d.code for d in env.plugins.diagnostics]
    assert sorted(codes) == [
        "plugin.agents.unsupported",
        "plugin.hooks.unsupported",
        "plugin.mcp.unsupported",
    ]
    assert env.commands.find("kit:ship") is not None  # declarative parts still load


@pytest.mark.parametrize("strict", [False, True])
def test_strict_plugins_make_an_unknown_manifest_field_fatal(layout, project, strict):
    native(project / ".satchel" / "plugins" / "tools", "tools", commands=["x"])
    env = satchel.load(layout=layout, strict_plugins=strict)
    assert ("tools" in env.plugins.plugins) is (not strict)
