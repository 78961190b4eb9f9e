"""Codex (.codex-plugin/plugin.json: skills, MCP) and Kimi Code (kimi.plugin.json or
.kimi-plugin/plugin.json: skills, MCP, hooks), per Vibe's compatibility table."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from tests.plugins.helpers import STEPS, USEFUL, add_skill, only, write_json
from tests.support import codes, put, skill_md

CODEX = {
    "name": "figma",
    "version": "1.0.3",
    "description": "Design context from Figma",
    "author": {"name": "OpenAI"},
    "homepage": "https://example.com",
    "repository": "https://github.com/openai/plugins",
    "license": "MIT",
    "keywords": ["design"],
    "skills": "./skills/",
    "mcpServers": "./.mcp.json",
    "apps": "./.app.json",
    "interface": {"displayName": "Figma", "category": "Design", "capabilities": ["Read"]},
}


def codex_tree(root: Path, **fields: object) -> None:
    write_json(root, ".codex-plugin/plugin.json", {**CODEX, **fields})
    add_skill(root, "skills/implement-design")
    put(
        root,
        "skills/implement-design/agents/openai.yaml",
        "policy:\n  allow_implicit_invocation: true\n",
    )
    write_json(
        root,
        ".mcp.json",
        {"mcpServers": {"figma": {"type": "http", "url": "https://mcp.figma.com/mcp"}}},
    )
    write_json(root, ".app.json", {"apps": {"figma": {"id": "connector_figma"}}})


def test_a_realistic_codex_plugin(plugin_dir: Path):
    codex_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and codes(diags) == ["plugin.apps.unavailable"]
    assert (plugin.format, plugin.name, plugin.namespace) == ("codex", "figma", "figma")
    assert [(a.name, a.id) for a in plugin.apps] == [("figma", "connector_figma")]
    assert [s.name for s in plugin.skills] == ["implement-design"]
    assert [(s.name, s.transport) for s in plugin.mcp_servers] == [("figma", "streamable-http")]
    assert plugin.manifest["interface"]["displayName"] == "Figma"
    assert (plugin.commands, plugin.agents, plugin.hooks) == ((), (), ())


def test_codex_defaults_without_path_fields(plugin_dir: Path):
    fields = {k: v for k, v in CODEX.items() if k not in ("skills", "mcpServers")}
    write_json(plugin_dir, ".codex-plugin/plugin.json", fields)
    add_skill(plugin_dir, "skills/lint")
    write_json(plugin_dir, ".mcp.json", {"mcpServers": {"local": {"command": "srv"}}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [s.name for s in plugin.skills] == ["lint"]
    assert [s.name for s in plugin.mcp_servers] == ["local"]


def test_an_empty_codex_name_falls_back_to_the_directory(tmp_path: Path):
    root = tmp_path / "superpowers"
    codex_tree(root, name="")
    plugin, _ = read_plugin(root)
    assert plugin is not None and plugin.name == "superpowers"


def test_inline_codex_mcp_servers(plugin_dir: Path):
    codex_tree(plugin_dir, mcpServers={"local": {"command": "node", "args": ["server.js"]}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and codes(diags) == ["plugin.apps.unavailable"]
    assert [(s.name, s.command) for s in plugin.mcp_servers] == [("local", "node")]


PRE = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}]}
START = {"SessionStart": [{"hooks": [{"type": "command", "command": "b"}]}]}


def test_codex_reads_hooks_json_by_default_and_not_a_root_hooks_json(plugin_dir: Path):
    # Codex 0.171.0: hooks/hooks.json runs; a root hooks.json is not read
    codex_tree(plugin_dir)
    write_json(plugin_dir, "hooks/hooks.json", {"hooks": PRE})
    write_json(plugin_dir, "hooks.json", {"hooks": START})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [(h.event, h.command) for h in plugin.hooks] == [("PreToolUse", "a")]
    assert "plugin.hooks.unsupported" not in codes(diags)


def test_codex_inline_hooks_replace_the_default_file(plugin_dir: Path):
    codex_tree(plugin_dir, hooks={"hooks": START})
    write_json(plugin_dir, "hooks/hooks.json", {"hooks": PRE})
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None
    assert [(h.event, h.command) for h in plugin.hooks] == [("SessionStart", "b")]


def test_codex_hooks_paths_replace_the_default_file(plugin_dir: Path):
    codex_tree(plugin_dir, hooks=["./more/hooks.json"])
    write_json(plugin_dir, "hooks/hooks.json", {"hooks": PRE})
    write_json(plugin_dir, "more/hooks.json", {"hooks": START})
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None
    assert [(h.event, h.command) for h in plugin.hooks] == [("SessionStart", "b")]


def test_a_bare_event_map_is_ignored_and_the_default_file_read(plugin_dir: Path):
    # Codex 0.171.0 ignores `hooks` holding the event map itself and runs hooks/hooks.json
    codex_tree(plugin_dir, hooks=START)
    write_json(plugin_dir, "hooks/hooks.json", {"hooks": PRE})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [(h.event, h.command) for h in plugin.hooks] == [("PreToolUse", "a")]
    [bad] = only(diags, "plugin.hooks.invalid")
    assert bad.message == (
        "`hooks` must be a path, a list of paths, an object holding a `hooks` object or a "
        "list of them, not an object of events; Codex ignores it and reads hooks/hooks.json"
    )


def test_a_codex_skills_path_leaving_the_root_is_refused(plugin_dir: Path):
    codex_tree(plugin_dir, skills=["../elsewhere", "./skills/"])
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and [s.name for s in plugin.skills] == ["implement-design"]
    assert codes(diags) == ["plugin.path.outside_root", "plugin.apps.unavailable"]


@pytest.mark.parametrize("fields", [{"name": 3}, {"skills": {"a": 1}}, {"mcpServers": [1]},
                                    {"keywords": [None]}, {"apps": {"a": 1}}])  # fmt: skip
def test_a_codex_field_of_the_wrong_type_is_fatal(plugin_dir: Path, fields: dict[str, object]):
    codex_tree(plugin_dir, **fields)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


KIMI = {
    "name": "review_kit",
    "version": "0.3.0",
    "description": "Code review helpers",
    "skills": ["./skills/review", "./skills/triage"],
    "mcpServers": {"github": {"command": "gh-mcp", "args": ["--stdio"], "cwd": "./"}},
    "hooks": [
        {"event": "PreToolUse", "matcher": "Shell", "command": "./guard.sh", "timeout": 10},
        {"event": "Stop", "command": "./notify.sh", "fail_mode": "closed"},
    ],
    "commands": ["./commands"],
    "interface": {"displayName": "Review Kit"},
}


def kimi_tree(root: Path, manifest: str = "kimi.plugin.json", **fields: object) -> None:
    write_json(root, manifest, {**KIMI, **fields})
    add_skill(root, "skills/review")
    add_skill(root, "skills/triage")
    put(root, "commands/tidy.md", "Tidy.\n")


def test_a_realistic_kimi_plugin(plugin_dir: Path):
    kimi_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert (plugin.format, plugin.name, plugin.namespace) == ("kimi", "review_kit", "review_kit")
    assert [s.name for s in plugin.skills] == ["review", "triage"]
    assert [s.name for s in plugin.mcp_servers] == ["github"]
    assert [(h.event, h.matcher, h.format) for h in plugin.hooks] == [
        ("PreToolUse", "Shell", "kimi"),
        ("Stop", None, "kimi"),
    ]
    assert plugin.commands == ()  # not in Vibe's table for Kimi


def test_the_kimi_plugin_directory_manifest(plugin_dir: Path):
    kimi_tree(plugin_dir, manifest=".kimi-plugin/plugin.json")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == [] and plugin.format == "kimi"


def test_kimi_plugin_json_wins_over_the_directory_manifest(plugin_dir: Path):
    kimi_tree(plugin_dir)
    write_json(plugin_dir, ".kimi-plugin/plugin.json", {"name": "other"})
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None and plugin.name == "review_kit"


@pytest.mark.parametrize("name", [None, "", "Review", "-x", "a" * 65, 5])
def test_a_kimi_name_is_required_and_follows_kimis_rule(plugin_dir: Path, name: object):
    fields = {k: v for k, v in KIMI.items() if k != "name"}
    if name is not None:
        fields["name"] = name
    write_json(plugin_dir, "kimi.plugin.json", fields)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


def test_a_kimi_root_skill_md_is_the_one_skill(plugin_dir: Path):
    write_json(plugin_dir, "kimi.plugin.json", {"name": "solo"})
    put(plugin_dir, "SKILL.md", skill_md("solo", USEFUL, STEPS))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [s.name for s in plugin.skills] == ["solo"]


def test_kimi_tools_are_executable_and_never_run(plugin_dir: Path):
    kimi_tree(plugin_dir, tools=[{"name": "t", "command": ["python", "t.py"]}])
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert codes(diags) == ["plugin.compatibility.executable_format_unsupported"]


def test_a_bad_kimi_hook_drops_that_hook(plugin_dir: Path):
    hooks = [
        {"event": "Stop", "command": "./a.sh"},
        {"event": "Stop", "command": "./b.sh", "when": "x"},
    ]
    kimi_tree(plugin_dir, hooks=hooks)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and [h.command for h in plugin.hooks] == ["./a.sh"]
    assert len(only(diags, "plugin.hooks.invalid")) == 1
