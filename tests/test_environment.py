"""load(): options from zidane and caveman, precedence, shadowing, order."""

from __future__ import annotations

import dataclasses

import pytest

import satchel
import satchel.assembly._environment as environment
from satchel.assembly._environment import write_skills
from tests.support import codes, write_skill


@pytest.fixture
def skills_dirs(project, home):
    return {
        "project": project / ".satchel" / "skills",
        "claude": project / ".claude" / "skills",
        "user": home / ".claude" / "skills",
    }


def test_order_is_root_precedence_then_name(layout, skills_dirs):
    write_skill(skills_dirs["user"], "alpha")
    write_skill(skills_dirs["claude"], "zeta")
    write_skill(skills_dirs["project"], "beta")
    write_skill(skills_dirs["project"], "alpha-two", name="alpha-two")
    env = satchel.load(layout=layout)
    assert list(env.skills) == ["alpha-two", "beta", "zeta", "alpha"]


def test_skills_mapping_is_read_only(layout, skills_dirs):
    write_skill(skills_dirs["project"], "alpha")
    env = satchel.load(layout=layout)
    with pytest.raises(TypeError):
        env.skills["x"] = env.skills["alpha"]  # type: ignore[index]


def test_shadowed_skill_warning_names_both_paths(layout, skills_dirs):
    winner = write_skill(skills_dirs["project"], "deploy")
    loser = write_skill(skills_dirs["user"], "deploy")
    env = satchel.load(layout=layout)
    assert env.skills["deploy"].path == winner
    [diag] = env.diagnostics
    assert (diag.code, diag.severity, diag.path) == ("skill.shadowed", "warning", loser)
    assert diag.message == (
        f"skill 'deploy' at {loser} (user .claude) is shadowed by {winner} (project .satchel)"
    )
    assert [(s.winner.path, s.loser.path) for s in env.shadowed] == [(winner, loser)]


def test_same_name_twice_in_one_root_keeps_the_first_directory(layout, skills_dirs):
    write_skill(skills_dirs["project"], "b-dir", name="same")
    write_skill(skills_dirs["project"], "a-dir", name="same")
    env = satchel.load(layout=layout)
    assert env.skills["same"].path.parent.name == "a-dir"
    assert codes(env.diagnostics) == [
        "skill.name.mismatch",
        "skill.name.mismatch",
        "skill.name.collision",
    ]


def test_one_skill_reached_through_two_roots_by_symlink_loads_once_quietly(layout, skills_dirs):
    write_skill(skills_dirs["project"], "shared")
    skills_dirs["claude"].mkdir(parents=True)
    (skills_dirs["claude"] / "shared").symlink_to(skills_dirs["project"] / "shared")
    env = satchel.load(layout=layout)
    assert list(env.skills) == ["shared"]
    assert env.diagnostics == ()


def test_enabled_false_or_empty_loads_nothing(layout, skills_dirs):
    write_skill(skills_dirs["project"], "alpha")
    assert dict(satchel.load(layout=layout, enabled=False).skills) == {}
    assert dict(satchel.load(layout=layout, enabled=[]).skills) == {}


def test_enabled_list_is_an_allow_list(layout, skills_dirs):
    for name in ("alpha", "beta", "gamma"):
        write_skill(skills_dirs["project"], name)
    env = satchel.load(layout=layout, enabled=["gamma", "alpha"])
    assert list(env.skills) == ["alpha", "gamma"]


def test_exclude_drops_a_name_from_every_root(layout, skills_dirs):
    write_skill(skills_dirs["project"], "alpha")
    write_skill(skills_dirs["user"], "alpha")
    write_skill(skills_dirs["user"], "beta")
    env = satchel.load(layout=layout, exclude=["alpha"])
    assert list(env.skills) == ["beta"]
    assert env.diagnostics == ()


def test_scan_adds_roots_after_the_layouts(layout, skills_dirs, tmp_path):
    write_skill(skills_dirs["user"], "alpha", description="user")
    write_skill(tmp_path / "custom", "alpha", description="custom")
    write_skill(tmp_path / "custom", "extra-one")
    env = satchel.load(layout=layout, scan=[tmp_path / "custom"])
    assert env.skills["alpha"].description == "user"
    assert env.skills["extra-one"].scope == "extra"


def test_relative_scan_roots_resolve_against_cwd(layout):
    write_skill(layout.cwd / "custom-skills", "mine")
    env = satchel.load(layout=layout, scan=["custom-skills"])
    assert env.skills["mine"].path == layout.cwd / "custom-skills" / "mine" / "SKILL.md"


def test_skip_default_paths(layout, skills_dirs, tmp_path):
    write_skill(skills_dirs["project"], "alpha")
    write_skill(tmp_path / "custom", "beta")
    env = satchel.load(layout=layout, skip_default_paths=True, scan=[tmp_path / "custom"])
    assert list(env.skills) == ["beta"]


def test_catalog_skills_win_clashes(layout, skills_dirs):
    disk = write_skill(skills_dirs["project"], "deploy")
    hosted = satchel.define_skill("deploy", "Deploy, the host's way.", "Do it.")
    env = satchel.load(layout=layout, catalog=[hosted])
    assert env.skills["deploy"] is hosted
    assert [(d.code, d.path) for d in env.diagnostics] == [("skill.shadowed", disk)]


def test_written_skills_are_written_then_loaded(layout, skills_dirs):
    review = satchel.define_skill("review", "Code review.", "Read the diff twice.")
    env = satchel.load(layout=layout, write=[review])
    loaded = env.skills["review"]
    assert loaded.path == layout.write_root / "review" / "SKILL.md"
    assert loaded.scope == "written"
    assert loaded.body() == "Read the diff twice."


def test_untrusted_project_skills_are_not_loaded(layout, skills_dirs):
    write_skill(skills_dirs["project"], "alpha")
    write_skill(skills_dirs["user"], "beta")
    env = satchel.load(layout=layout, trust_project_skills=False)
    assert list(env.skills) == ["beta"]
    assert [(d.code, d.severity, d.path) for d in env.diagnostics] == [
        ("discovery.untrusted", "info", skills_dirs["project"])
    ]
    skipped = [r.root.path for r in env.roots if r.skipped == "untrusted"]
    assert skills_dirs["project"] in skipped


def test_root_reports_count_loaded_and_shadowed(layout, skills_dirs):
    write_skill(skills_dirs["project"], "alpha")
    write_skill(skills_dirs["user"], "alpha")
    write_skill(skills_dirs["user"], "beta")
    env = satchel.load(layout=layout)
    report = {r.root.path: (r.exists, r.loaded, r.shadowed) for r in env.roots}
    assert report[skills_dirs["project"]] == (True, 1, 0)
    assert report[skills_dirs["user"]] == (True, 1, 1)
    assert report[skills_dirs["claude"]] == (False, 0, 0)


def test_strict_option_skips_skills_with_any_problem(layout, skills_dirs):
    write_skill(skills_dirs["project"], "alpha", name="alpha", **{"user-invocable": "true"})
    assert dict(satchel.load(layout=layout, strict=True).skills) == {}
    assert list(satchel.load(layout=layout).skills) == ["alpha"]


def test_unknown_option_is_a_type_error(layout):
    with pytest.raises(TypeError, match="unknown load\\(\\) option\\(s\\): colour"):
        satchel.load(layout=layout, colour="blue")


def test_cwd_and_layout_together_is_a_type_error(layout):
    with pytest.raises(TypeError):
        satchel.load(layout.cwd, layout=layout)


def test_load_with_a_cwd_builds_the_default_layout(project, monkeypatch, home):
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    write_skill(project / ".agents" / "skills", "alpha")
    env = satchel.load(project)
    assert list(env.skills) == ["alpha"]
    assert env.layout.project == project


def test_written_skills_are_only_those_of_this_load(layout):
    alpha = satchel.define_skill("alpha", "First.", "A.")
    beta = satchel.define_skill("beta", "Second.", "B.")
    satchel.load(layout=layout, write=[alpha])
    env = satchel.load(layout=layout, write=[beta])
    assert list(env.skills) == ["beta"]
    report = next(r for r in env.roots if r.root.scope == "written")
    assert (report.loaded, report.shadowed) == (1, 0)


def test_a_written_skill_that_cannot_be_written_is_a_diagnostic(layout):
    layout.write_root.parent.mkdir(parents=True)
    layout.write_root.write_text("a file where a directory should be")
    env = satchel.load(layout=layout, write=[satchel.define_skill("alpha", "First.")])
    assert dict(env.skills) == {}
    assert [(d.code, d.severity) for d in env.diagnostics] == [("skill.write.failed", "error")]


def test_enabled_as_a_single_string_is_a_type_error(layout):
    with pytest.raises(TypeError, match="enabled must be True, False or a list of skill names"):
        satchel.load(layout=layout, enabled="deploy")


def test_write_skills_writes_each_skill_under_the_write_root(layout):
    review = satchel.define_skill("review", "Code review.", "Read the diff twice.")
    written = write_skills(layout, [review])
    path = layout.write_root / "review" / "SKILL.md"
    assert written.paths == (path,) and written.diagnostics == ()
    assert (written.root.path, written.root.scope) == (layout.write_root, "written")
    assert path.read_text(encoding="utf-8").endswith("Read the diff twice.\n")


def test_write_skills_without_a_write_root_is_a_diagnostic(project, home):
    bare = dataclasses.replace(satchel.Layout.default(project, home=home, env={}), write_root=None)
    written = write_skills(bare, [satchel.define_skill("alpha", "First.")])
    assert written.paths == ()
    assert [(d.code, d.message) for d in written.diagnostics] == [
        ("skill.write.failed", "the layout has no write_root")
    ]


def test_reading_writes_nothing(layout, skills_dirs):
    write_skill(skills_dirs["user"], "alpha")
    env = satchel.load(layout=layout)
    assert list(env.skills) == ["alpha"]
    assert not layout.write_root.exists()


def test_load_builds_the_environment_once(layout, skills_dirs, monkeypatch):
    write_skill(skills_dirs["user"], "alpha")
    built: list[environment.Environment] = []
    real = environment.Environment

    def counting(*args, **kwargs):
        built.append(real(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(environment, "Environment", counting)
    env = satchel.load(layout=layout, write=[satchel.define_skill("beta", "Second.", "B.")])
    assert len(built) == 1 and built[0] is env
    assert list(env.skills) == ["beta", "alpha"]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_the_files_are_read_and_left_as_it_was(
    layout, skills_dirs, monkeypatch, enabled
):
    import gc

    import satchel.assembly._skillset as skillset

    write_skill(skills_dirs["project"], "deploy")
    real, during = skillset.scan_root, []

    def spy(*args, **kw):
        during.append(gc.isenabled())
        return real(*args, **kw)

    monkeypatch.setattr(skillset, "scan_root", spy)
    (gc.enable if enabled else gc.disable)()
    try:
        env = satchel.load(layout=layout)
        after = gc.isenabled()
    finally:
        gc.enable()
    assert list(env.skills) == ["deploy"]
    assert during and not any(during)
    assert after is enabled
