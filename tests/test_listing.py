"""Skill listing overrides (`satchel.index._listing`): read from config.toml and Claude Code's
settings, given to load(), and what a session does with each state."""

from __future__ import annotations

import pytest

import satchel
from satchel.core.errors import UnknownSkill
from tests.support import put, session, write_skill


@pytest.fixture
def three(layout, project):
    for name in ("deploy", "refund", "triage"):
        write_skill(project / ".satchel" / "skills", name, description=f"The {name} steps.")
    return layout


def test_config_toml_overrides_the_users_then_the_projects(three, project):
    put(three.config_home / "satchel" / "config.toml", '[index.overrides]\ndeploy = "off"\n')
    put(project / ".satchel" / "config.toml", '[index.overrides]\ndeploy = "name-only"\n')
    env = satchel.load(layout=three)
    assert dict(env.skill_overrides) == {"deploy": "name-only"}


def test_claude_code_settings_override_as_claude_code_reads_them(three, project, home):
    put(home / ".claude" / "settings.json", '{"skillOverrides": {"deploy": "off"}}')
    put(project / ".claude" / "settings.local.json", '{"skillOverrides": {"refund": "off"}}')
    env = satchel.load(layout=three, claude_settings_hooks=True)
    assert dict(env.skill_overrides) == {"deploy": "off", "refund": "off"}
    assert dict(satchel.load(layout=three).skill_overrides) == {}  # only with the opt-in


def test_load_overrides_win_over_the_files(three):
    put(three.config_home / "satchel" / "config.toml", '[index.overrides]\ndeploy = "off"\n')
    env = satchel.load(layout=three, skill_overrides={"deploy": "on"})
    assert dict(env.skill_overrides) == {"deploy": "on"}


def test_a_section_that_is_not_a_table_is_reported(three):
    path = put(three.config_home / "satchel" / "config.toml", '[index]\noverrides = "off"\n')
    env = satchel.load(layout=three)
    assert [(d.code, d.message) for d in env.diagnostics] == [
        ("config.invalid", "config.toml: [index.overrides] must be a table of skill names")
    ]
    assert env.diagnostics[0].path == path


def test_a_session_lists_hides_and_refuses_as_each_override_says(three):
    overrides = {"deploy": "name-only", "refund": "user-invocable-only", "triage": "off"}
    s = session(satchel.load(layout=three, skill_overrides=overrides))
    [index] = [seg.text for seg in s.context() if seg.id == "agent.skills"]
    assert index.splitlines()[2:] == ["- deploy"]
    assert s.diagnostics == ()
    with pytest.raises(UnknownSkill):
        s.activation.find("refund", for_model=True)  # hidden from the model
    assert s.activation.find("refund").name == "refund"  # the user may still run /refund
    with pytest.raises(UnknownSkill):
        s.activation.find("triage")  # off: not available at all


def test_a_session_reports_an_override_naming_no_skill(three):
    s = session(satchel.load(layout=three, skill_overrides={"nope": "off"}))
    s.context()
    assert [(d.code, d.message) for d in s.diagnostics] == [
        ("skill.index.override-unknown", "the override for skill 'nope' names no skill that loaded")
    ]
