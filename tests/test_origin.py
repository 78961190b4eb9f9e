"""The one trust value `load()` decides (`Trust`), the `Origin` shape, and the origin
every loaded skill, command, agent type, hook and MCP server carries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.agents import AgentType
from satchel.foundations.origin import NO_ORIGIN, Origin, Trust
from satchel.hooks import Hook
from satchel.hooks._matchers import ALL
from satchel.hooks._spec import HookSpec
from satchel.kinds.commands import Command
from satchel.mcp._spec import McpServer
from tests.hooks.support import claude_plugin, hooks_toml, write_hooks
from tests.support import put

PLUGIN_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"


@pytest.mark.parametrize(
    ("folder", "load_project", "state", "flags"),
    [
        (True, True, "trusted", (True, True, False)),
        (False, True, "untrusted", (True, False, True)),
        (True, False, "hidden", (False, False, False)),
        (False, False, "hidden", (False, False, True)),
    ],
)
def test_trust_decides_the_state_and_the_flags_every_part_reads(folder, load_project, state, flags):
    trust = Trust.decide(folder=folder, load_project=load_project)
    assert (trust.state, trust.folder) == (state, folder)
    assert (trust.load_project, trust.run_project, trust.demote_project) == flags


@pytest.mark.parametrize(
    ("folder", "load_project", "runs"),
    [
        # (project item, user item, user monitor, project monitor)
        (True, True, (True, True, True, True)),
        (False, True, (False, True, False, False)),
        (True, False, (False, True, True, False)),  # hidden in a trusted folder
        (False, False, (False, True, False, False)),
    ],
)
def test_one_rule_says_what_may_run_by_whose_it_is(folder, load_project, runs):
    """A project item runs when the project does; the user's own whatever the project
    is; a kind that needs a trusted workspace (monitors, bin/) in none that is not."""
    trust = Trust.decide(folder=folder, load_project=load_project)
    assert (
        trust.runs(True),
        trust.runs(False),
        trust.runs(False, workspace=True),
        trust.runs(True, workspace=True),
    ) == runs


def test_a_project_item_held_back_since_trust_does_not_run_the_users_of_that_key_does():
    trust = Trust("trusted", folder=True, held=frozenset({"plugin-programs lens"}))
    assert not trust.runs(True, key="plugin-programs lens", workspace=True)
    assert trust.runs(True, key="plugin-programs kit", workspace=True)
    assert trust.runs(False, key="plugin-programs lens")


def test_a_trusted_project_needs_a_trusted_folder():
    with pytest.raises(ValueError, match="a project whose folder is not trusted cannot be"):
        Trust("trusted", folder=False)


def test_an_untrusted_project_has_a_folder_that_is_not_trusted():
    with pytest.raises(ValueError, match="a project whose folder is trusted is trusted or hidden"):
        Trust("untrusted", folder=True)


def test_trust_and_origin_are_frozen_values():
    trust = Trust.decide(folder=True, load_project=True)
    origin = Origin("plugin", "kit", plugin="kit", namespace="kit", path=Path("/p/kit"))
    assert trust == Trust("trusted", folder=True)
    assert (origin.scope, origin.family, origin.plugin, origin.namespace) == (
        "plugin",
        "kit",
        "kit",
        "kit",
    )
    assert origin.path == Path("/p/kit")
    assert not hasattr(origin, "trust")  # the project's trust is the Environment's one value
    with pytest.raises(AttributeError):
        origin.scope = "user"  # type: ignore[misc]


def test_origin_is_public_with_its_names_listed():
    import satchel.foundations.origin as module

    assert sorted(module.__all__) == [
        "NO_ORIGIN",
        "Origin",
        "Originated",
        "Pins",
        "Scope",
        "Trust",
        "TrustState",
        "as_scope",
        "root_origin",
    ]
    assert Origin("") == NO_ORIGIN


def _example(project: Path, home: Path) -> satchel.Environment:
    """A trusted project with a skill, a command, an agent, a hooks.toml and a plugin
    (Agent Plugins format) that ships a skill and an MCP server, a Claude Code plugin
    that ships hooks, a command and an agent; and a user skill."""
    put(
        project / ".claude" / "skills" / "deploy" / "SKILL.md",
        "---\nname: deploy\ndescription: Deploys.\n---\n",
    )
    put(
        home / ".claude" / "skills" / "notes" / "SKILL.md",
        "---\nname: notes\ndescription: Notes.\n---\n",
    )
    put(project / ".claude" / "commands" / "review.md", "Review the diff.\n")
    put(
        project / ".claude" / "agents" / "fixer.md",
        "---\nname: fixer\ndescription: Fixes.\n---\nFix.\n",
    )
    write_hooks(project, hooks_toml(("before_tool_use", "Bash", [{"command": "true"}])))
    kit = project / ".satchel" / "plugins" / "kit"
    put(kit / "plugin.json", json.dumps({"$schema": PLUGIN_SCHEMA, "name": "kit"}))
    server = {"type": "stdio", "command": "./bin/serve"}
    put(kit / "mcp.json", json.dumps({"$schema": MCP_SCHEMA, "mcpServers": {"api": server}}))
    put(kit / "bin" / "serve", "#!/bin/sh\nexit 0\n")
    put(kit / "skills" / "ship" / "SKILL.md", "---\nname: ship\ndescription: Ships.\n---\n")
    guard = claude_plugin(
        project / ".satchel" / "plugins",
        "guard",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]},
    )
    put(guard / "commands" / "release.md", "Release it.\n")
    put(guard / "agents" / "helper.md", "---\nname: helper\ndescription: Helps.\n---\nHelp.\n")
    layout = satchel.Layout.default(project, home=home, env={})
    return satchel.load(layout=layout, trusted=True)


def test_every_loaded_model_carries_an_origin_whose_scope_is_the_old_field(project, home):
    env = _example(project, home)
    models = [
        *env.skills.values(),
        *env.commands.commands.values(),
        *env.agents.agents.values(),
        *env.hooks.hooks,
        *env.mcp_servers.servers,
    ]
    assert all(isinstance(m.origin, Origin) for m in models)
    for model in models:
        if not isinstance(model, Hook):
            assert model.to_json()["scope"] == model.origin.scope == model.scope
    skills = {s.name: (s.scope, s.family) for s in env.skills.values()}
    assert skills == {
        "deploy": ("project", ".claude"),
        "notes": ("user", ".claude"),
        "kit:ship": ("plugin", "kit"),
    }
    assert env.skills["deploy"].origin.path == project / ".claude" / "skills"


def test_one_plugin_origin_names_what_it_ships(project, home):
    env = _example(project, home)
    kit_root = (project / ".satchel" / "plugins" / "kit").resolve()
    expected = Origin("plugin", "kit", plugin="kit", namespace="kit", path=kit_root)
    (api,) = [s for s in env.mcp_servers.servers if s.name == "api"]
    assert env.skills["kit:ship"].origin == expected
    guard_root = (project / ".satchel" / "plugins" / "guard").resolve()
    guard = Origin("plugin", "guard", plugin="guard", namespace="guard", path=guard_root)
    release: Command = env.commands.find("guard:release")
    helper: AgentType = env.agents.agents["guard:helper"]
    assert (release.origin, helper.origin) == (guard, guard)
    assert (release.plugin, release.tag) == ("guard", "(plugin:guard)")
    assert (helper.scope, helper.family, helper.plugin) == ("plugin", "guard", "guard")
    assert (api.origin.scope, api.origin.plugin, api.origin.path) == ("plugin", "kit", kit_root)
    assert (api.scope, api.plugin) == ("plugin", "kit")


def test_a_hook_names_its_source_from_its_typed_origin(project, home):
    env = _example(project, home)
    by_source = {h.source: h for h in env.hooks.hooks}
    assert sorted(by_source) == ["plugin:guard", "project"]
    own, plugin = by_source["project"], by_source["plugin:guard"]
    assert own.origin == Origin("project", ".satchel", path=project / ".satchel" / "hooks.toml")
    assert own.root is None
    guard = (project / ".satchel" / "plugins" / "guard").resolve()
    assert (plugin.origin.scope, plugin.origin.plugin, plugin.root) == ("plugin", "guard", guard)


@pytest.mark.parametrize(
    ("origin", "source"),
    [
        (Origin("project", ".satchel", path=Path("/p/.satchel/hooks.toml")), "project"),
        (Origin("user", ".satchel", path=Path("/c/satchel/hooks.toml")), "user"),
        (Origin("project", ".claude", path=Path("/p/.claude/settings.json")), "claude-project"),
        (
            Origin("project", ".claude", path=Path("/p/.claude/settings.local.json")),
            "claude-local",
        ),
        (Origin("user", ".claude", path=Path("/h/.claude/settings.json")), "claude-user"),
        (Origin("plugin", "kit", plugin="kit", path=Path("/k")), "plugin:kit"),
    ],
)
def test_hook_source_is_derived_from_the_origin(origin, source):
    spec = HookSpec("PreToolUse", "true", "claude")
    hook = Hook(spec, "before_tool_use", origin, ALL)
    assert hook.source == source
    assert hook.root == (Path("/k") if origin.plugin else None)


def test_models_built_in_code_have_the_old_defaults():
    skill = satchel.Skill(name="a", description="d")
    command = Command("x")
    agent = AgentType(name="a", description="d")
    server = McpServer("s", "stdio", command="x")
    assert (skill.scope, skill.family, skill.origin) == ("", "", NO_ORIGIN)
    assert (command.scope, command.plugin, command.tag) == ("builtin", None, "(builtin)")
    assert (agent.scope, agent.family, agent.plugin) == ("", "", None)
    assert (server.scope, server.plugin) == ("plugin", None)
