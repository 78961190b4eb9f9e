"""`--ignore CODE` on validate and doctor, and config.toml's `[diagnostics] ignore`:
an ignored code is not shown and does not count towards the exit code."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel import Layout, load
from tests.support import codes, put

NO_DESCRIPTION = "---\nname: bare\n---\nBody.\n"


@pytest.fixture
def bare_skill(tmp_path, monkeypatch) -> Path:
    """A skill with no description (`skill.description.missing`, an error)."""
    skill = tmp_path / "skills" / "bare"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(NO_DESCRIPTION)
    monkeypatch.chdir(tmp_path)
    return skill


def _user_config(home: Path, text: str) -> None:
    put(home, ".config/satchel/config.toml", text)


def test_validate_without_ignore_fails(satchel, bare_skill, home):
    result = satchel("validate", "--home", home, bare_skill)
    assert result.code == 1
    assert "skill.description.missing" in result.out


@pytest.mark.parametrize("selector", ["skill.description.missing", "skill.description", "skill"])
def test_validate_ignore_hides_the_code_and_its_failure(satchel, bare_skill, home, selector):
    result = satchel("validate", "--home", home, "--ignore", selector, bare_skill)
    assert result.code == 0
    assert "skill.description.missing" not in result.out
    assert result.out.splitlines()[-1] == "1 skill checked: 1 ok, 0 failed"
    doc = satchel("validate", "--home", home, "--ignore", selector, "--json", bare_skill).json()
    assert [(c["ok"], c["diagnostics"]) for c in doc["checked"]] == [(True, [])]
    assert doc["diagnostics"] == []


def test_validate_reads_the_users_config(satchel, bare_skill, home):
    _user_config(home, '[diagnostics]\nignore = ["skill.description.missing"]\n')
    result = satchel("validate", "--home", home, bare_skill)
    assert result.code == 0
    assert "skill.description.missing" not in result.out


def test_a_bad_config_entry_is_shown_on_stderr_and_ignores_nothing(satchel, bare_skill, home):
    _user_config(home, '[diagnostics]\nignore = ["skill.descr"]\n')
    result = satchel("validate", "--home", home, bare_skill)
    assert result.code == 1
    assert "config.invalid" in result.err
    assert "[diagnostics] ignore names no diagnostic code: 'skill.descr'" in result.err


@pytest.mark.parametrize("verb", ["validate", "doctor"])
def test_an_unknown_code_is_a_usage_error(satchel, bare_skill, home, verb):
    target = bare_skill if verb == "validate" else bare_skill.parent
    result = satchel(verb, "--home", home, "--ignore", "agent.model,agent.mod", target)
    assert result.code == 2
    assert result.out == ""
    assert (
        "Invalid value for '--ignore': no diagnostic code is, or starts with, 'agent.mod' "
        "(the codes are in docs/diagnostics.md)"
    ) in " ".join(result.err.split())


def _project_with_a_broken_skill(project: Path) -> None:
    skill = project / ".satchel/skills/bare"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(NO_DESCRIPTION)


def test_doctor_ignore_hides_the_code_and_its_exit_code(satchel, project, home):
    _project_with_a_broken_skill(project)
    where = ("--project", project, "--home", home, "--trust")
    before = satchel("doctor", *where, "--json")
    assert before.code == 1
    assert "skill.description.missing" in [d["code"] for d in before.json()["diagnostics"]]
    after = satchel("doctor", *where, "--ignore", "skill.description.missing", "--json")
    assert after.code == 0
    assert "skill.description.missing" not in [d["code"] for d in after.json()["diagnostics"]]
    text = satchel("doctor", *where, "--ignore", "skill.description").out
    assert "skill.description.missing" not in text


def test_doctor_reads_the_users_ignore_setting(satchel, project, home):
    _project_with_a_broken_skill(project)
    _user_config(home, '[diagnostics]\nignore = ["skill.description"]\n')
    assert satchel("doctor", "--project", project, "--home", home, "--trust").code == 0


def test_doctor_reads_a_projects_ignore_setting_only_when_it_is_trusted(satchel, project, home):
    user_skill = home / ".config/satchel/skills/bare"  # loads whether or not trusted
    user_skill.mkdir(parents=True)
    (user_skill / "SKILL.md").write_text(NO_DESCRIPTION)
    (project / ".satchel").mkdir()
    (project / ".satchel/config.toml").write_text(
        '[diagnostics]\nignore = ["skill.description.missing"]\n'
    )
    where = ("--project", project, "--home", home)
    assert satchel("doctor", *where, "--trust").code == 0
    untrusted = satchel("doctor", *where, "--no-trust", "--json")
    assert untrusted.code == 1
    assert "skill.description.missing" in [d["code"] for d in untrusted.json()["diagnostics"]]


def test_a_config_file_that_is_not_toml_adds_no_report_of_its_own(satchel, project, home):
    """The [diagnostics] reader's own `config.invalid` for a broken file is not repeated."""
    _user_config(home, "[diagnostics\n")
    loaded = load(layout=Layout.default(project, home=home, project=project))
    doc = satchel("doctor", "--project", project, "--home", home, "--json").json()
    count = [d["code"] for d in doc["diagnostics"]].count("config.invalid")
    assert count == codes(loaded.diagnostics).count("config.invalid") > 0
