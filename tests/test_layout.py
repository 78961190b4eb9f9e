"""Where satchel looks, and the mermaid, zidane and caveman tables as Layouts (their
host profiles hold the same tables)."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel import Layout, RootSpec
from satchel.core.layout import project_marker
from tests.support import skill_md, write_skill


def roots_of(layout: Layout) -> list[tuple[str, str, str]]:
    def rel(path: Path) -> str:
        for base, label in ((layout.project, "<project>"), (layout.home, "~")):
            if path.is_relative_to(base):
                return str(Path(label, path.relative_to(base)))
        return str(path)

    return [(r.scope, r.family, rel(r.path)) for r in layout.skill_roots()]


def test_default_roots_project_then_user_own_family_first(project, home):
    layout = Layout.default(project, home=home, env={})
    assert roots_of(layout) == [
        ("project", ".satchel", "<project>/.satchel/skills"),
        ("project", ".claude", "<project>/.claude/skills"),
        ("project", ".agents", "<project>/.agents/skills"),
        ("project", ".codex", "<project>/.codex/skills"),
        ("project", ".opencode", "<project>/.opencode/skills"),
        ("project", ".gemini", "<project>/.gemini/skills"),
        ("project", ".github", "<project>/.github/skills"),
        ("project", ".cursor", "<project>/.cursor/skills"),
        ("user", ".satchel", "~/.config/satchel/skills"),
        ("user", ".claude", "~/.claude/skills"),
        ("user", ".agents", "~/.agents/skills"),
        ("user", ".codex", "~/.codex/skills"),
        ("user", ".gemini", "~/.gemini/skills"),
        ("user", ".copilot", "~/.copilot/skills"),
        ("user", ".cursor", "~/.cursor/skills"),
    ]


def test_project_root_is_the_nearest_ancestor_with_git(project, home):
    deep = project / "packages" / "app" / "src"
    deep.mkdir(parents=True)
    assert Layout.default(deep, home=home).project == project


def test_project_root_is_cwd_outside_git(tmp_path, home):
    plain = tmp_path / "plain" / "dir"
    plain.mkdir(parents=True)
    assert Layout.default(plain, home=home).project == plain


def test_git_file_marks_a_worktree_root(tmp_path, home):
    worktree = tmp_path / "wt"
    (worktree / "sub").mkdir(parents=True)
    (worktree / ".git").write_text("gitdir: ../main/.git/worktrees/wt\n")
    assert Layout.default(worktree / "sub", home=home).project == worktree


def test_xdg_config_home_moves_the_user_root(project, tmp_path):
    layout = Layout.default(project, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert root_of(layout, "user", ".satchel") == tmp_path / "xdg" / "satchel" / "skills"


def test_explicit_home_ignores_xdg_so_a_stand_in_home_is_self_contained(project, home, tmp_path):
    layout = Layout.default(project, home=home, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert root_of(layout, "user", ".satchel") == home / ".config" / "satchel" / "skills"


def test_relative_xdg_is_ignored(project, home):
    layout = Layout.default(project, env={"XDG_CONFIG_HOME": "relative/dir"})
    assert root_of(layout, "user", ".satchel") == Path.home() / ".config" / "satchel" / "skills"


def root_of(layout: Layout, scope: str, family: str) -> Path:
    return next(r.path for r in layout.skill_roots() if (r.scope, r.family) == (scope, family))


def test_ancestors_option_reads_every_directory_from_cwd_up_to_the_project(project, home):
    cwd = project / "packages" / "app"
    cwd.mkdir(parents=True)
    layout = Layout.default(
        cwd,
        home=home,
        ancestors=True,
        roots=[RootSpec("project", ".agents", "{project}/.agents/skills")],
    )
    assert [r.path for r in layout.skill_roots()] == [
        cwd / ".agents" / "skills",
        project / "packages" / ".agents" / "skills",
        project / ".agents" / "skills",
    ]


def test_codex_ancestor_roots_let_the_nearest_skill_win(project, home):
    cwd = project / "packages" / "app"
    write_skill(project / ".agents" / "skills", "lint", description="Repo-wide lint.")
    write_skill(cwd / ".agents" / "skills", "lint", description="App lint.")
    layout = Layout.default(
        cwd,
        home=home,
        ancestors=True,
        roots=[RootSpec("project", ".agents", "{project}/.agents/skills")],
    )
    env = satchel.load(layout=layout)
    assert env.skills["lint"].description == "App lint."
    assert [d.code for d in env.diagnostics] == ["skill.shadowed"]


# mermaid: <git-root>/.mermaid > .claude > .agents, then ~/.config/mermaid,
# ~/.claude, ~/.agents; project beats user; within a scope a higher directory wins.
MERMAID = [
    RootSpec("project", ".mermaid", "{project}/.mermaid/skills"),
    RootSpec("project", ".claude", "{project}/.claude/skills"),
    RootSpec("project", ".agents", "{project}/.agents/skills"),
    RootSpec("user", ".mermaid", "{config}/mermaid/skills"),
    RootSpec("user", ".claude", "{home}/.claude/skills"),
    RootSpec("user", ".agents", "{home}/.agents/skills"),
]


def test_mermaid_table_and_winners(project, home):
    places = {
        ".mermaid": project / ".mermaid" / "skills",
        ".claude": project / ".claude" / "skills",
        ".agents": project / ".agents" / "skills",
        "~.mermaid": home / ".config" / "mermaid" / "skills",
        "~.claude": home / ".claude" / "skills",
        "~.agents": home / ".agents" / "skills",
    }
    holders = {
        "deploy": [".mermaid", ".claude", ".agents", "~.mermaid"],
        "review": [".claude", ".agents", "~.claude"],
        "notes": [".agents", "~.mermaid", "~.agents"],
        "journal": ["~.claude", "~.agents"],
        "todo": ["~.mermaid", "~.claude"],
    }
    for name, where in holders.items():
        for place in where:
            write_skill(places[place], name, description=f"{name} from {place}")
    cwd = project / "src"
    cwd.mkdir()
    env = satchel.load(
        layout=Layout.default(cwd, client="mermaid", home=home, roots=MERMAID), trusted=True
    )
    winners = {name: skill.description for name, skill in env.skills.items()}
    assert winners == {
        "deploy": "deploy from .mermaid",
        "review": "review from .claude",
        "notes": "notes from .agents",
        "todo": "todo from ~.mermaid",
        "journal": "journal from ~.claude",
    }
    assert len(env.shadowed) == sum(len(w) - 1 for w in holders.values())
    assert Layout.default(cwd, client="mermaid", home=home).roots[:3] == tuple(MERMAID[:3])


def zidane_table(root: str) -> list[RootSpec]:
    """zidane: first wins, in this order; rows 5 and 6 are the apps' import settings."""
    return [
        RootSpec("project", ".agents", root + "/.agents/skills"),
        RootSpec("project", ".zidane", root + "/.zidane/skills"),
        RootSpec("user", ".agents", "{home}/.agents/skills"),
        RootSpec("user", ".zidane", "{home}/.zidane/skills"),
        RootSpec("project", ".claude", root + "/.claude/skills"),
        RootSpec("project", ".codex", root + "/.codex/skills"),
        RootSpec("project", ".pi", root + "/.pi/skills"),
        RootSpec("user", ".claude", "{home}/.claude/skills"),
        RootSpec("user", ".codex", "{home}/.codex/skills"),
        RootSpec("user", ".pi", "{home}/.pi/agent/skills"),
        RootSpec("project", ".ruler", root + "/.ruler/skills"),
        RootSpec("user", ".ruler", "{config}/ruler/skills"),
    ]


def test_zidane_table_first_wins(project, home):
    dirs = {
        1: project / ".agents" / "skills",
        2: project / ".zidane" / "skills",
        3: home / ".agents" / "skills",
        4: home / ".zidane" / "skills",
        5: project / ".claude" / "skills",
        6: home / ".pi" / "agent" / "skills",
        7: project / ".ruler" / "skills",
        8: home / ".config" / "ruler" / "skills",
    }
    holders = {
        "a": [1, 2, 3],
        "b": [2, 3, 4],
        "c": [3, 4, 5],
        "d": [4, 5],
        "e": [5, 6],
        "f": [6, 7],
        "g": [7, 8],
        "h": [8],
    }
    for name, where in holders.items():
        for row in where:
            write_skill(dirs[row], name, description=f"row {row}")
    env = satchel.load(
        layout=Layout.default(project, home=home, roots=zidane_table("{project}")), trusted=True
    )
    assert {n: s.description for n, s in env.skills.items()} == {
        n: f"row {where[0]}" for n, where in holders.items()
    }
    # Note that the order puts the user's ~/.agents before the project's .claude.
    assert env.skills["c"].scope == "user"


def test_zidane_library_root_is_the_working_directory_not_the_git_root(project, home):
    cwd = project / "packages" / "foo"
    write_skill(project / ".zidane" / "skills", "root-skill")
    write_skill(cwd / ".zidane" / "skills", "cwd-skill")
    library = satchel.load(
        layout=Layout.default(cwd, home=home, roots=zidane_table("{cwd}")), trusted=True
    )
    apps = satchel.load(
        layout=Layout.default(cwd, home=home, roots=zidane_table("{project}")), trusted=True
    )
    assert list(library.skills) == ["cwd-skill"]
    assert list(apps.skills) == ["root-skill"]


CAVEMAN = [
    RootSpec("project", ".agents", "{project}/.agents/skills"),
    RootSpec("user", ".agents", "{home}/.agents/skills"),
]


def test_caveman_workspace_beats_user_with_a_duplicate_diagnostic(project, home):
    text = skill_md("refund-policy", "The refund window, the exceptions, and who may approve one.")
    write_skill(project / ".agents" / "skills", "refund-policy", text)
    write_skill(home / ".agents" / "skills", "refund-policy", text)
    env = satchel.load(layout=Layout.default(project, home=home, roots=CAVEMAN), trusted=True)
    assert list(env.skills) == ["refund-policy"]
    assert env.skills["refund-policy"].scope == "project"
    assert [(d.code, d.path) for d in env.diagnostics] == [
        ("skill.shadowed", home / ".agents" / "skills" / "refund-policy" / "SKILL.md")
    ]


def test_caveman_include_default_roots_false_uses_only_passed_roots(project, home, tmp_path):
    write_skill(project / ".agents" / "skills", "refund-policy")
    write_skill(tmp_path / "mine", "mine")
    layout = Layout.default(project, home=home, roots=CAVEMAN)
    env = satchel.load(layout=layout, include_default_roots=False, scan=[tmp_path / "mine"])
    assert list(env.skills) == ["mine"]


def test_a_client_named_like_a_family_keeps_that_familys_user_root(project, home):
    layout = Layout.default(project, client="claude", home=home, env={})
    assert ("user", ".claude", "~/.claude/skills") in roots_of(layout)
    assert ("user", ".claude", "~/.config/claude/skills") in roots_of(layout)
    assert roots_of(layout)[:2] == [
        ("project", ".claude", "<project>/.claude/skills"),
        ("project", ".agents", "<project>/.agents/skills"),
    ]


def test_project_root_at_home_reads_the_users_skills_once_as_the_users(tmp_path):
    home = tmp_path / "home"
    write_skill(home / ".claude" / "skills", "mine")
    layout = Layout.default(home, home=home, env={})
    paths = [r.path for r in layout.skill_roots()]
    assert len(paths) == len(set(paths))
    env = satchel.load(layout=layout)
    assert env.skills["mine"].scope == "user"
    assert env.diagnostics == ()
    assert [r.scope for r in layout.skill_roots() if r.path == home / ".claude" / "skills"] == [
        "user"
    ]


def test_command_and_agent_tables_can_be_replaced(project, home):
    from satchel import Layout, RootSpec

    mine = [RootSpec("project", ".mine", "{project}/prompts")]
    layout = Layout.default(project, home=home, command_roots=mine, agent_roots=[], env={})
    assert [(r.scope, r.family, r.path) for r in layout.command_dirs()] == [
        ("project", ".mine", project / "prompts")
    ]
    assert layout.agent_dirs() == ()


def test_an_explicit_cwd_holding_a_project_marker_is_the_project(project, home):
    package = project / "packages" / "app"
    (package / ".agents").mkdir(parents=True)
    assert Layout.default(package, home=home).project == package
    assert Layout.default(package, home=home, project=project).project == project
    assert Layout.default(package.parent, home=home).project == project  # no marker
    assert Layout.default(package, home=home, ancestors=True).project == project  # Codex's walk


@pytest.mark.parametrize("marker", [".satchel", ".claude", ".agents", "AGENTS.md", ".mermaid"])
def test_each_project_marker_counts(project, home, marker):
    package = project / "pkg"
    package.mkdir()
    (package / marker).mkdir() if marker.startswith(".") else (package / marker).write_text("x")
    assert project_marker(package, client="mermaid") == marker
    assert Layout.default(package, home=home, client="mermaid").project == package


def test_the_mermaid_zidane_and_caveman_profiles_hold_these_tables():
    from satchel import hosts

    assert hosts.get("mermaid").skills == tuple(MERMAID)
    assert hosts.get("zidane").skills == tuple(zidane_table("{cwd}"))
    assert hosts.get("caveman").skills == tuple(CAVEMAN)
