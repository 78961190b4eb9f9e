"""Claude Code plugins: a realistic tree, the optional manifest, both .mcp.json shapes
and the path fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.plugins import read_plugin
from tests.plugins.helpers import STEPS, USEFUL, add_skill, only, write_json
from tests.support import codes, put, skill_md

HOOKS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"}],
            }
        ],
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo hi", "timeout": 5}]}],
    }
}
SERVERS = {
    "docs": {"command": "npx", "args": ["-y", "@example/docs-mcp"]},
    "api": {"type": "http", "url": "https://mcp.example.com/mcp"},
}
AGENT = """\
---
name: code-reviewer
description: Reviews a diff for bugs and style problems.
tools: Read, Grep, Glob
---
You review code.
"""
COMMAND = """\
---
description: Cut a release
argument-hint: [version]
---
Release $ARGUMENTS now.
"""


def claude_tree(root: Path, **manifest: object) -> None:
    write_json(
        root,
        ".claude-plugin/plugin.json",
        {
            "name": "release-tools",
            "version": "2.1.0",
            "description": "Release helpers",
            "author": {"name": "Ann", "email": "ann@example.com"},
            "keywords": ["release"],
            "license": "MIT",
            **manifest,
        },
    )
    add_skill(root, "skills/changelog")
    put(root, "commands/release.md", COMMAND)
    put(root, "commands/frontend/component.md", "Make a component.\n")
    put(root, "agents/code-reviewer.md", AGENT)
    write_json(root, "hooks/hooks.json", HOOKS)
    write_json(root, ".mcp.json", {"mcpServers": SERVERS})


def test_a_realistic_claude_plugin(plugin_dir: Path):
    claude_tree(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert (plugin.format, plugin.name, plugin.namespace) == (
        "claude",
        "release-tools",
        "release-tools",
    )
    assert (plugin.version, plugin.description) == ("2.1.0", "Release helpers")
    assert [s.name for s in plugin.skills] == ["changelog"]
    assert sorted(c.name for c in plugin.commands) == [
        "release-tools:frontend:component",
        "release-tools:release",
    ]
    component = next(c for c in plugin.commands if c.name.endswith("component"))
    assert component.aliases == ()
    assert component.tag == "(plugin:release-tools)"
    assert [a.name for a in plugin.agents] == ["release-tools:code-reviewer"]
    assert [(h.event, h.matcher) for h in plugin.hooks] == [
        ("PreToolUse", "Write|Edit"),
        ("SessionStart", None),
    ]
    assert [s.name for s in plugin.mcp_servers] == ["docs", "api"]
    assert [s.transport for s in plugin.mcp_servers] == ["stdio", "streamable-http"]


def test_the_bare_map_mcp_json_shape(plugin_dir: Path):
    claude_tree(plugin_dir)
    write_json(plugin_dir, ".mcp.json", SERVERS)  # firebase, laravel-boost style
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [s.name for s in plugin.mcp_servers] == ["docs", "api"]


def test_the_manifest_is_optional(tmp_path: Path):
    root = tmp_path / "lsp-helper"
    (root / ".claude-plugin").mkdir(parents=True)
    add_skill(root, "skills/lint")
    put(root, "commands/fix.md", "Fix it.\n")
    plugin, diags = read_plugin(root)
    assert plugin is not None and diags == []
    assert (plugin.name, plugin.namespace) == ("lsp-helper", "lsp-helper")
    assert [c.name for c in plugin.commands] == ["lsp-helper:fix"]


def test_a_directory_name_that_cannot_name_a_plugin_is_fatal(tmp_path: Path):
    root = tmp_path / "My Plugin"
    (root / ".claude-plugin").mkdir(parents=True)
    plugin, diags = read_plugin(root)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


def test_commands_and_agents_paths_replace_the_defaults(plugin_dir: Path):
    claude_tree(plugin_dir, commands=["./cmds", "./extra/one.md"], agents="./reviewers")
    put(plugin_dir, "cmds/ship.md", "Ship it.\n")
    put(plugin_dir, "extra/one.md", "One.\n")
    put(plugin_dir, "reviewers/security.md", AGENT.replace("code-reviewer", "security"))
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [c.name for c in plugin.commands] == ["release-tools:ship", "release-tools:one"]
    assert [a.name for a in plugin.agents] == ["release-tools:security"]


def test_skills_paths_add_to_the_default(plugin_dir: Path):
    claude_tree(plugin_dir, skills=["./more-skills", "./single/xlsx"])
    add_skill(plugin_dir, "more-skills/pdf")
    add_skill(plugin_dir, "single/xlsx")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [s.name for s in plugin.skills] == ["changelog", "pdf", "xlsx"]


def test_a_claude_skill_is_named_by_its_directory_and_a_differing_name_warns(plugin_dir: Path):
    claude_tree(plugin_dir)
    add_skill(plugin_dir, "skills/react-best-practices", name="vercel-react-best-practices")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [plugin.qualified(s.name) for s in plugin.skills] == [
        "release-tools:changelog",
        "release-tools:react-best-practices",
    ]
    assert [(d.code, d.severity, d.message, d.hint) for d in diags] == [
        (
            "skill.name.mismatch",
            "warning",
            "the name 'vercel-react-best-practices' differs from its directory name "
            "'react-best-practices'; the skill is release-tools:react-best-practices, "
            "named by its directory as Claude Code names it",
            "set name: react-best-practices",
        )
    ]


def test_vibes_rule_skips_a_claude_skill_whose_name_is_not_its_directory(plugin_dir: Path):
    claude_tree(plugin_dir)
    add_skill(plugin_dir, "skills/react-best-practices", name="vercel-react-best-practices")
    plugin, diags = read_plugin(plugin_dir, skill_rule="vibe")
    assert plugin is not None
    assert [s.name for s in plugin.skills] == ["changelog"]
    assert [(d.code, d.message) for d in diags if d.code == "plugin.skill.invalid"] == [
        (
            "plugin.skill.invalid",
            "the skill's name must be given and equal its directory name "
            "'react-best-practices' (got 'vercel-react-best-practices'); the skill is skipped",
        )
    ]


def test_a_skill_directory_the_manifest_lists_keeps_its_frontmatter_name(plugin_dir: Path):
    claude_tree(plugin_dir, skills=["./extra/one"])
    add_skill(plugin_dir, "extra/one", name="listed-skill")
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None
    assert [s.name for s in plugin.skills] == ["changelog", "listed-skill"]


def test_a_command_is_named_by_its_path_whatever_its_frontmatter_name(plugin_dir: Path):
    claude_tree(plugin_dir)
    put(plugin_dir, "commands/content/draft.md", "---\nname: other-plugin:draft\n---\nDraft.\n")
    put(plugin_dir, "commands/a/b/deep.md", "Deep.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert sorted(c.name for c in plugin.commands) == [
        "release-tools:a:b:deep",
        "release-tools:content:draft",
        "release-tools:frontend:component",
        "release-tools:release",
    ]
    draft = next(c for c in plugin.commands if c.name.endswith("draft"))
    assert draft.extras == {"name": "other-plugin:draft"}


def test_an_agent_in_a_subdirectory_has_the_subdirectories_in_its_id(plugin_dir: Path):
    claude_tree(plugin_dir)
    put(
        plugin_dir,
        "agents/review/deep/strict.md",
        "---\nname: strictest\ndescription: d\n---\nBe strict.\n",
    )
    put(plugin_dir, "agents/plain-name.md", "---\ndescription: d\n---\nNo name.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert sorted(a.name for a in plugin.agents) == [
        "release-tools:code-reviewer",
        "release-tools:plain-name",
        "release-tools:review:deep:strictest",
    ]


def test_a_root_skill_md_is_the_one_skill_without_skills(tmp_path: Path):
    root = tmp_path / "solo"
    write_json(root, ".claude-plugin/plugin.json", {"name": "solo"})
    put(root, "SKILL.md", skill_md("solo-skill", USEFUL, STEPS))
    plugin, diags = read_plugin(root)
    assert plugin is not None and diags == []
    assert [s.name for s in plugin.skills] == ["solo-skill"]


def test_hooks_and_mcp_paths_add_to_the_default_files(plugin_dir: Path):
    extra_hooks = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}]}}
    claude_tree(
        plugin_dir,
        hooks=["./hooks/hooks.json", "./more/hooks.json"],  # the default named again: read once
        mcpServers="./servers/extra.json",
    )
    write_json(plugin_dir, "more/hooks.json", extra_hooks)
    write_json(plugin_dir, "servers/extra.json", {"mcpServers": {"search": {"command": "srch"}}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [h.event for h in plugin.hooks] == ["PreToolUse", "SessionStart", "Stop"]
    assert [s.name for s in plugin.mcp_servers] == ["docs", "api", "search"]


def test_inline_mcp_servers_in_the_manifest(plugin_dir: Path):
    claude_tree(plugin_dir, mcpServers={"inline": {"command": "inline-server", "args": ["--x"]}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    inline = plugin.mcp_servers[-1]
    assert (inline.name, inline.command, inline.args) == ("inline", "inline-server", ("--x",))
    assert inline.path == plugin.root / ".claude-plugin" / "plugin.json"


def test_a_server_declared_twice_keeps_the_first(plugin_dir: Path):
    claude_tree(plugin_dir, mcpServers={"docs": {"command": "other"}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [s.command for s in plugin.mcp_servers if s.name == "docs"] == ["npx"]
    assert codes(diags) == ["plugin.mcp.invalid"]


@pytest.mark.parametrize("value", ["../outside", "/etc", "./a/../../b", "a/../../b"])
def test_a_path_field_leaving_the_root_is_refused(plugin_dir: Path, value: str):
    claude_tree(plugin_dir, commands=[value, "./cmds"])
    put(plugin_dir, "cmds/ship.md", "Ship.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert [c.name for c in plugin.commands] == ["release-tools:ship"]
    assert codes(diags) == ["plugin.path.outside_root"]


def test_a_path_field_linked_outside_the_root_is_refused(tmp_path: Path, plugin_dir: Path):
    put(tmp_path, "secret-agents/spy.md", AGENT)
    claude_tree(plugin_dir, agents="./linked")
    (plugin_dir / "linked").symlink_to(tmp_path / "secret-agents")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.agents == ()
    assert codes(diags) == ["plugin.path.outside_root"]


@pytest.mark.parametrize(
    "fields",
    [{"name": 5}, {"version": 2}, {"keywords": "x"}, {"author": "Ann"}, {"commands": 3},
     {"agents": {"a": 1}}, {"hooks": 7}, {"mcpServers": True}, {"skills": [1]}],
)  # fmt: skip
def test_a_known_field_of_the_wrong_type_is_fatal(plugin_dir: Path, fields: dict[str, object]):
    claude_tree(plugin_dir, **fields)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None and codes(diags) == ["plugin.manifest.invalid"]


def test_unknown_fields_are_reported_and_known_extras_kept(plugin_dir: Path):
    claude_tree(plugin_dir, displayName="Release Tools", lspServers={}, favouriteColour="teal")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert codes(diags) == ["plugin.manifest.field.unknown"]
    assert "favouriteColour" in diags[0].message
    assert plugin.manifest["displayName"] == "Release Tools"


def test_a_bad_agent_is_a_plugin_agent_diagnostic(plugin_dir: Path):
    claude_tree(plugin_dir)
    put(plugin_dir, "agents/broken.md", "---\nname: [\n---\n")
    put(plugin_dir, "agents/mute.md", "---\nname: mute\n---\nNo description.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    # YAML no retry reads: the agent loads as Claude Code loads it, named after its file
    assert [a.name for a in plugin.agents] == [
        "release-tools:broken",
        "release-tools:code-reviewer",
    ]
    bad = only(diags, "plugin.agent.invalid")
    assert sorted(d.path.name for d in bad) == ["mute.md"]
    assert "agent.invalid" not in codes(diags)


def test_a_manifest_linked_outside_the_root_is_fatal(tmp_path: Path, plugin_dir: Path):
    write_json(tmp_path, "plugin.json", {"name": "x"})
    (plugin_dir / ".claude-plugin").mkdir()
    (plugin_dir / ".claude-plugin" / "plugin.json").symlink_to(tmp_path / "plugin.json")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None and codes(diags) == ["plugin.path.outside_root"]


INLINE_STOP = {"Stop": [{"hooks": [{"type": "command", "command": "./inline-stop.sh"}]}]}


def test_inline_hooks_in_the_manifest_load_after_the_hooks_file(plugin_dir: Path):
    claude_tree(plugin_dir, hooks=INLINE_STOP)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [(h.event, h.command) for h in plugin.hooks] == [
        ("PreToolUse", "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"),
        ("SessionStart", "echo hi"),
        ("Stop", "./inline-stop.sh"),
    ]
    assert plugin.hooks[-1].path == plugin.root / ".claude-plugin" / "plugin.json"
    assert plugin.hooks[-1].plugin == "release-tools"


def test_a_list_may_mix_hook_files_and_inline_hooks(plugin_dir: Path):
    more = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "m"}]}]}}
    guard = {"matcher": "Skill(deploy)|mcp__plugin_release-tools_docs__search"}
    inline = {"PreToolUse": [{**guard, "hooks": [{"type": "command", "command": "g"}]}]}
    claude_tree(plugin_dir, hooks=["./more/hooks.json", inline])
    write_json(plugin_dir, "more/hooks.json", more)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [(h.event, h.command, h.matcher) for h in plugin.hooks][2:] == [
        ("UserPromptSubmit", "m", None),
        ("PreToolUse", "g", "Skill(deploy)|mcp__plugin_release-tools_docs__search"),
    ]


def test_inline_hooks_wrapped_in_a_hooks_key_are_not_an_event(plugin_dir: Path):
    claude_tree(plugin_dir, hooks={"hooks": INLINE_STOP})  # Claude Code refuses it too
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and len(plugin.hooks) == 2  # the default file still loads
    assert [(d.code, d.message) for d in diags] == [
        (
            "plugin.hooks.invalid",
            "event 'hooks' must map to a list of matcher groups, not a mapping; "
            "its hooks are skipped",
        )
    ]


def test_a_list_may_mix_server_files_and_inline_servers(plugin_dir: Path):
    claude_tree(plugin_dir, mcpServers=["./servers/extra.json", {"inline": {"command": "i"}}])
    write_json(plugin_dir, "servers/extra.json", {"mcpServers": {"search": {"command": "s"}}})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert [s.name for s in plugin.mcp_servers] == ["docs", "api", "search", "inline"]


def test_a_hooks_list_holding_a_number_is_fatal(plugin_dir: Path):
    claude_tree(plugin_dir, hooks=["./hooks/hooks.json", 3])
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is None
    assert [(d.code, d.message) for d in diags] == [
        (
            "plugin.manifest.invalid",
            "`hooks` must be a path, an object or a list of paths and objects, not a list",
        )
    ]


def test_a_linked_plugin_directory_is_named_as_given(tmp_path: Path):
    store = tmp_path / "store" / "lsp-helper-1.2.3"
    add_skill(store, "skills/lint")
    (store / ".claude-plugin").mkdir()
    link = tmp_path / "plugins" / "lsp-helper"
    link.parent.mkdir()
    link.symlink_to(store)
    plugin, diags = read_plugin(link)
    assert plugin is not None and diags == []
    assert plugin.name == "lsp-helper"
    assert plugin.root == store.resolve()  # what containment is judged against
