"""Skills that join a session as the agent works (Claude Code 2.1.332): a skill with
`paths` once a matching file is touched, and a subdirectory's skills roots once a
file below it is touched; `<dir>:<name>` when the name is taken."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import satchel
import satchel.session._conditional as conditional
from satchel.session import Session
from satchel.trust._trust import trust
from tests.support import check_golden, put, skill_md


def _index(session: Session) -> str:
    return next(s.text for s in session.context() if s.id == "agent.skills")


def _session(layout: satchel.Layout, **load: object) -> Session:
    env = satchel.load(layout=layout, **load)  # type: ignore[arg-type]
    return Session(env, environ={}, tools="skills")


@pytest.fixture
def root(project: Path) -> Path:
    root = project / ".claude" / "skills"
    put(root / "always" / "SKILL.md", skill_md("always", "Always here."))
    put(
        root / "ts-style" / "SKILL.md",
        skill_md("ts-style", "TypeScript style.", extra="paths: ['*.ts', '/docs/**']\n"),
    )
    return root


def test_a_conditional_skill_waits_for_a_matching_touch(layout, project, root):
    session = _session(layout)
    assert list(session.skills) == ["always"]
    assert "ts-style" not in _index(session)
    assert session.touch(project / "README.md") == ()
    added = session.touch(project / "src" / "deep" / "app.ts")
    assert [s.name for s in added] == ["ts-style"]
    assert list(session.skills) == ["always", "ts-style"]
    assert "<name>ts-style</name>" in _index(session)
    tool = next(t for t in session.tools() if t.name == "skills_use")
    assert "ts-style" in str(tool.definition())
    assert session.activation.touched == (
        project / "README.md",
        project / "src" / "deep" / "app.ts",
    )


def test_a_shown_skill_stays_shown_and_a_touch_is_recorded_once(layout, project, root):
    session = _session(layout)
    session.touch(project / "a.ts")
    assert session.touch(project / "a.ts") == ()
    assert "ts-style" in session.skills
    assert session.activation.touched == (project / "a.ts",)


def test_patterns_follow_gitignore_rules_relative_to_the_project(layout, project, root):
    session = _session(layout)
    assert session.touch(project / "src" / "docs" / "x.md") == ()  # /docs is anchored
    assert [s.name for s in session.touch(project / "docs" / "guide" / "x.md")] == ["ts-style"]


def test_a_relative_path_is_relative_to_the_working_directory(layout, project, root):
    session = _session(layout)
    assert [s.name for s in session.touch("lib/util.ts")] == ["ts-style"]
    assert session.activation.touched == (Path(os.path.normpath(layout.cwd / "lib" / "util.ts")),)


def test_a_path_outside_the_project_matches_nothing(layout, project, root, tmp_path):
    session = _session(layout)
    assert session.touch(tmp_path / "elsewhere" / "a.ts") == ()
    assert session.touch(project / ".." / "other.ts") == ()
    assert "ts-style" not in session.skills


def test_a_conditional_skill_cannot_be_activated_before_its_touch(layout, project, root):
    session = _session(layout)
    result = session.call("skills_use", {"name": "ts-style"})
    assert result.is_error
    session.touch(project / "a.ts")
    assert not session.call("skills_use", {"name": "ts-style"}).is_error


@pytest.fixture
def nested(project: Path, root: Path) -> Path:
    web = project / "packages" / "web"
    put(web / ".claude" / "skills" / "deploy" / "SKILL.md", skill_md("deploy", "Ship web."))
    put(web / ".agents" / "skills" / "always" / "SKILL.md", skill_md("always", "Web's own."))
    put(web / "src" / "index.ts", "export {}\n")
    return web


def test_a_nested_root_loads_only_when_a_file_below_it_is_touched(layout, project, nested):
    session = _session(layout)
    assert "deploy" not in session.skills  # no eager walk
    assert session.touch(project / "packages" / "other.txt") == ()
    added = session.touch(nested / "src" / "index.ts")
    assert sorted(s.name for s in added) == ["deploy", "packages/web:always", "ts-style"]
    assert session.skills["deploy"].path == nested / ".claude/skills/deploy/SKILL.md"
    assert session.skills["packages/web:always"].description == "Web's own."
    assert session.skills["always"].description == "Always here."
    assert "<name>packages/web:always</name>" in _index(session)


def test_nested_roots_are_looked_at_once(layout, project, nested):
    session = _session(layout)
    session.touch(nested / "src" / "index.ts")
    put(nested / ".claude" / "skills" / "late" / "SKILL.md", skill_md("late", "Late."))
    assert session.touch(nested / "src" / "other.ts") == ()


def test_no_nested_root_under_node_modules_or_git(layout, project, root):
    dep = project / "node_modules" / "pkg"
    put(dep / ".claude" / "skills" / "evil" / "SKILL.md", skill_md("evil", "No."))
    session = _session(layout)
    session.touch(dep / "index.js")
    assert "evil" not in session.skills


def test_a_nested_root_that_links_outside_the_project_is_not_read(layout, project, root, tmp_path):
    outside = tmp_path / "outside"
    put(outside / "evil" / "SKILL.md", skill_md("evil", "No."))
    sub = project / "sub"
    (sub / ".claude").mkdir(parents=True)
    (sub / ".claude" / "skills").symlink_to(outside, target_is_directory=True)
    session = _session(layout)
    session.touch(sub / "a.txt")
    assert "evil" not in session.skills


def test_the_nested_skills_of_a_hidden_project_are_not_read(layout, project, nested):
    session = _session(layout, trust_project_skills=False)
    assert session.touch(nested / "src" / "index.ts") == ()
    assert "deploy" not in session.skills


def test_past_the_cap_a_nested_root_is_a_warning(layout, project, root, monkeypatch):
    monkeypatch.setattr(conditional, "MAX_NESTED_ROOTS", 1)
    for name in ("a", "b"):
        put(project / name / ".claude/skills" / name / "SKILL.md", skill_md(name, "Sub."))
    session = _session(layout)
    session.touch(project / "a" / "f.txt")
    session.touch(project / "b" / "f.txt")
    assert "a" in session.skills and "b" not in session.skills
    found = [d for d in session.diagnostics if d.code == "session.skills.nested-limit"]
    top = project / "b" / ".claude" / "skills"
    assert [(d.severity, d.message) for d in found] == [
        (
            "warning",
            f"nested skills under {top} are not read: a session reads at most 1 nested "
            "skills roots",
        )
    ]


def test_a_nested_conditional_skill_waits_for_its_own_match(layout, project, root):
    sub = project / "app"
    put(
        sub / ".claude/skills/py/SKILL.md",
        skill_md("py", "Python.", extra="paths: 'app/**/*.py'\n"),
    )
    session = _session(layout)
    assert session.touch(sub / "README.md") == ()
    assert "py" not in session.skills
    assert [s.name for s in session.touch(sub / "m" / "x.py")] == ["py"]


def test_nested_skills_pass_the_loads_enabled_and_exclude(layout, project, nested):
    session = _session(layout, exclude=["deploy"])
    added = session.touch(nested / "src" / "index.ts")
    assert sorted(s.name for s in added) == ["packages/web:always", "ts-style"]


def test_the_nested_roots_are_the_project_rows_of_the_layouts_table(project, home, nested):
    only_claude = (satchel.RootSpec("project", ".claude", "{project}/.claude/skills"),)
    layout = satchel.Layout.default(project, home=home, env={}, roots=only_claude)
    trust(layout, project)
    session = _session(layout)
    added = session.touch(nested / "src" / "index.ts")
    assert sorted(s.name for s in added) == ["deploy", "ts-style"]  # no .agents row


def test_the_index_before_and_after_the_touches(layout, project, nested):
    session = Session(satchel.load(layout=layout), environ={})  # load_skill: the tool format
    before = _index(session)
    session.touch(nested / "src" / "index.ts")
    check_golden(
        "session/conditional-index.txt", f"{before}--- after a touch ---\n{_index(session)}"
    )
