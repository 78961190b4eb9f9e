"""Agent Plugins 1.0 components (spec §4, §6, §7) and the failure boundaries."""

from __future__ import annotations

from pathlib import Path

from satchel.plugins import read_plugin
from tests.plugins.helpers import REMOTE, STDIO, STEPS, USEFUL, add_skill, mcp_json, native, only
from tests.support import codes, put, skill_md


def names(plugin: object) -> list[str]:
    return sorted(s.name for s in plugin.skills)  # type: ignore[attr-defined]


def test_skills_are_the_immediate_children_of_skills_with_a_skill_md(plugin_dir: Path):
    native(plugin_dir)
    add_skill(plugin_dir, "skills/format-reports")
    add_skill(plugin_dir, "skills/lint")
    add_skill(plugin_dir, "skills/group/deep")  # no deeper search
    (plugin_dir / "skills" / "empty").mkdir()
    put(plugin_dir, "skills/notes.md", "# not a skill\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert names(plugin) == ["format-reports", "lint"]
    assert {s.scope for s in plugin.skills} == {"plugin"}
    assert [plugin.qualified(s.name) for s in plugin.skills] == ["demo:format-reports", "demo:lint"]


def test_only_a_file_named_exactly_skill_md_counts(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "skills/lower/skill.md", skill_md("lower", USEFUL, STEPS))
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == ()


def test_a_missing_skills_location_is_not_an_error(plugin_dir: Path):
    native(plugin_dir)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == () and diags == []


def test_skills_being_a_file_invalidates_skills_only(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "skills", "not a directory\n")
    mcp_json(plugin_dir, {"lookup": STDIO})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None
    assert codes(diags) == ["plugin.skill.invalid"]
    assert [s.name for s in plugin.mcp_servers] == ["lookup"]


def test_a_skill_named_unlike_its_directory_is_skipped(plugin_dir: Path):
    native(plugin_dir)
    add_skill(plugin_dir, "skills/reports", name="format-reports")
    add_skill(plugin_dir, "skills/lint")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and names(plugin) == ["lint"]
    bad = only(diags, "plugin.skill.invalid")
    assert len(bad) == 1 and "reports" in bad[0].message
    assert bad[0].path == plugin.root / "skills" / "reports" / "SKILL.md"


def test_a_skill_without_a_name_or_description_is_skipped(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "skills/nameless/SKILL.md", skill_md(None, USEFUL, STEPS))
    add_skill(plugin_dir, "skills/mute", description=None)
    add_skill(plugin_dir, "skills/ok")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and names(plugin) == ["ok"]
    assert len(only(diags, "plugin.skill.invalid")) == 2


def test_a_skill_md_linked_outside_the_root_is_skipped(tmp_path: Path, plugin_dir: Path):
    native(plugin_dir)
    outside = add_skill(tmp_path, "outside/evil")
    (plugin_dir / "skills" / "evil").mkdir(parents=True)
    (plugin_dir / "skills" / "evil" / "SKILL.md").symlink_to(outside)
    add_skill(plugin_dir, "skills/ok")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and names(plugin) == ["ok"]
    [bad] = only(diags, "plugin.skill.invalid")
    assert "inside the plugin root" in bad.message


def test_a_skill_directory_linked_outside_the_root_is_skipped(tmp_path: Path, plugin_dir: Path):
    native(plugin_dir)
    add_skill(tmp_path, "outside/evil")
    (plugin_dir / "skills").mkdir()
    (plugin_dir / "skills" / "evil").symlink_to(tmp_path / "outside" / "evil")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == ()
    assert codes(diags) == ["plugin.skill.invalid"]


def test_symlinks_that_stay_inside_the_root_are_fine(plugin_dir: Path):
    native(plugin_dir)
    add_skill(plugin_dir, "library/shared")
    (plugin_dir / "skills").mkdir()
    (plugin_dir / "skills" / "shared").symlink_to(plugin_dir / "library" / "shared")
    put(plugin_dir, "docs/review.md", skill_md("review", USEFUL, STEPS))
    (plugin_dir / "skills" / "review").mkdir()
    (plugin_dir / "skills" / "review" / "SKILL.md").symlink_to(plugin_dir / "docs" / "review.md")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert names(plugin) == ["review", "shared"]


def test_a_skill_md_that_is_not_a_regular_file_is_skipped(plugin_dir: Path):
    native(plugin_dir)
    (plugin_dir / "skills" / "odd" / "SKILL.md").mkdir(parents=True)
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == ()
    assert codes(diags) == ["plugin.skill.invalid"]


def test_a_skills_location_outside_the_root_invalidates_that_component(
    tmp_path: Path, plugin_dir: Path
):
    native(plugin_dir)
    add_skill(tmp_path, "shared-skills/lint")
    (plugin_dir / "skills").symlink_to(tmp_path / "shared-skills")
    mcp_json(plugin_dir, {"lookup": STDIO})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == ()
    assert codes(diags) == ["plugin.path.outside_root"]
    assert diags[0].severity == "warning"  # the plugin survives
    assert len(plugin.mcp_servers) == 1


def test_mcp_servers_load_from_mcp_json(plugin_dir: Path):
    native(plugin_dir)
    mcp_json(plugin_dir, {"lookup": STDIO, "remote-api": REMOTE})
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    lookup, remote = plugin.mcp_servers
    assert (lookup.name, lookup.transport, lookup.command) == ("lookup", "stdio", "node")
    assert lookup.args == ("${PLUGIN_ROOT}/server/index.js",)  # expanded by the supervisor
    assert (remote.transport, remote.url) == ("streamable-http", "https://api.example.com/mcp")
    assert lookup.plugin == "demo"


def test_a_broken_mcp_json_disables_mcp_and_the_rest_loads(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "mcp.json", '{"mcpServers": {}}')  # no $schema
    add_skill(plugin_dir, "skills/lint")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and names(plugin) == ["lint"]
    assert plugin.mcp_servers == ()
    assert codes(diags) == ["plugin.mcp.invalid"]


def test_an_mcp_json_outside_the_root_is_not_read(tmp_path: Path, plugin_dir: Path):
    native(plugin_dir)
    mcp_json(tmp_path, {"lookup": STDIO})
    (plugin_dir / "mcp.json").symlink_to(tmp_path / "mcp.json")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.mcp_servers == ()
    assert codes(diags) == ["plugin.path.outside_root"]


def test_the_manifest_cannot_move_component_locations(plugin_dir: Path):
    native(plugin_dir, validate=False, skills="./other")
    add_skill(plugin_dir, "other/lint")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and plugin.skills == ()
    assert codes(diags) == ["plugin.manifest.field.unknown"]


def test_instructions_md_is_noted_and_not_loaded(plugin_dir: Path):
    native(plugin_dir)
    put(plugin_dir, "INSTRUCTIONS.md", "Always be kind.\n")
    plugin, diags = read_plugin(plugin_dir)
    assert plugin is not None and diags == []
    assert plugin.instructions == plugin.root / "INSTRUCTIONS.md"
    assert "Always be kind" not in repr(plugin)


def test_instructions_md_outside_the_root_is_not_noted(tmp_path: Path, plugin_dir: Path):
    native(plugin_dir)
    put(tmp_path, "INSTRUCTIONS.md", "elsewhere\n")
    (plugin_dir / "INSTRUCTIONS.md").symlink_to(tmp_path / "INSTRUCTIONS.md")
    plugin, _ = read_plugin(plugin_dir)
    assert plugin is not None and plugin.instructions is None
