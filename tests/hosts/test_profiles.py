"""Each host profile builds that host's directory table, and the skill its documentation
says wins is the one that loads (the sources are in each profile and docs/hosts.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel import hosts
from satchel.hosts import Host
from tests.support import codes, skill_md, write_skill


def loaded(host: Host, cwd: Path, home: Path, **options: object) -> satchel.Environment:
    """`load()` as `host` reads `cwd`, with a stand-in home, the folder trusted."""
    layout = host.layout(cwd, home=home, env={})
    return satchel.load(layout=layout, host=host, **{"trusted": True, **options})  # type: ignore[arg-type]


def place(root: Path, name: str, description: str) -> None:
    write_skill(root, name, skill_md(name, description))


def rows(host: Host, cwd: Path, home: Path) -> list[Path]:
    return [r.path for r in host.layout(cwd, home=home, env={}).skill_roots()]


@pytest.mark.parametrize("name", hosts.names())
def test_every_row_of_the_table_loads_and_the_first_row_wins_a_clash(name, project, home):
    host = hosts.get(name)
    roots = rows(host, project, home)
    for number, root in enumerate(roots):
        place(root, "clash", f"row {number}")
        place(root, f"only-{number}", f"row {number} alone")
    env = loaded(host, project, home)
    assert env.skills["clash"].description == "row 0"
    assert {f"only-{n}" for n in range(len(roots))} <= set(env.skills)
    assert [s.loser.description for s in env.shadowed if s.name == "clash"][:1] == ["row 1"]


def test_satchel_profile_is_what_load_does_without_a_host(project, home):
    for family in (".satchel", ".claude", ".agents", ".codex"):
        place(project / family / "skills", "clash", family)
    place(home / ".claude" / "skills", "mine", "user")
    plain = satchel.load(layout=satchel.Layout.default(project, home=home, env={}), trusted=True)
    profiled = loaded(hosts.get("satchel"), project, home)
    assert list(plain.skills) == list(profiled.skills)
    assert plain.options == profiled.options
    assert plain.diagnostics == profiled.diagnostics
    assert profiled.host is not None and profiled.host.name == "satchel"
    assert plain.host is None  # satchel's own rules, without importing the profiles


# -- Claude Code ------------------------------------------------------------------------


def test_claude_code_personal_skill_beats_the_projects(project, home):
    place(project / ".claude" / "skills", "review", "project")
    place(home / ".claude" / "skills", "review", "personal")
    env = loaded(hosts.get("claude-code"), project, home)
    assert env.skills["review"].description == "personal"
    assert codes(env.diagnostics).count("skill.shadowed") == 1


def test_claude_code_reads_claude_skills_from_cwd_up_to_the_repository_root(project, home):
    package = project / "packages" / "app"
    place(project / ".claude" / "skills", "root-skill", "at the root")
    place(package / ".claude" / "skills", "near", "in the package")
    place(project / ".claude" / "skills", "near", "at the root")
    env = loaded(hosts.get("claude-code"), package, home)
    assert env.skills["root-skill"].description == "at the root"
    assert env.skills["near"].description == "in the package"


def test_claude_code_does_not_read_agents_skills_or_agents_md(project, home):
    place(project / ".agents" / "skills", "portable", "agents folder")
    (project / "AGENTS.md").write_text("# agents\n")
    env = loaded(hosts.get("claude-code"), project, home)
    assert "portable" not in env.skills
    assert [f.path.name for f in env.instructions] == []


def test_claude_code_names_commands_by_path_and_numbers_arguments_from_zero(project, home):
    (project / ".claude" / "commands" / "git").mkdir(parents=True)
    (project / ".claude" / "commands" / "git" / "commit.md").write_text("Commit $0\n")
    env = loaded(hosts.get("claude-code"), project, home)
    assert "git:commit" in env.commands.commands
    session = satchel.Session(env)
    assert session.activation.options.argument_numbering == 0


# -- Codex ------------------------------------------------------------------------------


def test_codex_reads_agents_skills_in_every_folder_from_the_git_root_to_cwd(project, home):
    deep = project / "a" / "b"
    for where, label in ((project, "root"), (project / "a", "a"), (deep, "b")):
        place(where / ".agents" / "skills", f"at-{label}", label)
    env = loaded(hosts.get("codex"), deep, home)
    assert {"at-root", "at-a", "at-b"} <= set(env.skills)


def test_codex_reads_codex_skills_in_every_folder_from_the_git_root_to_cwd(project, home):
    sub = project / "sub"
    place(project / ".codex" / "skills", "at-root", "root")
    place(sub / ".codex" / "skills", "at-cwd", "cwd")
    place(sub / "below" / ".codex" / "skills", "below-cwd", "never read")
    env = loaded(hosts.get("codex"), sub, home)
    assert {"at-cwd", "at-root"} <= set(env.skills) and "below-cwd" not in env.skills


def test_codex_does_not_read_claude_gemini_or_github_skills(project, home):
    for family in (".claude", ".gemini", ".github"):
        place(project / family / "skills", family.strip("."), family)
    env = loaded(hosts.get("codex"), project, home)
    assert set(env.skills) == set()


def test_codex_finds_a_skill_deep_inside_a_root(project, home):
    put_at = home / ".agents" / "skills" / "group" / "inner"
    place(put_at, "deep", "three levels down")
    env = loaded(hosts.get("codex"), project, home)
    assert env.skills["deep"].description == "three levels down"


def test_codex_lists_every_copy_satchel_keeps_the_first_and_reports_the_rest(project, home):
    """Rule `clash="every"`: Codex lists both copies of a name with no winner; satchel
    keeps one skill per name, the project's, and reports the user's as shadowed."""
    place(project / ".agents" / "skills", "twin", "project")
    place(home / ".agents" / "skills", "twin", "user")
    env = loaded(hosts.get("codex"), project, home)
    assert hosts.get("codex").clash == "every"
    assert env.skills["twin"].description == "project"
    assert [s.loser.description for s in env.shadowed] == ["user"]


def test_codex_reads_agents_md_from_the_git_root_down(project, home):
    sub = project / "sub"
    sub.mkdir()
    (project / "AGENTS.md").write_text("root rules\n")
    (sub / "AGENTS.md").write_text("sub rules\n")
    (project / "CLAUDE.md").write_text("never read\n")
    env = loaded(hosts.get("codex"), sub, home)
    assert [f.text.strip() for f in env.instructions] == ["root rules", "sub rules"]


# -- Gemini CLI -------------------------------------------------------------------------


def test_gemini_project_agents_beats_project_gemini_beats_the_users(project, home):
    host = hosts.get("gemini")
    place(project / ".agents" / "skills", "a", "project .agents")
    place(project / ".gemini" / "skills", "a", "project .gemini")
    place(project / ".gemini" / "skills", "b", "project .gemini")
    place(home / ".agents" / "skills", "b", "user .agents")
    place(home / ".agents" / "skills", "c", "user .agents")
    place(home / ".gemini" / "skills", "c", "user .gemini")
    env = loaded(host, project, home)
    assert [env.skills[n].description for n in "abc"] == [
        "project .agents",
        "project .gemini",
        "user .agents",
    ]


def test_gemini_reads_project_skills_in_cwd_only(project, home):
    sub = project / "sub"
    place(project / ".gemini" / "skills", "at-root", "root")
    place(sub / ".gemini" / "skills", "at-cwd", "cwd")
    env = loaded(hosts.get("gemini"), sub, home)
    assert "at-cwd" in env.skills and "at-root" not in env.skills


def test_gemini_untrusted_folder_loads_no_project_skills(project, home):
    place(project / ".gemini" / "skills", "theirs", "project")
    place(home / ".gemini" / "skills", "mine", "user")
    layout = hosts.get("gemini").layout(project, home=home, env={})
    env = satchel.load(layout=layout, host="gemini", trusted=False)
    assert list(env.skills) == ["mine"]
    assert env.trust.state == "hidden"


# -- the others -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "read", "ignored"),
    [
        ("cursor", (".cursor/skills", ".claude/skills", ".agents/skills"), (".github/skills",)),
        ("copilot", (".github/skills", ".claude/skills", ".agents/skills"), (".cursor/skills",)),
        ("opencode", (".opencode/skills", ".claude/skills", ".agents/skills"), (".codex/skills",)),
        ("kimi", (".kimi-code/skills", ".agents/skills"), (".claude/skills",)),
        ("vibe", (".vibe/skills", ".agents/skills"), (".claude/skills",)),
        ("mermaid", (".mermaid/skills", ".claude/skills", ".agents/skills"), (".codex/skills",)),
        ("zidane", (".agents/skills", ".zidane/skills", ".claude/skills"), (".github/skills",)),
        ("caveman", (".agents/skills",), (".claude/skills",)),
    ],
)
def test_each_host_reads_its_project_folders_and_not_the_others(name, read, ignored, project, home):
    for folder in (*read, *ignored):
        place(project / folder, folder.split("/")[0].strip("."), folder)
    env = loaded(hosts.get(name), project, home)
    assert sorted(env.skills) == sorted(f.split("/")[0].strip(".") for f in read)


def test_mermaid_names_plugin_skills_bare_and_uses_its_own_config_folder(project, home):
    host = hosts.get("mermaid")
    assert host.plugin_skill_names == "bare"
    place(home / ".config" / "mermaid" / "skills", "mine", "mermaid's own user folder")
    env = loaded(host, project, home)
    assert env.skills["mine"].scope == "user"


def test_caveman_loads_declaratively(project, home):
    env = loaded(hosts.get("caveman"), project, home)
    assert env.options.executable is False


# -- plugins as each host reads them ------------------------------------------------------


def cursor_only_plugin(root: Path) -> Path:
    plugin = root / "tool"
    (plugin / ".cursor-plugin").mkdir(parents=True)
    (plugin / ".cursor-plugin" / "plugin.json").write_text('{"name": "tool"}')
    place(plugin / "skills", "helper", "from the plugin")
    return plugin


def test_a_host_refuses_a_plugin_whose_only_manifest_it_does_not_read(project, home, tmp_path):
    plugin = cursor_only_plugin(tmp_path)
    env = loaded(hosts.get("copilot"), project, home, plugin_dirs=[plugin])
    found = [d for d in env.diagnostics if d.code == "plugin.compatibility.host_unread"]
    assert [d.message for d in found] == [
        "the host reads Agent Plugins 1.0, Claude Code, not .cursor-plugin/plugin.json (Cursor)"
    ]
    assert dict(env.plugins.plugins) == {}


def test_the_host_that_reads_a_format_loads_the_plugin(project, home, tmp_path):
    plugin = cursor_only_plugin(tmp_path)
    env = loaded(hosts.get("cursor"), project, home, plugin_dirs=[plugin])
    assert list(env.plugins.plugins) == ["tool"]
    assert "plugin.compatibility.host_unread" not in codes(env.diagnostics)


def test_vibe_refuses_a_directory_with_two_hosts_manifests(project, home, tmp_path):
    plugin = cursor_only_plugin(tmp_path)
    (plugin / ".claude-plugin").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "tool"}')
    env = loaded(hosts.get("vibe"), project, home, plugin_dirs=[plugin])
    assert "plugin.compatibility.format_ambiguous" in codes(env.diagnostics)
    assert dict(env.plugins.plugins) == {}


def test_options_given_to_load_override_the_profile(project, home):
    env = loaded(hosts.get("claude-code"), project, home, command_naming="stem")
    assert env.options.command_naming == "stem"
    assert env.options.claude_settings_hooks is True  # the rest is still the profile's


def test_reload_keeps_the_host(project, home):
    env = loaded(hosts.get("codex"), project, home)
    place(project / ".agents" / "skills", "late", "added later")
    fresh, changes = env.reload()
    assert fresh.host.name == "codex" and "late" in fresh.skills
    assert changes.skills.added == ("late",)


def test_session_follows_the_host_named_for_it(project, home):
    env = loaded(hosts.get("satchel"), project, home)
    assert satchel.Session(env).activation.options.argument_numbering == 1
    assert satchel.Session(env, host="kimi").activation.options.argument_numbering == 0
    given = satchel.Session(env, host="kimi", argument_numbering=1)
    assert given.activation.options.argument_numbering == 1


def test_an_unknown_host_is_refused_with_the_known_names(project, home):
    with pytest.raises(satchel.core.errors.UnknownHost) as caught:
        satchel.load(layout=satchel.Layout.default(project, home=home, env={}), host="nope")
    assert caught.value.code == "host.unknown"
    assert str(caught.value) == (
        "no host profile is named 'nope'; known: satchel, claude-code, codex, gemini, "
        "cursor, copilot, opencode, kimi, vibe, mermaid, zidane, caveman"
    )


def test_profiles_serialise_every_decision():
    document = hosts.get("codex").to_json()
    assert document["skills"][0] == {
        "scope": "project",
        "family": ".agents",
        "template": "{project}/.agents/skills",
    }
    assert document["index"] == {
        "fraction": 0.02,
        "chars": None,
        "entries": None,
        "description": 1024,
        "overflow": "shorten",
        "bytes": None,
        "style": "codex",
        "bounds": [],
        "lists_commands": False,
        "budget_setting": None,
        "description_setting": None,
    }
    assert set(document) >= set(Host.__dataclass_fields__) - {"walk", "index", "limits"}
