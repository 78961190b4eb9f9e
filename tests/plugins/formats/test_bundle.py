"""mermaid's plugin.toml bundle: skills, mcp, prompts and agents lists of contained
plugin-relative paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from tests.plugins.helpers import add_skill, only
from tests.support import codes, put

MANIFEST = """\
name = "deploy-kit"
description = "Release tooling"
version = "1.2.0"
skills = ["skills", "./extra/lint"]
mcp = ["servers.toml"]
prompts = ["deploy.md", "./prompts/rollback.md"]
agents = ["types.toml"]
"""
SERVERS = """\
[servers.registry]
command = "./bin/registry-mcp"
args = ["--port", "0"]

[servers.docs]
url = "https://docs.example.com/mcp"
"""
TYPES = """\
[types.releaser]
description = "Runs the release checklist."
instructions = "You cut releases."
tools = ["Read", "Bash"]

[types.auditor]
description = "Audits a release for missing steps."
prompt = "You audit."
safety = "yolo"
"""
DEPLOY = """\
---
description: Deploy to an environment
---
Deploy to $ARGUMENTS.
"""


def bundle_tree(root: Path, manifest: str = MANIFEST) -> None:
    put(root, "plugin.toml", manifest)
    add_skill(root, "skills/changelog")
    add_skill(root, "skills/bump")
    add_skill(root, "extra/lint")
    put(root, "servers.toml", SERVERS)
    put(root, "bin/registry-mcp", "#!/bin/sh\n")
    put(root, "deploy.md", DEPLOY)
    put(root, "prompts/rollback.md", "---\nname: undo\n---\nRoll back.\n")
    put(root, "types.toml", TYPES)


def test_a_realistic_bundle(plugin_dir: Path):
    bundle_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert (plugin.format, plugin.name, plugin.namespace) == ("bundle", "deploy-kit", "deploy-kit")
    assert (plugin.version, plugin.description) == ("1.2.0", "Release tooling")
    assert [s.name for s in plugin.skills] == ["bump", "changelog", "lint"]
    assert [c.name for c in plugin.commands] == ["deploy-kit:deploy", "deploy-kit:undo"]
    assert plugin.commands[0].tag == "(plugin:deploy-kit)"
    assert plugin.commands[0].expand("prod") == "Deploy to prod."
    assert [(s.name, s.command) for s in plugin.mcp_servers] == [
        ("registry", "./bin/registry-mcp"),
        ("docs", None),
    ]
    assert [a.name for a in plugin.agents] == ["deploy-kit:releaser", "deploy-kit:auditor"]
    assert plugin.agents[1].safety == "destructive"  # a plugin cannot grant yolo
    assert codes(diags) == ["agent.safety.capped"]


def test_the_name_falls_back_to_the_directory(tmp_path: Path):
    root = tmp_path / "tools"
    put(root, "plugin.toml", 'prompts = ["go.md"]\n')
    put(root, "go.md", "Go.\n")
    plugin, diags = read_plugin(root)
    assert plugin is not None and diags == []
    assert [c.name for c in plugin.commands] == ["tools:go"]


@pytest.mark.parametrize(
    "entry", ["../outside.md", "/etc/passwd", "./a/../../outside.md", "prompts/../../x.md"]
)
def test_an_entry_leaving_the_root_is_refused(plugin_dir: Path, entry: str):
    put(plugin_dir, "plugin.toml", f'name = "kit"\nprompts = ["{entry}", "go.md"]\n')
    put(plugin_dir, "go.md", "Go.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [c.name for c in plugin.commands] == ["kit:go"]
    assert codes(diags) == ["plugin.path.outside_root"]
    assert diags[0].severity == "warning"


def test_an_entry_linked_outside_the_root_is_refused(tmp_path: Path, plugin_dir: Path):
    put(tmp_path, "types.toml", TYPES)
    put(plugin_dir, "plugin.toml", 'name = "kit"\nagents = ["types.toml"]\nmcp = ["s.toml"]\n')
    (plugin_dir / "types.toml").symlink_to(tmp_path / "types.toml")
    put(tmp_path, "s.toml", SERVERS)
    (plugin_dir / "s.toml").symlink_to(tmp_path / "s.toml")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.agents == () and plugin.mcp_servers == ()
    assert codes(diags) == ["plugin.path.outside_root", "plugin.path.outside_root"]


def test_a_prompt_name_must_match_the_rule(plugin_dir: Path):
    put(plugin_dir, "plugin.toml", 'name = "kit"\nprompts = ["Deploy_Now.md", "ok.md"]\n')
    put(plugin_dir, "Deploy_Now.md", "Deploy.\n")
    put(plugin_dir, "ok.md", "OK.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and [c.name for c in plugin.commands] == ["kit:ok"]
    [bad] = diags
    assert (bad.code, bad.severity) == ("command.name.invalid", "error")


def test_a_missing_listed_file_is_reported(plugin_dir: Path):
    put(plugin_dir, "plugin.toml", 'name = "kit"\nprompts = ["gone.md"]\nskills = ["nope"]\n')
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert codes(diags) == ["plugin.skill.invalid", "command.read.error"]


@pytest.mark.parametrize(
    "manifest",
    ['name = 5\n', 'skills = "skills"\n', 'mcp = {a = 1}\n', 'description = ["x"]\n',
     'name = "Bad Name"\n', "name = [\n", "prompts = [1]\n"],
)  # fmt: skip
def test_a_bad_manifest_is_fatal(plugin_dir: Path, manifest: str):
    put(plugin_dir, "plugin.toml", manifest)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


def test_unknown_keys_are_reported_or_fatal_when_strict(plugin_dir: Path):
    put(plugin_dir, "plugin.toml", 'name = "kit"\nhooks = ["h.sh"]\n')
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and codes(diags) == ["plugin.manifest.field.unknown"]
    plugin, diags = read_plugin(plugin_dir, strict=True)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


def test_a_bad_agent_type_is_a_plugin_agent_diagnostic(plugin_dir: Path):
    put(plugin_dir, "plugin.toml", 'name = "kit"\nagents = ["types.toml"]\n')
    put(plugin_dir, "types.toml", TYPES + "\n[types.broken]\ninstructions = 'no description'\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [a.name for a in plugin.agents] == ["kit:releaser", "kit:auditor"]
    assert len(only(diags, "plugin.agent.invalid")) == 1
    assert "agent.invalid" not in codes(diags)
