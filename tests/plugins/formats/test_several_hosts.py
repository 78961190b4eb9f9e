"""Plugins shipped for several hosts load by the preference order (or are refused, by
setting, as Mistral Vibe refuses them); Cursor's manifest is read; a Claude Code plugin
without a manifest loads when it is named as a plugin. Checked against Claude Code's own
`claude plugin validate --json` where satchel claims Claude Code's behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import satchel
from satchel.plugins import Detection, load_plugins, read_plugin
from tests.plugins.helpers import add_skill, write_json
from tests.plugins.multihost import NAME, SKILLS, multihost_plugin
from tests.support import codes, put
from tests.tools import claude_validate

UNUSED = (
    "this directory holds manifests for several hosts; .claude-plugin (Claude Code) is read "
    "and these are not used: .codex-plugin/plugin.json (Codex), .cursor-plugin/plugin.json "
    "(Cursor), gemini-extension.json (Gemini CLI), .kimi-plugin/plugin.json (Kimi Code), "
    ".opencode/plugins (OpenCode)"
)


def test_a_plugin_for_six_hosts_loads_as_claude_code_with_its_hook(tmp_path: Path):
    root = multihost_plugin(tmp_path / NAME)
    plugin, diags = read_plugin(root)
    assert plugin is not None
    assert (plugin.format, plugin.name) == ("claude", NAME)
    assert sorted(s.name for s in plugin.skills) == sorted(SKILLS)
    assert [(h.event, h.matcher) for h in plugin.hooks] == [
        ("SessionStart", "startup|clear|compact")
    ]
    assert [(d.code, d.severity, d.message) for d in diags] == [
        ("plugin.compatibility.manifest_unused", "info", UNUSED)
    ]


def test_claude_code_reads_the_same_manifest_skills_and_hook(tmp_path: Path, claude_code: Path):
    root = multihost_plugin(tmp_path / NAME)
    report = claude_validate(claude_code, root, _home(tmp_path))
    assert report["success"] is True
    assert report["manifest"]["errors"] == []
    plugin, _ = read_plugin(root)
    assert plugin is not None
    provides = report["provides"]
    assert sorted(provides["skills"]) == sorted(plugin.qualified(s.name) for s in plugin.skills)
    assert [(h["event"], h["matcher"], h["command"]) for h in provides["hooks"]] == [
        (h.event, h.matcher, h.command) for h in plugin.hooks
    ]


def test_load_refuses_several_manifests_when_asked_as_vibe_does(layout, project):
    multihost_plugin(project / ".satchel" / "plugins" / NAME)
    env = satchel.load(layout=layout, ambiguous_plugins="refuse")
    assert NAME not in env.plugins.plugins
    assert "plugin.compatibility.format_ambiguous" in codes(env.diagnostics)
    default = satchel.load(layout=layout)
    assert default.plugins.plugins[NAME].format == "claude"
    assert f"{NAME}:brainstorming" in default.skills


def test_config_toml_refuses_several_manifests_and_the_host_option_wins(layout, home):
    multihost_plugin(home / ".agents" / "plugins" / NAME)
    config = home / ".config" / "satchel" / "config.toml"
    put(config.parent, config.name, '[plugin_manifests]\nambiguous = "refuse"\n')
    refused = load_plugins(layout)
    assert NAME not in refused.plugins
    assert "plugin.compatibility.format_ambiguous" in codes(refused.diagnostics)
    assert load_plugins(layout, ambiguous="prefer").plugins[NAME].format == "claude"


def test_config_toml_sets_the_order_and_the_users_file_wins(layout, project, home):
    multihost_plugin(home / ".agents" / "plugins" / NAME)
    user = home / ".config" / "satchel"
    put(user, "config.toml", '[plugin_manifests]\norder = ["kimi", "claude"]\n')
    put(project / ".satchel", "config.toml", '[plugin_manifests]\norder = ["codex"]\n')
    assert load_plugins(layout).plugins[NAME].format == "kimi"
    given = load_plugins(layout, format_order=("cursor",))
    assert given.plugins[NAME].format == "cursor"


def test_a_bad_plugin_manifests_setting_is_reported_and_ignored(layout, home):
    multihost_plugin(home / ".agents" / "plugins" / NAME)
    put(home / ".config" / "satchel", "config.toml", '[plugin_manifests]\nambiguous = "x"\n')
    found = load_plugins(layout)
    assert found.plugins[NAME].format == "claude"
    config = home / ".config" / "satchel" / "config.toml"
    bad = [(d.code, d.message, d.path) for d in found.diagnostics if d.code == "config.invalid"]
    assert bad == [
        (
            "config.invalid",
            "config.toml: [plugin_manifests] ambiguous must be one of 'prefer', 'refuse'",
            config,
        )
    ]


def test_load_options_are_typed():
    with pytest.raises(TypeError, match="ambiguous_plugins must be one of prefer, refuse"):
        satchel.load(ambiguous_plugins="maybe")
    with pytest.raises(TypeError, match="unknown plugin format"):
        satchel.load(plugin_format_order=["claude", "zed"])


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "scratch-home"
    home.mkdir(exist_ok=True)
    return home


# -- Cursor ------------------------------------------------------------------------


def test_a_cursor_plugin_reads_skills_commands_agents_and_mcp_json(plugin_dir: Path):
    write_json(plugin_dir, ".cursor-plugin/plugin.json", {"name": "cursed", "version": "2.0.0"})
    add_skill(plugin_dir, "skills/review")
    put(plugin_dir, "commands/ship.md", "---\ndescription: Ship it\n---\nShip.\n")
    put(plugin_dir, "agents/scout.md", "---\nname: scout\ndescription: Looks.\n---\nLook.\n")
    write_json(plugin_dir, "mcp.json", {"mcpServers": {"db": {"command": "db-server"}}})
    shell = {"command": "./guard.sh"}
    write_json(
        plugin_dir, "hooks/hooks.json", {"version": 1, "hooks": {"beforeShellExecution": [shell]}}
    )
    put(plugin_dir, "rules/style.mdc", "---\nalwaysApply: true\n---\nBe terse.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert (plugin.format, plugin.name, plugin.version) == ("cursor", "cursed", "2.0.0")
    assert [s.name for s in plugin.skills] == ["review"]
    assert [c.name for c in plugin.commands] == ["cursed:ship"]
    assert [a.name for a in plugin.agents] == ["cursed:scout"]
    assert [s.name for s in plugin.mcp_servers] == ["db"]
    assert [(h.event, h.format, h.matcher, h.command) for h in plugin.hooks] == [
        ("beforeShellExecution", "cursor", "Bash", "./guard.sh")
    ]
    assert [(r.path.name, r.condition.applies, r.text) for r in plugin.rules] == [
        ("style.mdc", "always", "Be terse.\n")
    ]
    assert diags == []


def test_a_cursor_field_replaces_its_default_location(plugin_dir: Path):
    manifest = {"name": "cursed", "skills": "./extra/", "hooks": "./hooks/hooks-cursor.json"}
    write_json(plugin_dir, ".cursor-plugin/plugin.json", manifest)
    add_skill(plugin_dir, "skills/ignored")
    add_skill(plugin_dir, "extra/chosen")
    write_json(
        plugin_dir, "hooks/hooks.json", {"version": 1, "hooks": {"stop": [{"command": "a"}]}}
    )
    write_json(
        plugin_dir,
        "hooks/hooks-cursor.json",
        {"version": 1, "hooks": {"sessionStart": [{"command": "b"}]}},
    )
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [s.name for s in plugin.skills] == ["chosen"]
    assert [(h.event, h.command) for h in plugin.hooks] == [("sessionStart", "b")]
    assert diags == []


def test_a_cursor_field_of_the_wrong_type_is_fatal(plugin_dir: Path):
    write_json(plugin_dir, ".cursor-plugin/plugin.json", {"name": "cursed", "rules": 3})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert [(d.code, d.message) for d in diags] == [
        ("plugin.manifest.invalid", "`rules` must be a path or a list of paths, not a number")
    ]


# -- Claude Code without a manifest ----------------------------------------------------


def _bare(root: Path, part: str) -> Path:
    if part == "skills":
        add_skill(root, "skills/lint")
    elif part in ("commands", "agents"):
        put(root, f"{part}/one.md", "---\nname: one\ndescription: One.\n---\nBody.\n")
    elif part == "hooks/hooks.json":
        handler = {"type": "command", "command": "true"}
        write_json(root, part, {"hooks": {"Stop": [{"hooks": [handler]}]}})
    else:
        write_json(root, part, {"mcpServers": {"db": {"command": "db-server"}}})
    return root


PARTS = ("skills", "commands", "agents", "hooks/hooks.json", ".mcp.json")


@pytest.mark.parametrize("part", PARTS)
def test_a_claude_layout_named_as_a_plugin_loads_without_a_manifest(plugin_dir: Path, part: str):
    _bare(plugin_dir, part)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert (plugin.format, plugin.name) == ("claude", plugin_dir.name)
    counts = {
        "skills": len(plugin.skills),
        "commands": len(plugin.commands),
        "agents": len(plugin.agents),
        "hooks/hooks.json": len(plugin.hooks),
        ".mcp.json": len(plugin.mcp_servers),
    }
    assert counts == {p: int(p == part) for p in PARTS}


@pytest.mark.parametrize("part", PARTS)
def test_a_claude_layout_not_named_as_a_plugin_is_not_one(plugin_dir: Path, part: str):
    _bare(plugin_dir, part)
    plugin, diags = read_plugin(plugin_dir, named=False)
    assert plugin is None
    assert codes(diags) == ["plugin.compatibility.format_unrecognized"]


def test_plugins_roots_and_plugin_dirs_name_their_directories(layout, project, tmp_path):
    _bare(project / ".satchel" / "plugins" / "helper", "commands")
    given = _bare(tmp_path / "given", "skills")
    found = load_plugins(layout, dirs=[given])
    assert {n: p.format for n, p in found.plugins.items()} == {
        "helper": "claude",
        "given": "claude",
    }


def test_the_workspace_layout_stays_the_workspace_plugin(layout, project):
    _bare(_bare(project, "skills"), "hooks/hooks.json")
    found = load_plugins(layout)
    assert [(p.name, p.format, len(p.hooks)) for p in found.plugins.values()] == [
        ("project", "workspace", 0)
    ]


def test_claude_code_accepts_a_skills_tree_without_a_manifest(tmp_path: Path, claude_code: Path):
    root = _bare(_bare(tmp_path / "helper", "skills"), "hooks/hooks.json")
    report = claude_validate(claude_code, root, _home(tmp_path))
    findings = {f["code"]: f for f in report["directory"]["findings"]}
    assert report["success"] is True and report["manifest"] is None
    assert findings["MANIFEST_NOT_FOUND"]["severity"] == "info"
    plugin, _ = read_plugin(root)
    assert plugin is not None and plugin.name == "helper" and len(plugin.hooks) == 1


def test_rule_claude_codes_loader_reads_default_parts_its_validator_wants_skills(
    tmp_path: Path, claude_code: Path
):
    """satchel follows Claude Code's loader (its plugin docs: the manifest is optional
    and every default location is read), not its validator, which accepts a
    manifest-less directory only when it holds a skills tree."""
    root = _bare(tmp_path / "helper", "commands")
    report = claude_validate(claude_code, root, _home(tmp_path))
    assert report["success"] is False
    assert [e["message"] for e in report["manifest"]["errors"]] == [
        "No manifest found in directory. Expected .claude-plugin/marketplace.json or "
        ".claude-plugin/plugin.json"
    ]
    plugin, _ = read_plugin(root)
    assert plugin is not None and [c.name for c in plugin.commands] == ["helper:one"]


def test_manifest_unused_is_said_once_per_plugin_directory(tmp_path: Path):
    root = multihost_plugin(tmp_path / NAME)
    _, diags = read_plugin(root, detection=Detection(order=("opencode",)))
    assert codes(diags).count("plugin.compatibility.manifest_unused") == 1
    assert json.loads((root / ".claude-plugin" / "plugin.json").read_text())["name"] == NAME
