"""The ai.mistral.vibe extension (Vibe's rules for it and for its components):
schemaVersion, toolNamespace and its default, reserved namespaces, toolOverrides, and
the gating of Vibe components."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.plugins import read_plugin, typescript_identifier
from satchel.plugins._model import ToolOverride
from tests.plugins.helpers import (
    KNOWLEDGE_HEAD,
    VIBE_HOOKS,
    add_skill,
    mcp_json,
    native,
    only,
    vibe,
    write_json,
)
from tests.support import codes, put

HOOKS = VIBE_HOOKS
AGENT = """\
schema_version = 1
agent_type = "subagent"
display_name = "Researcher"
description = "Searches the knowledge base and summarizes findings."
safety = "safe"
instructions = "You are a research assistant."
enabled_tools = ["read_file", "grep"]
"""
KNOWLEDGE = KNOWLEDGE_HEAD + "Revenue is recognized on delivery.\n"


def vibe_tree(root: Path) -> None:
    """Every Vibe-only component, each valid."""
    put(root, "ai.mistral.vibe/hooks.toml", HOOKS)
    put(root, "ai.mistral.vibe/agents/researcher.toml", AGENT)
    put(root, "ai.mistral.vibe/knowledge/accounting-policy/KNOWLEDGE.md", KNOWLEDGE)
    put(root, "python/utils.py", "X = 1\n")
    write_json(
        root, "libraries.json", {"schemaVersion": 1, "python": {"utils": "./python/utils.py"}}
    )
    write_json(
        root,
        "connectors.json",
        {"schemaVersion": 1, "connectors": [{"id": "github", "tools": ["create_issue"]}]},
    )


def test_the_extension_turns_on_every_vibe_component(plugin_dir: Path):
    native(plugin_dir, name="my-plugin", extensions=vibe("myPlugin"))
    vibe_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert plugin.vibe and plugin.namespace == "myPlugin"
    assert [h.name for h in plugin.hooks] == ["my-plugin:guard-lookup", "my-plugin:post-agent-lint"]
    assert [a.name for a in plugin.agents] == ["myPlugin:researcher"]
    assert plugin.agents[0].plugin == "my-plugin"
    assert [k.name for k in plugin.knowledge] == ["accounting-policy"]
    assert plugin.qualified(plugin.knowledge[0].name) == "myPlugin:accounting-policy"
    assert [(lib.language, lib.alias) for lib in plugin.libraries] == [("python", "utils")]
    assert [c.id for c in plugin.connectors] == ["github"]


def test_without_the_extension_only_manifest_skills_and_mcp_load(plugin_dir: Path):
    native(plugin_dir)
    vibe_tree(plugin_dir)
    add_skill(plugin_dir, "skills/lint")
    mcp_json(plugin_dir, {"lookup": {"type": "stdio", "command": "node"}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []  # ignored silently, as in Vibe
    assert not plugin.vibe
    assert [s.name for s in plugin.skills] == ["lint"]
    assert len(plugin.mcp_servers) == 1
    assert (plugin.hooks, plugin.agents, plugin.knowledge) == ((), (), ())
    assert (plugin.libraries, plugin.connectors) == ((), ())


def test_hooks_toml_is_ignored_without_the_extension_even_when_broken(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "ai.mistral.vibe/hooks.toml", "this is [not toml")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.hooks == () and diags == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("my-plugin", "my_plugin"),
        ("a.b", "a_b"),
        ("a-b.c", "a_b_c"),
        ("plain", "plain"),
        ("1up", "_1up"),
        ("7", "_7"),
    ],
)
def test_the_default_namespace_is_a_typescript_identifier_of_the_name(
    plugin_dir: Path, name: str, expected: str
):
    assert typescript_identifier(name) == expected
    native(plugin_dir, name=name, extensions=vibe())
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None and plugin.namespace == expected


def test_a_plugin_without_the_extension_gets_the_derived_namespace(plugin_dir: Path):
    native(plugin_dir, name="my-plugin")
    add_skill(plugin_dir, "skills/lint")
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None and plugin.namespace == "my_plugin"
    assert plugin.qualified("lint") == "my_plugin:lint"


# the namespaces Vibe's plugin guide reserves, then those Vibe 3.0.3 also reserves
GUIDE_RESERVED = ["file_system", "self", "process", "agent", "vibe"]
VIBE_RESERVED = ["agents", "collaboration", "skill", "subagent"]


@pytest.mark.parametrize("namespace", GUIDE_RESERVED + VIBE_RESERVED + ["Vibe", "SELF"])
def test_a_reserved_tool_namespace_is_fatal(plugin_dir: Path, namespace: str):
    native(plugin_dir, extensions=vibe(namespace))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.namespace.reserved"]
    assert diags[0].severity == "error"


@pytest.mark.parametrize("name", ["self", "process", "agent", "vibe", "file-system", "file.system",
                                  "agents", "skill"])  # fmt: skip
def test_a_name_whose_derived_namespace_is_reserved_is_fatal(plugin_dir: Path, name: str):
    native(plugin_dir, name=name)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert codes(diags) == ["plugin.namespace.reserved"]


def test_a_tool_namespace_lifts_a_reserved_name(plugin_dir: Path):
    native(plugin_dir, name="vibe", extensions=vibe("vibeTools"))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.namespace == "vibeTools" and diags == []


@pytest.mark.parametrize("version", [2, 0, "1", True, 1.5, None])
def test_schema_version_must_be_1(plugin_dir: Path, version: object):
    ext = {"ai.mistral.vibe": {"toolNamespace": "demo"}}
    if version is not None:
        ext["ai.mistral.vibe"]["schemaVersion"] = version
    native(plugin_dir, extensions=ext)
    put(plugin_dir, "ai.mistral.vibe/hooks.toml", HOOKS)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and not plugin.vibe
    assert plugin.hooks == ()
    assert codes(diags) == ["plugin.extension.invalid"]


@pytest.mark.parametrize("namespace", ["my-plugin", "1abc", "has space", "", 5, "x" * 65])
def test_tool_namespace_must_be_an_identifier(plugin_dir: Path, namespace: object):
    native(
        plugin_dir, extensions={"ai.mistral.vibe": {"schemaVersion": 1, "toolNamespace": namespace}}
    )
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and not plugin.vibe
    assert plugin.namespace == "demo"
    assert codes(diags) == ["plugin.extension.invalid"]


def test_a_non_object_vibe_extension_is_invalid(plugin_dir: Path):
    native(plugin_dir, validate=False, extensions={"ai.mistral.vibe": 1})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and not plugin.vibe
    assert codes(diags) == ["plugin.extension.invalid"]


def test_tool_overrides_are_parsed(plugin_dir: Path):
    overrides = {
        "lookup": {"name": "search", "exposure": "direct_and_programmatic"},
        "fetch": {"exposure": "programmatic"},
        "list": {"exposure": "direct"},
        "rename-only": {"name": "renamed"},
    }
    native(plugin_dir, extensions=vibe("myPlugin", toolOverrides=overrides))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert plugin.tool_overrides == (
        ToolOverride("lookup", "search", "direct_and_programmatic"),
        ToolOverride("fetch", None, "programmatic"),
        ToolOverride("list", None, "direct"),
        ToolOverride("rename-only", "renamed", None),
    )


@pytest.mark.parametrize(
    "entry",
    [{"exposure": "hidden"}, {"exposure": 1}, "search", {"name": ""}, {"name": 3},
     {"rename": "x"}],
)  # fmt: skip
def test_a_bad_tool_override_is_dropped(plugin_dir: Path, entry: object):
    overrides = {"bad": entry, "good": {"exposure": "direct"}}
    native(plugin_dir, extensions=vibe(toolOverrides=overrides))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.vibe
    assert [o.key for o in plugin.tool_overrides] == ["good"]
    [bad] = diags
    assert bad.code == "plugin.extension.invalid" and "bad" in bad.message


def test_tool_overrides_that_are_not_an_object_are_ignored(plugin_dir: Path):
    native(plugin_dir, extensions=vibe(toolOverrides=["lookup"]))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.vibe and plugin.tool_overrides == ()
    assert codes(diags) == ["plugin.extension.invalid"]


def test_an_unknown_key_in_the_extension_is_reported(plugin_dir: Path):
    native(plugin_dir, extensions=vibe(hooks="./x"))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.vibe
    assert codes(diags) == ["plugin.extension.invalid"]


def test_vibe_agents_are_namespaced_by_stem_and_failures_are_plugin_codes(plugin_dir: Path):
    native(plugin_dir, name="agent-kit", extensions=vibe())
    put(plugin_dir, "ai.mistral.vibe/agents/researcher.toml", AGENT)
    put(plugin_dir, "ai.mistral.vibe/agents/broken.toml", "schema_version = [")
    put(plugin_dir, "ai.mistral.vibe/agents/notes.md", "---\nname: notes\n---\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [a.name for a in plugin.agents] == ["agent_kit:researcher"]
    [bad] = only(diags, "plugin.agent.invalid")
    assert bad.path == plugin.root / "ai.mistral.vibe" / "agents" / "broken.toml"
    assert "TOML" in bad.message  # the agents package's message, kept
    assert "agent.invalid" not in codes(diags)


def test_the_vibe_guide_camel_case_agent_example_loads(plugin_dir: Path):
    native(plugin_dir, extensions=vibe())
    camel = AGENT.replace("schema_version", "schemaVersion").replace("agent_type", "agentType")
    put(plugin_dir, "ai.mistral.vibe/agents/researcher.toml", camel)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and [a.name for a in plugin.agents] == ["demo:researcher"]
    assert diags == []


def test_an_agent_file_linked_outside_the_root_is_skipped(tmp_path: Path, plugin_dir: Path):
    native(plugin_dir, extensions=vibe())
    outside = put(tmp_path, "researcher.toml", AGENT)
    (plugin_dir / "ai.mistral.vibe" / "agents").mkdir(parents=True)
    (plugin_dir / "ai.mistral.vibe" / "agents" / "researcher.toml").symlink_to(outside)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.agents == ()
    assert codes(diags) == ["plugin.agent.invalid"]


def test_a_bad_hook_drops_that_hook(plugin_dir: Path):
    native(plugin_dir, extensions=vibe())
    strict_post_agent = HOOKS.replace('type = "post_agent"', 'type = "post_agent"\nstrict = true')
    put(plugin_dir, "ai.mistral.vibe/hooks.toml", strict_post_agent)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [h.name for h in plugin.hooks] == ["demo:guard-lookup"]
    assert codes(diags) == ["plugin.hooks.invalid"]


def test_the_vibe_directory_outside_the_root_is_not_read(tmp_path: Path, plugin_dir: Path):
    native(plugin_dir, extensions=vibe())
    vibe_tree(tmp_path / "elsewhere")
    (plugin_dir / "ai.mistral.vibe").symlink_to(tmp_path / "elsewhere" / "ai.mistral.vibe")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert (plugin.hooks, plugin.agents, plugin.knowledge) == ((), (), ())
    assert set(codes(diags)) == {"plugin.path.outside_root"}
